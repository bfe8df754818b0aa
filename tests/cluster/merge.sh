#!/usr/bin/env bash
# cephbench merge: a profile of two phases (write, then rand reads of what
# it wrote) with a fixed op count per client, run once with clients: 2 and
# once as two cephbench processes of clients: 1 started together (each its
# own run name and run directory, as two hosts are), the two files merged.
# The merge holds the two files' counts exactly, and the one process's;
# its histogram is the bucket-wise sum, its percentiles the summed
# histogram's (counted here in Python), its rows the clients: 2 run's plus
# a row per file; compare reads it back. Then the bad inputs: one line
# naming the file, exit 2, no file written or replaced.
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)

profile() { # CLIENTS
	cat <<YAML
name: mergeprof
workloads:
  - { name: w, layer: rados, pool: $POOL, op: write, block_size: 4K, concurrency: 4, ops: 300, clients: $1 }
  - { name: r, layer: rados, pool: $POOL, op: rand, block_size: 4K, concurrency: 4, ops: 300, clients: $1 }
YAML
}
# one profile file, the clients given by -o: the two runs' sha256 are then
# the same for the two processes, as one profile on two hosts
profile 1 >"$T/p.yaml"

cb run "$T/p.yaml" -o clients=2 --conf "$CONF" --run-name mtwo --json "$T/two.json" --quiet
assert_rc 0 "the clients: 2 run"

# two "hosts": their own run lock directory, their own run name
mkdir -p "$T/h1" "$T/h2"
set +e
CEPHBENCH_RUN_DIR=$T/h1 timeout 300 "$CEPHBENCH" run "$T/p.yaml" --conf "$CONF" --run-name mh1 \
	--json "$T/a.json" --quiet >"$T/a.out" 2>&1 &
p1=$!
CEPHBENCH_RUN_DIR=$T/h2 timeout 300 "$CEPHBENCH" run "$T/p.yaml" --conf "$CONF" --run-name mh2 \
	--json "$T/b.json" --quiet >"$T/b.out" 2>&1 &
p2=$!
wait $p1
r1=$?
wait $p2
r2=$?
set -e
[ "$r1" -eq 0 ] && [ "$r2" -eq 0 ] || fail "the two processes: exit $r1, $r2: $(cat "$T/a.out" "$T/b.out")"

cb merge "$T/a.json" "$T/b.json" -o "$T/m.json"
assert_rc 0 "merge"
[ ! -s "$T/out" ] && [ ! -s "$T/err" ] || fail "merge printed: $(cat "$T/out" "$T/err")"
"$HERE/../validate-json" "$HERE/../../docs/result.schema.json" "$T/m.json" >"$T/validate" ||
	fail "the merged record against the schema: $(cat "$T/validate")"

/usr/bin/python3 - "$T/a.json" "$T/b.json" "$T/m.json" "$T/two.json" <<'PY' || fail "the merged record"
import json, math, sys
a, b, m, two = (json.load(open(f)) for f in sys.argv[1:5])

def bounds(i, bits=10):
    if i < 2 << bits:
        return i, i
    s = (i >> bits) - 1
    lo = ((1 << bits) + (i & ((1 << bits) - 1))) << s
    return lo, lo + (1 << s) - 1

def percentile_us(buckets, p, lat):
    """docs/result.md's rule: the bucket midpoint, clamped to the exact
    min/max (known here to the microsecond), the max itself at rank count."""
    count = sum(buckets.values())
    rank = max(1, math.ceil(p / 100 * count))
    if rank == count:
        return lat["max"]
    seen = 0
    for i in sorted(buckets):
        seen += buckets[i]
        if seen >= rank:
            lo, hi = bounds(i)
            v = lo + (hi - lo) // 2
            v = min(max(v, lat["min"] * 1000), lat["max"] * 1000 + 999)
            return v // 1000

def fail(msg):
    print("FAIL:", msg, file=sys.stderr)
    sys.exit(1)

