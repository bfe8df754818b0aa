#!/usr/bin/env bash
# The files a real run writes (--json, --prom, --history) when the path is a
# device node, a FIFO, a symlink, /dev/stdout, in a directory others may
# write to, or on a full file system: written through, renamed in, or
# refused with one line before the run connects (issue 19, items 2, 5, 9,
# 10, 12). Device nodes are mknod copies in the test's directory: the
# host's /dev/null is never given to cephbench, and is checked at the end.
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
W=(rados write -p "$POOL" --conf "$CONF" -b 4K -t 4 --ops 100 --run-name outf --quiet)
sed -E 's/^([[:space:]]*mon[ _]host[[:space:]]*=).*/\1 127.0.0.1:1/' "$CONF" >"$T/dead.conf"
grep -q "127.0.0.1:1" "$T/dead.conf" || fail "could not rewrite mon host in $CONF"
# a refusal before connecting: with no monitor to reach it is still exit 2
# (not 3), and with the real cluster nothing ran
DEAD=(rados write -p "$POOL" --conf "$T/dead.conf" --timeout 3 -b 4K -t 4 --ops 100)

# refused PATH-ARGS... -- STRINGS...: exit 2 and one line holding STRINGS, with
# no monitor and with the cluster, where --no-cleanup would have kept what
# a run wrote: none ran
refused() {
	args_until_dashes "$@"
	shift $((${#ARGS[@]} + 1))
	cb "${DEAD[@]}" "${ARGS[@]}"
	assert_rc 2 "${ARGS[*]} (no monitor)"
	one_line "${ARGS[*]} (no monitor)" "$@"
	cb "${W[@]}" --no-cleanup "${ARGS[@]}"
	assert_rc 2 "${ARGS[*]}"
	one_line "${ARGS[*]}" "$@"
	[ ! -s "$T/out" ] || fail "${ARGS[*]}: a report was printed: $(cat "$T/out")"
	assert_ns_empty "${ARGS[*]}"
}

# is_node PATH TYPE MAJOR MINOR: still that device node
is_node() {
	local st
	st=$(stat -c '%F %t:%T' "$1")
	[ "$st" = "$2 $3:$4" ] || fail "$1 is now '$st', not '$2 $3:$4'"
}

# json_ok FILE: a cephbench record of this run's 100 ops
json_ok() {
	"$PY" -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["phases"][0]["ops"]==100, r' "$1" ||
		fail "$1 does not hold the run's record: $(head -c 300 "$1")"
}

mkdir "$T/dev"
mknod "$T/dev/null" c 1 3
mknod "$T/dev/zero" c 1 5
mknod "$T/dev/full" c 1 7
mknod "$T/dev/random" c 1 8
chmod 666 "$T"/dev/*

# --- item 2: device nodes are written through (null-like) or refused, never
# replaced
for d in null zero; do
	cb "${W[@]}" --json "$T/dev/$d" --prom "$T/dev/$d"
	assert_rc 0 "--json $d"
done
is_node "$T/dev/null" "character special file" 1 3
is_node "$T/dev/zero" "character special file" 1 5
cb "${W[@]}" --json "$T/dev/full"
assert_rc 2 "--json full"
one_line "--json full" "--json $T/dev/full: cannot write: No space left on device"
is_node "$T/dev/full" "character special file" 1 7
assert_ns_empty "after --json full" # the run cleaned up all the same
refused --json "$T/dev/random" -- "a character device other than /dev/null"
is_node "$T/dev/random" "character special file" 1 8
refused --prom "$T/dev/random" -- "--prom $T/dev/random: a character device"
[ "$(ls "$T/dev" | wc -l)" -eq 4 ] || fail "files left beside the devices: $(ls "$T/dev")"

# /dev/stdout: written to the run's own stdout, a pipe or a file; the
# symlink stays
"$CEPHBENCH" "${W[@]}" --json /dev/stdout | cat >"$T/piped"
json_ok "$T/piped"
cb "${W[@]}" --json /dev/stdout
assert_rc 0 "--json /dev/stdout into a file"
json_ok "$T/out"
"$CEPHBENCH" "${W[@]}" --prom /dev/stdout | cat >"$T/piped.prom"
promtool check metrics <"$T/piped.prom" >"$T/promtool" 2>&1 || fail "promtool: $(cat "$T/promtool")"
[ -L /dev/stdout ] || fail "/dev/stdout is no longer a symlink"

# FIFOs: none without a reader (never waited for: timeout's hang guard would
# make it 124), whole with one
mkfifo "$T/fifo"
refused --json "$T/fifo" -- "--json $T/fifo: a FIFO with no reader"
refused --prom "$T/fifo" -- "--prom $T/fifo: a FIFO with no reader"
cat "$T/fifo" >"$T/fifo.out" &
reader=$!
cb "${W[@]}" --json "$T/fifo"
assert_rc 0 "--json FIFO with a reader"
wait_bg "$reader"
json_ok "$T/fifo.out"
[ -p "$T/fifo" ] || fail "the FIFO was replaced"
# reading a history from a FIFO: refused, not waited on
cb history "$T/fifo"
assert_rc 2 "history FIFO"
one_line "history FIFO" "$T/fifo" "FIFO"

# symlinks: never replaced, never followed to a file (the issue's
# ln -s /root/x.db /tmp/h.db, inside the test directory), followed to a sink
mkdir "$T/victim"
echo keep >"$T/victim/file"
ln -s "$T/victim/file" "$T/to-file"
ln -s "$T/victim/x.db" "$T/dangling"
ln -s "$T/dev/null" "$T/to-null"
refused --json "$T/to-file" -- "--json $T/to-file: a symlink to a regular file: never replaced"
refused --prom "$T/to-file" -- "a symlink to a regular file"
refused --json "$T/dangling" -- "--json $T/dangling: a symlink to nothing"
refused --history "$T/to-file" -- "--history $T/to-file: a symlink, not a regular file"
refused --history "$T/dangling" -- "--history $T/dangling: a symlink, not a regular file"
[ "$(cat "$T/victim/file")" = keep ] || fail "a symlink's target changed"
[ "$(ls "$T/victim")" = file ] || fail "made through a symlink: $(ls "$T/victim")"
cb "${W[@]}" --json "$T/to-null"
assert_rc 0 "--json symlink to a null device"
[ -L "$T/to-null" ] || fail "the symlink to null was replaced"
is_node "$T/dev/null" "character special file" 1 3

# --- item 5: a directory others may write to
mkdir -m 775 "$T/group" "$T/upg"
chgrp 65534 "$T/group" # a group of others' (root's own is private: $T/upg)
mkdir -m 1777 "$T/sticky"
refused --json "$T/group/r.json" -- "its directory $T/group may be written by others (mode 0775)"
refused --history "$T/group/h.db" -- "its directory $T/group may be written by others"
refused --history "$T/sticky/h.db" -- "who could plant the journal"
cb "${W[@]}" --json "$T/upg/r.json" --history "$T/upg/h.db"
assert_rc 0 "a directory of the owner's private group"
json_ok "$T/upg/r.json"
cb "${W[@]}" --json "$T/sticky/r.json"
assert_rc 0 "--json in a sticky directory"
json_ok "$T/sticky/r.json"
# another user's symlink on the way, in a directory others may write to
ln -s "$T/victim" "$T/sticky/planted"
chown -h 65534:65534 "$T/sticky/planted"
refused --history "$T/sticky/planted/h.db" -- "goes through symlink 'planted' of uid 65534"
refused --json "$T/sticky/planted/r.json" -- "goes through symlink 'planted' of uid 65534"
[ "$(ls "$T/victim")" = file ] || fail "made through a planted symlink: $(ls "$T/victim")"
[ -z "$(ls -A "$T/group")" ] || fail "left in the group's directory: $(ls -A "$T/group")"
[ "$(ls -A "$T/sticky" | tr '\n' ' ')" = "planted r.json " ] ||
	fail "left in the sticky directory: $(ls -A "$T/sticky")"

# --- item 10: every history check before connecting: a device, a history
# whose phases table was replaced, or that has a trigger; no journal left
refused --history "$T/dev/null" -- "--history $T/dev/null: a character device, not a regular file"
is_node "$T/dev/null" "character special file" 1 3
cb "${W[@]}" --history "$T/h.db"
assert_rc 0 "a first history"
"$PY" - "$T" <<'PYEOF'
import shutil, sqlite3, sys
t = sys.argv[1]
for name, sql in (("swapped", "DROP TABLE phases; CREATE TABLE phases (x)"),
                  ("view", "DROP TABLE phases; CREATE VIEW phases AS SELECT 1 AS x"),
                  ("trigger", "CREATE TRIGGER t AFTER INSERT ON runs BEGIN SELECT RAISE(ABORT, 'no'); END")):
    shutil.copy(f"{t}/h.db", f"{t}/{name}.db")
    c = sqlite3.connect(f"{t}/{name}.db")
    c.executescript(sql)
    c.commit()
    c.close()
PYEOF
for h in swapped view trigger; do
	sum=$(md5sum <"$T/$h.db")
	refused --history "$T/$h.db" -- "--history $T/$h.db: not a history this cephbench can use"
	[ "$(md5sum <"$T/$h.db")" = "$sum" ] || fail "$h.db changed"
done
ln -s "$T/victim/j" "$T/h.db-journal"
refused --history "$T/h.db" -- "its journal $T/h.db-journal is a symlink"
rm "$T/h.db-journal"
ls "$T" | grep -e '-journal$' && fail "a journal was left: $(ls -l "$T")"

# --- item 12: the umask, for all three
(
	umask 077
	"$CEPHBENCH" "${W[@]}" --json "$T/u.json" --prom "$T/u.prom" --history "$T/u.db"
) || fail "the run under umask 077"
for f in u.json u.prom u.db; do
	[ "$(stat -c %a "$T/$f")" = 600 ] || fail "$f under umask 077: mode $(stat -c %a "$T/$f")"
done
(
	umask 022
	"$CEPHBENCH" "${W[@]}" --json "$T/u.json" --prom "$T/u.prom"
) || fail "the run under umask 022"
for f in u.json u.prom; do
	[ "$(stat -c %a "$T/$f")" = 644 ] || fail "$f under umask 022: mode $(stat -c %a "$T/$f")"
done

# --- items 9 and 12: a full file system: the write's own reason; a new
# history removed, an existing one as it was, nothing else left
if mkdir "$T/small" && mount -t tmpfs -o size=160k,mode=0755 tmpfs "$T/small" 2>"$T/mount"; then
	trap 'umount "$T/small" 2>/dev/null || true; at_exit' EXIT
	cb "${W[@]}" --history "$T/small/h.db"
	assert_rc 0 "a history on the small file system"
	sum=$(md5sum <"$T/small/h.db")
	head -c 1M /dev/zero >"$T/small/fill" 2>/dev/null || true
	cb "${W[@]}" --json "$T/small/r.json"
	assert_rc 2 "--json on a full file system"
	one_line "--json on a full file system" "--json $T/small/r.json: cannot write: No space left on device"
	cb "${W[@]}" --history "$T/small/h.db"
	assert_rc 2 "an existing history on a full file system"
	[ "$(md5sum <"$T/small/h.db")" = "$sum" ] || fail "the existing history changed"
	cb "${W[@]}" --history "$T/small/new.db"
	assert_rc 2 "a new history on a full file system"
	grep -q "^cephbench rados: --history $T/small/new.db: cannot write" "$T/err" || fail "new history: $(cat "$T/err")"
	[ "$(ls "$T/small" | tr '\n' ' ')" = "fill h.db " ] || fail "left on the full file system: $(ls -la "$T/small")"
	assert_ns_empty "after the full file system"
	umount "$T/small"
else
	echo "outfiles: cannot mount a tmpfs ($(cat "$T/mount")); the full file system is not tested" >&2
fi

is_node /dev/null "character special file" 1 3
assert_ns_empty "at the end"
echo "outfiles: ok"
