#!/usr/bin/env bash
# Sizes as a distribution on the sandbox, seen on the cluster (librados
# through python3-rados, the OSDs' counters) and in what the layers asked
# for (CEPHBENCH_OP_TRACE, src/op_trace.h), never in cephbench's own
# figures alone:
# - rados block_size weights over 10,000 objects: the objects' sizes on the
#   cluster take the weights' shares within 2 points, every size is one of
#   the weights', the row's bytes are the objects' bytes, and a seq read of
#   them reads each whole (their bytes again, no short read);
# - rados object_size as a range: every object a 4K multiple inside it;
# - rbd block_size range: every op a 4K multiple inside the range at a 4K
#   offset inside the image, the 16 sizes about 1/16 each, the OSDs counted
#   the row's bytes; a seq write of weights goes on where the last ended;
# - cephfs weights: the mix within 2 points;
# - the same seed twice, the same sizes and offsets.
. "$(dirname "$0")/rbd_lib.sh"
FS=${CEPHBENCH_TEST_FS:-cephfs}
trap '"$CEPHBENCH" cleanup --conf "$CONF" --fs "$FS" --all --quiet >/dev/null 2>&1 || true; rbd_at_exit' EXIT

profile o >/dev/null <<YAML
name: o
defaults: { ramp: 0s, layer: rados, pool: $POOL }
workloads:
  - { name: w, op: write, block_size: { 1K: 60, 4K: 30, 16K: 10 }, block_align: 1K,
      max_objects: 10000, concurrency: 16, duration: 300s }
  - { name: r, op: seq }
YAML
traced o "$T/o.yaml" --no-cleanup
assert_rc 0 "rados size weights"
profile os >/dev/null <<YAML
name: os
workloads:
  - { name: w, layer: rados, pool: $POOL, op: write, object_size: 8K-64K, max_objects: 2000, duration: 300s,
      ramp: 0s }
YAML
traced os "$T/os.yaml" --no-cleanup
assert_rc 0 "rados object_size range"
(cd "$T" && timeout 300 /usr/bin/python3 - "$CONF" "$POOL" "$T/o.json" "$T/os.json") <<'PY' || fail "rados sizes: see above"
import collections, json, sys
import rados

c = rados.Rados(conffile=sys.argv[1])
c.connect(timeout=60)
io = c.open_ioctx(sys.argv[2])
io.set_namespace("cephbench")
sizes = collections.Counter(io.stat(f"o.c0.{i}")[0] for i in range(10000))
rec = {p["name"]: p for p in json.load(open(sys.argv[3]))["phases"]}
total = sum(s * n for s, n in sizes.items())
bad = []
print("object sizes on the cluster:", dict(sorted(sizes.items())))
if set(sizes) != {1024, 4096, 16384}:
    bad.append(f"sizes {sorted(sizes)} are not the weights' 1K, 4K, 16K")
for size, weight in ((1024, 60), (4096, 30), (16384, 10)):
    share = 100 * sizes[size] / 10000
    print(f"{size}: {share:.2f} % of objects, weight {weight}")
    if abs(share - weight) > 2:
        bad.append(f"{size}: {share:.2f} % of objects, not {weight} within 2")
for n in ("w", "r"):
    p = rec[n]
    if p["ops"] != 10000 or p["bytes"] != total or p["errors"]:
        bad.append(f"{n}: {p['ops']} ops, {p['bytes']} bytes, {p['errors']} errors; the "
                   f"cluster holds {total} bytes in 10000 objects")
    if p["sizes"]["asked"] != "1K:60,4K:30,16K:10" or abs(p["sizes"]["mean"] - total / 10000) > 1e-6:
        bad.append(f"{n}: sizes {p['sizes']}, objects' mean {total / 10000}")
# object_size 8K-64K: the 15 multiples of 4K, evenly
osz = [io.stat(f"os.c0.{i}")[0] for i in range(2000)]
p = json.load(open(sys.argv[4]))["phases"][0]
print(f"object_size range: {min(osz)}-{max(osz)}, {len(set(osz))} distinct, mean {sum(osz) / 2000:.0f}")
if not (all(s % 4096 == 0 and 8192 <= s <= 65536 for s in osz) and len(set(osz)) == 15
        and p["bytes"] == sum(osz) and p["sizes"]["asked"] == "8K-64K"
        and abs(sum(osz) / 2000 - (8192 + 65536) / 2) < 2000):
    bad.append("object_size 8K-64K: not the range's multiples of 4K, evenly, as the row says")
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY
for run in o os; do
	cb cleanup --conf "$CONF" --pool "$POOL" --run-name "$run"
	assert_rc 0 "cleanup of $run"