# keys a file's row keeps instead of the phase; keys a merge adds
moved = {"telemetry", "expect", "iterations", "regression", "steady", "search"}
added = {"ranks", "first_done_s", "last_done_s", "start_skew_ms"}
if [p["name"] for p in m["phases"]] != [p["name"] for p in two["phases"]]:
    fail("phases %s" % [p["name"] for p in m["phases"]])
for i, p in enumerate(m["phases"]):
    pa, pb, pt = a["phases"][i], b["phases"][i], two["phases"][i]
    n = p["name"]
    for k in ("ops", "bytes", "errors", "read_ops", "read_bytes", "write_ops", "write_bytes", "clients"):
        if p[k] != pa[k] + pb[k]:
            fail("%s %s: %s, the files' %s + %s" % (n, k, p[k], pa[k], pb[k]))
        # a fixed op count per client: the one process ran as many
        if p[k] != pt[k]:
            fail("%s %s: %s, the clients: 2 run's %s" % (n, k, p[k], pt[k]))
    if p["ops"] != 600:
        fail("%s: %d ops, not 600" % (n, p["ops"]))
    # the histogram: the bucket-wise sum, exactly
    hs = {}
    for q in (pa, pb):
        for i_, c in q["histogram"]["buckets"]:
            hs[i_] = hs.get(i_, 0) + c
    hm = {i_: c for i_, c in p["histogram"]["buckets"]}
    if hm != hs or p["histogram"]["count"] != sum(hs.values()) or p["histogram"]["count"] != p["ops"]:
        fail("%s: the histogram is not the files' sum" % n)
    lat, la, lb = p["latency_us"], pa["latency_us"], pb["latency_us"]
    for k in ("p50", "p90", "p99", "p99.9", "p99.99"):
        want = percentile_us(hs, float(k[1:]), lat)
        if lat[k] != want:
            fail("%s %s: %s us, the summed histogram's %s us" % (n, k, lat[k], want))
    if lat["min"] != min(la["min"], lb["min"]) or lat["max"] != max(la["max"], lb["max"]):
        fail("%s: min/max %s/%s" % (n, lat["min"], lat["max"]))
    mean = (la["mean"] * pa["ops"] + lb["mean"] * pb["ops"]) / p["ops"]
    if abs(lat["mean"] - mean) > 1e-6 * mean:
        fail("%s: mean %s, the ops-weighted %s" % (n, lat["mean"], mean))
    # the time is the span both ran over (the later start counted in, in
    # whole seconds as the samples are placed), the rates over it
    off = round(pb["window_start_unix_s"] - pa["window_start_unix_s"])
    span = max(pa["duration_s"] + max(0, -off), pb["duration_s"] + max(0, off))
    if abs(p["duration_s"] - span) > 1e-9:
        fail("%s: duration_s %s, the span %s" % (n, p["duration_s"], span))
    if abs(p["iops"] - p["ops"] / p["duration_s"]) > 1e-9 * p["iops"]:
        fail("%s: iops %s" % (n, p["iops"]))
    if abs(p["bw_bytes_per_s"] - p["bytes"] / p["duration_s"]) > 1e-9 * p["bw_bytes_per_s"]:
        fail("%s: bw %s" % (n, p["bw_bytes_per_s"]))
    # samples by wall-clock second: every op once, each second placed
    off = round(pb["window_start_unix_s"] - pa["window_start_unix_s"])
    base = min(0, off)
    want = {}
    for q, o in ((pa, 0), (pb, off)):
        for s in q["samples"]:
            t = s["t"] + o - base
            want[t] = want.get(t, 0) + s["ops"]
    got = {s["t"]: s["ops"] for s in p["samples"] if s["ops"]}
    if got != {t: c for t, c in want.items() if c}:
        fail("%s: samples %s, expected %s" % (n, got, want))
    if p["window_start_unix_s"] != min(pa["window_start_unix_s"], pb["window_start_unix_s"]):
        fail("%s: window_start_unix_s" % n)
    # the shape: the clients: 2 run's keys, a file's own sections under
    # its row, each client a row as in the one process
    want_keys = (set(pt) - moved) | added
    if set(p) != want_keys:
        fail("%s: keys %s, expected %s" % (n, sorted(set(p) ^ want_keys), ""))
    if len(p["per_client"]) != len(pt["per_client"]) or [c["ops"] for c in p["per_client"]] != [300, 300]:
        fail("%s: per_client %s" % (n, p["per_client"]))
    # each run drew its own seed
    strip = lambda d: {k: v for k, v in d.items() if k != "seed"}
    if strip(p["params"]) != strip(pt["params"]):
        fail("%s: params %s, the clients: 2 run's %s" % (n, p["params"], pt["params"]))
    rows = p["ranks"]
    if [(r["rank"], r["file"], r["ops"]) for r in rows] != [(0, sys.argv[1], pa["ops"]), (1, sys.argv[2], pb["ops"])]:
        fail("%s: rows %s" % (n, rows))
    for r, q in zip(rows, (pa, pb)):
        for k in moved & set(q):
            if r[k] != q[k]:
                fail("%s: row %d's %s is not its file's" % (n, r["rank"], k))
        if "telemetry" in q and "telemetry" not in r:
            fail("%s: row %d lost its telemetry" % (n, r["rank"]))
