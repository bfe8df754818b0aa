#!/usr/bin/env bash
# How the load is applied, on the sandbox: open-loop rates on the rados,
# rbd and cephfs layers (achieved within 2 % of a low rate; the ad-hoc
# command's --rate), a capacity search on rados, and the interference
# profile: mdtest's tree alone, then beside writers, both in one table.
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
J() { /usr/bin/python3 -c "import json,sys; d=json.load(open(sys.argv[1])); $2" "$1"; }

# --- rates: 200 ops/s for 5 s on rados, 100 ops/s on rbd and cephfs
p=$(profile rate <<EOF
name: rate
defaults: { duration: 5s, concurrency: 8 }
workloads:
  - { name: obj, layer: rados, pool: $POOL, op: write, block_size: 4K, rate: 200 }
  - { name: img, layer: rbd, pool: rbd, op: randwrite, block_size: 4K, image_size: 64M, rate: 100, duration: 3s }
  - { name: fs, layer: cephfs, op: randwrite, block_size: 4K, file_size: 16M, clients: 2, rate: 100/s, duration: 3s }
EOF
)
cb run "$p" --conf "$CONF" --json "$T/rate.json"
assert_rc 0 "rate mode on three layers"
J "$T/rate.json" '
for p in d["phases"]:
    o = p["open_loop"]
    assert o["latency_from"] == "scheduled start", o
    got, want = o["achieved_ops_per_s"], o["rate_ops_per_s"]
    assert abs(got - want) <= 0.02 * want, (p["name"], got, want)
    assert not o["saturated"], p["name"]
    assert p["latency_us"]["min"] >= o["service_latency_us"]["min"] * 0.999, p["name"]' ||
	fail "achieved rate off target: $(cat "$T/out")"
grep -Eq '^obj: open loop \(uniform\): achieved (19[6-9]|20[0-4]) of 200 ops/s' "$T/out" ||
	fail "no open-loop line: $(cat "$T/out")"
"$ROOT/tests/validate-json" "$ROOT/docs/result.schema.json" "$T/rate.json" >/dev/null || fail "schema"

cb rados write 3 -p "$POOL" -b 4K --rate 150 --conf "$CONF" --json "$T/adhoc.json"
assert_rc 0 "rados write --rate"
J "$T/adhoc.json" 'o=d["phases"][0]["open_loop"]; assert abs(o["achieved_ops_per_s"]-150) <= 3, o' ||
	fail "--rate: $(cat "$T/out")"
assert_ns_empty "after the rate runs"

# --- a search on rados: three steps from 20 ops/s under a p99 of 5 s pass
p=$(profile search <<EOF
name: search
workloads:
  - { name: cap, layer: rados, pool: $POOL, op: write, block_size: 4K, concurrency: 8,
      rate: 20, duration: 1s, search: { p99: 5s, steps: 3 }, expect: { min_capacity: 80 } }
EOF
)
cb run "$p" --conf "$CONF" --json "$T/search.json"
assert_rc 0 "a search on rados"
J "$T/search.json" 's=d["phases"][0]["search"]
assert [x["rate_ops_per_s"] for x in s["steps"]] == [20, 40, 80], s
assert s["status"] == "every step passed" and s["capacity_ops_per_s"] == 80, s
assert d["phases"][0]["expect"][0]["threshold"] == "min_capacity"' || fail "search: $(cat "$T/out")"
grep -q '^cap: capacity at p99 ≤ 5s: at least 80 ops/s' "$T/out" || fail "search line: $(cat "$T/out")"
assert_ns_empty "after the search"

# --- interference: the tree alone, then beside 4 writers
cb run "$ROOT/profiles/interference.yaml" --conf "$CONF" --json "$T/if.json"
assert_rc 0 "the interference profile"
J "$T/if.json" '
rows = {p["name"]: p for p in d["phases"]}
w = rows["writers"]; assert w["role"] == "load" and w["group"] == "writers", w.get("role")
# the writers ran while the tree did, and stopped with it (not after 10m)
md = [p for n, p in rows.items() if n.startswith("md.")]
t0 = min(p["window_start_unix_s"] for p in md)
t1 = max(p["window_start_unix_s"] + p["duration_s"] for p in md)
ws, we = w["window_start_unix_s"], w["window_start_unix_s"] + w["duration_s"]
assert abs(ws - t0) < 1 and abs(we - t1) < 1, (t0, t1, ws, we)
x = {i["row"]: i for i in d["interference"]}
for step in ("file-stat", "file-read", "file-create"):
    i = x["md." + step]; assert i["alone"] == "md-alone." + step, i
    assert i["alone_us"]["mean"] > 0 and i["together_us"]["mean"] > 0, i
    assert abs(i["slowdown"]["p99"] - i["together_us"]["p99"] / i["alone_us"]["p99"]) < 1e-6, i
assert "group" not in rows["md-alone.file-stat"]' ||
	fail "interference: $(cat "$T/out")"
grep -q '^Interference: each op alone and in its group' "$T/out" || fail "no table: $(cat "$T/out")"
grep -Eq '^md\.file-stat +md-alone\.file-stat ' "$T/out" || fail "no file-stat row: $(cat "$T/out")"
grep -q "^group 'writers' ran side by side: .* writers (load)$" "$T/out" || fail "members line"
"$ROOT/tests/validate-json" "$ROOT/docs/result.schema.json" "$T/if.json" >/dev/null || fail "schema"
echo "load: ok"
