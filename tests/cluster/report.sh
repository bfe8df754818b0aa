#!/usr/bin/env bash
# cephbench report: a real sandbox run's saved record rendered again. The
# text equals what the run printed byte for byte (its regression lines
# too), and with --detail what the run printed with --detail: the findings
# (at most ten lines) under the table, each phase's telemetry only with
# --detail; --format json is the --json file itself; the CSV parses with
# Python's csv module, a row per phase holding the record's figures; the
# Markdown has a table row per phase; --html writes the run's page. Bad
# input (truncated, foreign, a newer schema, a missing directory for the
# page) is one line, exit 2, and no file left.
. "$(dirname "$0")/lib.sh"

HERE=$(dirname "$0")
cat >"$T/p.yaml" <<'YAML'
name: rep
defaults: { duration: 2s, ramp: 0s, concurrency: 4, pool: bench }
workloads:
  - { name: w, layer: rados, op: write, block_size: 4K, expect: { min_iops: 1, max_p99: 1us } }
  - { name: r, layer: rados, op: rand, block_size: 4K }
  - { name: img, layer: rbd, pool: rbd, op: randrw, rw_mix_read: 70, block_size: 4K, image_size: 16M, prefill: true }
  - { name: ol, layer: rados, op: write, block_size: 4K, rate: 100 }
  - { name: md, layer: cephfs, op: tree, depth: 1, branch: 2, items: 4, clients: 2 }
YAML

# The end-of-run report in what the run printed: from the line before
# "cephbench VERSION: run" up to the cleanup's notes.
report_of() {
	/usr/bin/python3 - "$1" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
m = re.search(r"\ncephbench [^\n]*: run '", s)
assert m, "no report in the run's output"
s = s[m.start():]
c = re.search(r"^cleanup: ", s, re.M)
sys.stdout.write(s[:c.start()] if c else s)
PY
}

# the second run with --detail
detail=()
for i in 1 2; do
	cb run "$T/p.yaml" --conf "$CONF" --run-name "rep$i" --json "$T/r$i.json" --history "$T/h.db" --regression 20 \
		"${detail[@]}"
	assert_rc 1 "run $i (max_p99: 1us fails)"
	report_of "$T/out" >"$T/want$i" || fail "run $i: $(cat "$T/out")"
	detail=(--detail)
done
grep -q "^w: " "$T/want2" || fail "no per-phase lines in the run's report"
grep -q "^regression check: " "$T/want2" || fail "no history lines in the second run's report: $(cat "$T/want2")"

# --- the findings: under the table, at most ten lines, the record's; each
# phase's telemetry only with --detail (the JSON has it either way)
findings_of() { # FILE: the block's lines, indented under its "findings:" line
	awk '/^findings:/ { on = 1; next } on && /^  / { print; next } { on = 0 }' "$1"
}
grep -q "^findings:" "$T/want1" || fail "no findings block: $(cat "$T/want1")"
[ "$(findings_of "$T/want1" | wc -l)" -le 10 ] || fail "more than ten findings: $(findings_of "$T/want1")"
grep -q "^  w: expectation failed: max_p99 " "$T/want1" || fail "the failed max_p99 is no finding: $(cat "$T/want1")"
/usr/bin/python3 - "$T/r1.json" "$T/want1" <<'PY' || fail "the findings are not the record's"
import json, sys
rec = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read().split("\n")
start = text.index(next(l for l in text if l.startswith("findings:")))
shown = []
for l in text[start + 1:]:
    if not l.startswith("  "):
        break
    shown.append(l[2:])
f = rec["findings"]
assert f and all(isinstance(s, str) for s in f), f
if len(f) <= 10:
    assert shown == f, (shown, f)
else:
    assert shown[:9] == f[:9] and shown[9].startswith("... and %d more" % (len(f) - 9)), shown
