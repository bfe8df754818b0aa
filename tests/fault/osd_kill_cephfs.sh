#!/usr/bin/env bash
# An OSD killed (kill -9) during a CephFS file write and started again: the
# run goes on and exits 0 without errors, the outage shows as a stall in
# its result, every op is counted exactly once (sequential 4K writes of
# non-zero data to a file too large to wrap: the ops reported are the 4 KiB
# blocks of the run's tree that hold data), and cleanup removes the tree.
. "$(dirname "$0")/../cluster/cephfs_lib.sh"

p=$(cfs_profile osdkill "op: write, file_size: 1G, block_size: 4K, duration: 14s")
cb_osd_bounce run "$p" --conf "$CONF" --json "$T/r.json" --no-cleanup --quiet
assert_rc 0 "write with osd.1 killed and restarted"
echo "osd.1 was away for $(cat "$T/outage") s"
assert_stall "$T/r.json" 500
[ "$(phase_field "$T/r.json" errors)" = 0 ] || fail "errors counted"
ops=$(phase_field "$T/r.json" ops)
held=$(ftree written /cephbench/osdkill) || fail "cannot read /cephbench/osdkill"
echo "ops reported $ops, 4 KiB blocks written $held"
[ "$ops" -eq "$held" ] || fail "$ops ops of 4K reported but the files hold $held written blocks"
cb cleanup --conf "$CONF" --fs "$FS" --run-name osdkill
assert_rc 0 "cleanup"
assert_gone /cephbench/osdkill "after cleanup"
wait_clean
echo ok
