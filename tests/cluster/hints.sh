#!/usr/bin/env bash
# Hints that suggest a command quote every word the user gave: real hints
# from real runs with hostile names (a pool, a conf and keyring path, a
# client name; Ceph takes shell metacharacters in all of them, while run
# and file system names follow rules that keep them out) are pasted into
# sh and bash. Each must parse, run nothing on the way (no PWNED file), and
# give the command exactly the words meant: a stand-in on PATH records its
# argv. The cleanup hints are then run for real and must clean up.
. "$(dirname "$0")/lib.sh"

command -v rbd >/dev/null || fail "no rbd command"
# $(...), `...`, ; & | < > quotes, globs, braces, ~ # ! \ and spaces; the
# commands would create $T/PWNED* if a shell ran them
evil() {
	printf '%s' "$1"'$(touch '"$T"'/PWNED1);`touch '"$T"'/PWNED2`;touch '"$T"'/PWNED3 '\''q'\'' "d" &|<>*?[a]{b,c}~#!\x'
}
# For paths the Ceph libraries open: they take ',' and ';' as separators of
# a list of files, so no such path works; && and {b..c} stand in.
evil_path() {
	printf '%s' "$1"'$(touch '"$T"'/PWNED1)&&`touch '"$T"'/PWNED2`&&touch '"$T"'/PWNED3 '\''q'\'' "d" &|<>*?[a]{b..c}~#!\x'
}
# For a client name: through a keyring file's [section], ; # [ ] and \ break
# the name (no such client can connect), so none reaches a hint.
evil_client() {
	printf '%s' "$1"'$(touch '"$T"'/PWNED1)&&`touch '"$T"'/PWNED2`&&touch '"$T"'/PWNED3 '\''q'\'' "d" &|<>*?{b,c}~!'
}
POOL_X=$(evil px)
POOL_R=$(evil pr)
POOL_M=$(evil pm) # never created: the "does not exist" hint
DIR="$T/conf dir $(evil_path d)"
CLIENT=$(evil_client cx)
mkdir -p "$DIR" "$T/stub" "$T/cwd"
touch "$T/cwd/a" "$T/cwd/b" # what a glob would expand to
cp "$CONF" "$DIR/ceph.conf"

cleanup_pools() {
	for p in "$POOL_X" "$POOL_R"; do
		ceph --conf "$CONF" osd pool rm "$p" "$p" --yes-i-really-really-mean-it >/dev/null 2>&1 || true
	done
	ceph --conf "$CONF" auth rm "client.$CLIENT" >/dev/null 2>&1 || true
}
trap 'cleanup_pools; at_exit' EXIT
cleanup_pools
ceph --conf "$CONF" osd pool create "$POOL_X" 8 >/dev/null 2>&1
ceph --conf "$CONF" osd pool create "$POOL_R" 8 >/dev/null 2>&1
ceph --conf "$CONF" osd pool application enable "$POOL_R" rbd >/dev/null 2>&1
ceph --conf "$CONF" auth get-or-create "client.$CLIENT" mon 'allow r' osd 'allow rwx' \
	>"$DIR/keyring"

# Stand-ins for the commands hints name: each writes its name and argv,
# NUL-separated, to $STUB_OUT.
for c in cephbench ceph rbd wipefs chmod; do
	printf '#!/bin/sh\nprintf "%%s\\0" "$(basename "$0")" "$@" >"$STUB_OUT"\n' >"$T/stub/$c"
	chmod +x "$T/stub/$c"
done

assert_no_pwned() {
	local f
	for f in "$T"/PWNED* "$T"/cwd/PWNED*; do
		[ ! -e "$f" ] || fail "$1: a pasted hint ran something: $f exists"
	done
}

# pasted WHAT CMD WORD...: CMD parses in sh and bash and, run by each,
# calls its command with exactly the WORDs, running nothing else.
pasted() {
	local what=$1 cmd=$2 sh
	shift 2
	for sh in sh bash; do
		"$sh" -n -c "$cmd" || fail "$what: $sh cannot parse the hint: $cmd"
		rm -f "$T/argv"
		(cd "$T/cwd" && PATH="$T/stub:$PATH" STUB_OUT="$T/argv" "$sh" -c "$cmd") ||
			fail "$what: $sh failed on the hint: $cmd"
		printf '%s\0' "$@" >"$T/want"
		cmp -s "$T/want" "$T/argv" ||
			fail "$what: $sh gave the command $(tr '\0' '|' <"$T/argv"), not $(tr '\0' '|' <"$T/want"): $cmd"
		assert_no_pwned "$what ($sh)"
	done
	echo "$what: the pasted hint gives back its $# words in sh and bash"
}

