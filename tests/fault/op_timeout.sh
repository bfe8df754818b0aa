#!/usr/bin/env bash
# A workload's op_timeout bounds its OSD ops, RADOS and RBD: with every OSD
# op held for 8 s (ceph osd pause) and op_timeout 2s under a 60 s cluster
# timeout, the stuck ops fail with ETIMEDOUT and are counted as errors.
# With a large max_errors the run goes on once the OSDs serve again and
# exits 0; with max_errors 0 it stops with exit 3 and one line naming the
# pool and the error. Neither hangs, and cleanup leaves nothing. (Without
# op_timeout the ops wait out the pause: no error, exit 0; checked first.)
# The rados and rbd commands' --op-timeout sets the same key.
. "$(dirname "$0")/../cluster/rbd_lib.sh"

p=$(op_timeout_profile "layer: rados, pool: $POOL, op: write, block_size: 16K, max_errors: 0")
sed -i 's/, op_timeout: 2s//' "$p"
cb_paused 55 run "$p" --conf "$CONF" --json "$T/r.json" --quiet
assert_rc 0 "rados without op_timeout"
[ "$(phase_field "$T/r.json" errors)" = 0 ] || fail "rados without op_timeout: errors counted"

op_timeout_runs rados "layer: rados, pool: $POOL, op: write, block_size: 16K" "pool '$POOL'"
op_timeout_stops "rados write --op-timeout" "workload 'write': pool '$POOL'" \
	rados write 15 -p "$POOL" -b 16K --op-timeout 2s --max-errors 0 --timeout 60s --run-name opto
assert_ns_empty rados
op_timeout_runs rbd "layer: rbd, pool: $RBD_POOL, op: randwrite, image_size: 128M" "pool '$RBD_POOL'"
assert_no_images rbd
echo ok
