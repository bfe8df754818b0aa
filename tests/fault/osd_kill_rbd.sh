#!/usr/bin/env bash
# An OSD killed (kill -9) during an RBD write and started again: the run
# goes on and exits 0 without errors, the outage shows as a stall in its
# result, every op is counted exactly once (sequential 4K writes to an image
# too large to wrap: the ops reported times 4K are the bytes the image
# holds), and cleanup removes the image.
. "$(dirname "$0")/../cluster/rbd_lib.sh"

cb_osd_bounce rbd -p "$RBD_POOL" --image-size 1G --io-type write --io-pattern seq \
	--duration 14 --conf "$CONF" --run-name osdkill --json "$T/r.json" --no-cleanup --quiet
assert_rc 0 "write with osd.1 killed and restarted"
echo "osd.1 was away for $(cat "$T/outage") s"
assert_stall "$T/r.json" 1000
[ "$(phase_field "$T/r.json" errors)" = 0 ] || fail "errors counted"
ops=$(phase_field "$T/r.json" ops)
held=$(rbd --conf "$CONF" diff "$RBD_POOL/cephbench.osdkill.0" --format json |
	/usr/bin/python3 -c 'import json, sys; print(sum(e["length"] for e in json.load(sys.stdin)))')
echo "ops reported $ops, bytes the image holds $held"
[ $((ops * 4096)) -eq "$held" ] || fail "$ops ops of 4K reported but the image holds $held bytes"
cb cleanup --conf "$CONF" --pool "$RBD_POOL" --run-name osdkill
assert_rc 0 "cleanup"
assert_no_images "after cleanup"
echo ok