if m["profile"] != a["profile"] or [f["run_name"] for f in m["merged_from"]] != ["mh1", "mh2"]:
    fail("run keys: profile %s, merged_from %s" % (m["profile"], m["merged_from"]))
if m["started"] != min(a["started"], b["started"]):
    fail("started %s" % m["started"])
PY

# a host that started 3 s later (its file's clock moved): its seconds go 3
# on, every op still once
edit() { # IN OUT PYTHON-STATEMENT (on r)
	/usr/bin/python3 -c "import json, sys
r = json.load(open(sys.argv[1]))
$3
json.dump(r, open(sys.argv[2], 'w'))" "$1" "$2"
}
edit "$T/b.json" "$T/late.json" 'r["phases"][0]["window_start_unix_s"] += 3.2'
cb merge "$T/a.json" "$T/late.json" -o "$T/ml.json"
assert_rc 0 "merge a later host"
/usr/bin/python3 - "$T/a.json" "$T/late.json" "$T/ml.json" "$T/b.json" <<'PY' || fail "the later host's seconds"
import json, sys
a, b, m, b0 = (json.load(open(f)) for f in sys.argv[1:5])
pa, pb, p = a["phases"][0], b["phases"][0], m["phases"][0]
off = round(pb["window_start_unix_s"] - pa["window_start_unix_s"])
# 3.2 s later than it started, beside a's start (the two began a few
# hundred ms apart on a loaded host)
was = b0["phases"][0]["window_start_unix_s"] - pa["window_start_unix_s"]
assert off == round(was + 3.2) and off >= 3, (off, was)
want = [0] * max(len(pa["samples"]), len(pb["samples"]) + off)
for s in pa["samples"]:
    want[s["t"]] += s["ops"]
for s in pb["samples"]:
    want[s["t"] + off] += s["ops"]
got = [s["ops"] for s in p["samples"]]
assert got == want, (got, want)
assert sum(got) == pa["ops"] + pb["ops"]
# the rates over the span both ran: the later host's 3 s counted in
span = max(pa["duration_s"], pb["duration_s"] + off)
assert abs(p["duration_s"] - span) < 1e-9, (p["duration_s"], span)
assert abs(p["iops"] - p["ops"] / span) <= 1e-9 * p["iops"], (p["iops"], p["ops"] / span)
PY

# the merged record reads back as any record does
cb compare "$T/two.json" "$T/m.json"
assert_rc 0 "compare the merge"