done

# rbd: a range at random, weights in sequence; cephfs: weights at random
profile b >/dev/null <<YAML
name: b
defaults: { ramp: 0s }
workloads:
  - { name: img, layer: rbd, pool: $RBD_POOL, op: randwrite, image_size: 64M, ops: 10000,
      block_size: 4K-64K, concurrency: 8, seed: 5 }
  - { name: seq, layer: rbd, pool: $RBD_POOL, op: write, image_size: 64M, ops: 300,
      block_size: { 4K: 50, 1M: 50 }, concurrency: 1 }
  - { name: fs, layer: cephfs, fs: $FS, op: randwrite, file_size: 8M, files: 2, ops: 10000,
      block_size: { 4K: 70, 16K: 20, 64K: 10 } }
YAML
traced b "$T/b.yaml"
assert_rc 0 "rbd and cephfs sizes"
cp "$T/b.trace" "$T/b1.trace"
/usr/bin/python3 - "$T/b.trace" "$T/b.json" <<'PY' || fail "rbd and cephfs sizes: see above"
import collections, json, sys

ops = collections.defaultdict(list)
name = None
for line in open(sys.argv[1]):
    if line.startswith("#"):
        name = line.split()[1]
        continue
    w, n = map(int, line.split())
    ops[name].append((w & ((1 << 48) - 1), n))
rec = {p["name"]: p for p in json.load(open(sys.argv[2]))["phases"]}
bad = []
img = ops["img"]
lens = collections.Counter(n for _, n in img)
print(f"img: {len(img)} ops, {len(lens)} sizes, shares {min(lens.values()) / len(img):.4f}-"
      f"{max(lens.values()) / len(img):.4f} (1/16 = 0.0625)")
if len(img) != 10000 or set(lens) != {k * 4096 for k in range(1, 17)}:
    bad.append(f"img sizes: {sorted(lens)}")
if any(abs(v / len(img) - 1 / 16) > 0.02 for v in lens.values()):
    bad.append(f"img: a size's share is not 1/16 within 2 points: {lens}")
if any(o % 4096 or o + n > 64 << 20 for o, n in img):
    bad.append("img: an op off a 4K offset or past the image's end")
if rec["img"]["bytes"] != sum(n for _, n in img):
    bad.append(f"img: the row's bytes {rec['img']['bytes']} are not the ops' {sum(n for _, n in img)}")
osd = rec["img"]["telemetry"]["cluster"]
print(f"img: the OSDs counted {osd['bytes']} bytes written, the row {rec['img']['bytes']}")
if abs(osd["bytes"] - rec["img"]["bytes"]) > 0.01 * rec["img"]["bytes"]:
    bad.append("img: the OSDs' bytes written are not the row's within 1 %")
# in sequence: each op where the last ended, back at 0 where the next would pass the end
seq, at = ops["seq"], 0
for o, n in seq:
    if at + n > 64 << 20:
        at = 0
    if o != at:
        bad.append(f"seq: an op at {o}, not {at}")
        break
    at = o + n
fs = collections.Counter(n for _, n in ops["fs"])
for size, weight in ((4096, 70), (16384, 20), (65536, 10)):
    share = 100 * fs[size] / sum(fs.values())
    print(f"fs {size}: {share:.2f} % of ops, weight {weight}")
    if abs(share - weight) > 2:
        bad.append(f"fs {size}: {share:.2f} %, not {weight} within 2")
if sum(fs.values()) != 10000 or set(fs) != {4096, 16384, 65536}:
    bad.append(f"fs: {sum(fs.values())} ops of sizes {sorted(fs)}")
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY

# the same seed again: the same sizes at the same offsets
traced b "$T/b.yaml"
assert_rc 0 "rbd and cephfs sizes again"
/usr/bin/python3 - "$T/b1.trace" "$T/b.trace" <<'PY' || fail "a seed's sizes: see above"
import sys

def ops(path):
    out, key = {}, None
    for line in open(path):
        if line.startswith("#"):
            key = line.split()[1]
        elif key == "img":
            out.setdefault(key, []).append(line)
    return out["img"]

a, b = (ops(p) for p in sys.argv[1:3])
print(f"img: {len(a)} and {len(b)} ops, {sum(x == y for x, y in zip(a, b))} the same")
sys.exit(0 if a == b and len(a) == 10000 else 1)
PY
echo "sizes: ok"
