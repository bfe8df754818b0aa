#!/usr/bin/env bash
# RADOS reads that verify, on the sandbox: a write with pattern: true leaves
# objects whose every byte is the documented pattern (recomputed here in
# Python and read back through python3-rados, never by cephbench); seq,
# rand (also of objects of sizes that vary) and a mix's reads verify with
# no error, and a mix's writes keep the pattern; 8 bytes changed behind
# cephbench's back make a verified read fail on that object and offset
# (exit 3, one line); verify on a read of a write of data is refused at
# setup (exit 2, one line).
. "$(dirname "$0")/lib.sh"

profile v >/dev/null <<YAML
name: v
defaults: { ramp: 0s, layer: rados, pool: $POOL }
workloads:
  - { name: w, op: write, pattern: true, block_size: 16K, object_size: 64K, max_objects: 200,
      clients: 2 }
  - { name: s, op: seq, verify: true }
  - { name: r, op: rand, verify: true, ops: 2000, distribution: zipf:1.1 }
  - { name: m, op: mix, verify: true, ops: 3000, mix: { read: 60, write: 30, stat: 10 } }
  - { name: s2, op: seq, verify: true, block_size: 8K }
YAML
cb run "$T/v.yaml" --conf "$CONF" --run-name v --no-cleanup --json "$T/v.json"
assert_rc 0 "verified reads"
(cd "$T" && timeout 300 /usr/bin/python3 - "$CONF" "$POOL" "$T/v.json" "$HERE") <<'PY' || fail "the pattern: see above"
import json, struct, sys
import rados

sys.path.insert(0, sys.argv.pop())  # tests/cluster: the pattern's splitmix64
from krbd_pattern import splitmix64 as splitmix


def pattern(client, idx, size):
    key = splitmix((client << 40) ^ idx ^ 0x7261646F73)
    return struct.pack(f"<{size // 8}Q", *(splitmix(key ^ k) for k in range(size // 8)))


c = rados.Rados(conffile=sys.argv[1])
c.connect(timeout=60)
io = c.open_ioctx(sys.argv[2])
io.set_namespace("cephbench")
bad = 0
for client in (0, 1):
    for idx in range(200):
        if io.read(f"v.c{client}.{idx}", 65536) != pattern(client, idx, 65536):
            bad += 1
rec = {p["name"]: p for p in json.load(open(sys.argv[3]))["phases"]}
print(f"{400 - bad} of 400 objects hold the pattern after the mix's writes;",
      ", ".join(f"{n}: {rec[n]['ops']} ops, {rec[n]['errors']} errors" for n in rec))
assert bad == 0
assert all(rec[n]["errors"] == 0 for n in rec)
assert rec["s"]["ops"] == 1600 and rec["s2"]["ops"] == 3200
assert rec["m"]["by_op"]["write"]["ops"] > 0 and rec["m"]["by_op"]["read"]["ops"] > 0
PY

# 8 bytes of one object changed behind cephbench's back
(cd "$T" && timeout 60 /usr/bin/python3 - "$CONF" "$POOL") <<'PY' || fail "changing an object"
import sys
import rados

c = rados.Rados(conffile=sys.argv[1])
c.connect(timeout=60)
io = c.open_ioctx(sys.argv[2])
io.set_namespace("cephbench")
io.write("v.c1.7", b"\xff" * 8, 20000)
PY
profile vs >/dev/null <<YAML
name: v
workloads:
  - { name: s, layer: rados, pool: $POOL, op: seq, verify: true, ramp: 0s }
YAML
cb run "$T/vs.yaml" --conf "$CONF" --run-name v --no-cleanup --quiet
assert_rc 3 "a changed object"
one_line "a changed object" "object v.c1.7 offset 16384" "verify failed"

# objects of sizes that vary, read at random and verified
profile vz >/dev/null <<YAML
name: vz
defaults: { ramp: 0s, layer: rados, pool: $POOL }
workloads:
  - { name: w, op: write, pattern: true, object_size: 4K-64K, max_objects: 300 }
  - { name: r, op: rand, verify: true, ops: 2000 }
YAML
cb run "$T/vz.yaml" --conf "$CONF" --quiet --json "$T/vz.json"
assert_rc 0 "verified reads of sizes that vary"

# a write of data: nothing to verify against
profile vd >/dev/null <<YAML
name: vd
defaults: { ramp: 0s, layer: rados, pool: $POOL }
workloads:
  - { name: w, op: write, block_size: 4K, max_objects: 10 }
  - { name: s, op: seq, verify: true }
YAML
cb run "$T/vd.yaml" --conf "$CONF" --quiet
assert_rc 2 "verify of data"
one_line "verify of data" "workload 's': verify: run 'vd' wrote data, not the verify pattern: give its write pattern: true"
echo "rados verify: ok"
