#!/usr/bin/env bash
# What the written objects hold, read back through librados (python3-rados,
# never cephbench): compressible:60 objects compress (zlib) to about 40 %
# of their size, random ones not at all; zero objects are zeros; dedupe:50
# makes about half the blocks one repeated block and the rest distinct;
# random without refill repeats the op slots' contents, with refill every
# object is its own; the same seed twice writes the same bytes (with refill:
# without, which op slot serves which write depends on completion order). The sandbox
# runs memstore OSDs, which compress nothing: zlib looks at the contents
# here, compression.sh at a BlueStore pool's compression counters.
. "$(dirname "$0")/lib.sh"

profile d >/dev/null <<YAML
name: d
defaults: { ramp: 0s, layer: rados, pool: $POOL, op: write, block_size: 16K, max_objects: 600,
            concurrency: 8 }
workloads:
  - { name: w }
YAML
for mode in compressible:60 zero dedupe:50 random refill seed7a seed7b; do
	run=$(echo "$mode" | tr -c 'a-z0-9\n' _)
	case $mode in
	refill) set -- -o refill=true ;;
	seed7*) set -- -o seed=7 -o data=compressible:30 -o refill=true ;;
	*) set -- -o "data=$mode" ;;
	esac
	cb run "$T/d.yaml" --conf "$CONF" --run-name "$run" --no-cleanup --quiet --json "$T/$run.json" "$@"
	assert_rc 0 "data $mode"
done

timeout 300 /usr/bin/python3 - "$CONF" "$POOL" <<'PY' || fail "the objects' contents: see above"
import collections, hashlib, sys, zlib
import rados

c = rados.Rados(conffile=sys.argv[1])
c.connect(timeout=60)
io = c.open_ioctx(sys.argv[2])
io.set_namespace("cephbench")


def blocks(run):
    out = [io.read(f"{run}.c0.{i}", 1 << 20) for i in range(600)]
    assert all(len(b) == 16384 for b in out), run
    return out


def ratio(bs):
    return sum(len(zlib.compress(b, 6)) for b in bs) / sum(len(b) for b in bs)


bad = []
comp, rnd = blocks("compressible_60"), blocks("random")
r = ratio(comp)
print(f"compressible:60 compresses to {r:.3f}, random to {ratio(rnd):.3f}")
if not 0.36 <= r <= 0.44 or ratio(rnd) < 0.99:
    bad.append("compression ratios")
if any(b.count(0) != len(b) for b in blocks("zero")):
    bad.append("zero: a block holds other bytes")
dd = collections.Counter(hashlib.sha256(b).digest() for b in blocks("dedupe_50"))
top, n = dd.most_common(1)[0][1], len(dd)
print(f"dedupe:50: the repeated block {top} times of 600, {n} distinct")
# 600 draws at 50 %: a standard deviation of 12
if not 250 <= top <= 350 or n != 600 - top + 1:
    bad.append("dedupe's shares")
kinds = len({hashlib.sha256(b).digest() for b in rnd})
refilled = len({hashlib.sha256(b).digest() for b in blocks("refill")})
print(f"random: {kinds} distinct blocks of 600 (8 slots); refill: {refilled}")
if kinds > 8 or refilled != 600:
    bad.append("refill")
if blocks("seed7a") != blocks("seed7b"):
    bad.append("seed 7 twice: different bytes")
for b in bad:
    print(b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
/usr/bin/python3 - "$T/compressible_60.json" <<'PY' || fail "data in the record"
import json, sys
p = json.load(open(sys.argv[1]))["phases"][0]
assert p["params"]["data"] == "compressible:60" and p["params"]["refill"] is False, p["params"]
PY
echo "ok"
