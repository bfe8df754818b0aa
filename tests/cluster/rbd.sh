#!/usr/bin/env bash
# The RBD layer: every op runs and reports in the common JSON; a limited
# write reports what the cluster allocated; verify passes on the prefill
# pattern (rw, randrw: their writes keep it) and catches data changed
# behind cephbench's back; rw_mix_read is honoured; reuse keeps images and
# skips the repeated prefill; images: N creates N images; cleanup removes
# them all.
. "$(dirname "$0")/rbd_lib.sh"

assert_no_images "before the test"

# 1. Every op, the reads with prefill and verify (rw and randrw write the
#    pattern they verify), in one profile: valid JSON, the phases in order,
#    the read/write split agrees with the op, no errors.
p=$(sed "s/POOL/$RBD_POOL/" <<'YAML' | profile ops
name: ops
defaults: { layer: rbd, pool: POOL, image_size: 64M, duration: 1s, concurrency: 8 }
workloads:
  - { name: write, op: write }
  - { name: randwrite, op: randwrite }
  - { name: read, op: read, prefill: true, verify: true }
  - { name: randread, op: randread, prefill: true, verify: true }
  - { name: rw, op: rw, prefill: true, verify: true }
  - { name: randrw, op: randrw, prefill: true, verify: true }
YAML
)
cb run "$p" --conf "$CONF" --run-name ops --json "$T/ops.json" --quiet
assert_rc 0 "every op"
assert_valid_json "$T/ops.json" "every op"
"$(dirname "$0")/block_phases.py" "$T/ops.json" rbd "$RBD_POOL" $((64 << 20)) \
	write:write randwrite:randwrite read.prefill:prefill read:read \
	randread.prefill:prefill randread:randread rw.prefill:prefill rw:rw \
	randrw.prefill:prefill randrw:randrw || fail "every op: see above"
assert_no_images "after the every-op run"

# 2. A sequential write of a fresh image limited by bytes: what cephbench
#    reports is what the cluster allocated (rbd du), within one 4M object.
cb rbd -p "$RBD_POOL" --conf "$CONF" --image-size 256M --io-size 64K --io-total 48M \
	--run-name du --no-cleanup --format json
assert_rc 0 "limited write"
cp "$T/out" "$T/du.json"
assert_valid_json "$T/du.json" "limited write"
image_exists cephbench.du.0 || fail "--no-cleanup did not keep cephbench.du.0"
used=$(image_used cephbench.du.0)
/usr/bin/python3 - "$T/du.json" "$used" <<'PY' || fail "limited write: see above"
import json, sys
p = json.load(open(sys.argv[1]))["phases"][0]
used = int(sys.argv[2])
print(f"limited write: cephbench {p['bytes']} bytes, rbd du {used} bytes")
assert p["layer"] == "rbd" and p["op"] == "write" and p["errors"] == 0
assert p["bytes"] >= 48 << 20, "the bytes limit was not reached"
assert p["write_bytes"] == p["bytes"]
assert abs(p["bytes"] - used) <= 4 << 20, "reported and allocated bytes differ by more than 4M"
PY
[ "$(image_meta cephbench.du.0 cephbench.run)" = du ] || fail "cephbench.du.0 lacks cephbench.run=du"
[ -z "$(image_meta cephbench.du.0 cephbench.content)" ] ||
	fail "a write of 48M of 256M marked the image filled: $(image_meta cephbench.du.0 cephbench.content)"
cb cleanup --pool "$RBD_POOL" --conf "$CONF" --run-name du
assert_rc 0 "cleanup du"
assert_no_images "after cleanup --run-name du"

# 3. Verify: reads after a prefill pass; after a write behind cephbench's
#    back (the rbd tool), a reuse run's verified read fails with exit 3.
cb rbd -p "$RBD_POOL" --conf "$CONF" --image-size 64M --io-type read --prefill --reuse --verify \
	--duration 1 --run-name vf --format json
assert_rc 0 "verified read after prefill"
cp "$T/out" "$T/vf.json"
/usr/bin/python3 - "$T/vf.json" <<'PY' || fail "verified read: see above"
import json, sys
ph = {p["name"]: p for p in json.load(open(sys.argv[1]))["phases"]}
assert set(ph) == {"read.prefill", "read"}, "phases: %s" % list(ph)
assert ph["read"]["read_ops"] > 0 and ph["read"]["errors"] == 0, "verified read: errors"
PY
[ "$(image_meta cephbench.vf.0 cephbench.content)" = pattern ] || fail "a prefill did not mark the image 'pattern'"
rbdc bench --io-type write --io-size 4K --io-total 64K --io-pattern seq "$RBD_POOL/cephbench.vf.0" \
	>"$T/bench.out" 2>&1 || fail "rbd bench: $(cat "$T/bench.out")"
