# Shared by the cluster tests: the sandbox conf, the binary, and helpers to
# look at the cluster with the ceph tools themselves (never with cephbench).
set -euo pipefail

: "${CEPHBENCH:?CEPHBENCH must name the cephbench binary}"
# CB_SANDBOX=fault: a cluster test that runs on the fault sandbox (3 OSDs,
# size-2 pools) to even out the two sandboxes' queues in CI; it needs
# nothing the main sandbox alone has (tests/cluster/CMakeLists.txt). Where
# there is no fault sandbox (the compatibility suite's one), the main one.
if [ "${CB_SANDBOX:-main}" = fault ] && [ -n "${CEPHBENCH_FAULT_CONF:-}" ]; then
	CEPHBENCH_TEST_CONF=$CEPHBENCH_FAULT_CONF
fi
if [ -z "${CEPHBENCH_TEST_CONF:-}" ]; then
	# 77: CTest's SKIP_RETURN_CODE; scripts/run-tests always sets the conf
	echo "CEPHBENCH_TEST_CONF is not set: start tests/sandbox and export its conf" >&2
	exit 77
fi
CONF=$CEPHBENCH_TEST_CONF
# the tests' own directory: their Python helpers (krbd_pattern.py) are here
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
POOL=${CEPHBENCH_TEST_POOL:-bench}
T=$(mktemp -d /tmp/cephbench-test.XXXXXX)
# A failed test must not leave objects that make the next test fail too.
at_exit() {
	"$CEPHBENCH" cleanup --conf "$CONF" --pool "$POOL" --all --quiet >/dev/null 2>&1 || true
	rm -rf "$T"
}
trap at_exit EXIT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# The user objects tests/seed.sh plants in cephbench's namespace NS (of
# pools bench and rbd): no run makes them, every run leaves them.
SEED_NAMES=$(dirname "${BASH_SOURCE[0]}")/../data/seed-names
seed_names() {
	awk -v ns="$1" '!/^#/ && $1 == ns { print $2 }' "$SEED_NAMES"
}

# Objects of namespace NS (default cephbench) of pool P (default $POOL), one
# per line, but the seed's.
ns_objects_of() {
	rados --conf "$CONF" -p "${1:-$POOL}" --namespace "${2:-cephbench}" ls >"$T/ns.all"
	seed_names "${2:-cephbench}" >"$T/ns.seed"
	awk 'NR == FNR { seed[$0]; next } !($0 in seed)' "$T/ns.seed" "$T/ns.all"
}

# Objects of cephbench's namespace in the pool, one per line.
ns_objects() {
	ns_objects_of "$POOL"
}

# True when an object of the namespace matches the grep pattern. Lists to a
# file first: under pipefail, grep -q closing the pipe early could fail ls.
ns_has() {
	ns_objects >"$T/ls"
	grep -q "$1" "$T/ls"
}

assert_ns_empty() {
	local left
	left=$(ns_objects | wc -l)
	[ "$left" -eq 0 ] || fail "$1: $left objects left in namespace cephbench: $(ns_objects | head -5 | tr '\n' ' ')"
}

# The OSDs' own op counters (client ops only: replication is counted apart
# as sub-ops), summed over every OSD. Pool statistics would be the natural
# source, but PGs publish read counts only with their next write, so they
# lag by minutes; the counters are immediate. Background traffic (the MDS
# journal) is a few ops against the thousands measured here.
osd_counters() {
	local ids
	ids=$(ceph --conf "$CONF" osd ls)
	for id in $ids; do
		ceph --conf "$CONF" tell "osd.$id" perf dump
	done | /usr/bin/python3 -c '
import json, sys
dec, text, pos, tot = json.JSONDecoder(), sys.stdin.read(), 0, [0, 0, 0, 0]
while pos < len(text.rstrip()):
    d, end = dec.raw_decode(text, pos)
    pos = end
    while pos < len(text) and text[pos].isspace():
        pos += 1
    o = d["osd"]
    for i, k in enumerate(("op_w", "op_w_in_bytes", "op_r", "op_r_out_bytes")):
        tot[i] += o[k]
print(*tot)'
}

