#!/usr/bin/env bash
# A mixed workload's reads and writes apart (by_op) on a real RBD image: the
# kinds add up to the row, the OSDs counted as many reads and as many writes
# as the kinds say, the text says each, compare sets kind beside kind and the
# history keeps a row per kind. The record passes the schema.
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

cat >"$T/p.yaml" <<'YAML'
name: byop
workloads:
  - { name: img, layer: rbd, pool: rbd, op: randrw, rw_mix_read: 70, block_size: 4K,
      image_size: 32M, prefill: true, ops: 3000, concurrency: 8 }
YAML

for n in 1 2; do
	cb run "$T/p.yaml" --conf "$CONF" --json "$T/r$n.json"
	assert_rc 0 "run $n"
	cp "$T/out" "$T/out$n"
done
"$ROOT/tests/validate-json" "$ROOT/docs/result.schema.json" "$T/r1.json" >/dev/null || fail "schema"

/usr/bin/python3 - "$T/r1.json" <<'PY' || fail "the record's kinds"
import json, sys
rec = json.load(open(sys.argv[1]))
p = next(x for x in rec["phases"] if x["name"] == "img")
by = p["by_op"]
assert sorted(by) == ["read", "write"], sorted(by)
r, w = by["read"], by["write"]
assert r["ops"] + w["ops"] == p["ops"] == 3000, (r["ops"], w["ops"], p["ops"])
assert r["ops"] == p["read_ops"] and w["ops"] == p["write_ops"]
assert r["bytes"] == 4096 * r["ops"] and w["bytes"] == 4096 * w["ops"]
for k in (r, w):
    assert k["histogram"]["count"] == k["ops"]
# 3000 draws at 70 %: a standard deviation of 0.84 %
share = r["ops"] / p["ops"]
assert 0.66 < share < 0.74, share
# what the OSDs counted in the phase (no ramp: every op is measured); the
# image's header reads and the client's watch add a few of their own
osds = p["telemetry"]["cluster"]["osds"]
reads = sum(o["read_ops"] for o in osds)
writes = sum(o["write_ops"] for o in osds)
for name, mine, theirs in (("reads", r["ops"], reads), ("writes", w["ops"], writes)):
    assert abs(theirs - mine) <= 0.01 * mine + 5, (name, mine, theirs)
PY

grep -q '^img: read 2,[0-9][0-9][0-9] ops' "$T/out1" || fail "no read line: $(cat "$T/out1")"
grep -q '^img: write [0-9,]* ops' "$T/out1" || fail "no write line: $(cat "$T/out1")"
# the saved record prints the same lines
cb report "$T/r1.json"
assert_rc 0 "report"
diff <(grep '^img: \(read\|write\) ' "$T/out1") <(grep '^img: \(read\|write\) ' "$T/out") >/dev/null ||
	fail "report's kind lines differ from the run's"

cb compare "$T/r1.json" "$T/r2.json" --format json
assert_rc 0 "compare"
/usr/bin/python3 - "$T/out" <<'PY' || fail "compare's kinds: $(cat "$T/out")"
import json, sys
doc = json.load(open(sys.argv[1]))
ph = {p["a_name"]: p for p in doc["comparisons"][0]["phases"]}
for k in ("img:read", "img:write"):
    assert ph[k]["data"] == "kind" and ph[k]["b_name"] == k, ph.get(k)
    assert ph[k]["iops"]["a"] > 0 and not ph[k]["iops"]["tested"]
assert ph["img"]["data"] == "seconds"
PY

mkdir -m 700 "$T/h"
for n in 1 2; do
	cb history "$T/h/h.db" --add "$T/r$n.json"
	assert_rc 0 "history --add $n"
done
cb history "$T/h/h.db" --workload img --format json
assert_rc 0 "history"
/usr/bin/python3 - "$T/out" "$T/r1.json" <<'PY' || fail "history's kinds: $(cat "$T/out")"
import json, sys
rows = json.load(open(sys.argv[1]))
names = [r["phase"] for r in rows]
assert names.count("img:read") == 2 and names.count("img:write") == 2, names
rec = json.load(open(sys.argv[2]))
r = next(x for x in rec["phases"] if x["name"] == "img")["by_op"]["read"]
first = next(x for x in rows if x["phase"] == "img:read")
assert first["ops"] == r["ops"] and abs(first["iops"] - r["iops"]) < 1e-6 * r["iops"], (first, r)
PY
echo "ok"
