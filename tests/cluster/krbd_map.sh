#!/usr/bin/env bash
# The krbd layer's mapping path, with stand-ins for what this machine lacks
# (a kernel rbd module): a private mount namespace shows cephbench a
# /sys/bus/rbd, and krbd_standin/rbd, first on PATH, answers `rbd device
# map|unmap` with a loop device over a file of the image's size (it logs its
# arguments; every other rbd command is the real one, on the sandbox). What is
# real: the images (librbd, in pool rbd), the marks on them, the libaio I/O on
# the device the map printed, and cleanup. Checked: the map and unmap
# arguments; the data lands on the printed device (the prefill pattern, read
# back from the stand-in's file); nothing mapped or left after a run, after
# SIGINT, after kill -9 (cleanup --run-name, --all, a namesake's takeover); a
# live run's map is never taken; a failed map and a kernel without rbd are
# one-line exit 3 with no image left.
. "$(dirname "$0")/lib.sh"

HERE=$(cd "$(dirname "$0")" && pwd)
RBD_POOL=rbd
[ "$(id -u)" -eq 0 ] || {
	echo "krbd_map: needs root (loop devices, a mount namespace)" >&2
	exit 77
}
export STANDIN_DIR=$T/standin
mkdir -p "$STANDIN_DIR"
SPATH=$HERE/krbd_standin:$PATH

# The stand-in's loop devices, detached whatever happens; a run left going
# by a failed check is killed first (it would hold the cluster's run lock
# and refuse the tests after this one).
krbd_exit() {
	if [ -n "${bg:-}" ] && kill -0 "$bg" 2>/dev/null; then
		kill -KILL "$bg" 2>/dev/null || true
		wait "$bg" 2>/dev/null || true
	fi
	if [ -s "$STANDIN_DIR/maps" ]; then
		while read -r _ dev _; do losetup -d "$dev" 2>/dev/null || true; done <"$STANDIN_DIR/maps"
	fi
	PATH=$SPATH "$CEPHBENCH" cleanup --conf "$CONF" --pool "$RBD_POOL" --all --quiet >/dev/null 2>&1 || true
	at_exit
}
trap krbd_exit EXIT

images() {
	rbd --conf "$CONF" ls "$RBD_POOL" | grep '^cephbench\.' || true
}

assert_nothing_left() {
	local left
	left=$(images)
	[ -z "$left" ] || fail "$1: images left: $left"
	if [ -s "$STANDIN_DIR/maps" ]; then
		fail "$1: still mapped: $(cat "$STANDIN_DIR/maps")"
	fi
}

# cephbench run in the namespace where /sys/bus/rbd exists, the stand-in on
# PATH; env, unshare and sh all exec, so $! of a background call is
# cephbench's own pid.
NS=(env PATH="$SPATH" unshare -m sh -c
	'mount -t tmpfs none /sys/bus && mkdir /sys/bus/rbd && exec "$@"' sh)

unshare -m true 2>/dev/null || {
	echo "krbd_map: unshare -m does not work here" >&2
	exit 77
}
assert_nothing_left "before the test"

# 1. This kernel has no rbd: one line, exit 3, nothing created, no map tried.
cat >"$T/w.yaml" <<'Y'
name: kmap
workloads:
  - {name: w, layer: krbd, op: randwrite, pool: rbd, image_size: 8M, images: 2, duration: 1s,
     prefill: true, map_options: queue_depth=64}
  - {name: r, layer: krbd, op: randread, pool: rbd, image_size: 8M, ops: 2000, prefill: true,
     verify: true, batch_submit: 8}
  - {name: librbd, layer: rbd, op: randwrite, pool: rbd, image_size: 8M, duration: 1s}
Y
cb run "$T/w.yaml" --conf "$CONF"
assert_rc 3 "no kernel rbd"
one_line "no kernel rbd" "no rbd support" "/sys/bus/rbd" "device:"
[ ! -e "$STANDIN_DIR/calls" ] || fail "no kernel rbd: rbd was called: $(cat "$STANDIN_DIR/calls")"
assert_nothing_left "no kernel rbd"
echo "ok: no /sys/bus/rbd: exit 3, one line, nothing created"

# 2. A run maps each image, runs on the device printed, unmaps, removes.
set +e
timeout 300 "${NS[@]}" "$CEPHBENCH" run "$T/w.yaml" --conf "$CONF" --client admin \
	--format json >"$T/out" 2>"$T/err"
rc=$?
set -e
assert_rc 0 "mapped run"
for img in w.0 w.1 r.0; do
	spec="rbd/cephbench.kmap.$img"
	grep -qE "^device map $spec --conf $CONF --id admin( --options queue_depth=64)?$" \
		"$STANDIN_DIR/calls" || fail "mapped run: no map of $spec: $(cat "$STANDIN_DIR/calls")"
	grep -qxF "device unmap $spec --conf $CONF --id admin" "$STANDIN_DIR/calls" ||
		fail "mapped run: no unmap of $spec: $(cat "$STANDIN_DIR/calls")"
