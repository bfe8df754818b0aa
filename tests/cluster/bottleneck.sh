#!/usr/bin/env bash
# profiles/bottleneck.yaml on the sandbox: the layer breakdown lists every
# layer that ran (rados, rbd, cephfs) in both groups, with the figures of
# their rows in the table and in the JSON, and the costs computed from them;
# a row is marked client-bound where its phase's telemetry says so.
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)

# The profile as shipped. Without kernel rbd (the sandbox's host) its krbd
# rows, optional: true, are skipped with a note; on a host with it they are
# left out here (mapping needs more than this test sets up), and the test
# checks the three layers it can always run.
prof=$HERE/../../profiles/bottleneck.yaml
grep -q "layer: krbd" "$prof" || fail "the profile has no krbd rows"
if [ -e /sys/bus/rbd ]; then
	sed '/layer: krbd/d' "$prof" >"$T/bottleneck.yaml"
	prof=$T/bottleneck.yaml
fi

# Shortened, and its 4M RADOS writes bounded: each writes a new 4M object,
# and the sandbox's OSD holds 8 GiB.
cb run "$prof" --conf "$CONF" --json "$T/b.json" -o duration=2s -o ramp=0s \
	-o rados-write-4m.max_objects=64
assert_rc 0 "the bottleneck profile"
if [ ! -e /sys/bus/rbd ]; then
	[ "$(grep -c "^skipped workload 'krbd-.*' (optional): this kernel has no rbd support" "$T/err")" -eq 2 ] ||
		fail "the krbd rows were not skipped with a note: $(cat "$T/err")"
fi
"$HERE/../validate-json" "$HERE/../../docs/result.schema.json" "$T/b.json" >"$T/validate" ||
	fail "the JSON result does not match docs/result.schema.json: $(cat "$T/validate")"
cat "$T/out"

/usr/bin/python3 - "$T/b.json" "$T/out" <<'PY' || fail "the layer breakdown: see above"
import json, re, sys

rec = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read().splitlines()
phases = {p["name"]: p for p in rec["phases"]}
groups = rec["layers"]

# Both groups, each with every layer that ran, bottom first, over rados.
want = [("randwrite", 4096, ["rados-write-4k", "rbd-randwrite-4k", "fs-randwrite-4k"]),
        ("write", 4 << 20, ["rados-write-4m", "rbd-write-4m", "fs-write-4m"])]
assert [(g["op"], g["block_size"], [r["phase"] for r in g["rows"]]) for g in groups] == want, \
    f"groups: {[(g['op'], g['block_size'], [r['phase'] for r in g['rows']]) for g in groups]}"
for g in groups:
    rows = g["rows"]
    assert [r["layer"] for r in rows] == ["rados", "rbd", "cephfs"], [r["layer"] for r in rows]
    assert g["same_in_flight"], f"{g['op']}: in flight differs"
    assert g["same_pool"], f"{g['op']}: the rados and rbd rows ran on different pools"
    assert g["not_compared"] == [], g["not_compared"]
    base = rows[0]
    assert "base" not in base
    for r in rows:
        p = phases[r["phase"]]
        assert p["ops"] > 0 and p["errors"] == 0, f"{r['phase']}: {p['ops']} ops, {p['errors']} errors"
        # the row's figures are its phase's
        assert (r["iops"], r["p50_us"], r["p99_us"]) == (p["iops"], p["latency_us"]["p50"], p["latency_us"]["p99"]), \
            f"{r['phase']}: {r} vs the phase's {p['iops']} {p['latency_us']['p50']} {p['latency_us']['p99']}"
        assert r["clients"] * r["concurrency"] == 8, f"{r['phase']}: {r['clients']}x{r['concurrency']}"
    for r in rows[1:]:
        assert r["base"] == "rados"
        lost = (base["iops"] - r["iops"]) / base["iops"] * 100
        assert abs(r["iops_lost_pct"] - lost) < 1e-6 * max(1, abs(lost)), f"{r['phase']}: {r['iops_lost_pct']} vs {lost}"
        assert r["p50_added_us"] == r["p50_us"] - base["p50_us"]
        assert r["p99_added_us"] == r["p99_us"] - base["p99_us"]
    worst = max(rows[1:], key=lambda r: r["iops_lost_pct"])
    if worst["iops_lost_pct"] > 0:
        assert g["most_lost"] == {"layer": worst["layer"], "base": "rados"}, g["most_lost"]
    else:
        assert g["most_lost"] is None
    print(f"{g['block_size']} {g['op']}: " + ", ".join(
        f"{r['layer']} {r['iops']:.1f} IOPS" + (f" ({-r['iops_lost_pct']:+.1f} %)" if "base" in r else "")
        for r in rows))

# The text: the table's row of each phase, and the breakdown's.
table = {}
for line in text:
    f = line.split()
    if f and f[0] in phases and len(f) > 10 and f[1] == phases[f[0]]["layer"]:
        bar = f.index("|")
        table[f[0]] = (f[7], f[bar + 2], f[bar + 3])  # IOPS, p50 ms, p99 ms
start = text.index(next(l for l in text if l.startswith("Layer breakdown")))
section = text[start + 1:]
heads = [l for l in section if not l.startswith(" ")]
for g, head in zip(groups, heads):
    size = "4K" if g["block_size"] == 4096 else "4M"
    if g["most_lost"]:
        m = re.match(rf"{size} {g['op']}: most lost in (\w+) over rados \(", head)
        assert m and m.group(1) == g["most_lost"]["layer"], f"head: {head}"
    else:
        assert head == f"{size} {g['op']}: no layer loses IOPS over the one beneath it", head
assert len(heads) == len(groups), f"breakdown heads: {heads}"
shown = 0
for line in section:
    f = line.split()
    if len(f) > 6 and f[1] in phases and f[0] == phases[f[1]]["layer"]:
        # layer phase qd IOPS p50 p99 |
        assert (f[3], f[4], f[5]) == table[f[1]], f"{f[1]}: breakdown {f[3:6]} vs table {table[f[1]]}"
        # client-bound as its phase's telemetry says, in the JSON and the text
        bound = phases[f[1]]["telemetry"]["client"]["bound"]
        row = next(r for g in groups for r in g["rows"] if r["phase"] == f[1])
        assert row["client_bound"] == bound, f"{f[1]}: client_bound {row['client_bound']}, telemetry {bound}"
        assert line.endswith(" (client-bound)") == bound, f"{f[1]}: bound {bound}: {line}"
        assert (f"{f[1]}: client-bound: " in "\n".join(text)) == bound, f"{f[1]}: bound {bound}, its line"
        shown += 1
assert shown == 6, f"{shown} layer rows in the text breakdown"
PY
assert_ns_empty "after the run"
echo ok
