#!/usr/bin/env bash
# Served by whom (issue 42, items 1 and 2): a tree test of one client run
# warm (cold: false) stats and reads its own items, which its cache holds
# (the MDS counted 0 of them on the sandbox); run cold (the default), its
# mount is made anew before those phases, and one of two clients works on
# the other's items (stride 1 by default, mdtest -N): the MDS and the OSDs
# serve them, and the row says how it ran cold. Each row's served.by must
# agree with the counters in its own telemetry, recomputed here; the one
# client's stat and read rows are marked cached in the table, Markdown,
# history and Prometheus, fail their expect: (not judged: not the
# cluster's figures), and pass it with cached: ok; the two clients' rows
# are the negative control: served by the cluster, unmarked.
. "$(dirname "$0")/cephfs_lib.sh"

p=$(profile served <<YAML
name: served
workloads:
  - { name: one, layer: cephfs, fs: $FS, op: tree, depth: 1, branch: 2, items: 10,
      write_bytes: 4K, read_bytes: 4K, expect: { min_iops: 1 }, cold: false }
  - { name: ok, layer: cephfs, fs: $FS, op: tree, depth: 1, branch: 2, items: 10,
      write_bytes: 4K, read_bytes: 4K, cached: ok, expect: { min_iops: 1 }, cold: false,
      phases: 'tree-create,file-create,file-stat,file-remove,tree-remove' }
  - { name: cold, layer: cephfs, fs: $FS, op: tree, depth: 1, branch: 2, items: 10,
      write_bytes: 4K, read_bytes: 4K, expect: { min_iops: 1 } }
  - { name: two, layer: cephfs, fs: $FS, op: tree, depth: 1, branch: 2, items: 10,
      write_bytes: 4K, read_bytes: 4K, clients: 2 }
YAML
)
cb run "$p" --conf "$CONF" --run-name served --json "$T/r.json" --history "$T/h.db" \
	--prom "$T/r.prom"
# the cached rows' expectations fail: exit 1, the run itself whole
assert_rc 1 "a run whose cache-served rows have expectations"
cp "$T/out" "$T/text"

/usr/bin/python3 - "$T/r.json" "$T/text" "$T/r.prom" <<'PY' || fail "served: see above"
import json, re, sys
r = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read().splitlines()
prom = open(sys.argv[3]).read()
rows = {p["name"]: p for p in r["phases"]}
for name, p in rows.items():
    s = p.get("served")
    reads = p["read_ops"] > 0
    assert (s is not None) == reads, (name, s)
    if not s:
        continue
    # the judgement from the row's own counters, recomputed
    c = p["telemetry"]["cluster"]
    if s["judged"] == "stats":
        assert p["read_bytes"] == 0 and s["counter"] == "MDS client requests", (name, s)
        cluster = c["mds"]["client_requests"]
        client = c["client_ops"] * p["read_ops"] / p["ops"]
    else:
        assert s["counter"] == "OSD read bytes", (name, s)
        cluster = sum(o["out_bytes"] for o in c["osds"])
        client = c["client_bytes"] * p["read_bytes"] / p["bytes"]
    assert abs(s["cluster"] - cluster) < 1e-6 and abs(s["client"] - client) < 1e-6, (name, s, cluster, client)
    by = "cluster" if cluster >= 0.5 * client else "client cache"
    assert s["by"] == by, (name, s, by)
    print(f'{name}: {s["by"]} ({s["counter"]}: {cluster:.0f} of {client:.0f})')
    # the table's marker, and Prometheus's gauge
    line = next(l for l in text if l.startswith(name + " "))  # the table's
    assert line.endswith(" cached") == (by == "client cache"), line
    m = re.search(r'^cephbench_cache_served\{[^}]*workload="%s"[^}]*\} (\S+)$' % re.escape(name), prom, re.M)
    assert m and float(m.group(1)) == (by == "client cache"), (name, m and m.group(0))
# one client: its own items, from its cache (what the MDS saw of them is
# the evidence: none of the file stats)
for ph in ("one.dir-stat", "one.file-stat", "one.file-read"):
    assert rows[ph]["served"]["by"] == "client cache", (ph, rows[ph]["served"])
