#!/usr/bin/env bash
# An OSD killed (kill -9) during a RADOS write and started again: the run
# goes on and exits 0, the outage shows as a stall in its result, every op
# is counted exactly once (each op writes an object of its own: the ops
# reported are the objects in the namespace, less the run's metadata), and
# cleanup removes them all.
. "$(dirname "$0")/lib.sh"

cb_osd_bounce rados write -p "$POOL" --conf "$CONF" -b 4K --duration 14 --run-name osdkill \
	--json "$T/r.json" --no-cleanup --quiet
assert_rc 0 "write with osd.1 killed and restarted"
echo "osd.1 was away for $(cat "$T/outage") s"
assert_stall "$T/r.json" 1000
[ "$(phase_field "$T/r.json" errors)" = 0 ] || fail "errors counted"
ops=$(phase_field "$T/r.json" ops)
objs=$(ns_objects | grep -c '^osdkill\.c0\.' || true)
echo "ops reported $ops, objects in the namespace $objs"
[ "$ops" -eq "$objs" ] || fail "$ops ops reported but $objs objects written"

cb cleanup --conf "$CONF" --pool "$POOL" --run-name osdkill
assert_rc 0 "cleanup"
assert_ns_empty "after cleanup"
echo ok
