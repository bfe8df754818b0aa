#!/usr/bin/env bash
# A workload's op_timeout bounds the OSD ops of a CephFS file workload too
# (its mount shares the workload's librados configuration): with every OSD
# op held for 8 s, the stuck writes fail and are counted, the run goes on
# (exit 0) or stops at max_errors 0 (exit 3, one line naming the file
# system), and its tree is removed.
. "$(dirname "$0")/../cluster/cephfs_lib.sh"

op_timeout_runs cephfs "layer: cephfs, fs: $FS, op: randwrite, file_size: 128M, block_size: 4K" \
	"file system '$FS'"
assert_gone /cephbench/opto "after the runs"
echo ok