done
grep -qxF "device map rbd/cephbench.kmap.w.0 --conf $CONF --id admin --options queue_depth=64" \
	"$STANDIN_DIR/calls" || fail "mapped run: map_options not passed: $(cat "$STANDIN_DIR/calls")"
assert_nothing_left "after a mapped run"
/usr/bin/python3 - "$T/out" <<'PY'
import json, sys
phases = {p["name"]: p for p in json.load(open(sys.argv[1]))["phases"]}
want = ["w.prefill", "w", "r.prefill", "r", "librbd"]
assert list(phases) == want, f"rows {list(phases)}, expected {want}"
# the per-layer comparison: krbd and librbd rows of one op and size side by side
lb = phases.pop("librbd")
assert (lb["layer"], lb["op"], lb["block_size"]) == ("rbd", phases["w"]["op"], phases["w"]["block_size"]), \
    f"librbd row {lb['layer']} {lb['op']} {lb['block_size']} vs krbd {phases['w']['op']} {phases['w']['block_size']}"
for n, p in phases.items():
    assert p["layer"] == "krbd" and p["errors"] == 0 and p["ops"] > 0, f"{n}: {p['ops']} ops, {p['errors']} errors"
# the prefill covers both 8M images in 4M writes
assert phases["w.prefill"]["bytes"] == 2 * 8 << 20, f"w.prefill wrote {phases['w.prefill']['bytes']} bytes"
assert phases["r"]["read_ops"] == 2000, f"r: {phases['r']['read_ops']} verified reads"
PY
# What r's device held when it was unmapped: the prefill pattern of device 0,
# every word (so the I/O went to the device the map printed).
/usr/bin/python3 "$HERE/krbd_pattern.py" check "$STANDIN_DIR/unmapped/rbd_cephbench.kmap.r.0.img" 0 ||
	fail "mapped run: the unmapped device does not hold the pattern"
echo "ok: mapped run: map/unmap arguments, krbd rows beside an rbd row of the same op and size, pattern on the printed device, nothing left"

# 2b. clients: 2: each client maps an image of its own (the run's images 0
#     and 1, each with its own kernel client: --options noshare), fills and
#     verifies it with its own pattern (index 1 for client 1's), and the row
#     is the two clients' sum.
cat >"$T/c.yaml" <<'Y'
name: kcl
workloads:
  - {name: c, layer: krbd, op: randread, pool: rbd, image_size: 8M, ops: 500, prefill: true,
     verify: true, clients: 2, concurrency: 4}
Y
: >"$STANDIN_DIR/calls"
set +e
timeout 300 "${NS[@]}" "$CEPHBENCH" run "$T/c.yaml" --conf "$CONF" --client admin \
	--json "$T/c.json" --quiet >"$T/out" 2>"$T/err"
rc=$?
set -e
assert_rc 0 "clients: 2"
for i in 0 1; do
	spec="rbd/cephbench.kcl.c.$i"
	grep -qxF "device map $spec --conf $CONF --id admin --options noshare" "$STANDIN_DIR/calls" ||
		fail "clients: 2: no map of $spec with noshare: $(cat "$STANDIN_DIR/calls")"
	grep -qxF "device unmap $spec --conf $CONF --id admin" "$STANDIN_DIR/calls" ||
		fail "clients: 2: no unmap of $spec: $(cat "$STANDIN_DIR/calls")"
done
[ "$(grep -c '^device map ' "$STANDIN_DIR/calls")" -eq 2 ] ||
	fail "clients: 2: not two maps: $(cat "$STANDIN_DIR/calls")"
assert_nothing_left "after clients: 2"
/usr/bin/python3 - "$T/c.json" <<'PY'
import json, sys
phases = {p["name"]: p for p in json.load(open(sys.argv[1]))["phases"]}
assert list(phases) == ["c.prefill", "c"], f"rows {list(phases)}"
for n, p in phases.items():
    rows = p["per_client"]
    assert p["clients"] == 2 and [c["client"] for c in rows] == [0, 1], f"{n}: {rows}"
    for k in ("ops", "bytes", "errors"):
        assert p[k] == sum(c[k] for c in rows), f"{n}: {k} {p[k]} is not the clients' sum"
    assert p["errors"] == 0 and all(c["ops"] > 0 for c in rows), f"{n}: {rows}"
    print(f"{n}: {p['ops']} ops = " + " + ".join(str(c["ops"]) for c in rows))
# each client filled its own 8M image and read it 500 times, verified
assert phases["c.prefill"]["bytes"] == 2 * 8 << 20, phases["c.prefill"]["bytes"]
assert [c["bytes"] for c in phases["c.prefill"]["per_client"]] == [8 << 20, 8 << 20]
assert [c["ops"] for c in phases["c"]["per_client"]] == [500, 500]
PY
for i in 0 1; do
	/usr/bin/python3 "$HERE/krbd_pattern.py" check "$STANDIN_DIR/unmapped/rbd_cephbench.kcl.c.$i.img" "$i" ||
		fail "clients: 2: image $i does not hold pattern $i"
