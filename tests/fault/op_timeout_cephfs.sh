#!/usr/bin/env bash
# A workload's op_timeout bounds the OSD ops of a CephFS file workload too
# (its mount shares the workload's librados configuration): with every OSD
# op held for 8 s, the stuck writes fail and are counted, the run goes on
# (exit 0) or stops at max_errors 0 (exit 3, one line naming the file
# system), and its tree is removed.
. "$(dirname "$0")/../cluster/cephfs_lib.sh"

BOUND=55
keys="layer: cephfs, fs: $FS, op: randwrite, file_size: 128M, block_size: 4K"
p=$(op_timeout_profile "$keys, max_errors: 1000000")
cb_paused "$BOUND" run "$p" --conf "$CONF" --json "$T/r.json" --quiet
assert_rc 0 "max_errors 1000000"
assert_timed_out "cephfs, max_errors 1000000" "$T/r.json"
assert_gone /cephbench/opto "after max_errors 1000000"

p=$(op_timeout_profile "$keys, max_errors: 0")
cb_paused "$BOUND" run "$p" --conf "$CONF" --json "$T/r.json" --quiet
assert_rc 3 "max_errors 0"
one_line "max_errors 0" "workload 'w': file system '$FS'" "Connection timed out" "max_errors 0"
assert_timed_out "cephfs, max_errors 0" "$T/r.json"
echo "  $(cat "$T/err")"
assert_gone /cephbench/opto "after max_errors 0"
echo ok
