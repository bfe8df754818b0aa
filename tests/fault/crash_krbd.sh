#!/usr/bin/env bash
# The krbd layer killed with -9 at random moments of a run (image creation,
# the map, the prefill, ramp, measuring, the unmap, cleanup), each followed
# by cephbench cleanup: no image is left and nothing stays mapped. This
# kernel has no rbd module: as in tests/cluster/krbd_map.sh, cephbench runs
# in a mount namespace showing it a /sys/bus/rbd, with the stand-in
# tests/cluster/krbd_standin/rbd first on PATH (map: a loop device over a
# file of the image's size). Then a namesake run takes a killed run's images
# and mappings over.
. "$(dirname "$0")/crash_lib.sh"

[ "$(id -u)" -eq 0 ] || {
	echo "crash_krbd: needs root (loop devices, a mount namespace)" >&2
	exit 77
}
unshare -m true 2>/dev/null || {
	echo "crash_krbd: unshare -m does not work here" >&2
	exit 77
}
STANDIN=$(cd "$(dirname "$0")/../cluster/krbd_standin" && pwd)
export STANDIN_DIR=$T/standin
mkdir -p "$STANDIN_DIR"
CRASH_ENV=PATH=$STANDIN:$PATH
crash_flag=--pool
crash_target=$RBD_POOL
sed "s/POOL/$RBD_POOL/" >"$T/crash.yaml" <<'YAML'
name: crash
workloads:
  - {name: w, layer: krbd, op: randwrite, pool: POOL, image_size: 8M, images: 2, prefill: true,
     ramp: 1s, duration: 2s}
YAML

# The loop devices over the stand-in's files (mapped, or left attached).
loops() {
	local f
	for f in "$STANDIN_DIR"/*.img "$STANDIN_DIR"/unmapped/*.img; do
		[ -e "$f" ] && losetup -j "$f" | cut -d: -f1
	done
	return 0
}

# Only the loop devices this test's stand-in attached are detached.
krbd_exit() {
	set +e
	for l in $(loops); do losetup -d "$l"; done
	env "$CRASH_ENV" "$CEPHBENCH" cleanup --conf "$CONF" --pool "$RBD_POOL" --all --quiet >/dev/null 2>&1
	at_exit
}
trap krbd_exit EXIT

# env, unshare and sh all exec: $! is cephbench's own pid.
crash_start() { # RUN [FLAGS]
	env "$CRASH_ENV" unshare -m sh -c \
		'mount -t tmpfs none /sys/bus && mkdir /sys/bus/rbd && exec "$@"' sh \
		"$CEPHBENCH" run "$T/crash.yaml" --conf "$CONF" --run-name "$1" "${@:2}" \
		>"$T/$1.out" 2>"$T/$1.err" &
	bg=$!
}

# A map or unmap the killed run started goes on without it (its own process
# group): wait until no stand-in of this test runs.
crash_settle() {
	for _ in $(seq 1 100); do
		pgrep -f "bash $STANDIN/rbd" >/dev/null || return 0
		sleep 0.1
	done
	fail "the stand-in rbd still runs 10 s after the kill"
}

crash_state() { # RUN
	local n m
	n=$(images | grep -c "^cephbench\.$1\." || true)
	m=$(grep -c "^$RBD_POOL/cephbench\.$1\." "$STANDIN_DIR/maps" 2>/dev/null || true)
	echo "$n images, ${m:-0} mapped"
}

crash_assert_clean() { # WHAT
	local left
	assert_no_images "$1"
	if [ -s "$STANDIN_DIR/maps" ]; then
		fail "$1: still mapped: $(cat "$STANDIN_DIR/maps")"
	fi
	left=$(loops)
	[ -z "$left" ] || fail "$1: loop devices left attached: $left"
}

crash_kills

# Namesake: a run whose workload 'w' mapped 2 images killed mid-run, then a
# run of the same name whose workload is 'v' (prefill + verified randread,
# --no-cleanup): the killed run's images are unmapped and removed before it
# maps its own, though their names are not its (a line says so), and only
# its image is left, unmapped.
sed "s/POOL/$RBD_POOL/" >"$T/long.yaml" <<'YAML'
name: long
workloads:
  - {name: w, layer: krbd, op: randwrite, pool: POOL, image_size: 8M, images: 2, duration: 60s}
YAML
sed "s/POOL/$RBD_POOL/" >"$T/again.yaml" <<'YAML'
name: again
workloads:
  - {name: v, layer: krbd, op: randread, pool: POOL, image_size: 8M, prefill: true, verify: true,
     duration: 1s}
YAML
cp "$T/long.yaml" "$T/crash.yaml"
crash_start ns --quiet
for _ in $(seq 1 150); do
	[ "$(grep -c "^$RBD_POOL/cephbench\.ns\.w\." "$STANDIN_DIR/maps" 2>/dev/null)" = 2 ] && break
	sleep 0.2
done
sleep 1
kill -KILL "$bg"
wait_bg "$bg"
[ "$rc" -eq 137 ] || fail "namesake: the long run ended with $rc before the kill: $(cat "$T/ns.err")"
crash_settle
[ "$(grep -c "^$RBD_POOL/cephbench\.ns\.w\." "$STANDIN_DIR/maps")" = 2 ] ||
	fail "namesake: the killed run has not 2 images mapped: $(cat "$STANDIN_DIR/maps")"
cp "$T/again.yaml" "$T/crash.yaml"
crash_start ns --no-cleanup
wait_bg "$bg"
assert_rc 0 "namesake run"
mv "$T/ns.err" "$T/err"
grep -qF "workload 'v.prefill': took over what an earlier run named 'ns' left in pool '$RBD_POOL': unmapped and removed 2 images before mapping its own" "$T/err" ||
	fail "namesake: no takeover line for 2 images: $(cat "$T/err")"
[ "$(images)" = cephbench.ns.v.0 ] || fail "namesake: images after it: $(images | tr '\n' ' ')"
[ ! -s "$STANDIN_DIR/maps" ] || fail "namesake: still mapped: $(cat "$STANDIN_DIR/maps")"
echo "ok: namesake of a killed run: its 2 mapped images of another workload unmapped and removed first, said so"
crash_cleanup --run-name ns
assert_rc 0 "cleanup of the namesake's image"
crash_assert_clean "after the namesake test"
echo ok
