#!/usr/bin/env bash
# cephbench doctor: every check's line on the sandbox, ok and failed (no
# keyring, a client without a key, caps too narrow, an absent pool, no
# kernel rbd, no mon read), its exit code, and nothing left behind.
. "$(dirname "$0")/lib.sh"

: "${CEPHFS_TREE:?CEPHFS_TREE must name the cephfs_tree helper}"
# the run directory: not made by the doctor
export CEPHBENCH_RUN_DIR=$T/rundir
ID=cbdoctor-$$-$RANDOM
NOPOOL=cbdoctor-nopool-$$
at_exit_doctor() {
	ceph --conf "$CONF" auth del "client.$ID" >/dev/null 2>&1 || true
	ceph --conf "$CONF" auth del "client.$ID-m" >/dev/null 2>&1 || true
	at_exit || true
}
trap at_exit_doctor EXIT

has_line() { # what, regex
	grep -Eq "$2" "$T/out" || fail "$1: no line matching '$2' in: $(cat "$T/out")"
}

cat >"$T/all.yaml" <<YAML
name: doctor-all
workloads:
  - { name: w, layer: rados, pool: $POOL, op: write, duration: 1s }
  - { name: r, layer: rbd, pool: rbd, op: randwrite, image_size: 64M, duration: 1s }
  - { name: f, layer: cephfs, fs: cephfs, op: write, duration: 1s }
YAML
cat >"$T/nopool.yaml" <<YAML
name: doctor-nopool
workloads:
  - { name: w, layer: rados, pool: $NOPOOL, op: write, duration: 1s }
YAML
cat >"$T/krbd.yaml" <<YAML
name: doctor-krbd
workloads:
  - { name: k, layer: krbd, pool: rbd, op: randwrite, image_size: 64M, duration: 1s }
YAML

# /cephbench of the file system as it was: the doctor's directory goes, and
# /cephbench with it when it made it.
tree_now() {
	if "$CEPHFS_TREE" exists "$CONF" cephfs /cephbench; then
		"$CEPHFS_TREE" count "$CONF" cephfs /cephbench
	else
		echo absent
	fi
}
tree_now >"$T/tree.before"

# All good: exit 0, every line ok, each layer's checks there.
cb doctor --conf "$CONF" "$T/all.yaml"
assert_rc 0 "all good"
[ -z "$(grep -v '^ok    ' "$T/out")" ] || fail "all good: a line not ok: $(cat "$T/out")"
for l in "^ok    conf: $CONF\$" "^ok    monitors: " "^ok    key: client.admin authenticated" \
	"^ok    mon read: " "^ok    pre-flight: " "^ok    pool '$POOL': exists" \
	"^ok    osd counters: osd\.[0-9]+'s perf counters readable" \
	"^ok    osd caps in pool '$POOL': a test object written, read back and removed" \
	"^ok    osd caps for images in pool 'rbd': a test image created" \
	"^ok    file system 'cephfs': mounted" "^ok    caps in file system 'cephfs': " \
	"^ok    run directory: $T/rundir " "^ok    lock: free"; do
	has_line "all good" "$l"
done
# without a profile: the connection's checks only
cb doctor --conf "$CONF"
assert_rc 0 "no profile"
has_line "no profile" "^ok    key: "
! grep -q "pool '" "$T/out" || fail "no profile: a pool checked: $(cat "$T/out")"
# JSON: the same checks, each ok
cb doctor --conf "$CONF" --format json "$T/all.yaml"
assert_rc 0 "json"
/usr/bin/python3 -c '
import json, sys
a = json.load(open(sys.argv[1]))
assert len(a) >= 12 and all(c["ok"] and c["status"] == "ok" for c in a), a
assert {"check", "ok", "status", "detail", "hint"} <= set(a[0]), a[0]
' "$T/out" || fail "json: $(cat "$T/out")"

# No keyring at that path.
cb doctor --conf "$CONF" --keyring "$T/none.keyring"
assert_rc 3 "no keyring"
has_line "no keyring" "^FAIL  key: .*none\.keyring.*No such file"
grep -q "a run would not start" "$T/err" || fail "no keyring: stderr: $(cat "$T/err")"
# A client with no key in the keyring given.
printf '[client.%s-nokey]\n\tkey = AQBvsmVn9NjxJxAAlr4QzqGSlkOr2dVMQtBGaw==\n' "$ID" >"$T/other.keyring"
cb doctor --conf "$CONF" --keyring "$T/other.keyring"
assert_rc 3 "no key for the client"
has_line "no key for the client" "^FAIL  key: .*client\.admin"
has_line "no key for the client" "^ok    monitors: "

# Caps too narrow: osd read only on the pool, no mds caps.
ceph --conf "$CONF" auth get-or-create "client.$ID" mon 'allow r' osd "allow r pool=$POOL" \
	>"$T/narrow.keyring"
cb doctor --conf "$CONF" --client "$ID" --keyring "$T/narrow.keyring" "$T/all.yaml"
assert_rc 3 "narrow caps"
has_line "narrow caps" "^ok    key: client\.$ID authenticated"
has_line "narrow caps" "^FAIL  osd caps in pool '$POOL': a test write refused: Operation not permitted \(the osd caps of client\.$ID must allow rw on pool $POOL"
has_line "narrow caps" "^FAIL  osd caps for images in pool 'rbd': .*refused"
has_line "narrow caps" "^FAIL  file system 'cephfs': mounting it refused"
has_line "narrow caps" "ceph auth get client\.$ID"
# the OSDs' counters need osd 'allow *': a warning, the run would start
has_line "narrow caps" "^warn  osd counters: osd\.[0-9]+'s perf counters refused .*without the cluster's count of ops .*osd 'allow \*'"
# A read-only profile with that client: what it would run is allowed, so
# the doctor passes it (it wrote a test object before, which the caps
# refuse); the write profile above is its negative control.
cat >"$T/ro.yaml" <<YAML
name: doctor-ro
workloads:
  - { name: s, layer: rados, pool: $POOL, op: seq, duration: 1s }
  - { name: t, layer: rados, pool: $POOL, op: stat, duration: 1s }
