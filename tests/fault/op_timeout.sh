#!/usr/bin/env bash
# A workload's op_timeout bounds its OSD ops, RADOS and RBD: with every OSD
# op held for 8 s (ceph osd pause) and op_timeout 2s under a 60 s cluster
# timeout, the stuck ops fail with ETIMEDOUT and are counted as errors.
# With a large max_errors the run goes on once the OSDs serve again and
# exits 0; with max_errors 0 it stops with exit 3 and one line naming the
# pool and the error. Neither hangs, and cleanup leaves nothing. (Without
# op_timeout the ops wait out the pause: no error, exit 0; checked first.)
. "$(dirname "$0")/../cluster/rbd_lib.sh"

# 15 s measured + the 8 s pause at most + cleanup: far below the 60 s that
# an op waiting for the cluster timeout would add.
BOUND=55
p=$(op_timeout_profile "layer: rados, pool: $POOL, op: write, block_size: 16K, max_errors: 0")
sed -i 's/, op_timeout: 2s//' "$p"
cb_paused "$BOUND" run "$p" --conf "$CONF" --json "$T/r.json" --quiet
assert_rc 0 "rados without op_timeout"
[ "$(phase_field "$T/r.json" errors)" = 0 ] || fail "rados without op_timeout: errors counted"
for layer in rados rbd; do
	case $layer in
	rados) keys="layer: rados, pool: $POOL, op: write, block_size: 16K" target=$POOL ;;
	rbd) keys="layer: rbd, pool: $RBD_POOL, op: randwrite, image_size: 128M" target=$RBD_POOL ;;
	esac
	p=$(op_timeout_profile "$keys, max_errors: 1000000")
	cb_paused "$BOUND" run "$p" --conf "$CONF" --json "$T/r.json" --quiet
	assert_rc 0 "$layer, max_errors 1000000"
	assert_timed_out "$layer, max_errors 1000000" "$T/r.json"

	p=$(op_timeout_profile "$keys, max_errors: 0")
	cb_paused "$BOUND" run "$p" --conf "$CONF" --json "$T/r.json" --quiet
	assert_rc 3 "$layer, max_errors 0"
	one_line "$layer, max_errors 0" "workload 'w': pool '$target'" "Connection timed out" "max_errors 0"
	assert_timed_out "$layer, max_errors 0" "$T/r.json"
	echo "  $(cat "$T/err")"
	assert_ns_empty "$layer"
	assert_no_images "$layer"
done
echo ok