PY
for s in "client CPU" "host CPU" "cluster counted" "MDS counted"; do
	grep -q "^[a-z.-]*: $s" "$T/want1" && fail "'$s' without --detail: $(cat "$T/want1")"
	grep -q "^[a-z.-]*: $s" "$T/want2" || fail "'$s' not with --detail: $(cat "$T/want2")"
done
grep -q "^findings:" "$T/want2" || fail "no findings block with --detail"

# --- text: byte for byte, one file and two in a row; --detail as the run
# printed it with --detail
cb report "$T/r1.json"
assert_rc 0 "report r1.json"
cmp -s "$T/out" "$T/want1" || fail "report text differs from the run's: $(diff "$T/want1" "$T/out")"
[ -s "$T/err" ] && fail "report wrote to stderr: $(cat "$T/err")"
cb report --detail "$T/r2.json"
assert_rc 0 "report --detail r2.json"
cmp -s "$T/out" "$T/want2" || fail "report --detail differs from the run's: $(diff "$T/want2" "$T/out")"
cb report "$T/r2.json"
assert_rc 0 "report r2.json"
grep -q "^[a-z.-]*: client CPU" "$T/out" && fail "report without --detail printed telemetry"
cb report "$T/r1.json" "$T/r1.json"
assert_rc 0 "report r1.json r1.json"
cat "$T/want1" "$T/want1" | cmp -s - "$T/out" || fail "two files are not their reports in a row"

# --- json: the record itself
cb report --format json "$T/r1.json"
assert_rc 0 "report --format json"
cmp -s "$T/out" "$T/r1.json" || fail "--format json differs from the --json file"

# --- csv: every phase a row, the record's figures in it
cb report --format csv "$T/r1.json" "$T/r2.json"
assert_rc 0 "report --format csv"
/usr/bin/python3 - "$T/out" "$T/r1.json" "$T/r2.json" <<'PY' || fail "the CSV: $(head -c 2000 "$T/out")"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
recs = [json.load(open(f)) for f in sys.argv[2:]]
phases = [(r, p) for r in recs for p in r["phases"]]
assert len(rows) == len(phases), (len(rows), len(phases))
for row, (rec, p) in zip(rows, phases):
    assert row["run_name"] == rec["run_name"] and row["name"] == p["name"], row
    assert int(row["ops"]) == p["ops"] and int(row["errors"]) == p["errors"], row
    assert abs(float(row["iops"]) - p["iops"]) <= 1e-9 * p["iops"], row
    assert float(row["latency_us.p99"]) == p["latency_us"]["p99"], row
    if "open_loop" in p:
        assert int(row["open_loop.late_ops"]) == p["open_loop"]["late_ops"], row
    for v in p.get("expect", []):
        assert row["expect.%s.pass" % v["threshold"]] == ("1" if v["pass"] else "0"), row
    cl = p.get("telemetry", {}).get("client")
    if cl:  # a real to 15 digits
        x = float(row["telemetry.client.cpu_user_s"])
        assert abs(x - cl["cpu_user_s"]) <= 1e-12 * max(1, abs(x)), row
    assert "samples" not in row and "histogram.count" not in row, sorted(row)
print(len(rows), "rows,", len(rows[0]), "columns")
PY

# --- markdown: the table has a row per phase
cb report --format markdown "$T/r1.json"
assert_rc 0 "report --format markdown"
# each phase's row, in order, with its ops and IOPS as the JSON has them
/usr/bin/python3 - "$T/out" "$T/r1.json" <<'PY' || fail "markdown: the table is not the phases: $(cat "$T/out")"
import json, sys
lines = open(sys.argv[1]).read().split("\n")
head = lines.index(next(l for l in lines if l.startswith("| phase | layer |")))
rows = [l.strip("| ").split(" | ") for l in lines[head + 2:] if l.startswith("| ")]
phases = json.load(open(sys.argv[2]))["phases"]
rows = rows[:len(phases)]
# a row the client's cache served is marked after its name (served.h), a
# cold one says how (cold.h)
mark = lambda p: ((" (cached)" if p.get("served", {}).get("by") == "client cache" else "")
                  + (" (cold: %s)" % p["cold"]["client"] if "cold" in p else ""))
