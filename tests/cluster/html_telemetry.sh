#!/usr/bin/env bash
# The run page's telemetry, open-loop and acceptance parts, from a real
# sandbox run: a write the cluster is disturbed during (the noscrub flag
# set while it runs: a health check appears), a write at a rate, a
# capacity search, and thresholds one of which fails. The page, opened in
# a real headless Chromium (tests/html/check_page.py with the JSON), must
# hold exactly the charts the JSON calls for, each with as many points as
# the JSON counts (samples, host samples, client threads, OSDs, search
# steps), the slow OSDs marked, the thresholds coloured as they passed,
# and the disturbed phase shaded.
. "$(dirname "$0")/lib.sh"

HERE=$(dirname "$0")
noscrub() { ceph --conf "$CONF" osd "$1" noscrub >/dev/null 2>&1; }
trap 'noscrub unset || true; at_exit' EXIT
noscrub unset
cat >"$T/p.yaml" <<YAML
name: page-tm
defaults: { ramp: 0s, concurrency: 4, pool: $POOL, block_size: 4K, op: write, layer: rados }
workloads:
  - { name: dist, duration: 10s, expect: { min_iops: 1, max_p99: 1us } }
  - { name: ol, duration: 3s, rate: 100, expect: { max_errors: 0 } }
  - { name: cap, duration: 1s, rate: 20, concurrency: 8, search: { p99: 5s, steps: 2 } }
YAML

"$CEPHBENCH" run "$T/p.yaml" --conf "$CONF" --run-name pagetm --json "$T/r.json" \
	--html "$T/r.html" >"$T/out" 2>"$T/err" &
pid=$!
# the first phase is writing: the cluster changes under it
wait_for_objects
sleep 2
noscrub set || fail "cannot set noscrub"
wait_bg "$pid"
noscrub unset
assert_rc 1 "a run with a failing threshold"

/usr/bin/python3 - "$T/r.json" <<'PY' || fail "the record lacks what the page should draw: $(cat "$T/out")"
import json, sys
d = json.load(open(sys.argv[1]))
p = {x["name"]: x for x in d["phases"]}
assert d["verdict"]["result"] == "fail", d["verdict"]
assert [e["pass"] for e in p["dist"]["expect"]] == [True, False], p["dist"]["expect"]
assert p["dist"]["disturbed"], "the noscrub flag set mid-phase was not seen"
assert p["ol"]["open_loop"] and all("due" in s for s in p["ol"]["samples"])
assert len(p["cap"]["search"]["steps"]) == 2
for x in d["phases"]:
    tm = x["telemetry"]
    assert tm["host"]["samples"] and tm["client"]["threads"] and tm["cluster"]["osds"], x["name"]
PY
/usr/bin/python3 "$HERE/../html/check_page.py" "$T/r.html" "$T/r.png" "$T/r.json" \
	>"$T/check" 2>&1 || fail "the page in Chromium: $(cat "$T/check")"
for c in p0-hcpu p0-hnet p0-osd p0-threads p1-due p1-late p2-search; do
	grep -q "^$c: " "$T/check" || fail "no chart $c: $(cat "$T/check")"
done
echo "ok"
