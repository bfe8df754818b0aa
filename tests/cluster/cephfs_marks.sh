#!/usr/bin/env bash
# Only what carries a run's mark (user.cephbench.run_id, a run id) is ever
# removed under /cephbench: hand-made directories (with a file, with a
# tree), ones with a malformed mark, symlinks and files are refused by a run
# (exit 2, one line that suggests no removal) and left by cleanup, byte for
# byte, with a note. The reserved name a run makes its directory under
# goes only when empty or marked; what a user puts inside a marked run
# directory goes with it. (Issue 19, item 3 and the symlink of item 9.)
. "$(dirname "$0")/cephfs_lib.sh"

# Every user entry this test plants; removed on exit, even on failure.
planted=()
marks_exit() {
	local p
	for p in "${planted[@]}"; do
		ftree unlink "$p" >/dev/null 2>&1 || ftree rm "$p" >/dev/null 2>&1 || true
	done
	cephfs_at_exit
}
trap marks_exit EXIT

# A hand-made directory at PATH: a file, or with "tree" the seed's tree.
handmade() { # PATH [tree]
	planted+=("$1")
	if [ "${2:-}" = tree ]; then
		ftree seed "$1" || fail "cannot seed $1"
	else
		ftree mkdir "$1" && ftree file "$1/notes.txt" || fail "cannot make $1"
	fi
}

# The sums of every planted entry, to compare before and after (one mount
# for all: one a path made this test last minutes).
sums() {
	ftree sums "${planted[@]}" 2>&1 || echo "cannot sum"
}

# Every planted entry as it was in $before, else fail WHAT with the change.
unchanged() { # WHAT
	local now
	now=$(sums)
	[ "$now" = "$before" ] || fail "$1: $(diff <(echo "$before") <(echo "$now"))"
}

p=$(cfs_profile small "op: tree, depth: 1, branch: 2, items: 4")

# A run named NAME is refused: exit CODE, one line with the strings, and no
# suggestion to remove anything (the entry is not cephbench's).
refused() { # NAME CODE STRINGS...
	local name=$1 code=$2
	shift 2
	cb run "$p" --conf "$CONF" --run-name "$name" --quiet
	assert_rc "$code" "a run named $name"
	one_line "a run named $name" "/cephbench/$name" "$@"
	! grep -qiE "cleanup|remove" "$T/err" || fail "a run named $name suggests a removal: $(cat "$T/err")"
}

# cleanup --run-name NAME: exit 0, COUNT removed, and one line on stderr
# holding the strings (the note).
cleaned() { # NAME COUNT STRINGS...
	local name=$1 count=$2
	shift 2
	cb cleanup --fs "$FS" --run-name "$name" --conf "$CONF"
	assert_rc 0 "cleanup --run-name $name"
	[ ! -s "$T/err" ] || fail "cleanup --run-name $name: stderr: $(cat "$T/err")"
	for s in "$@"; do
		grep -qF -- "$s" "$T/out" || fail "cleanup --run-name $name: no note '$s': $(cat "$T/out")"
	done
	grep -qF "removed $count files and directories of run '$name'" "$T/out" ||
		fail "cleanup --run-name $name: expected $count removed: $(cat "$T/out")"
}

# ---- the repros: hand-made directories, by --run-name and --all, and a run
mkdir_root() { ftree mkdir /cephbench >/dev/null 2>&1 || true; }
mkdir_root
handmade /cephbench/handmade
handmade /cephbench/bench tree
handmade /cephbench/quick tree
before=$(sums)

cleaned handmade 0 "left 1 entry of /cephbench" "handmade (no mark)"
unchanged "cleanup --run-name handmade changed"

cb cleanup --fs "$FS" --all --conf "$CONF"
assert_rc 0 "cleanup --all beside hand-made directories"
# (the count and the names shown depend on what else the sandbox holds)
[ ! -s "$T/err" ] || fail "cleanup --all: stderr: $(cat "$T/err")"
grep -qF "entries of /cephbench in file system $FS alone, not made by cephbench" "$T/out" ||
	fail "cleanup --all: no note: $(cat "$T/out")"
unchanged "cleanup --all changed"

# a run whose name is a hand-made directory's: refused, not touched
refused bench 2 "was not made by cephbench (no user.cephbench.run_id mark)" "--run-name"
refused handmade 2 "was not made by cephbench"
unchanged "refused runs changed"

