#!/usr/bin/env bash
# The monitor stopped mid-run, RADOS and RBD: started again four seconds
# later, or only after the run. Established OSD sessions need no monitor,
# so the run goes on (or ends with one line and exit 3), never hangs: it
# ends within a bound derived from --timeout, and its cleanup leaves
# nothing. A run started while the monitor is down fails with one line
# naming the monitors, exit 3, after --timeout.
. "$(dirname "$0")/../cluster/rbd_lib.sh"

# 10 s measured, then at most a few --timeout (5 s) waits: the monitors'
# version asked for the report, the cleanup's ops.
BOUND=60
for when in during after; do
	cb_mon_outage "$when" "$BOUND" rados write -p "$POOL" --conf "$CONF" -b 16K --duration 10 \
		--timeout 5s --run-name monstop
	assert_outage_outcome "rados, monitor back $when the run"
	assert_ns_empty "rados, monitor back $when the run"
	cb_mon_outage "$when" "$BOUND" rbd -p "$RBD_POOL" --image-size 128M --io-type write \
		--io-pattern rand --duration 10 --conf "$CONF" --timeout 5s --run-name monstop
	assert_outage_outcome "rbd, monitor back $when the run"
	assert_no_images "rbd, monitor back $when the run"
done

mon_stop
t0=$SECONDS
set +e
timeout 30 "$CEPHBENCH" rados write -p "$POOL" --conf "$CONF" -b 16K --duration 5 --timeout 5s \
	--run-name monstop >"$T/out" 2>"$T/err"
rc=$?
set -e
took=$((SECONDS - t0))
mon_start
echo "monitor down at the start: exit $rc after $took s: $(cat "$T/err")"
assert_rc 3 "monitor down at the start"
one_line "monitor down at the start" "cannot reach the monitors" "within 5 s"
assert_ns_empty "monitor down at the start"
echo ok