# hint FILE PREFIX SUFFIX: the command in FILE's line between PREFIX and
# SUFFIX (the last line that has PREFIX).
hint() {
	local line
	line=$(grep -F -- "$2" "$1" | tail -1) || fail "no hint '$2' in: $(cat "$1")"
	line=${line#*"$2"}
	printf '%s' "${line%"$3"}"
}

# 1. The issue's repro: --no-cleanup with a hostile pool, and the conf and
# keyring at a hostile path for a hostile client.
cb rados write 1 -p "$POOL_X" --conf "$DIR/ceph.conf" --client "$CLIENT" --keyring "$DIR/keyring" \
	--no-cleanup --run-name bench -b 4K -t 4
assert_rc 0 "rados write with --no-cleanup"
cmd=$(hint "$T/err" "remove it with: " "")
pasted "rados --no-cleanup" "$cmd" cephbench cleanup --pool "$POOL_X" --run-name bench \
	--conf "$DIR/ceph.conf" --client "$CLIENT" --keyring "$DIR/keyring"
n=$(rados --conf "$CONF" -p "$POOL_X" --namespace cephbench ls | wc -l)
[ "$n" -gt 0 ] || fail "--no-cleanup left nothing"
(cd "$T/cwd" && PATH="$(dirname "$CEPHBENCH"):$PATH" sh -c "$cmd") >"$T/out" 2>"$T/err2" ||
	fail "the pasted cleanup hint failed: $(cat "$T/err2")"
n=$(rados --conf "$CONF" -p "$POOL_X" --namespace cephbench ls | wc -l)
[ "$n" -eq 0 ] || fail "the pasted cleanup hint left $n objects"
assert_no_pwned "the real cleanup"
echo "rados --no-cleanup: the pasted hint, run for real, removed every object"

# 2. A pool that does not exist (the create hint), as the issue's second
# repro and with the whole hostile name.
for p in "x;touch $T/PWNED4" "$POOL_M"; do
	cb rados write 1 -p "$p" --conf "$CONF"
	assert_rc 3 "missing pool"
	pasted "missing pool" "$(hint "$T/err" "create it (" ") or name another pool")" \
		ceph osd pool create "$p"
done

# ... and 20 random pool names of shell metacharacters (the seed is printed,
# HINTS_SEED replays it): pool names take any of them
seed=${HINTS_SEED:-$RANDOM}
echo "random pool names: seed $seed"
RANDOM=$seed
chars=('$' '(' ')' ';' '&' '|' '<' '>' '`' "'" '"' '\' '*' '?' '[' ']' '{' '}' '~' '#' '!' ' '
	'$(' '$(touch '"$T"'/PWNED5)' '`touch '"$T"'/PWNED6`' ';touch '"$T"'/PWNED7' a Z 0 - . '=')
for ((k = 0; k < 20; k++)); do
	p=""
	for ((j = 0; j < 1 + RANDOM % 12; j++)); do
		p+=${chars[RANDOM % ${#chars[@]}]}
	done
	cb rados write 1 -p "$p" --conf "$CONF"
	assert_rc 3 "missing pool '$p' (seed $seed)"
	pasted "missing pool (random $k)" "$(hint "$T/err" "create it (" ") or name another pool")" \
		ceph osd pool create "$p" >/dev/null
done
echo "missing pool: 20 random names' hints give back their words in sh and bash"

# 3. RBD: a reused image (the kept hint), then the size-mismatch hint.
cb rbd -p "$POOL_R" --image-size 8M --io-total 64K --reuse --run-name hint --conf "$CONF"
assert_rc 0 "rbd --reuse"
pasted "rbd --reuse" "$(hint "$T/err" "remove it with: " "")" \
	cephbench cleanup --pool "$POOL_R" --run-name hint --conf "$CONF"
cb rbd -p "$POOL_R" --image-size 16M --io-total 64K --reuse --run-name hint --conf "$CONF"
assert_rc 2 "rbd image of another size"
cmd=$(hint "$T/err" "remove it with: " "")
pasted "rbd image_size mismatch" "$cmd" cephbench cleanup --pool "$POOL_R" --run-name hint
(cd "$T/cwd" && PATH="$(dirname "$CEPHBENCH"):$PATH" sh -c "$cmd --conf $CONF") >"$T/out" 2>"$T/err2" ||
	fail "the pasted rbd cleanup hint failed: $(cat "$T/err2")"
left=$(rbd --conf "$CONF" -p "$POOL_R" ls | wc -l)
[ "$left" -eq 0 ] || fail "the pasted rbd cleanup hint left $left images"
echo "rbd image_size mismatch: the pasted hint, run for real, removed the image"

# 4. krbd: a device path holding a file system (the wipefs hint); the file
# is left as it was.
dev="$T/$(evil_path dev).img"
mkdir -p "$(dirname "$dev")"
truncate -s 16M "$dev"
mkfs.ext4 -q -F "$dev" >/dev/null 2>&1 || fail "mkfs.ext4 failed"
sum=$(sha256sum <"$dev")
profile_k="$T/k.yaml"
printf 'name: k\nworkloads:\n  - { name: w, layer: krbd, op: randwrite, ops: 10 }\n' >"$profile_k"
cb run "$profile_k" -o "workloads.w.device=$dev" --conf "$CONF"
assert_rc 2 "krbd write to an ext4 file"
pasted "krbd ext4 device" "$(hint "$T/err" "wipe it first (" ")")" wipefs -a -- "$dev"
[ "$(sha256sum <"$dev")" = "$sum" ] || fail "the device file changed"

# 5. A run directory (CEPHBENCH_RUN_DIR) others may write to: the chmod
# hint, pasted for real, makes the next run take its lock there.
rundir="$T/$(evil_path run)"
mkdir -p "$rundir"
chmod 777 "$rundir"
CEPHBENCH_RUN_DIR=$rundir cb rados write 1 -p "$POOL" --conf "$CONF" --run-name hintlock
assert_rc 2 "a run directory writable by others"
cmd=$(hint "$T/err" "make it private (" ")")
pasted "open run directory" "$cmd" chmod 700 -- "$rundir"
(cd "$T/cwd" && sh -c "$cmd") || fail "the pasted chmod hint failed"
assert_no_pwned "the real chmod"
CEPHBENCH_RUN_DIR=$rundir cb rados write 1 -p "$POOL" --conf "$CONF" --run-name hintlock
assert_rc 0 "a run after the pasted chmod"
echo "open run directory: the pasted hint, run for real, made it private"