YAML
cb doctor --conf "$CONF" --client "$ID" --keyring "$T/narrow.keyring" "$T/ro.yaml"
assert_rc 0 "a read-only profile with read caps"
has_line "a read-only profile" "^ok    osd caps in pool '$POOL': namespace cephbench listed \(op seq only reads: no test write\)"
has_line "a read-only profile" "^warn  osd counters: "

# No mon read: a warning of its own, and the OSD map it also withholds.
ceph --conf "$CONF" auth get-or-create "client.$ID-m" mon 'allow command version' \
	osd "allow rw pool=$POOL namespace=cephbench" >"$T/nomon.keyring"
cb doctor --conf "$CONF" --client "$ID-m" --keyring "$T/nomon.keyring" --timeout 3 "$T/all.yaml"
assert_rc 3 "no mon read"
has_line "no mon read" "^warn  mon read: the cluster's status refused .*a run starts, but without telemetry"
has_line "no mon read" "^FAIL  osd map: not received within 3 s"
# and a run with that client says so, rather than wait for the map for ever
cb run "$T/all.yaml" --conf "$CONF" --client "$ID-m" --keyring "$T/nomon.keyring" --timeout 3
assert_rc 3 "a run without the OSD map"
grep -q "the monitors sent no OSD map within 3 s: the client's caps must allow it" "$T/err" ||
	fail "a run without the OSD map: $(cat "$T/err")"

# The test image is made with the workload's features and data_pool, as the
# run makes its images: a data pool that does not exist fails (the test
# image was made without it before, and passed).
cat >"$T/layout.yaml" <<YAML
name: doctor-layout
workloads:
  - { name: r, layer: rbd, pool: rbd, op: randwrite, image_size: 64M, duration: 1s,
      features: "layering,exclusive-lock" }
YAML
cb doctor --conf "$CONF" "$T/layout.yaml"
assert_rc 0 "features"
has_line "features" "^ok    osd caps for images in pool 'rbd': a test image created with features layering,exclusive-lock, marked and removed"
cat >"$T/datapool.yaml" <<YAML
name: doctor-datapool
workloads:
  - { name: r, layer: rbd, pool: rbd, op: randwrite, image_size: 64M, duration: 1s,
      data_pool: $NOPOOL }
YAML
cb doctor --conf "$CONF" "$T/datapool.yaml"
assert_rc 3 "an absent data pool"
has_line "an absent data pool" "^FAIL  osd caps for images in pool 'rbd': a test image with the workload's data pool $NOPOOL refused: the data pool does not exist"

# A pool that does not exist: the hint creates it.
cb doctor --conf "$CONF" "$T/nopool.yaml"
assert_rc 3 "absent pool"
has_line "absent pool" "^FAIL  pool '$NOPOOL': does not exist \(create it: ceph osd pool create $NOPOOL, or name another pool\)\$"

# krbd on this kernel, which has no rbd module (skipped where it has one).
# (modprobe may be absent: then no module can be loaded either)
if [ ! -e /sys/bus/rbd ] && ! modprobe -n rbd >/dev/null 2>&1; then
	cb doctor --conf "$CONF" "$T/krbd.yaml"
	assert_rc 3 "krbd"
	has_line "krbd" "^FAIL  krbd module: this kernel has no rbd module: no /sys/module/rbd, modprobe -n rbd fails"
	# optional: a warning, the run would start (it skips the workload)
	cb doctor --conf "$CONF" -o optional=true "$T/krbd.yaml"
	assert_rc 0 "krbd optional"
	has_line "krbd optional" "^warn  krbd module: .*optional: it is skipped"
fi

# Bad input: exit 2, one line naming the culprit.
cb doctor --conf "$CONF" "$T/missing.yaml"
assert_rc 2 "missing profile"
[ "$(wc -l <"$T/err")" -eq 1 ] || fail "missing profile: $(cat "$T/err")"
grep -q "missing.yaml" "$T/err" || fail "missing profile: $(cat "$T/err")"
cb doctor --conf "$CONF" --no-such-flag
assert_rc 2 "bad flag"
grep -q "no-such-flag" "$T/err" || fail "bad flag: $(cat "$T/err")"

# Nothing left behind: no object, record, image, directory or run directory.
assert_ns_empty "doctor"
for p in "$POOL" rbd; do
	for ns in cephbench cephbench-creating; do
		left=$(rados --conf "$CONF" -p "$p" --namespace "$ns" ls | grep -c cbdoctor || true)
		[ "$left" -eq 0 ] || fail "objects of the doctor left in $p/$ns"
	done
done
! rbd --conf "$CONF" ls rbd | grep -q cbdoctor || fail "a doctor's image left in pool rbd"
tree_now >"$T/tree.after"
cmp -s "$T/tree.before" "$T/tree.after" ||
	fail "/cephbench changed: $(cat "$T/tree.before") -> $(cat "$T/tree.after")"
[ ! -e "$T/rundir" ] || fail "the doctor made the run directory"
echo "doctor: ok"
