#!/usr/bin/env bash
# An OSD killed (kill -9) during an RBD write and started again: the run
# goes on and exits 0 without errors, the outage shows as a stall in its
# result, and the run's own cleanup removes its image.
. "$(dirname "$0")/../cluster/rbd_lib.sh"

cb_osd_bounce rbd -p "$RBD_POOL" --image-size 256M --io-type write --io-pattern rand \
	--duration 14 --conf "$CONF" --run-name osdkill --json "$T/r.json" --quiet
assert_rc 0 "write with osd.1 killed and restarted"
echo "osd.1 was away for $(cat "$T/outage") s"
assert_stall "$T/r.json" 500
[ "$(phase_field "$T/r.json" errors)" = 0 ] || fail "errors counted"
assert_no_images "after the run"
wait_clean
echo ok