# ---- malformed marks: not a run id, so not a mark
for v in notarunid 0123456789ABCDEF 0123456789abcde 0123456789abcdef0 "" "$(printf 'a%.0s' {1..100})"; do
	d=/cephbench/badmark${#planted[@]}
	handmade "$d"
	ftree xattr "$d" user.cephbench.run_id "$v" || fail "cannot mark $d with '$v'"
	ftree xattr "$d" user.cephbench.owner "x/y/z 1 1" || fail "cannot set $d's owner"
	before=$(sums)
	refused "${d#/cephbench/}" 2 "was not made by cephbench"
	cleaned "${d#/cephbench/}" 0 "${d#/cephbench/} (no mark)"
	unchanged "mark '$v': $d changed"
done

# ---- a symlink and a regular file: "not a directory, not touched"
ftree symlink /cephbench/slink /cephbench/bench || fail "cannot plant /cephbench/slink"
planted+=(/cephbench/slink)
ftree file /cephbench/afile || fail "cannot plant /cephbench/afile"
planted+=(/cephbench/afile)
before=$(sums)
refused slink 2 "is not a directory, not touched"
refused afile 2 "is not a directory, not touched"
for n in slink afile; do
	cleaned "$n" 0 "left 1 entry" "$n (not a directory)"
done
cb cleanup --fs "$FS" --all --conf "$CONF"
assert_rc 0 "cleanup --all beside a symlink and a file"
grep -qF "slink (not a directory)" "$T/out" || grep -qF ", ..." "$T/out" ||
	fail "cleanup --all: no note of the symlink: $(cat "$T/out")"
ftree exists /cephbench/slink && ftree exists /cephbench/afile || fail "cleanup --all removed them"
unchanged "symlink, file: changed"

# ---- a run's mark of another value: another run's directory, removable
d=/cephbench/otherrun
ftree mkdir "$d" && ftree file "$d/data" || fail "cannot make $d"
ftree xattr "$d" user.cephbench.run_id 00000000deadbeef || fail "cannot mark $d"
# no owner mark: whose it is cannot be told here, so a run refuses it (and
# may suggest the cleanup, which it is for), and cleanup removes it
cb run "$p" --conf "$CONF" --run-name otherrun --quiet
assert_rc 3 "a run over another host's run directory"
one_line "a run over another host's" "was left by a run on another host or boot" \
	"cephbench cleanup --fs" "otherrun"
cb cleanup --fs "$FS" --run-name otherrun --conf "$CONF"
assert_rc 0 "cleanup of a marked run directory"
assert_gone "$d" "cleanup of a marked run directory"

# ---- the reserved name: empty unmarked (a run killed between mkdir and
# marks) goes; with a user's file in it, or not of the form, it stays;
# marked, it goes with what is in it
ftree mkdir /cephbench/.new.r1.0123456789abcdef || fail "cannot make an empty reserved name"
handmade /cephbench/.new.r1.00000000000000aa
handmade /cephbench/.new.r1.notahexid
handmade /cephbench/.new.r2.00000000000000bb
ftree mkdir /cephbench/.new.r1.00000000000000cc &&
	ftree file /cephbench/.new.r1.00000000000000cc/f || fail "cannot make a reserved name"
ftree xattr /cephbench/.new.r1.00000000000000cc user.cephbench.run_id 00000000000000cc ||
	fail "cannot mark a reserved name"
before=$(sums)
# removed: the empty one, and the marked one with its file
cleaned r1 3 "left 1 entry" ".new.r1.00000000000000aa (no mark, not empty)"
assert_gone /cephbench/.new.r1.0123456789abcdef "an empty reserved name"
assert_gone /cephbench/.new.r1.00000000000000cc "a marked reserved name"
unchanged "reserved names: changed"

# ---- inside a marked run directory, everything is the run's
cb run "$p" --conf "$CONF" --run-name inside --no-cleanup --quiet
assert_rc 0 "a run kept for the inside case"
[ -z "$(ftree runs /cephbench | grep -vx inside)" ] || fail "runs left: $(ftree runs /cephbench)"
ftree runs /cephbench | grep -qx inside || fail "the kept run directory carries no mark"
ftree file /cephbench/inside/userfile || fail "cannot put a file in the run directory"
ftree seed /cephbench/inside/usertree || fail "cannot put a tree in the run directory"
cb cleanup --fs "$FS" --run-name inside --conf "$CONF"
assert_rc 0 "cleanup of a run directory holding a user's file"
assert_gone /cephbench/inside "a run directory holding a user's file"

# ---- and a run still works beside all of it, leaving nothing of its own
cb run "$p" --conf "$CONF" --run-name beside --quiet
assert_rc 0 "a run beside the hand-made entries"
[ -z "$(ftree runs /cephbench)" ] || fail "a run left: $(ftree runs /cephbench)"
unchanged "a run beside them changed"
echo "cephfs_marks: ok"