assert [r[0] for r in rows] == [p["name"] + mark(p) for p in phases], rows
for r, p in zip(rows, phases):
    assert int(r[6]) == p["ops"] and r[7] == "%.1f" % p["iops"], (r, p["name"])
PY
grep -q '^| w | max_p99 | .* | \*\*FAIL\*\*' "$T/out" || fail "markdown: no FAIL verdict row: $(cat "$T/out")"
grep -q '^```text$' "$T/out" || fail "markdown: no notes block"

# --- html: the run's page, as run --html draws it
cb report --html "$T/r1.html" "$T/r1.json"
assert_rc 0 "report --html"
[ -s "$T/out" ] && fail "report --html printed: $(cat "$T/out")"
/usr/bin/python3 "$HERE/../html/check_page.py" "$T/r1.html" "$T/r1.png" "$T/r1.json" \
	>"$T/check" 2>&1 || fail "the page in Chromium: $(cat "$T/check")"

# --- bad input: one line naming the file, exit 2, nothing written
bad() { # WHAT FILE PATTERN
	rm -f "$T/bad.html"
	cb report --html "$T/bad.html" "$2"
	assert_rc 2 "$1"
	[ "$(grep -c . "$T/err")" -eq 1 ] || fail "$1: not one line: $(cat "$T/err")"
	grep -q -- "$3" "$T/err" || fail "$1: $(cat "$T/err")"
	[ -s "$T/out" ] && fail "$1: printed: $(cat "$T/out")"
	ls "$T" | grep -q '^bad\.html' && fail "$1: a page was left"
	return 0
}
head -c 3000 "$T/r1.json" >"$T/trunc.json"
bad "a truncated record" "$T/trunc.json" "$T/trunc.json: not JSON"
echo '{"name": "x", "phases": []}' >"$T/foreign.json"
bad "a foreign JSON" "$T/foreign.json" "$T/foreign.json: not a cephbench result (no 'schema'"
sed 's|"cephbench-result/2"|"cephbench-result/3"|' "$T/r1.json" >"$T/newer.json"
bad "a newer schema" "$T/newer.json" "schema 'cephbench-result/3'; expected cephbench-result/2"
bad "a missing file" "$T/none.json" "$T/none.json"
cb report --format text "$T/r1.json" "$T/trunc.json"
assert_rc 2 "a bad second file"
[ -s "$T/out" ] && fail "the first file was printed before the second was read"
cb report --html "$T/none/r.html" "$T/r1.json"
assert_rc 2 "--html into a missing directory"
grep -q -- "--html $T/none/r.html: cannot open" "$T/err" || fail "no line naming --html: $(cat "$T/err")"
[ "$(grep -c . "$T/err")" -eq 1 ] || fail "more than one line: $(cat "$T/err")"
cb report --html "$T/a
b.html" "$T/r1.json"
assert_rc 2 "--html with a line break in its name"
grep -q -- "--html '.*': use a path of 1-4095 characters, no control characters" "$T/err" ||
	fail "--html with a line break: $(cat "$T/err")"
ls "$T" | grep -q '^a$' && fail "a page was written under a name with a line break"
cb report --format yaml "$T/r1.json"
assert_rc 2 "--format yaml"
grep -q "^cephbench report: --format 'yaml': use text, json, csv or markdown" "$T/err" || fail "--format yaml: $(cat "$T/err")"
cb report --html "$T/x.html" "$T/r1.json" "$T/r2.json"
assert_rc 2 "--html with two files"
grep -q "cephbench compare" "$T/err" || fail "--html with two files: $(cat "$T/err")"
echo "ok"
