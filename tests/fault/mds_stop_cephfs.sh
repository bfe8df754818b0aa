#!/usr/bin/env bash
# An MDS frozen (SIGSTOP) under a CephFS run, then SIGTERM (issue 41): the
# clients wait inside libcephfs, which has no timeout of its own. The run
# must still end: --timeout (5 s) after the signal the runner aborts the
# stuck mounts (ceph_abort_conn) and abandons their clients, then reports
# what it measured as interrupted, cleans up and exits 130. The MDS is
# resumed as soon as the run says it abandoned them (and always, on exit),
# so the cleanup's fresh mount finds it: nothing of the run is left.
: "${CEPHBENCH_FAULT_CONF:?CEPHBENCH_FAULT_CONF must name the fault sandbox conf}"
: "${CEPHBENCH_FAULT_SANDBOX:?CEPHBENCH_FAULT_SANDBOX must name the fault sandbox directory}"
CEPHBENCH_TEST_CONF=$CEPHBENCH_FAULT_CONF
. "$(dirname "$0")/../cluster/cephfs_lib.sh"

MDS=$(cat "$CEPHBENCH_FAULT_SANDBOX/run/mds.a.pid" 2>/dev/null) || true
[ -n "$MDS" ] && [ -d "/proc/$MDS" ] || fail "no running mds.a in $CEPHBENCH_FAULT_SANDBOX/run"
trap 'kill -CONT "$MDS" 2>/dev/null || true; cephfs_at_exit' EXIT

p=$(profile mdsstop <<YAML
name: mdsstop
workloads:
  - { name: m, layer: cephfs, fs: $FS, op: mix, depth: 1, branch: 2, files: 10,
      file_size: 16K, block_size: 4K, duration: 120s, ramp: 0s, clients: 3,
      mix: { open: 30, delete: 30, create: 20, rename: 20 } }
YAML
)
# Once the run says it abandoned its stuck clients (or has ended), resume
# the MDS and wait for the run; its exit code in $rc.
thaw_when_abandoned() {
	for _ in $(seq 1 300); do
		grep -qF "aborted and abandoned" "$T/err" && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.2
	done
	kill -CONT "$MDS"
	wait_bg "$pid"
}

# Wait until the progress stream (--progress jsonl) shows the mix's ops
# going, at least SECS before its planned end: a freeze timed by sleeps
# after the tree appeared once landed after the end on CI's loaded host.
wait_for_mix() { # SECS
	for _ in $(seq 1 300); do
		/usr/bin/python3 - "$T/err" "$1" <<'PY' && return 0
import json, sys
for line in open(sys.argv[1]):
    if line.startswith('{"event":"tick"'):
        t = json.loads(line)
        if t["phase"] == "m" and t["ops"] > 0 and t["remaining_s"] >= float(sys.argv[2]):
            sys.exit(0)
sys.exit(1)
PY
		kill -0 "$pid" 2>/dev/null || fail "the run ended before its mix was seen: $(cat "$T/err")"
		sleep 0.2
	done
	fail "no tick of the mix with ${1} s left: $(cat "$T/err")"
}

set +e
timeout -s KILL 200 "$CEPHBENCH" run "$p" --conf "$CONF" --timeout 5s --json "$T/m.json" \
	--progress jsonl >"$T/out" 2>"$T/err" &
pid=$!
set -e
wait_for_mix 60
kill -STOP "$MDS"
sleep 2 # the clients are now inside libcephfs
kill -TERM "$pid"
# the stop, --timeout 5 s, then at most 6 s of abort and release (src/phase.c)
# before the run says so; the guard is generous, the bound is the spec's
thaw_when_abandoned
assert_rc 130 "SIGTERM while the MDS is frozen"
grep -qF "after the stop signal: aborted and abandoned" "$T/err" ||
	fail "the run does not say it abandoned the stuck clients: $(cat "$T/err")"
/usr/bin/python3 - "$T/m.json" <<'PY' || fail "the result: see above"
import json, sys
r = json.load(open(sys.argv[1]))
print("interrupted:", r.get("interrupted"), [p["name"] for p in r["phases"]])
sys.exit(0 if r.get("interrupted") else 1)
PY
assert_gone /cephbench/mdsstop "the run's own cleanup after the abandon"

# No signal: the MDS frozen until past the planned end (duration 12 s). The
# deadline is the runner's: --timeout after the planned end the clients
# are aborted, then abandoned; exit 3 and the deadline's line. The MDS is
# still frozen when the run cleans up (the test thaws it on that line, the
# run's last), so the cleanup's mount times out too: its line names the
# cleanup to run, which (the MDS back) evicts the abandoned sessions whose
# caps would stall the walk, and removes the tree.
p=$(profile mdsdead <<YAML
name: mdsdead
workloads:
  - { name: m, layer: cephfs, fs: $FS, op: mix, depth: 1, branch: 2, files: 10,
      file_size: 16K, block_size: 4K, duration: 12s, ramp: 0s, clients: 3,
      mix: { open: 30, delete: 30, create: 20, rename: 20 } }
YAML
)
set +e
timeout -s KILL 200 "$CEPHBENCH" run "$p" --conf "$CONF" --timeout 5s --progress jsonl \
	>"$T/out" 2>"$T/err" &
pid=$!
set -e
wait_for_mix 6
kill -STOP "$MDS"
thaw_when_abandoned
assert_rc 3 "the MDS frozen past the planned end"
grep -qE "^cephbench run: workload 'm': [123] of 3 clients still inside a cluster call 5 s \(--timeout\) after the planned end: aborted and abandoned" "$T/err" ||
	fail "the deadline's line: $(cat "$T/err")"
[ "$(grep -c "aborted and abandoned" "$T/err")" = 1 ] || fail "the deadline said more than once: $(cat "$T/err")"
if grep -q "^cephbench: cleanup failed too: " "$T/err"; then
	grep -qF "cephbench cleanup --fs $FS --run-name mdsdead" "$T/err" ||
		fail "the cleanup's line names no cleanup to run: $(cat "$T/err")"
	cb cleanup --fs "$FS" --run-name mdsdead --conf "$CONF"
	assert_rc 0 "the cleanup it named, the MDS back"
fi
assert_gone /cephbench/mdsdead "the cleanup after the deadline"
echo ok
