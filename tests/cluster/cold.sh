#!/usr/bin/env bash
# Cold by choice (issue 42, item 2) on BlueStore, whose OSD keeps a cache of
# onodes (the main sandbox's memstore keeps none): a sandbox of its own,
# one OSD. Objects and an image are written once and kept; then reads run
# alternately warm and cold, and the OSD's own counter (onode_misses, from
# `ceph tell osd.0 perf dump`) says what each read found cached: a cold
# read misses on about every object it reads (the drop emptied the
# cache), a warm one on next to none (the negative control). A client
# whose caps refuse `cache drop` gets one note, and the run goes on.
. "$(dirname "$0")/lib.sh"
# its port 300 above the sandbox it is queued on (CMakeLists.txt: the
# fault one; compression.sh's is 200 above it)
bluestore_sandbox 300
misses() {
	bceph tell osd.0 perf dump bluestore |
		/usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)["bluestore"]["onode_misses"])'
}

# read MODE WHAT NOBJ CMD...: run a read (cold with MODE cold), its JSON in
# $T/WHAT-MODE.json, and check the OSD's onode misses over it against the
# NOBJ objects it reads
read_once() {
	local mode=$1 what=$2 nobj=$3
	shift 3
	local flag=() before after
	[ "$mode" = cold ] && flag=(--cold)
	before=$(misses)
	cb "$@" --conf "$BCONF" --no-cleanup --quiet --json "$T/$what-$mode.json" "${flag[@]}"
	assert_rc 0 "$what $mode read"
	after=$(misses)
	/usr/bin/python3 - "$T/$what-$mode.json" "$mode" "$nobj" "$((after - before))" <<'PY' ||
import json, sys
r, mode, nobj, missed = json.load(open(sys.argv[1])), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
row = r["phases"][-1]
print(f'{row["name"]} {mode}: {missed} onode misses for {nobj} objects, cold: {row.get("cold")}')
if mode == "cold":
    c = row["cold"]
    assert c["osds"] == 1 and c["osds_dropped"] == 1 and c["note"] is None, c
    # every object read was looked up anew
    assert missed >= 0.9 * nobj, (missed, nobj)
else:
    assert "cold" not in row, row["cold"]
    assert missed < 0.2 * nobj, (missed, nobj)
PY
		fail "$what $mode: see above"
}

# RADOS: 300 objects of 4K; 3000 random reads touch every one of them
cb rados --conf "$BCONF" -p bench write -b 4K -t 4 --max-objects 300 --duration 120 \
	--run-name cold --no-cleanup --quiet
assert_rc 0 "writing 300 objects"
for mode in warm cold warm cold; do
	read_once "$mode" rados 300 rados -p bench rand -t 4 --ops 3000 --run-name cold
done

# RBD: an image of 256 objects of 64K, filled once and reused; its reads
# open it anew, and a cold one finds the OSD's cache empty
rbdargs=(rbd --io-type read --io-pattern rand --io-size 4K --io-threads 4 --image-size 16M
	--object-size 64K --prefill --reuse --run-name cold --pool rbd)
cb "${rbdargs[@]}" --io-total 4M --conf "$BCONF" --no-cleanup --quiet
assert_rc 0 "filling the image"
for mode in warm cold warm cold; do
	read_once "$mode" rbd 256 "${rbdargs[@]}" --ops 3000
done

# a client whose caps refuse `cache drop`: one note naming the cap, the
# read runs and is recorded as not dropped
bceph auth get-or-create client.nodrop mon 'allow r' mgr 'allow r' \
	osd 'allow rwx pool=bench' -o "$T/nodrop.keyring" >/dev/null
cb rados -p bench rand -t 4 --ops 300 --run-name cold --cold --conf "$BCONF" --no-cleanup \
	--id nodrop --keyring "$T/nodrop.keyring" --no-preflight --json "$T/nodrop.json"
assert_rc 0 "a cold read whose client may not drop caches"
# (the lines on telemetry's counters and on the earlier run's objects aside)
grep -v -e '^telemetry: ' -e 'an earlier run named' "$T/err" >"$T/err.cold" || true
mv "$T/err.cold" "$T/err"
one_line "cold without the caps" "workload 'rand': cold: 1 of 1 OSDs kept their caches" \
	"it needs osd 'allow *'"
/usr/bin/python3 - "$T/nodrop.json" <<'PY' || fail "nodrop: see above"
import json, sys
c = json.load(open(sys.argv[1]))["phases"][-1]["cold"]
assert c["osds"] == 1 and c["osds_dropped"] == 0 and "allow *" in c["note"], c
PY

"$CEPHBENCH" cleanup --conf "$BCONF" --all --pool bench --quiet
"$CEPHBENCH" cleanup --conf "$BCONF" --all --pool rbd --quiet
echo ok