# Run cephbench; exit code in $rc, stdout in $T/out, stderr in $T/err.
cb() {
	set +e
	timeout 300 "$CEPHBENCH" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	set -e
}

assert_rc() {
	[ "$rc" -eq "$1" ] || fail "$2: exit $rc, expected $1; stderr: $(cat "$T/err")"
}

# Wait until a process has started writing: the namespace holds objects.
wait_for_objects() {
	for _ in $(seq 1 100); do
		[ "$(ns_objects | wc -l)" -gt 0 ] && return 0
		sleep 0.2
	done
	fail "no objects appeared in namespace cephbench"
}

# Send a signal to a running cephbench once it writes; wait; exit code in $rc.
signal_and_wait() {
	local sig=$1 pid=$2
	wait_for_objects
	sleep 1
	kill "-$sig" "$pid"
	set +e
	wait "$pid"
	rc=$?
	set -e
}

profile() {
	cat >"$T/$1.yaml"
	echo "$T/$1.yaml"
}

# traced RUN PROFILE [FLAGS]: run as RUN, quiet, with the op trace
# (src/op_trace.h) into $T/RUN.trace and the JSON result into $T/RUN.json;
# exit code in $rc, stdout in $T/out, stderr in $T/err.
traced() {
	local run=$1 p=$2
	shift 2
	rm -f "$T/$run.trace"
	set +e
	CEPHBENCH_OP_TRACE="$T/$run.trace" timeout 300 "$CEPHBENCH" run "$p" --conf "$CONF" \
		--run-name "$run" --quiet --json "$T/$run.json" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	set -e
}

# One line on stderr, holding every given fixed string.
one_line() {
	local what=$1
	shift
	[ "$(wc -l <"$T/err")" -eq 1 ] || fail "$what: expected one line on stderr, got: $(cat "$T/err")"
	for s in "$@"; do
		grep -qF -- "$s" "$T/err" || fail "$what: stderr lacks '$s': $(cat "$T/err")"
	done
}

# Wait for a background run; its exit code in $rc.
wait_bg() {
	set +e
	wait "$1"
	rc=$?
	set -e
}

# The arguments before "--" into the array ARGS; the caller drops them and
# the "--" with: shift $((${#ARGS[@]} + 1))
args_until_dashes() {
	ARGS=()
	while [ "$1" != -- ]; do
		ARGS+=("$1")
		shift
	done
}

# bluestore_sandbox OFFSET: a sandbox of the test's own, one BlueStore OSD
# on a sparse file (the main sandbox's memstore compresses nothing and
# caches nothing), its monitor OFFSET above the main sandbox's port (the
# fault sandbox's is 100 above); its conf in BCONF, bceph its ceph, stopped
# when the test exits.
bluestore_sandbox() {
	local sandbox port
	sandbox=$(cd "$HERE/../.." && pwd)/tests/sandbox
	BDIR="$T/bluestore"
	port=$(($(sed -n 's/^mon host = v1:127.0.0.1:\([0-9]*\)$/\1/p' "$CONF") + $1))
	# shellcheck disable=SC2064 # the path now, the trap's at exit
	trap "\"$sandbox\" stop \"$BDIR\" >/dev/null 2>&1 || true; at_exit" EXIT
	set +e
	BCONF=$(SANDBOX_OBJECTSTORE=bluestore SANDBOX_BLUESTORE_BYTES=4294967296 \
		SANDBOX_MON_PORT=$port "$sandbox" start "$BDIR" 2>"$T/sandbox.err")
	rc=$?
	set -e
	[ "$rc" -eq 0 ] || fail "the BlueStore sandbox did not start: $(tail -5 "$T/sandbox.err")"
}
bceph() { timeout 60 ceph --conf "$BCONF" "$@"; }
