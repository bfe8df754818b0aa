# shellcheck shell=bash
# Shared by the krbd cluster tests (krbd*.sh), on top of lib.sh: loop
# devices over files in $T (detached on exit: only the ones this test
# attached, found by their backing files), the prefill pattern recomputed
# by krbd_pattern.py (never by cephbench), and a profile runner. Sourced,
# not run.
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] || {
	echo "krbd tests need root (loop devices, rbd-fuse)" >&2
	exit 77
}

RBD_POOL=${CEPHBENCH_TEST_RBD_POOL:-rbd}
PATTERN=$(cd "$(dirname "$0")" && pwd)/krbd_pattern.py
LOOP_FILES=()
# Scripts that hold more (a mount, an image, a process) put their undoing in
# krbd_more_exit; it runs first.
krbd_more_exit() { :; }

krbd_at_exit() {
	set +e
	krbd_more_exit
	local f l
	for f in "${LOOP_FILES[@]}"; do
		for l in $(losetup -j "$f" | cut -d: -f1); do
			losetup -d "$l"
		done
	done
	"$CEPHBENCH" cleanup --conf "$CONF" --pool "$RBD_POOL" --all --quiet >/dev/null 2>&1
	at_exit
}
trap krbd_at_exit EXIT

# new_loop VAR FILE [SIZE]: attach FILE (first made SIZE bytes of zeros when
# SIZE is given) to a free loop device; its path into VAR.
new_loop() {
	local var=$1 file=$2 dev
	[ $# -lt 3 ] || truncate -s "$3" "$file"
	LOOP_FILES+=("$file") # before the attach: the trap finds it either way
	dev=$(losetup -f --show "$file") || fail "losetup -f --show $file failed"
	printf -v "$var" %s "$dev"
}

# The pattern of device $2 on all of $1 (exit 1 and the first mismatch if not).
pattern_check() {
	/usr/bin/python3 "$PATTERN" check "$1" "$2"
}

# True when bytes [$3, $3 + $4) of $1 hold the pattern of device $2.
pattern_has() {
	/usr/bin/python3 "$PATTERN" has "$@"
}

# The JSON result $1 matches docs/result.schema.json ($2 names the check).
assert_valid_json() {
	"$(dirname "$0")/../validate-json" "$(dirname "$0")/../../docs/result.schema.json" "$1" >"$T/validate" ||
		fail "$2: the JSON result does not match docs/result.schema.json: $(cat "$T/validate")"
}

sum() {
	sha256sum "$1" | cut -d' ' -f1
}

# run_profile NAME [FLAGS]: run $T/NAME.yaml (written with `profile NAME`)
# against the sandbox, the JSON result into $T/NAME.json.
run_profile() {
	local name=$1
	shift
	cb run "$T/$name.yaml" --conf "$CONF" --quiet --json "$T/$name.json" "$@"
}
