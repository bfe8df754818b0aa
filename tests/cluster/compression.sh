#!/usr/bin/env bash
# compressible:PCT on a real BlueStore pool with compression on: a sandbox
# of its own (one BlueStore OSD on a sparse file, tests/sandbox
# SANDBOX_OBJECTSTORE=bluestore; the main sandbox is memstore, which
# compresses nothing), pool bench set to compression_mode force, zlib, 64K
# blobs. After each write the OSD's own counters say what it compressed:
# bluestore_compressed / bluestore_compressed_original is the share of the
# data left, which must be 1 - PCT/100 within 10 % (deflate's literals of
# random bytes cost a few % more), every blob compressed (none rejected),
# and the pool's statistics (ceph df detail, published a few seconds later)
# count the row's bytes as compressed. Random data is rejected blob by blob.
. "$(dirname "$0")/lib.sh"
# its port 200 above the sandbox it is queued on (CMakeLists.txt: the
# fault one; cold.sh's is 300 above it)
bluestore_sandbox 200
bceph osd pool set bench compression_mode force >/dev/null 2>&1
bceph osd pool set bench compression_algorithm zlib >/dev/null 2>&1
bceph osd pool set bench compression_min_blob_size 65536 >/dev/null 2>&1

profile z >/dev/null <<YAML
name: z
workloads:
  - { name: w, layer: rados, pool: bench, op: write, block_size: 1M, max_objects: 200, ramp: 0s,
      duration: 300s }
YAML
for pct in 50 75 random; do
	data=$([ $pct = random ] && echo random || echo "compressible:$pct")
	cb run "$T/z.yaml" --conf "$BCONF" --run-name "z$pct" --no-cleanup --json "$T/z$pct.json" \
		--quiet -o "data=$data"
	assert_rc 0 "writing $data"
	bceph tell osd.0 perf dump >"$T/perf.json"
	/usr/bin/python3 - "$T/perf.json" "$T/z$pct.json" "$pct" <<'PY' || fail "compression of $data: see above"
import json, sys

b = json.load(open(sys.argv[1]))["bluestore"]
row = json.load(open(sys.argv[2]))["phases"][0]
pct = sys.argv[3]
orig, comp = b["bluestore_compressed_original"], b["bluestore_compressed"]
print(f"{pct}: {row['bytes']} bytes written; the OSD compressed {orig} to {comp} "
      f"({comp / orig if orig else 0:.3f}), {b['compress_success_count']} blobs compressed, "
      f"{b['compress_rejected_count']} rejected")
if pct == "random":
    assert orig == 0 and b["compress_rejected_count"] > 0, "random data compressed"
else:
    want = 1 - int(pct) / 100
    assert orig == row["bytes"] == 200 << 20, "not every byte written went through compression"
    assert b["compress_rejected_count"] == 0
    assert abs(comp / orig / want - 1) <= 0.10, f"{comp / orig:.3f} is not {want} within 10 %"
PY
	# the pool's view, published with the OSD's next stats report
	if [ "$pct" != random ]; then
		ok=""
		for _ in $(seq 1 60); do
			under=$(bceph df detail -f json | /usr/bin/python3 -c '
import json, sys
print(next(p["stats"]["compress_under_bytes"] for p in json.load(sys.stdin)["pools"] if p["name"] == "bench"))')
			[ "$under" = $((200 << 20)) ] && ok=1 && break
			sleep 1
		done
		[ -n "$ok" ] || fail "$data: the pool counts $under bytes compressed, not $((200 << 20))"
		echo "$pct: the pool counts $under bytes compressed"
	fi
	cb cleanup --conf "$BCONF" --pool bench --run-name "z$pct"
	assert_rc 0 "cleanup of z$pct"
done
echo "compression: ok"