# cold: one client's mount made anew, two clients' stride: from the
# cluster, and the row (JSON and table) says how it ran cold; warm rows and
# the phases that do not read say nothing
for w, how in (("cold", "remount"), ("two", "stride")):
    for ph in (w + ".dir-stat", w + ".file-stat", w + ".file-read"):
        assert rows[ph]["served"]["by"] == "cluster", (ph, rows[ph]["served"])
        assert rows[ph]["cold"]["client"] == how, (ph, rows[ph]["cold"])
        line = next(l for l in text if l.startswith(ph + " "))
        assert line.endswith(" cold:" + how), line
    # the read's data pool's OSD was asked (memstore has no cache to
    # drop: no note), the stats' none
    c = rows[w + ".file-read"]["cold"]
    assert c["osds"] == 1 and c["osds_dropped"] + c["osds_no_cache"] == 1 and c["note"] is None, c
    assert rows[w + ".file-stat"]["cold"]["osds"] == 0, rows[w + ".file-stat"]["cold"]
for name, p in rows.items():
    if not name.startswith(("cold.", "two.")) or name.endswith(("create", "remove", "rename")):
        assert "cold" not in p, (name, p["cold"])
# expect: a cached row is not judged (a FAIL saying so), unless cached: ok
for name, p in rows.items():
    for v in p.get("expect", []):
        cached = p.get("served", {}).get("by") == "client cache"
        judged = not cached or name.startswith("ok.")
        assert v["pass"] == judged and v.get("cached", False) == (not judged), (name, v)
assert rows["ok.file-stat"]["served"]["by"] == "client cache"
# the legend line names each cached row with its evidence
for name, p in rows.items():
    if p.get("served", {}).get("by") == "client cache":
        assert any(l.startswith(name + ": cached: ") for l in text), name
PY

# history: stored as served, listed marked, in the CSV
cb history "$T/h.db"
assert_rc 0 "history"
grep -qE "one\.file-stat .* cached$" "$T/out" || fail "history's text does not mark one.file-stat: $(cat "$T/out")"
if grep -qE "two\.file-stat .* cached$" "$T/out"; then
	fail "history marks two.file-stat, which the cluster served"
fi
cb history "$T/h.db" --format csv
assert_rc 0 "history --format csv"
/usr/bin/python3 - "$T/out" <<'PY' || fail "history's CSV: $(head -3 "$T/out")"
import csv, sys
rows = {r["phase"]: r for r in csv.DictReader(open(sys.argv[1]))}
assert rows["one.file-stat"]["served_by"] == "client cache", rows["one.file-stat"]
assert rows["two.file-stat"]["served_by"] == "cluster", rows["two.file-stat"]
assert rows["one.file-create"]["served_by"] == "", rows["one.file-create"]
PY
# compare: a cached row is noted and not judged, a cold one judged
cb compare "$T/r.json" "$T/r.json" --fail-if-worse 5 --format json
assert_rc 0 "compare of the run with itself"
/usr/bin/python3 - "$T/out" <<'PY' || fail "compare: see above"
import json, sys
pairs = {p["a_name"]: p for s in json.load(open(sys.argv[1]))["comparisons"] for p in s["phases"]}
assert pairs["one.file-stat"]["a_cached"] and not pairs["one.file-stat"]["judged"], pairs["one.file-stat"]
assert not pairs["cold.file-stat"]["a_cached"] and pairs["cold.file-stat"]["judged"], pairs["cold.file-stat"]
PY
cb compare "$T/r.json" "$T/r.json"
assert_rc 0 "compare's text"
grep -qF "note: $T/r.json's row was served by the client's cache" "$T/out" ||
	grep -qF "row was served by the client's cache: not the cluster's speed" "$T/out" ||
	fail "compare does not note the cached rows: $(cat "$T/out")"
cb report --format markdown "$T/r.json"
assert_rc 0 "report --format markdown"
grep -qF "| one.file-stat (cached) |" "$T/out" || fail "Markdown does not mark one.file-stat"
if grep -qF "| two.file-stat (cached) |" "$T/out"; then
	fail "Markdown marks two.file-stat"
fi
echo ok
