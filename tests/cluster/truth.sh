#!/usr/bin/env bash
# What cephbench reports equals what the cluster counted: a write -> seq ->
# rand run's ops and bytes against the OSDs' op counters, within 1 %. Its
# JSON validates against the schema; afterwards the namespace is empty.
. "$(dirname "$0")/lib.sh"

p=$(sed "s/POOL/$POOL/" <<'YAML' | profile truth
name: truth
defaults: { pool: POOL, concurrency: 16, ramp: 0s }
workloads:
  - { name: w, layer: rados, op: write, block_size: 4K, duration: 3s }
  - { name: s, layer: rados, op: seq, duration: 3s }
  - { name: r, layer: rados, op: rand, duration: 3s }
YAML
)
read -r w0 wb0 r0 rb0 < <(osd_counters)
cb run "$p" --conf "$CONF" --run-name truth --no-cleanup --json "$T/r.json" --quiet
assert_rc 0 "run"
read -r w1 wb1 r1 rb1 < <(osd_counters)

"$(dirname "$0")/../validate-json" "$(dirname "$0")/../../docs/result.schema.json" "$T/r.json" ||
	fail "the JSON result does not match docs/result.schema.json"

/usr/bin/python3 - "$T/r.json" "$((w1 - w0))" "$((wb1 - wb0))" "$((r1 - r0))" "$((rb1 - rb0))" <<'PY'
import json, sys
res = json.load(open(sys.argv[1]))
cw, cwb, cr, crb = map(int, sys.argv[2:])
ph = {p["name"]: p for p in res["phases"]}
assert all(p["errors"] == 0 for p in ph.values()), "errors reported"
assert ph["w"]["ops"] > 100, "too few write ops to compare: %d" % ph["w"]["ops"]
rw, rwb = ph["w"]["ops"], ph["w"]["bytes"]
rr = ph["s"]["ops"] + ph["r"]["ops"]
rrb = ph["s"]["bytes"] + ph["r"]["bytes"]
bad = []
for what, mine, theirs in (("write ops", rw, cw), ("write bytes", rwb, cwb),
                           ("read ops", rr, cr), ("read bytes", rrb, crb)):
    diff = abs(mine - theirs) / max(theirs, 1)
    print(f"{what}: cephbench {mine}, cluster {theirs}, diff {diff * 100:.3f} %")
    if diff > 0.01:
        bad.append(what)
if bad:
    sys.exit("FAIL: differ by more than 1 %: " + ", ".join(bad))
PY

[ "$(ns_objects | wc -l)" -gt 0 ] || fail "--no-cleanup left nothing"
cb cleanup --conf "$CONF" --pool "$POOL" --run-name truth
assert_rc 0 "cleanup"
assert_ns_empty "after cleanup --run-name"

# The ramp runs but is not counted: with 3 s of ramp before 2 s measured,
# the cluster sees about 2.5 times the writes the report claims (1 time if
# the ramp were counted), and the samples cover only the measured seconds.
read -r w0 _ _ _ < <(osd_counters)
cb rados write -p "$POOL" --conf "$CONF" -b 4K --ramp 3s --duration 2 --run-name ramp \
	--json "$T/ramp.json" --no-cleanup --quiet
assert_rc 0 "ramp run"
read -r w1 _ _ _ < <(osd_counters)
cb cleanup --conf "$CONF" --pool "$POOL" --run-name ramp
/usr/bin/python3 - "$T/ramp.json" "$((w1 - w0))" <<'PY'
import json, sys
ph = json.load(open(sys.argv[1]))["phases"][0]
cluster = int(sys.argv[2])
print(f"ramp run: reported {ph['ops']} ops, cluster counted {cluster} write ops")
assert ph["ops"] > 100, "nothing measured"
assert cluster > 1.6 * ph["ops"], "ramp ops were counted in the report"
assert len(ph["samples"]) <= 3, "samples cover the ramp: %d" % len(ph["samples"])
PY
assert_ns_empty "after the ramp run"
echo "ok"
