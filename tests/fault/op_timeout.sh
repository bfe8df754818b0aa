#!/usr/bin/env bash
# A workload's op_timeout bounds its OSD ops, RADOS and RBD: with every OSD
# op held for 8 s (ceph osd pause) and op_timeout 2s under a 60 s cluster
# timeout, the stuck ops fail with ETIMEDOUT and are counted as errors.
# With a large max_errors the run goes on once the OSDs serve again and
# exits 0; with max_errors 0 it stops with exit 3 and one line naming the
# pool and the error. Neither hangs, and cleanup leaves nothing. (Without
# op_timeout the ops wait out the pause: no error, exit 0; checked first.)
# The rados and rbd commands' --op-timeout sets the same key. Writes that
# timed out yet landed (an OSD stopped, then running again) are said to be
# possible, counted in the run's record as started, and all cleaned up.
. "$(dirname "$0")/../cluster/rbd_lib.sh"

p=$(op_timeout_profile "layer: rados, pool: $POOL, op: write, block_size: 16K, max_errors: 0")
sed -i 's/, op_timeout: 2s//' "$p"
cb_paused 55 run "$p" --conf "$CONF" --json "$T/r.json" --quiet
assert_rc 0 "rados without op_timeout"
[ "$(phase_field "$T/r.json" errors)" = 0 ] || fail "rados without op_timeout: errors counted"

op_timeout_runs rados "layer: rados, pool: $POOL, op: write, block_size: 16K" "pool '$POOL'"
op_timeout_stops "rados write --op-timeout" "workload 'write': pool '$POOL'" \
	rados write 15 -p "$POOL" -b 16K --op-timeout 2s --max-errors 0 --timeout 60s --run-name opto
assert_ns_empty rados

# Writes that time out may still land: osd.1 stopped (SIGSTOP) for 6 s
# under op_timeout 2s holds the writes sent to it, and the client gives up
# on them (errors), but the OSD applies them once it runs again. The report
# says so; the run's record counts every object started, incomplete; the
# objects on the cluster are at least the writes counted and at most those
# started; cleanup finds every one.
set +e
timeout 120 "$CEPHBENCH" rados write 12 -p "$POOL" -b 4K --op-timeout 2s --max-errors 1000000 \
	--ramp 0 --timeout 60s --run-name late --no-cleanup --json "$T/late.json" --conf "$CONF" \
	>"$T/out" 2>"$T/err" &
bg=$!
set -e
wait_for_objects
sleep 1
osd=$(daemon_pid osd.1) || fail "osd.1 is not running"
kill -STOP "$osd"
sleep 6
kill -CONT "$osd"
wait_bg "$bg"
assert_rc 0 "a write through a stopped OSD"
ops=$(phase_field "$T/late.json" ops)
errors=$(phase_field "$T/late.json" errors)
[ "$errors" -gt 0 ] || fail "no write timed out while osd.1 was stopped"
grep -qF "workload 'write': $errors writes timed out and may still complete on the OSDs: the record counts their objects as started, cleanup finds them all" "$T/err" ||
	fail "no note of the writes that timed out: $(cat "$T/err")"
landed=$(ns_objects | grep -c '^late\.c0\.' || true)
rados --conf "$CONF" -p "$POOL" --namespace cephbench get late.meta "$T/late.meta"
/usr/bin/python3 - "$T/late.meta" "$ops" "$errors" "$landed" <<'PY' || fail "the record of run late is not true: see above"
import json, sys
m = json.load(open(sys.argv[1]))
ops, errors, landed = map(int, sys.argv[2:5])
print(f"late: {ops} writes counted, {errors} timed out, {landed} objects on the cluster; record {m}")
assert m["state"] == "incomplete", m["state"]
assert m["failed_writes"] == errors, "failed_writes"
assert m["started"] == m["objects"] == ops + errors, "started"
assert ops <= landed <= m["started"], "objects on the cluster"
PY
cb cleanup --pool "$POOL" --conf "$CONF" --run-name late
assert_rc 0 "cleanup of run late"
grep -qF "rados: removed $((landed + 1)) objects of run 'late'" "$T/out" ||
	fail "cleanup of run late ($landed objects and its record): $(cat "$T/out")"
assert_ns_empty "after the write through a stopped OSD"
op_timeout_runs rbd "layer: rbd, pool: $RBD_POOL, op: randwrite, image_size: 128M" "pool '$RBD_POOL'"
assert_no_images rbd
echo ok
