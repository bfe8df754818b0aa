#!/usr/bin/env bash
# Access distributions, coverage and seeds on the sandbox, seen in what the
# layers asked the cluster for (CEPHBENCH_OP_TRACE, src/op_trace.h) and in
# the image itself (rbd export, never cephbench): zipf's hottest 1 % of
# blocks and of objects take the share the distribution gives; coverage
# writes every block of an image once (no block left zero, where uniform
# draws leave about a third); the same seed twice makes the same op
# sequence per client and the same image, another seed another; a
# workload's clients share one hot set.
. "$(dirname "$0")/rbd_lib.sh"
FS=${CEPHBENCH_TEST_FS:-cephfs}
trap '"$CEPHBENCH" cleanup --conf "$CONF" --fs "$FS" --all --quiet >/dev/null 2>&1 || true; rbd_at_exit' EXIT

profile z >/dev/null <<YAML
name: z
defaults: { ramp: 0s, block_size: 4K }
workloads:
  - { name: img, layer: rbd, pool: $RBD_POOL, op: randwrite, image_size: 64M, ops: 12000,
      concurrency: 8, distribution: zipf:1.2 }
  - { name: obj-w, layer: rados, pool: $POOL, op: write, max_objects: 1000 }
  - { name: obj, layer: rados, pool: $POOL, op: rand, ops: 12000, distribution: zipf:0.9 }
YAML
traced z "$T/z.yaml"
assert_rc 0 "zipf runs"
/usr/bin/python3 - "$T/z.trace" <<'PY' || fail "zipf's shares: see above"
import collections, sys

blocks = collections.defaultdict(collections.Counter)
name = None
for line in open(sys.argv[1]):
    if line.startswith("#"):
        name = line.split()[1]
        continue
    w = int(line.split()[0])
    # rbd: image << 48 | offset; rados: the block (4K objects: the object)
    blocks[name][(w & ((1 << 48) - 1)) // 4096 if name == "img" else w] += 1


def zipf_share(theta, k, n):
    w = [i ** -theta for i in range(1, n + 1)]
    return sum(w[:k]) / sum(w)


bad = False
for name, theta, n in (("img", 1.2, 16384), ("obj", 0.9, 1000)):
    c = blocks[name]
    ops = sum(c.values())
    k = n // 100
    got = sum(v for _, v in c.most_common(k)) / ops
    want = zipf_share(theta, k, n)
    print(f"{name}: {ops} ops over {len(c)} of {n} targets; the hottest {k} took "
          f"{got:.3f}, zipf:{theta} gives {want:.3f}")
    if ops != 12000 or abs(got - want) > 0.03:
        bad = True
sys.exit(1 if bad else 0)
PY

# coverage: every 4K block of a 16M image written once; uniform leaves
# about e^-1 of them unwritten (zero in the export)
zero_blocks() { # IMAGE
	rbdc export --no-progress "$RBD_POOL/$1" - 2>/dev/null | /usr/bin/python3 -c '
import sys
data = sys.stdin.buffer.read()
z = bytes(4096)
print(sum(data[i:i + 4096] == z for i in range(0, len(data), 4096)))'
}
for mode in cov uni; do
	extra=$([ $mode = cov ] && echo ", coverage: true" || true)
	profile "$mode" >/dev/null <<YAML
name: $mode
workloads:
  - { name: w, layer: rbd, pool: $RBD_POOL, op: randwrite, block_size: 4K, image_size: 16M,
      ops: 4096, concurrency: 4$extra }
YAML
	traced "$mode" "$T/$mode.yaml" --no-cleanup
	assert_rc 0 "$mode"
	eval "zeros_$mode=\$(zero_blocks cephbench.$mode.0)"
	cb cleanup --conf "$CONF" --pool "$RBD_POOL" --run-name "$mode"
	assert_rc 0 "cleanup of $mode"
done
# shellcheck disable=SC2154 # set by eval above
{
	[ "$zeros_cov" = 0 ] || fail "coverage left $zeros_cov of 4096 blocks unwritten"
	[ "$zeros_uni" -gt 1200 ] && [ "$zeros_uni" -lt 1800 ] ||
		fail "uniform left $zeros_uni of 4096 blocks unwritten, not about 1507"
}
[ "$(grep -vc '^#' "$T/cov.trace")" = 4096 ] && [ "$(grep -v '^#' "$T/cov.trace" | cut -d' ' -f1 | sort -u | wc -l)" = 4096 ] ||
	fail "coverage's trace: not 4096 distinct blocks"

# seeds: the same seed twice, the same ops per client and the same image
profile s >/dev/null <<YAML
name: s
workloads:
  - { name: img, layer: rbd, pool: $RBD_POOL, op: randwrite, block_size: 4K, image_size: 16M,
      ops: 2000, concurrency: 1, distribution: pareto:0.8 }
  - { name: fs, layer: cephfs, fs: $FS, op: randwrite, block_size: 4K, file_size: 4M, files: 2,
      ops: 3000, clients: 2, distribution: zipf:1.2 }
YAML
for n in 1 2 3; do
	seed=$([ $n = 3 ] && echo 8 || echo 7)
	traced "s$n" "$T/s.yaml" -o "seed=$seed" --no-cleanup
	assert_rc 0 "seed run $n"
	eval "sum_$n=\$(image_sum cephbench.s$n.0)"
	cb cleanup --conf "$CONF" --pool "$RBD_POOL" --fs "$FS" --run-name "s$n"
	assert_rc 0 "cleanup of s$n"
done
/usr/bin/python3 - "$T/s1.trace" "$T/s2.trace" "$T/s3.trace" "$T/s1.json" <<'PY' || fail "seeds: see above"
import collections, json, sys


def ops(path):
    out, key = {}, None
    for line in open(path):
        if line.startswith("#"):
            key = tuple(line.split()[1:])
            out[key] = []
        else:
            out[key].append(int(line.split()[0]))
    return out


a, b, c = (ops(p) for p in sys.argv[1:4])
assert sorted(a) == sorted(b) == sorted(c), (sorted(a), sorted(c))
assert len(a) == 3, sorted(a)  # img, fs client 0, fs client 1
for k in a:
    assert a[k] == b[k], f"{k}: seed 7 twice, different ops"
    assert a[k] != c[k], f"{k}: seeds 7 and 8, the same ops"
# the clients of a workload share its hot set: the same three hottest
# blocks (zipf:1.2 over 2048: ranks 3 and 4 drawn about 186 and 131 times)
hot = [collections.Counter(a[k]).most_common(3) for k in sorted(a) if k[0] == "fs"]
assert len(hot) == 2 and {w for w, _ in hot[0]} == {w for w, _ in hot[1]}, hot
p = {x["name"]: x for x in json.load(open(sys.argv[4]))["phases"]}
assert p["img"]["params"]["seed"] == 7 and p["fs"]["params"]["seed"] == 7
PY
# shellcheck disable=SC2154 # set by eval above
{
	[ "$sum_1" = "$sum_2" ] || fail "seed 7 twice: the images differ"
	[ "$sum_1" != "$sum_3" ] || fail "seeds 7 and 8: the same image"
}
echo "ok"
