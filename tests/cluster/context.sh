#!/usr/bin/env bash
# Params and context: a record carries every parameter of its rows and the
# cluster it ran on (pools, an RBD image, the file system, versions, OSDs),
# as the ceph tools themselves say it is; compare names what differed (two
# runs at 4 and 16 ops in flight). Every record validates against the
# schema, and a run with every command allowed prints no context note.
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
HERE=$(dirname "$0")
W=(rados write 2 -p "$POOL" --conf "$CONF" -b 4K --run-name ctx)

cb "${W[@]}" -t 4 --json "$T/a.json"
assert_rc 0 "the run at 4"
grep -q '^context:' "$T/err" && fail "a run with every command allowed noted: $(cat "$T/err")"
cb "${W[@]}" -t 16 --json "$T/b.json"
assert_rc 0 "the run at 16"
"$HERE/../validate-json" "$HERE/../../docs/result.schema.json" "$T/a.json" "$T/b.json" \
	>"$T/validate" || fail "schema: $(cat "$T/validate")"

# --- compare names the depth, in text and JSON
cb compare "$T/a.json" "$T/b.json"
assert_rc 0 "compare"
grep -qxF '  differs: concurrency: 16 (A: 4)' "$T/out" || fail "compare did not name the depth: $(cat "$T/out")"
[ "$(grep -c 'differs:' "$T/out")" -eq 1 ] || fail "compare named more than the depth: $(cat "$T/out")"
cb compare --format json "$T/a.json" "$T/b.json"
assert_rc 0 "compare --format json"
"$PY" - "$T/out" <<'EOF' || fail "compare's JSON differences"
import json, sys
d = json.load(open(sys.argv[1]))["comparisons"][0]
diffs = d["phases"][0]["differences"]
assert diffs == [{"kind": "params", "key": "concurrency", "a": 4, "b": 16}], diffs
assert d["context_differences"] == [], d["context_differences"]
EOF

# --- the context as the ceph tools see the cluster
ceph --conf "$CONF" osd dump -f json >"$T/dump"
ceph --conf "$CONF" osd crush rule dump -f json >"$T/rules"
"$PY" - "$T/a.json" "$T/dump" "$T/rules" "$POOL" <<'EOF' || fail "the pool's context"
import json, sys
rec, dump, rules, pool = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), json.load(open(sys.argv[3])), sys.argv[4]
ctx = rec["context"]
ph = rec["phases"][0]
assert ph["uses"] == {"pools": [pool]}, ph["uses"]
p = next(x for x in dump["pools"] if x["pool_name"] == pool)
c = ctx["pools"][pool]
assert c["type"] == "replicated" and p["type"] == 1, c
for k in ("size", "min_size", "pg_num"):
    assert c[k] == p[k], (k, c[k], p[k])
rule = next(r["rule_name"] for r in rules if r["rule_id"] == p["crush_rule"])
assert c["crush_rule"] == rule, c["crush_rule"]
assert c["application"] == sorted(p["application_metadata"]), c["application"]
assert c["erasure_code_profile"] is None
assert ctx["osds"] == {"total": len(dump["osds"]), "up": sum(o["up"] for o in dump["osds"]),
                       "in": sum(o["in"] for o in dump["osds"])}, ctx["osds"]
assert sum(ctx["versions"]["osd"].values()) == len(dump["osds"]), ctx["versions"]
params = ph["params"]
assert params["concurrency"] == 4 and params["block_size"] == 4096 and params["op"] == "write", params
assert params["pool"] == pool and params["duration"] == 2.0, params
EOF

# --- an RBD image: its features and striping as rbd info says; the
# record's params carry the layer's options
cat >"$T/r.yaml" <<EOF
name: ctxr
workloads:
  - name: r
    layer: rbd
    op: randwrite
    pool: rbd
    image_size: 32M
    features: layering,striping
    object_size: 1M
    stripe_unit: 64K
    stripe_count: 4
    rw_mix_read: 30
    duration: 1s
    concurrency: 2
EOF
cb run "$T/r.yaml" --conf "$CONF" --json "$T/r.json" --no-cleanup --quiet
assert_rc 0 "the rbd run"
rbd --conf "$CONF" -p rbd info cephbench.ctxr.0 --format json >"$T/info"
cb cleanup --conf "$CONF" --pool rbd --run-name ctxr --quiet
"$PY" - "$T/r.json" "$T/info" <<'EOF' || fail "the image's context"
import json, sys
rec, info = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
ph = rec["phases"][0]
assert ph["uses"] == {"pools": ["rbd"], "image": "rbd/cephbench.ctxr.0"}, ph["uses"]
img = rec["context"]["images"]["rbd/cephbench.ctxr.0"]
assert img["features"] == info["features"], (img, info["features"])
for k in ("size", "object_size", "stripe_unit", "stripe_count"):
    assert img[k] == info[k], (k, img[k], info[k])
assert img["data_pool"] is None
p = ph["params"]
assert p["image_size"] == 32 << 20 and p["rw_mix_read"] == 30 and p["cache"] == "off", p
assert p["features"] == "layering,striping" and p["stripe_count"] == 4, p
assert "rbd" in rec["context"]["pools"]
EOF

# --- a CephFS file system: its ranks and pools as ceph fs says
cat >"$T/f.yaml" <<EOF
name: ctxf
workloads:
  - name: f
    layer: cephfs
    op: write
    file_size: 1M
    duration: 1s
EOF
cb run "$T/f.yaml" --conf "$CONF" --json "$T/f.json" --quiet
assert_rc 0 "the cephfs run"
ceph --conf "$CONF" fs get cephfs -f json >"$T/fs"
ceph --conf "$CONF" osd dump -f json >"$T/dump"
"$PY" - "$T/f.json" "$T/fs" "$T/dump" <<'EOF' || fail "the file system's context"
import json, sys
rec, fs, dump = (json.load(open(a)) for a in sys.argv[1:4])
names = {p["pool"]: p["pool_name"] for p in dump["pools"]}
m = fs["mdsmap"]
ph = rec["phases"][0]
data = [names[i] for i in m["data_pools"]]
assert ph["uses"] == {"pools": data + [names[m["metadata_pool"]]], "filesystem": "cephfs"}, ph["uses"]
c = rec["context"]["filesystems"]["cephfs"]
assert c["data_pools"] == data and c["metadata_pool"] == names[m["metadata_pool"]], c
assert c["max_mds"] == m["max_mds"], c
ranks = sorted((d["rank"], d["state"], d["name"]) for d in m["info"].values() if d["rank"] >= 0)
assert [(r["rank"], r["state"], r["name"]) for r in c["ranks"]] == ranks, c["ranks"]
for p in ph["uses"]["pools"]:
    assert rec["context"]["pools"][p]["application"] == ["cephfs"], p
EOF
"$HERE/../validate-json" "$HERE/../../docs/result.schema.json" "$T/r.json" "$T/f.json" \
	>"$T/validate" || fail "schema: $(cat "$T/validate")"
echo "context: ok"
