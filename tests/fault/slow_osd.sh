#!/usr/bin/env bash
# The slow OSD finder on the fault sandbox (3 OSDs, size-2 pools): osd.1's
# dispatch delayed by 10 ms (osd_debug_inject_dispatch_delay_*, which shows
# in its op_before_queue_op_lat and so in every op latency it times) is
# named, by its read latency in a read phase and by its write or replica
# write latency in a write phase, and no other OSD is; expect: { slow_osds:
# 0 } then fails the run. Without the delay, no OSD is named in 10 runs.
. "$(dirname "$0")/lib.sh"

inject() { # PROBABILITY DURATION
	fceph tell osd.1 injectargs --osd_debug_inject_dispatch_delay_probability "$1" \
		--osd_debug_inject_dispatch_delay_duration "$2" >/dev/null 2>&1
}
trap 'inject 0 0 || true; at_exit' EXIT

p=$(profile slow <<YAML
name: slow
defaults: { pool: $POOL, concurrency: 8, ramp: 0s, expect: { slow_osds: 0 } }
workloads:
  - { name: w, layer: rados, op: write, block_size: 4K, duration: 2s }
  - { name: r, layer: rados, op: rand, duration: 2s }
YAML
)
inject 1 0.01 || fail "cannot inject the delay into osd.1"
cb run "$p" --conf "$CONF" --run-name slow --json "$T/slow.json"
inject 0 0 || fail "cannot reset the delay of osd.1"
assert_rc 1 "the run with osd.1 delayed and expect slow_osds: 0"
for ph in w r; do
	grep -qE "^$ph: slow OSD: osd\.1 (read|write|replica write) [0-9.]+ ms mean, [0-9.]+x the median of 2 other OSDs, host " "$T/out" ||
		fail "$ph: osd.1 not named: $(grep "^$ph:" "$T/out")"
	grep -E "^$ph: slow OSD: osd\.[02] " "$T/out" && fail "$ph: another OSD named"
done
grep -qE "^r +slow_osds +1 slow OSDs +<= 0 slow OSDs .*FAIL" "$T/out" || fail "no FAIL verdict: $(cat "$T/out")"
/usr/bin/python3 - "$T/slow.json" <<'PY'
import json, sys
for p in json.load(open(sys.argv[1]))["phases"]:
    s = p["telemetry"]["cluster"]["slow_osds"]
    print(p["name"], [(o["osd"], o["op"], round(o["mean_ms"], 2), round(o["ratio"], 1)) for o in s])
    assert [o["osd"] for o in s] == [1], (p["name"], s)
    assert s[0]["mean_ms"] > 1 and s[0]["ratio"] > 2 and s[0]["peers"] == 2, s
    v = {e["threshold"]: e for e in p["expect"]}["slow_osds"]
    assert v["measured"] == 1 and not v["pass"], v
PY
[ $? -eq 0 ] || fail "the JSON's slow_osds"

# No delay: nobody is slow, run after run. One op in flight: this host
# may run other sandboxes beside this one (CI takes the main sandbox's lock
# too, so its cluster tests wait), and a stall of one OSD's process delays every op it has in
# flight at once; at 4 in flight, with load 9 on 2 cores, one run in 10
# named an OSD (replica writes 1.9 ms against its peers' 0.7: a real
# second of that OSD's, but the host's doing, not the OSD's).
p=$(profile quiet <<YAML
name: quiet
defaults: { pool: $POOL, concurrency: 1, ramp: 0s, expect: { slow_osds: 0 } }
workloads:
  - { name: w, layer: rados, op: write, block_size: 4K, duration: 2s }
YAML
)
for i in $(seq 1 10); do
	cb run "$p" --conf "$CONF" --run-name "quiet$i"
	grep "slow OSD:" "$T/out" && fail "run $i named a slow OSD"
	[ "$rc" -eq 0 ] || fail "run $i without a delay: exit $rc: $(cat "$T/out" "$T/err")"
	grep -qE "^w: cluster counted" "$T/out" || fail "run $i: no cluster counters"
done
echo "ok"
