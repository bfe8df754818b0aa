#!/usr/bin/env bash
# A pool filling up, RADOS and RBD: the cluster is made to call its OSDs
# full at 20 % of their (memstore) space, 12.5 % of which the sandbox's
# ballast already holds, and a 4M write, 2 at a time, runs into it. The
# full flag comes seconds late (the OSDs report their use every few
# seconds), so the write also stops at 256 ops, 2 GiB of raw writes: no
# OSD may reach its failsafe ratio, past which even deletes hang. The writes
# fail fast with -ENOSPC (FULL_TRY), counted as errors; past max_errors the
# run stops with exit 3 and one line naming the pool and the error; its
# cleanup still removes what it wrote (deletes go through on a full pool).
# The cluster is given its own ratio back and is not full afterwards.
. "$(dirname "$0")/../cluster/rbd_lib.sh"

trap 'set_full_ratio .99; rbd_at_exit' EXIT
wait_clean
for layer in rados rbd; do
	set_full_ratio "$(full_ratio_for .20)"
	case $layer in
	rados) cb rados write -p "$POOL" --conf "$CONF" -b 4M -t 2 --duration 120 --ops 256 \
		--max-errors 16 \
		--run-name full --json "$T/r.json" --quiet
		target=$POOL ;;
	rbd) cb rbd -p "$RBD_POOL" --conf "$CONF" --image-size 2G --io-size 4M --io-type write --io-pattern seq \
		--io-threads 2 --duration 120 --ops 256 --max-errors 16 --run-name full --json "$T/r.json" --quiet
		target=$RBD_POOL ;;
	esac
	errors=$(phase_field "$T/r.json" errors)
	echo "$layer: exit $rc, $(phase_field "$T/r.json" ops) ops, $errors errors: $(cat "$T/err")"
	assert_rc 3 "$layer on a full pool"
	one_line "$layer on a full pool" "workload '" "pool '$target'" "No space left on device" \
		"max_errors 16)"
	[ "$errors" -gt 16 ] || fail "$layer: $errors errors counted, expected more than 16"
	assert_ns_empty "$layer after its cleanup on a full pool"
	assert_no_images "$layer after its cleanup on a full pool"
	set_full_ratio .99
	wait_not_full
done
echo ok
