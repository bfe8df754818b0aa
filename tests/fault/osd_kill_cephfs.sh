#!/usr/bin/env bash
# An OSD killed (kill -9) during a CephFS file write and started again: the
# run goes on and exits 0 without errors, the outage shows as a stall in
# its result, every op is counted exactly once (sequential 4K writes of
# non-zero data to files too large to wrap: the ops reported are the 4 KiB
# blocks of the run's tree that hold data), and cleanup removes the tree.
# Sixteen files, which sequential ops walk interleaved: with O_DIRECT each
# write waits for its object's OSDs, and one file's writes stay on one 4 MiB
# object for a second or more; when the objects written then did not have
# osd.1 in their PG, the outage left no stall at all (max latency 173 ms,
# no slow second). Sixteen objects at a time, each with osd.1 in its PG two
# times in three, make one certain.
. "$(dirname "$0")/../cluster/cephfs_lib.sh"

p=$(cfs_profile osdkill "op: write, files: 16, file_size: 256M, block_size: 4K, duration: 14s")
cb_osd_bounce run "$p" --conf "$CONF" --json "$T/r.json" --no-cleanup --quiet
assert_rc 0 "write with osd.1 killed and restarted"
echo "osd.1 was away for $(cat "$T/outage") s"
# osd.1 is frozen for 1.5 s before the kill (cb_osd_bounce): the write that
# first meets it waits that long. Without the freeze, a file's serial
# writes spread the stall over many ops of a few hundred ms each (CI once
# saw 276 ms in all), a run without a stall 173 ms
assert_stall "$T/r.json" 1000
[ "$(phase_field "$T/r.json" errors)" = 0 ] || fail "errors counted"
ops=$(phase_field "$T/r.json" ops)
held=$(ftree written /cephbench/osdkill) || fail "cannot read /cephbench/osdkill"
echo "ops reported $ops, 4 KiB blocks written $held"
[ "$ops" -eq "$held" ] || fail "$ops ops of 4K reported but the files hold $held written blocks"
cb cleanup --conf "$CONF" --fs "$FS" --run-name osdkill
assert_rc 0 "cleanup"
assert_gone /cephbench/osdkill "after cleanup"
echo ok
