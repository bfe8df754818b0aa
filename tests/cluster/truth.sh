#!/usr/bin/env bash
# What cephbench reports equals what the cluster counted: a write -> seq ->
# rand run's ops and bytes against the pool's own statistics (rados df),
# within 1 %. Its JSON validates against the schema; afterwards the
# namespace is empty.
. "$(dirname "$0")/lib.sh"

# Pool stats reach the mgr every few seconds: wait until two readings agree.
pool_stats() {
	local prev="" cur
	for _ in $(seq 1 30); do
		cur=$(rados --conf "$CONF" df --format json | /usr/bin/python3 -c '
import json, sys
for p in json.load(sys.stdin)["pools"]:
    if p["name"] == sys.argv[1]:
        print(p["write_ops"], p["write_bytes"], p["read_ops"], p["read_bytes"])' "$POOL")
		[ -n "$prev" ] && [ "$cur" = "$prev" ] && { echo "$cur"; return; }
		prev=$cur
		sleep 3
	done
	fail "pool statistics did not settle"
}

p=$(profile truth <<'YAML'
name: truth
defaults: { pool: bench, concurrency: 16, ramp: 0s }
workloads:
  - { name: w, layer: rados, op: write, block_size: 4K, duration: 3s }
  - { name: s, layer: rados, op: seq, duration: 3s }
  - { name: r, layer: rados, op: rand, duration: 3s }
YAML
)
read -r w0 wb0 r0 rb0 < <(pool_stats)
cb run "$p" --conf "$CONF" --run-name truth --no-cleanup --json "$T/r.json" --quiet
assert_rc 0 "run"
read -r w1 wb1 r1 rb1 < <(pool_stats)

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
echo "ok"
