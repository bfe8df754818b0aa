#!/usr/bin/env bash
# The compare and history pages of real sandbox runs, opened in a real
# headless Chromium (tests/html/check_page.py): the compare page's document
# is the one `compare --format json` prints, every pair's curves drawn with
# its input's samples and histogram (counted in Python from the files); the
# a row's kinds are pairs of the table with no curves; the
# history page has a point per row of `history --format json`, regressions
# and a skipped run marked. A --html target in a missing directory is
# refused before anything is read or stored: one line, exit 2, no file.
. "$(dirname "$0")/lib.sh"

HERE=$(dirname "$0")
PY=/usr/bin/python3
check() { # PAGE SHOT ARGS...: the page in Chromium, or fail
	"$PY" "$HERE/../html/check_page.py" "$@" >"$T/check" 2>&1 || fail "$1 in Chromium: $(cat "$T/check")"
}
W=(rados write 2 -p "$POOL" --conf "$CONF" -b 4K --history "$T/h.db")

# --- three real runs, 1, 4 and 2 ops in flight
cb "${W[@]}" -t 1 --run-name cmpa --json "$T/a.json"
assert_rc 0 "run A"
cb "${W[@]}" -t 4 --run-name cmpb --json "$T/b.json"
assert_rc 0 "run B"
cb "${W[@]}" -t 2 --run-name cmpc --json "$T/c.json"
assert_rc 0 "run C"

# --- compare: the page beside the text, from the same document
cb compare "$T/a.json" "$T/b.json" "$T/c.json" --format json
assert_rc 0 "compare --format json"
cp "$T/out" "$T/doc.json"
cb compare "$T/a.json" "$T/b.json" "$T/c.json" --html "$T/cmp.html"
assert_rc 0 "compare --html"
grep -q '^== B: ' "$T/out" || fail "compare --html printed no text report: $(cat "$T/out")"
grep -q 'src=\|href="http' "$T/cmp.html" && fail "the compare page loads something from elsewhere"
check "$T/cmp.html" "$T/cmp.png" --compare "$T/doc.json"
# a chart per matched phase, with A's, B's and C's curves on it
grep -q '^c0-iops: ' "$T/check" || fail "no overlaid IOPS chart: $(cat "$T/check")"
"$PY" - "$T/cmp.html" <<'PYEOF' || fail "the compare page's curves"
import json, sys
text = open(sys.argv[1]).read()
start = text.index(">", text.index('id="cb-data"')) + 1
d = json.loads(text[start:text.index("</script>", start)])
assert [i["label"] for i in d["inputs"]] == ["A", "B", "C"], d["inputs"]
assert len(d["compare"]["comparisons"]) == 2
PYEOF

# the page never changes the exit code (--fail-if-worse's, whether the two
# seconds of each run crossed it or not), and is written either way
cb compare "$T/b.json" "$T/a.json" --fail-if-worse 5
plain=$rc
cb compare "$T/b.json" "$T/a.json" --fail-if-worse 5 --html "$T/worse.html"
[ "$rc" -eq "$plain" ] || fail "--html changed compare's exit code from $plain to $rc"
[ -s "$T/worse.html" ] || fail "no page with --fail-if-worse (exit $rc)"

# --by: the rows of one matrix run, each against its group's first
cat >"$T/m.yaml" <<YAML
name: bym
defaults: { duration: 2s, ramp: 0s, pool: $POOL }
workloads:
  - { name: w, layer: rados, op: write, block_size: 4K, concurrency: [1, 4] }
YAML
cb run "$T/m.yaml" --conf "$CONF" --run-name bym --json "$T/m.json"
assert_rc 0 "the matrix run"
cb compare --by concurrency "$T/m.json" --format json
assert_rc 0 "compare --by --format json"
cp "$T/out" "$T/bydoc.json"
cb compare --by concurrency "$T/m.json" --html "$T/by.html"
assert_rc 0 "compare --by --html"
check "$T/by.html" "$T/by.png" --compare "$T/bydoc.json"

# --- a row's kinds (by_op: reads, writes, syncs) are pairs of the table,
# with no curves of their own (the runner's figures: the noop layer)
cat >"$T/k.yaml" <<'YAML'
name: kinds
workloads:
  - { name: mix, layer: noop, op: rw, duration: 2s, delay: 100us, concurrency: 4, sync_every: 8 }
YAML
for n in 1 2; do
	cb run "$T/k.yaml" --quiet --json "$T/k$n.json"
	assert_rc 0 "kinds run $n"
done
cb compare "$T/k1.json" "$T/k2.json" --format json
assert_rc 0 "compare of kinds --format json"
cp "$T/out" "$T/kdoc.json"
"$PY" -c 'import json, sys; ph = json.load(open(sys.argv[1]))["comparisons"][0]["phases"]
assert sorted(p["a_name"] for p in ph if p.get("data") == "kind") == ["mix:read", "mix:sync", "mix:write"], ph' \
	"$T/kdoc.json" || fail "the kinds' pairs: $(cat "$T/kdoc.json")"