done
echo "ok: clients: 2: two images, each mapped noshare by its client and holding its pattern; the row is their sum"

# A run in the background, in the namespace; its pid in $bg once its first
# image is mapped.
bg_run() {
	local run=$1
	shift
	cat >"$T/$run.yaml" <<Y
name: $run
workloads:
  - {name: w, layer: krbd, op: randwrite, pool: rbd, image_size: 8M, duration: 60s}
Y
	"${NS[@]}" "$CEPHBENCH" run "$T/$run.yaml" --conf "$CONF" "$@" >"$T/$run.out" 2>"$T/$run.err" &
	bg=$!
	for _ in $(seq 1 150); do
		grep -q "^rbd/cephbench.$run.w.0 " "$STANDIN_DIR/maps" 2>/dev/null && return 0
		kill -0 $bg 2>/dev/null || fail "$run: exited early: $(cat "$T/$run.err")"
		sleep 0.2
	done
	fail "$run: its image was never mapped"
}

kill9() {
	bg_run "$1"
	sleep 1
	kill -KILL $bg
	wait_bg $bg
	[ "$rc" -eq 137 ] || fail "kill -9 $1: exit $rc"
	grep -q "^rbd/cephbench.$1.w.0 " "$STANDIN_DIR/maps" ||
		fail "kill -9 $1: not mapped after the kill: not the case under test"
	[ -n "$(images)" ] || fail "kill -9 $1: no image after the kill"
}

# 3. SIGINT: drain, partial report, exit 130, unmapped and removed.
bg_run sigint
sleep 1
kill -INT $bg
wait_bg $bg
[ "$rc" -eq 130 ] || fail "SIGINT: exit $rc; stderr: $(cat "$T/sigint.err")"
grep -Eq "^w +krbd +randwrite .* partial$" "$T/sigint.out" || fail "SIGINT: no partial row: $(cat "$T/sigint.out")"
assert_nothing_left "after SIGINT"
echo "ok: SIGINT: exit 130, partial row, unmapped and removed"

# 4. kill -9, then cleanup --run-name (in the host's namespace: cleanup needs
#    no /sys/bus/rbd, only the rbd command).
kill9 crashed
: >"$STANDIN_DIR/calls"
PATH=$SPATH cb cleanup --conf "$CONF" --pool "$RBD_POOL" --run-name crashed
assert_rc 0 "cleanup --run-name after kill -9"
grep -qxF "device unmap rbd/cephbench.crashed.w.0 --conf $CONF" "$STANDIN_DIR/calls" ||
	fail "cleanup --run-name: no unmap: $(cat "$STANDIN_DIR/calls")"
grep -q "krbd: removed 1 images of run 'crashed'" "$T/out" || fail "cleanup --run-name: $(cat "$T/out")"
assert_nothing_left "cleanup --run-name after kill -9"
echo "ok: kill -9, cleanup --run-name: unmapped and removed"

# 5. kill -9, then a run of the same name takes the leftovers over.
kill9 again
sed 's/duration: 60s/duration: 1s/' "$T/again.yaml" >"$T/short.yaml"
set +e
timeout 120 "${NS[@]}" "$CEPHBENCH" run "$T/short.yaml" --conf "$CONF" >"$T/out" 2>"$T/err"
rc=$?
set -e
assert_rc 0 "namesake after kill -9"
assert_nothing_left "namesake after kill -9"
echo "ok: kill -9, namesake run: took over, nothing left"

# 6. A live run's map is left by cleanup --all (exit 3, naming its pid);
#    the run itself still ends cleanly. Then kill -9 and cleanup --all.
bg_run live
PATH=$SPATH cb cleanup --conf "$CONF" --pool "$RBD_POOL" --all
assert_rc 3 "cleanup --all during a live run"
one_line "cleanup --all during a live run" "cephbench.live.w.0" "still going (pid $bg)"
grep -q "^rbd/cephbench.live.w.0 " "$STANDIN_DIR/maps" || fail "cleanup --all unmapped a live run's image"
kill -KILL $bg
wait_bg $bg
PATH=$SPATH cb cleanup --conf "$CONF" --pool "$RBD_POOL" --all
assert_rc 0 "cleanup --all after kill -9"
assert_nothing_left "cleanup --all after kill -9"
echo "ok: a live run's map kept by cleanup --all; after kill -9, --all unmaps and removes"

# 7. A map that fails: one line with rbd's reason, exit 3, the image removed.
set +e
STANDIN_FAIL_MAP=1 timeout 120 "${NS[@]}" "$CEPHBENCH" run "$T/short.yaml" --conf "$CONF" --quiet \
	>"$T/out" 2>"$T/err"
rc=$?
set -e
assert_rc 3 "failed map"
one_line "failed map" "rbd device map rbd/cephbench.again.w.0" "map failed: (6) No such device"
assert_nothing_left "failed map"
echo "ok: a failed map: exit 3, rbd's reason, nothing left"