cb rbd -p "$RBD_POOL" --conf "$CONF" --image-size 64M --io-type read --reuse --verify \
	--duration 2 --run-name vf --quiet
assert_rc 3 "verified read of changed data"
grep -q "verify failed: the data read is not what was written" "$T/err" ||
	fail "verified read of changed data: $(cat "$T/err")"
grep -q "cephbench.vf.0" "$T/err" || fail "the verify error does not name the image: $(cat "$T/err")"
cb cleanup --pool "$RBD_POOL" --conf "$CONF" --run-name vf
assert_rc 0 "cleanup vf"
assert_no_images "after cleanup --run-name vf"

# 4. rw_mix_read: 70 -> 70 % of a randrw run's ops read (+-2 points). A
#    count, not a duration: 10000 ops put 2 points at 4.4 standard
#    deviations, however fast the cluster.
cb rbd -p "$RBD_POOL" --conf "$CONF" --image-size 64M --io-type readwrite --io-pattern rand \
	--rw-mix-read 70 --prefill --ops 10000 --run-name mix --format json
assert_rc 0 "randrw 70"
cp "$T/out" "$T/mix.json"
/usr/bin/python3 - "$T/mix.json" <<'PY' || fail "rw_mix_read: see above"
import json, sys
p = json.load(open(sys.argv[1]))["phases"][-1]
assert p["op"] == "randrw", "last phase: " + p["op"]
share = 100 * p["read_ops"] / p["ops"]
print(f"randrw 70: {p['ops']} ops, {p['read_ops']} reads: {share:.2f} %")
assert p["ops"] == 10000 and p["errors"] == 0, "ops %d, errors %d" % (p["ops"], p["errors"])
assert abs(share - 70) <= 2, "read share %.2f %%, expected 70 +- 2" % share
PY
assert_no_images "after the randrw run"

# 5. reuse: the image stays, the second run skips the prefill, cleanup
#    --run-name removes it.
for i in 1 2; do
	cb rbd -p "$RBD_POOL" --conf "$CONF" --image-size 64M --io-type read --io-pattern rand \
		--prefill --reuse --duration 1 --run-name reuse --format json
	assert_rc 0 "reuse run $i"
	cp "$T/out" "$T/reuse$i.json"
	assert_valid_json "$T/reuse$i.json" "reuse run $i"
	image_exists cephbench.reuse.0 || fail "reuse run $i did not keep cephbench.reuse.0"
done
/usr/bin/python3 - "$T/reuse1.json" "$T/reuse2.json" <<'PY' || fail "reuse: see above"
import json, sys
names = [[p["name"] for p in json.load(open(f))["phases"]] for f in sys.argv[1:]]
print("reuse: phases", names)
assert names[0] == ["randread.prefill", "randread"], "first run: %s" % names[0]
assert names[1] == ["randread"], "second run repeated the prefill: %s" % names[1]
PY
cb cleanup --pool "$RBD_POOL" --conf "$CONF" --run-name reuse
assert_rc 0 "cleanup reuse"
grep -q "removed 1 images of run 'reuse'" "$T/out" || fail "cleanup reuse reported: $(cat "$T/out")"
assert_no_images "after cleanup --run-name reuse"

# 6. images: 3 creates three images, each written (seq ops interleave over
#    them), and cleanup removes all three.
cb rbd -p "$RBD_POOL" --conf "$CONF" --image-size 64M --images 3 --duration 1 --run-name multi \
	--no-cleanup --quiet
assert_rc 0 "images: 3"
got=$(cb_images | tr '\n' ' ')
[ "$got" = "cephbench.multi.0 cephbench.multi.1 cephbench.multi.2 " ] || fail "images: 3 made: $got"
for i in 0 1 2; do
	[ "$(image_used cephbench.multi.$i)" -gt 0 ] || fail "images: 3: cephbench.multi.$i was not written"
done
cb cleanup --pool "$RBD_POOL" --conf "$CONF" --run-name multi
assert_rc 0 "cleanup multi"
grep -q "removed 3 images of run 'multi'" "$T/out" || fail "cleanup multi reported: $(cat "$T/out")"
assert_no_images "after cleanup --run-name multi"
echo ok
