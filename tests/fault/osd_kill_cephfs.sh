#!/usr/bin/env bash
# An OSD killed (kill -9) during a CephFS file write and started again: the
# run goes on and exits 0 without errors, the outage shows as a stall in
# its result, and the run's own cleanup removes its tree.
. "$(dirname "$0")/../cluster/cephfs_lib.sh"

p=$(profile osdkill <<YAML
name: osdkill
workloads:
  - { name: w, layer: cephfs, fs: $FS, op: randwrite, file_size: 256M, block_size: 4K, duration: 14s }
YAML
)
cb_osd_bounce run "$p" --conf "$CONF" --json "$T/r.json" --quiet
assert_rc 0 "write with osd.1 killed and restarted"
echo "osd.1 was away for $(cat "$T/outage") s"
assert_stall "$T/r.json" 500
[ "$(phase_field "$T/r.json" errors)" = 0 ] || fail "errors counted"
assert_gone /cephbench/osdkill "after the run"
wait_clean
echo ok