cb compare "$T/k1.json" "$T/k2.json" --html "$T/k.html"
assert_rc 0 "compare of kinds --html"
check "$T/k.html" "$T/k.png" --compare "$T/kdoc.json"

# --- history: seeded from B's record by python (never by cephbench): three
# runs like B, one far below every run (a regression), one the gate refused
"$PY" - "$T" <<'PYEOF'
import calendar, copy, json, sys, time
t = sys.argv[1]
recs = [json.load(open(f"{t}/{n}.json")) for n in "abc"]
b = recs[1]
t0 = calendar.timegm(time.strptime(b["started"], "%Y-%m-%dT%H:%M:%SZ"))
def write(name, hours, scale=1.0, p99=1.0, refused=False):
    r = copy.deepcopy(b)
    r["started"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t0 + 3600 * hours))
    ph = r["phases"][0]
    ph["iops"] *= scale
    ph["bw_bytes_per_s"] *= scale
    ph["latency_us"]["p99"] = int(ph["latency_us"]["p99"] * p99)
    if refused:
        r["phases"] = []
        r["preflight"].update(verdict="refused", reasons=["HEALTH_WARN OSDMAP_FLAGS (noscrub flag(s) set)"])
    json.dump(r, open(f"{t}/{name}.json", "w"))
for i, n in enumerate([1.0, 1.01, 0.99]):
    write(f"s{i + 1}", i + 1, n)
low = 0.3 * min(r["phases"][0]["iops"] for r in recs) / b["phases"][0]["iops"]
write("skip", 4, refused=True)
write("low", 5, low, p99=4.0)
PYEOF
for s in s1 s2 s3 skip; do
	cb history "$T/h.db" --add "$T/$s.json" --regression 20
	assert_rc 0 "storing $s"
done

# --- a missing directory: refused first (nothing stored), one line, no file
sum=$(md5sum <"$T/h.db")
for c in "compare $T/a.json $T/b.json" "history $T/h.db" "history $T/h.db --add $T/low.json"; do
	# shellcheck disable=SC2086 # the words of $c are the arguments
	cb $c --html "$T/none/p.html"
	assert_rc 2 "$c --html into a missing directory"
	one_line "$c --html into a missing directory" "--html $T/none/p.html: cannot open"
	[ ! -s "$T/out" ] || fail "$c: printed before refusing --html: $(cat "$T/out")"
	[ ! -e "$T/none" ] || fail "$c: made $T/none"
done
[ "$(md5sum <"$T/h.db")" = "$sum" ] || fail "a refused --add --html stored the run"

# --add --html: the run stored and judged (exit 1, a regression), then the
# page of the whole history
cb history "$T/h.db" --add "$T/low.json" --regression 20 --html "$T/add.html"
assert_rc 1 "--add of the regressed run"
grep -q "^regression: write: IOPS" "$T/out" || fail "no regression line: $(cat "$T/out")"
cb history "$T/h.db" --format json
assert_rc 0 "history --format json"
cp "$T/out" "$T/hist.json"
"$PY" -c 'import json, sys
rows = json.load(open(sys.argv[1]))
assert len(rows) == 7, len(rows)
assert sum(1 for r in rows if (r["regression"] or {}).get("verdict") == "regression") == 1
' "$T/hist.json" || fail "the history holds not 7 rows and one regression: $(cat "$T/hist.json")"
check "$T/add.html" "$T/add.png" --history "$T/hist.json" --skipped 1
cb history "$T/h.db" --html "$T/hist.html"
assert_rc 0 "history --html"
grep -q "^2.*cmpa *write" "$T/out" || fail "history --html printed no listing: $(cat "$T/out")"
check "$T/hist.html" "$T/hist.png" --history "$T/hist.json" --skipped 1
# the filters: the page draws what the listing lists
cb history "$T/h.db" --workload write --last 3 --format json
cp "$T/out" "$T/last3.json"
cb history "$T/h.db" --workload write --last 3 --html "$T/last3.html"
assert_rc 0 "history --workload --last --html"
check "$T/last3.html" "$T/last3.png" --history "$T/last3.json" --skipped 1
"$PY" -c 'import json, sys; assert len(json.load(open(sys.argv[1]))) == 3' "$T/last3.json" ||
	fail "--last 3 listed $(cat "$T/last3.json")"

# screenshots for a reader, when asked
if [ -n "${CB_HTML_SHOTS:-}" ]; then
	cp "$T"/*.png "$T"/cmp.html "$T"/hist.html "$CB_HTML_SHOTS"/
fi
echo "ok"