# bad inputs: one line naming the culprit, exit 2, the -o file neither
# written nor replaced, no temporary file left
echo keep >"$T/out.json"
refused() { # WHAT PATTERN ARGS...
	local what=$1 pat=$2
	shift 2
	cb merge "$@" -o "$T/out.json"
	assert_rc 2 "$what"
	[ "$(wc -l <"$T/err")" -eq 1 ] || fail "$what: not one line: $(cat "$T/err")"
	grep -q -- "$pat" "$T/err" || fail "$what: the line does not say '$pat': $(cat "$T/err")"
	[ "$(cat "$T/out.json")" = keep ] || fail "$what: the -o file was replaced"
	! ls "$T"/out.json.tmp* >/dev/null 2>&1 || fail "$what: a temporary file left"
}
refused "one file" "two result files or more" "$T/a.json"
head -c 3000 "$T/b.json" >"$T/trunc.json"
refused "a truncated file" "trunc.json: not JSON" "$T/a.json" "$T/trunc.json"
echo '{"kind": "something else", "phases": []}' >"$T/foreign.json"
refused "a foreign JSON" "foreign.json: not a cephbench result" "$T/a.json" "$T/foreign.json"
sed 's|"cephbench-result/2"|"cephbench-result/3"|' "$T/b.json" >"$T/newer.json"
refused "a newer schema" "newer.json: not a cephbench result (schema 'cephbench-result/3'" \
	"$T/a.json" "$T/newer.json"
edit "$T/b.json" "$T/other.json" 'r["profile"]["name"] = "otherprof"'
refused "another profile" "other.json: profile 'otherprof'" "$T/a.json" "$T/other.json"
edit "$T/b.json" "$T/sha.json" 'r["profile"]["sha256"] = "0" * 64'
refused "another profile's sha256" "sha.json: profile 'mergeprof' (sha256 000000000000" "$T/a.json" "$T/sha.json"
edit "$T/b.json" "$T/names.json" 'r["phases"][1]["name"] = "r2"'
refused "phases by another name" "names.json: phases\[1\] is 'r2'" "$T/a.json" "$T/names.json"
edit "$T/b.json" "$T/fewer.json" 'del r["phases"][1]'
refused "fewer phases" "fewer.json: 1 phases" "$T/a.json" "$T/fewer.json"
edit "$T/b.json" "$T/hist.json" 'r["phases"][0]["histogram"]["buckets"][0][1] += 1'
refused "a histogram that is not its count" "hist.json: phases\[0\] histogram: the buckets hold" \
	"$T/a.json" "$T/hist.json"
edit "$T/b.json" "$T/yesterday.json" 'r["phases"][0]["window_start_unix_s"] -= 86400'
# a day less the time b started after a (a second or so on a loaded host)
refused "a run of another time" "yesterday.json: phases\[0\] 'w' started 86[34][0-9][0-9] s before" \
	"$T/a.json" "$T/yesterday.json"
refused "the same file twice" "the same run as" "$T/a.json" "$T/a.json"
refused "a merge as an input" "m.json: phases\[0\] already holds several hosts' rows" \
	"$T/a.json" "$T/m.json"
cb merge "$T/a.json" "$T/b.json" -o "$T/no/such/dir/m.json"
assert_rc 2 "-o into a missing directory"
[ "$(wc -l <"$T/err")" -eq 1 ] && grep -q 'no/such/dir' "$T/err" ||
	fail "-o into a missing directory: $(cat "$T/err")"
[ ! -e "$T/no" ] || fail "-o into a missing directory made it"
cb merge "$T/a.json" "$T/b.json" -o "$T/m
x.json"
assert_rc 2 "-o with a line break in its name"
grep -q "^cephbench merge: -o '.*': use a path of 1-4095 characters, no control characters" "$T/err" ||
	fail "-o with a line break: $(cat "$T/err")"
ls "$T" | grep -q '^x\.json$' && fail "a record was written under a name with a line break"
cb merge "$T/a.json" "$T/b.json"
assert_rc 2 "no -o"
grep -q 'give -o' "$T/err" || fail "no -o: $(cat "$T/err")"
cb merge --help
assert_rc 0 "--help"
grep -q '^usage: cephbench merge' "$T/out" || fail "--help: $(cat "$T/out")"
echo "merge: ok"
