#!/usr/bin/env bash
# A file system's data pool filling up (the cluster made to call its OSDs
# full at 30 % of their space, as in pool_full.sh) under a CephFS file
# write: the writes fail and are counted, past max_errors the run stops
# with exit 3 and one line naming the file system and the error, and its
# cleanup still removes its tree. The cluster is not full afterwards.
# The file is 640M, rewritten until the flag comes: 1.25 GiB at size 2
# cannot take an OSD past its failsafe ratio however late the flag is (a
# 4G file did, on a loaded machine: the MDS's own writes then hung).
. "$(dirname "$0")/../cluster/cephfs_lib.sh"

trap 'set_full_ratio .99; cephfs_at_exit' EXIT
wait_clean
set_full_ratio "$(full_ratio_for .30)"
p=$(profile full <<YAML
name: full
workloads:
  - { name: w, layer: cephfs, fs: $FS, op: write, file_size: 640M, block_size: 4M, duration: 120s,
      max_errors: 16 }
YAML
)
cb run "$p" --conf "$CONF" --json "$T/r.json" --quiet
errors=$(phase_field "$T/r.json" errors)
echo "cephfs: exit $rc, $(phase_field "$T/r.json" ops) ops, $errors errors: $(cat "$T/err")"
assert_rc 3 "cephfs on a full pool"
one_line "cephfs on a full pool" "workload 'w': file system '$FS'" "No space left on device" \
	"max_errors 16)"
[ "$errors" -gt 16 ] || fail "$errors errors counted, expected more than 16"
assert_gone /cephbench/full "after its cleanup on a full pool"
set_full_ratio .99
wait_not_full
echo ok
