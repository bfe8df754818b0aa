#!/usr/bin/env bash
# No RBD image of a run stays behind: after a normal run, after SIGINT
# (exit 130, partial report), and after kill -9 with the image still open
# (a watcher left on it), by `cephbench cleanup --run-name` and `--all`.
. "$(dirname "$0")/rbd_lib.sh"

assert_no_images "before the test"

# Start a run in the background; its pid in $bg.
bg_rbd() {
	local run=$1
	shift
	"$CEPHBENCH" rbd -p "$RBD_POOL" --conf "$CONF" --image-size 64M --run-name "$run" "$@" \
		>"$T/$run.out" 2>"$T/$run.err" &
	bg=$!
}

# 1. A normal run: the image exists while it runs and is gone after.
bg_rbd normal --duration 3 --quiet
wait_for_watcher cephbench.normal.0
wait_bg $bg
[ "$rc" -eq 0 ] || fail "normal run: exit $rc; stderr: $(cat "$T/normal.err")"
assert_no_images "after a normal run"

# 2. SIGINT mid-run: drain, partial report, images removed, exit 130.
bg_rbd sigint --duration 60 --images 2
wait_for_watcher cephbench.sigint.1
sleep 1
kill -INT $bg
wait_bg $bg
[ "$rc" -eq 130 ] || fail "SIGINT: exit $rc, expected 130; stderr: $(cat "$T/sigint.err")"
grep -Eq "^write +rbd +write .* partial$" "$T/sigint.out" || fail "SIGINT: no partial row: $(cat "$T/sigint.out")"
assert_no_images "after SIGINT"

# 3. kill -9 mid-run: the image stays, still watched by the dead client;
#    cleanup --run-name clears the watch and removes it.
kill9() {
	local run=$1 img=$2
	shift 2
	bg_rbd "$run" --duration 60 --quiet "$@"
	wait_for_watcher "$img"
	sleep 1
	kill -KILL $bg
	wait_bg $bg
	[ "$rc" -eq 137 ] || fail "kill -9 $run: exit $rc"
	image_exists "$img" || fail "kill -9 $run: $img is gone: the test did not catch the run"
	[ "$(watchers "$img")" -gt 0 ] || fail "kill -9 $run: no watcher left on $img: not the case under test"
	rbdc status --format json "$RBD_POOL/$img" >"$T/status.json"
	dead=$(/usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["watchers"][0]["address"])' \
		"$T/status.json")
}

# The cleanup cleared the dead client's watch by blocklisting its address.
# (The JSON is the blocklist and the range blocklist, two arrays back to back.)
assert_blocklisted() {
	ceph --conf "$CONF" osd blocklist ls --format json 2>/dev/null >"$T/bl.json"
	grep -qF "\"$dead\"" "$T/bl.json" || fail "$1: the dead watcher $dead is not blocklisted"
}
kill9 crashed cephbench.crashed.0
start=$SECONDS
cb cleanup --pool "$RBD_POOL" --conf "$CONF" --run-name crashed
assert_rc 0 "cleanup --run-name after kill -9"
echo "cleanup --run-name after kill -9: $((SECONDS - start)) s"
grep -q "removed 1 images of run 'crashed'" "$T/out" || fail "cleanup reported: $(cat "$T/out")"
assert_blocklisted "cleanup --run-name"
assert_no_images "after kill -9 and cleanup --run-name"

# 4. The same with two images (random writes, the other op path) and --all;
#    without exclusive-lock, so librbd breaking a dead lock (which also
#    blocklists) cannot stand in for cephbench clearing the watch.
kill9 crashed2 cephbench.crashed2.1 --images 2 --io-pattern rand --features layering
start=$SECONDS
cb cleanup --pool "$RBD_POOL" --conf "$CONF" --all
assert_rc 0 "cleanup --all after kill -9"
echo "cleanup --all after kill -9: $((SECONDS - start)) s"
grep -q "removed 2 images of every run" "$T/out" || fail "cleanup --all reported: $(cat "$T/out")"
assert_blocklisted "cleanup --all"
assert_no_images "after kill -9 and cleanup --all"

# 5. A reuse run after kill -9 of its namesake takes over the kept image:
#    it clears the dead watch itself (else its first metadata write would
#    wait ~30 s for the OSDs to expire it) and keeps the image again.
kill9 kr cephbench.kr.0 --reuse --io-pattern rand --features layering
cb rbd -p "$RBD_POOL" --conf "$CONF" --image-size 64M --io-pattern rand --duration 1 --reuse \
	--run-name kr --quiet
assert_rc 0 "reuse run after kill -9"
assert_blocklisted "reuse run after kill -9"
image_exists cephbench.kr.0 || fail "reuse run after kill -9: the kept image is gone"
cb cleanup --pool "$RBD_POOL" --conf "$CONF" --run-name kr
assert_rc 0 "cleanup kr"
assert_no_images "after the reuse takeover and cleanup"

