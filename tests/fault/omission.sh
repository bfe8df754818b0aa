#!/usr/bin/env bash
# Coordinated omission, on the fault sandbox: every OSD op held for 2 s
# (ceph osd pause) while rados writes at half the cluster's capacity. Open
# loop, the ops due during the pause wait in the backlog and count late, and
# their latency from the scheduled start puts p99.9 at 1 s or more. Closed
# loop, the same pause holds only the ops in flight: at most concurrency
# (16) ops take 1 s or more, so its p99.9 hides the stall.
. "$(dirname "$0")/lib.sh"
J() { /usr/bin/python3 -c "import json,sys; d=json.load(open(sys.argv[1])); $2" "$1"; }

# What 16 writes in flight achieve here, closed loop: the capacity.
cb rados write 3 -p "$POOL" -b 4K -t 16 --conf "$CONF" --json "$T/cap.json" --quiet
assert_rc 0 "the capacity run"
rate=$(J "$T/cap.json" 'print(max(20, int(d["phases"][0]["iops"] / 2)))')
echo "omission: capacity $(J "$T/cap.json" 'print(round(d["phases"][0]["iops"]))') ops/s, rate $rate"

# ops of at least 1 s in the row's histogram: buckets are [index, count],
# a bucket's lower bound as docs/result.md gives it
SLOW='sum(c for i, c in d["phases"][0]["histogram"]["buckets"]
          if (i if i < 2048 else (1024 + (i & 1023)) << ((i >> 10) - 1)) >= 1e9)'

CB_PAUSE_S=2 cb_paused 90 rados write 12 -p "$POOL" -b 4K -t 16 --rate "$rate" --conf "$CONF" \
	--json "$T/open.json" --quiet
assert_rc 0 "open loop through the pause"
J "$T/open.json" "p = d['phases'][0]; o = p['open_loop']; slow = $SLOW
print(f'omission: open loop p99.9 {p[\"latency_us\"][\"p99.9\"] / 1e3:.0f} ms, {o[\"late_ops\"]} late, backlog up to {o[\"backlog_max\"]}, {slow} ops >= 1 s of {p[\"ops\"]}')
assert p['latency_us']['p99.9'] >= 1e6, p['latency_us']
# the ops due in the pause (2 s of the rate) less the 16 in flight, most of them
assert o['late_ops'] >= 0.7 * 2 * $rate - 16, o['late_ops']
assert slow > 16, slow" || fail "open loop: the stall is not in the figures"

CB_PAUSE_S=2 cb_paused 90 rados write 12 -p "$POOL" -b 4K -t 16 --conf "$CONF" --json "$T/closed.json" --quiet
assert_rc 0 "closed loop through the pause"
J "$T/closed.json" "p = d['phases'][0]; slow = $SLOW
print(f'omission: closed loop p99.9 {p[\"latency_us\"][\"p99.9\"] / 1e3:.0f} ms, max {p[\"latency_us\"][\"max\"] / 1e3:.0f} ms, {slow} ops >= 1 s of {p[\"ops\"]}')
assert 'open_loop' not in p
assert 1 <= slow <= 16, slow" || fail "closed loop: more than the ops in flight stalled"
assert_ns_empty "after the pauses"
echo ok