# 6. A live run is never blocklisted: a second, non-reuse run of the same
#    name finds the first one's image open by a live process of this host,
#    waits briefly, and fails (exit 3) instead of taking it; the first run
#    goes on and ends cleanly. The second run has a run directory of its
#    own, as on another host: on this one the run lock would refuse it first.
bg_rbd live --reuse --io-pattern rand --duration 25 --quiet
wait_for_watcher cephbench.live.0
CEPHBENCH_RUN_DIR=$T/other-host cb rbd -p "$RBD_POOL" --conf "$CONF" --image-size 64M --duration 1 --run-name live --quiet
assert_rc 3 "second run while the first one is live"
grep -q "still open by another client" "$T/err" || fail "second live run said: $(cat "$T/err")"
wait_bg $bg
[ "$rc" -eq 0 ] || fail "the live run was hurt: exit $rc; stderr: $(cat "$T/live.err")"
cb cleanup --pool "$RBD_POOL" --conf "$CONF" --run-name live
assert_rc 0 "cleanup live"
assert_no_images "after the live-run check"

# 7. --no-cleanup keeps a run's images until cleanup --run-name removes
#    exactly that run's.
for run in keep1 keep2; do
	cb rbd -p "$RBD_POOL" --conf "$CONF" --image-size 64M --duration 1 --run-name $run --no-cleanup
	assert_rc 0 "write $run"
	grep -q "cephbench cleanup --pool $RBD_POOL --run-name $run" "$T/err" ||
		fail "$run: no cleanup hint: $(cat "$T/err")"
done
cb cleanup --pool "$RBD_POOL" --conf "$CONF" --run-name keep1
assert_rc 0 "cleanup keep1"
[ "$(cb_images | tr '\n' ' ')" = "cephbench.keep2.0 " ] || fail "cleanup keep1 left: $(cb_images | tr '\n' ' ')"
cb cleanup --pool "$RBD_POOL" --conf "$CONF" --run-name keep2
assert_rc 0 "cleanup keep2"
assert_no_images "after both cleanups"

# 8. A removal cut short. librbd removes the header (with the run's marks)
#    before the directory entry; a kill between the two leaves an image
#    listed, unopenable and unmarked, which only the record cephbench writes
#    before removing makes the run's. A snapshot makes the removal fail right
#    after that record is written, so the record's presence is checked; the
#    header then goes by hand, as the kill would have it, and the next
#    cleanup finishes the removal and takes the record with it.
creating() {
	ns_objects_of "$RBD_POOL" cephbench-creating >"$T/creating"
	sort "$T/creating" | tr '\n' ' '
}
cb rbd -p "$RBD_POOL" --conf "$CONF" --image-size 64M --duration 1 --run-name cut --no-cleanup
assert_rc 0 "write cut"
rbdc snap create "$RBD_POOL/cephbench.cut.0@user-snap"
cb cleanup --pool "$RBD_POOL" --conf "$CONF" --run-name cut
assert_rc 3 "cleanup of an image with a snapshot"
image_exists cephbench.cut.0 || fail "an image with a snapshot was removed"
[ "$(creating)" = "cephbench.cut.0 " ] || fail "no record before the removal: records '$(creating)'"
rados --conf "$CONF" -p "$RBD_POOL" --namespace cephbench-creating get cephbench.cut.0 "$T/rec"
[ "$(cat "$T/rec")" = cut ] || fail "the record names run '$(cat "$T/rec")', not 'cut'"
rbdc snap rm "$RBD_POOL/cephbench.cut.0@user-snap"
id=$(rbdc info --format json "$RBD_POOL/cephbench.cut.0" |
	/usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])')
rados --conf "$CONF" -p "$RBD_POOL" rm "rbd_header.$id"
image_exists cephbench.cut.0 || fail "a removal cut short: the image is not listed any more"
cb cleanup --pool "$RBD_POOL" --conf "$CONF" --all
assert_rc 0 "cleanup after a removal cut short"
assert_no_images "after a removal cut short and cleanup"
[ -z "$(creating)" ] || fail "records left after cleanup: $(creating)"

# The same state without the record is not the run's: refused, and left.
cb rbd -p "$RBD_POOL" --conf "$CONF" --image-size 64M --duration 1 --run-name cut --no-cleanup
assert_rc 0 "write cut again"
id=$(rbdc info --format json "$RBD_POOL/cephbench.cut.0" |
	/usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])')
rados --conf "$CONF" -p "$RBD_POOL" rm "rbd_header.$id"
cb cleanup --pool "$RBD_POOL" --conf "$CONF" --run-name cut
image_exists cephbench.cut.0 || fail "an unmarked image without a record was removed"
rbdc rm "$RBD_POOL/cephbench.cut.0" >/dev/null 2>&1 || true
assert_no_images "after removing the unrecorded image by hand"
echo ok
