#!/usr/bin/env bash
# The cron health workflow: --history stores what --json reports, `history`
# reads it back (json, csv, text), --regression judges against seeded
# histories, --prom passes promtool, --quiet is silent unless something is
# wrong, and bad health flags fail before anything reaches the cluster.
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
command -v promtool >/dev/null || fail "no promtool (Debian package prometheus; scripts/setup installs it)"
DB=$T/h.db
# the write without its --conf (a flag given once), and with the sandbox's
W0=(rados write -p "$POOL" -b 4K -t 4 --run-name hist)
W=("${W0[@]}" --conf "$CONF")

# --- bad flags: exit 2, one line, nothing made (checked before connecting)
cb "${W[@]}" --ops 200 --regression 10
assert_rc 2 "--regression without --history"
one_line "--regression without --history" "--regression needs --history"
# --dry-run checks the flags together too (it looks at no file)
cb run "$(dirname "$0")/../../profiles/health.yaml" --dry-run --regression 5
assert_rc 2 "--dry-run --regression without --history"
one_line "--dry-run --regression without --history" "--regression needs --history"
cb "${W[@]}" --ops 200 --history "$DB" --regression 10 --baseline 0
assert_rc 2 "--baseline 0"
one_line "--baseline 0" "--baseline '0'"
cb "${W[@]}" --ops 200 --history "$T/no-such-dir/h.db"
assert_rc 2 "--history in a missing directory"
one_line "--history in a missing directory" "--history $T/no-such-dir/h.db: cannot open"
touch "$T/plain"
cb "${W[@]}" --ops 200 --history "$T/plain/h.db"
assert_rc 2 "--history under a file"
one_line "--history under a file" "--history $T/plain/h.db"
cb "${W[@]}" --ops 200 --prom "$T/no-such-dir/cb.prom"
assert_rc 2 "--prom in a missing directory"
one_line "--prom in a missing directory" "--prom $T/no-such-dir/cb.prom"
echo "not a history" >"$T/text.db"
cb "${W[@]}" --ops 200 --history "$T/text.db"
assert_rc 2 "--history of another file"
one_line "--history of another file" "not a cephbench history"
# a run that fails before storing (bad --conf: exit 2; no monitor: exit 3)
# leaves no history behind, not even an empty one
cb "${W0[@]}" --ops 200 --conf "$T/no-such.conf" --history "$DB"
assert_rc 2 "--history with a bad --conf"
sed -E 's/^([[:space:]]*mon[ _]host[[:space:]]*=).*/\1 127.0.0.1:1/' "$CONF" >"$T/dead.conf"
grep -q "127.0.0.1:1" "$T/dead.conf" || fail "could not rewrite mon host in $CONF"
cb "${W0[@]}" --ops 200 --conf "$T/dead.conf" --timeout 3 --history "$DB"
assert_rc 3 "--history with no monitor"
assert_ns_empty "after the bad flags"
[ ! -e "$DB" ] || fail "a rejected run created $DB"

# a history the user may not write: refused before connecting (a dead
# monitor would be exit 3), one line. Root writes whatever the mode bits
# say, so as root this runs as nobody.
as_user=()
[ "$(id -u)" -ne 0 ] || as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
mkdir "$T/rw" "$T/rodir"
chmod 755 "$T"
# the user's own directory (a history's must be writable by no one else)
[ ${#as_user[@]} -eq 0 ] || chown 65534:65534 "$T/rw"
# a history to refuse: seeded by python (sqlite3 module) as cephbench would
# make it, so this part needs no stored run yet
"$PY" - "$T" <<'PYEOF'
import sqlite3, sys
t = sys.argv[1]
for p in (f"{t}/rw/ro.db", f"{t}/rodir/h.db"):
    c = sqlite3.connect(p)
    c.execute("PRAGMA application_id = 1667393651")  # 0x63626873, "cbhs"
    c.execute("PRAGMA user_version = 1")
    c.execute("CREATE TABLE placeholder (x)")
    c.commit()
    c.close()
PYEOF
chmod 444 "$T/rw/ro.db"
chmod 666 "$T/rodir/h.db"
chmod 555 "$T/rodir"
if "${as_user[@]}" test -w "$T/rw/ro.db"; then
	echo "history: cannot test read-only histories (the test user writes 0444 files)" >&2
else
	sum=$(md5sum <"$T/rw/ro.db")
	set +e
	"${as_user[@]}" "$CEPHBENCH" "${W0[@]}" --ops 200 --conf "$T/dead.conf" --timeout 3 \
		--history "$T/rw/ro.db" >"$T/out" 2>"$T/err"
	rc=$?
	set -e
	assert_rc 2 "a read-only history"
	one_line "a read-only history" "--history $T/rw/ro.db: cannot write: the file is read-only"
	[ "$(md5sum <"$T/rw/ro.db")" = "$sum" ] || fail "a read-only history changed"
	for h in h.db new.db; do
		set +e
		"${as_user[@]}" "$CEPHBENCH" "${W0[@]}" --ops 200 --conf "$T/dead.conf" --timeout 3 \
			--history "$T/rodir/$h" >"$T/out" 2>"$T/err"
		rc=$?
		set -e
		assert_rc 2 "a history in a read-only directory ($h)"
		one_line "a history in a read-only directory ($h)" \
			"--history $T/rodir/$h: cannot write in $T/rodir"
	done
	[ ! -e "$T/rodir/new.db" ] || fail "a history made in a read-only directory"
fi
chmod 755 "$T/rodir"

# --- five runs into the history, read back exactly
mkdir "$T/prom"
inodes=()
for i in 1 2 3 4 5; do
	cb "${W[@]}" --ops 300 --history "$DB" --json "$T/r$i.json" --prom "$T/prom/cb.prom"
	assert_rc 0 "run $i"
	inodes+=("$(stat -c %i "$T/prom/cb.prom")")
	# the first file's inode held by a second link, so a later file
	# cannot be given its number once it is freed
	if [ "$i" -eq 1 ]; then ln "$T/prom/cb.prom" "$T/prom1.keep"; fi
done
cb history "$DB" --format json
assert_rc 0 "history --format json"
cp "$T/out" "$T/trend.json"
cb history "$DB" --format csv
assert_rc 0 "history --format csv"
cp "$T/out" "$T/trend.csv"
cb history "$DB"
assert_rc 0 "history (text)"
cp "$T/out" "$T/trend.txt"
cb history "$DB" --last 2 --format json
assert_rc 0 "history --last 2"
cp "$T/out" "$T/last2.json"
cb history "$DB" --profile no-such-profile --format json
assert_rc 0 "history --profile (none)"
cp "$T/out" "$T/none.json"
"$PY" - "$T" <<'PYEOF' || fail "history read-back differs from the runs' JSON"
import csv, json, math, sys
t = sys.argv[1]
runs = [json.load(open(f"{t}/r{i}.json")) for i in range(1, 6)]
rows = json.load(open(f"{t}/trend.json"))
def same(a, b, what):
    if not math.isclose(float(a), float(b), rel_tol=1e-12, abs_tol=0):
        sys.exit(f"{what}: history {a!r}, run {b!r}")
assert len(rows) == 5, f"{len(rows)} rows, expected 5"
for run, row in zip(runs, rows):
    ph = run["phases"][0]
    for k in ("started", "run_name"):
        assert row[k] == run[k], (k, row[k], run[k])
    assert row["profile"] == run["profile"]["name"] and row["fsid"] == run["cluster"]["fsid"]
    assert row["phase"] == ph["name"] == "write" and row["pool"] == ph["pool"]
    for k in ("ops", "bytes", "errors", "iops", "bw_bytes_per_s", "duration_s", "block_size",
              "concurrency"):
        same(row[k], ph[k], k)
    for k in ("min", "mean", "p50", "p90", "p99", "p99.9", "max"):
        same(row["latency_us"][k], ph["latency_us"][k], "latency " + k)
    assert row["interrupted"] is False and row["failed"] is False
    assert row["regression"] is None
assert [r["started"] for r in rows] == sorted(r["started"] for r in rows), "not oldest first"
last2 = json.load(open(f"{t}/last2.json"))
assert [r["iops"] for r in last2] == [r["iops"] for r in rows[3:]], "--last 2"
assert json.load(open(f"{t}/none.json")) == [], "--profile filter"
c = list(csv.DictReader(open(f"{t}/trend.csv")))
assert len(c) == 5, f"csv: {len(c)} rows"
for run, r in zip(runs, c):
    ph = run["phases"][0]
    assert r["phase"] == "write" and int(r["ops"]) == ph["ops"] and int(r["errors"]) == 0
    assert abs(float(r["iops"]) / ph["iops"] - 1) < 1e-12, "csv iops"
    assert int(r["lat_p99_us"]) == ph["latency_us"]["p99"], "csv p99"
txt = open(f"{t}/trend.txt").read().splitlines()
assert txt[0].split()[:3] == ["started", "run", "phase"], txt[0]
assert len(txt) == 6, f"text: {len(txt)} lines"
for run, line in zip(runs, txt[1:]):
    f = line.split()
    assert f[0] == run["started"] and f[1] == "hist" and f[2] == "write", line
    assert abs(float(f[3]) - run["phases"][0]["iops"]) <= 0.05, line
PYEOF

# --- the textfile: promtool-clean, the series there, replaced by rename
promtool check metrics <"$T/prom/cb.prom" >"$T/promtool" 2>&1 || fail "promtool: $(cat "$T/promtool")"
ls "$T/prom" >"$T/promls"
[ "$(cat "$T/promls")" = cb.prom ] || fail "--prom left other files: $(cat "$T/promls")"
[ "$(stat -c %i "$T/prom1.keep")" != "${inodes[4]}" ] || fail "--prom rewrote the file in place (same inode)"
labels="profile=\"rados\",workload=\"write\",layer=\"rados\",op=\"write\",pool=\"$POOL\""
for series in "cephbench_iops{$labels}" "cephbench_bandwidth_bytes{$labels}" \
	"cephbench_latency_seconds{$labels,quantile=\"0.5\"}" \
	"cephbench_latency_seconds{$labels,quantile=\"0.99\"}" \
	"cephbench_latency_seconds{$labels,quantile=\"0.999\"}" \
	"cephbench_errors_total{$labels} 0" "cephbench_regression{$labels} 0" \
	'cephbench_last_run_timestamp_seconds{profile="rados"}' '# TYPE cephbench_iops gauge'; do
	grep -qF "$series" "$T/prom/cb.prom" || fail "--prom lacks $series"
done
"$PY" - "$T" <<'PYEOF' || fail "--prom figures differ from the run's JSON"
import calendar, json, sys, time
t = sys.argv[1]
run = json.load(open(f"{t}/r5.json"))
ph = run["phases"][0]
vals = {}
for line in open(f"{t}/prom/cb.prom"):
    if not line.startswith("#"):
        k, v = line.rsplit(" ", 1)
        vals[k.split("{")[0] + ("{q=" + k.split('quantile="')[1] if "quantile" in k else "")] = float(v)
assert abs(vals["cephbench_iops"] / ph["iops"] - 1) < 1e-9
assert abs(vals["cephbench_bandwidth_bytes"] / ph["bw_bytes_per_s"] - 1) < 1e-9
assert abs(vals['cephbench_latency_seconds{q=0.99"}'] - ph["latency_us"]["p99"] / 1e6) < 1e-12
assert vals["cephbench_latency_seconds_count"] == ph["ops"]
ts = calendar.timegm(time.strptime(run["started"], "%Y-%m-%dT%H:%M:%SZ"))
assert vals["cephbench_last_run_timestamp_seconds"] == ts
PYEOF

# --- history command errors
cb history "$T/missing.db"
assert_rc 2 "history of a missing file"
one_line "history of a missing file" "$T/missing.db: cannot open"
[ ! -e "$T/missing.db" ] || fail "reading a missing history created it"
cb history "$T/r1.json"
assert_rc 2 "history of a JSON file"
one_line "history of a JSON file" "not a cephbench history"
cb history "$T/seed.db" --add "$T/trend.json"
assert_rc 2 "--add of a non-result"
one_line "--add of a non-result" "not a cephbench result"

# --- the same result twice: refused, one line, nothing written
cb history "$T/dup.db" --add "$T/r1.json" --quiet
assert_rc 0 "--add r1"
sum=$(md5sum <"$T/dup.db")
cb history "$T/dup.db" --add "$T/r1.json" --prom "$T/dup.prom"
assert_rc 2 "--add r1 again"
one_line "--add r1 again" "$T/dup.db: run 'hist' of profile 'rados' started" "is already stored"
[ "$(md5sum <"$T/dup.db")" = "$sum" ] || fail "--add r1 again changed the history"
[ ! -e "$T/dup.prom" ] || fail "--add r1 again wrote --prom"
# a real record made hostile (the unit test result-input-cli.sh has every
# variant on generated ones): refused by the same check compare applies
"$PY" - "$T" <<'PYEOF'
import json, sys
t = sys.argv[1]
for name, change in (("esc", lambda r: r["phases"][0].__setitem__("name", "write\x1b[2J\x1b]0;T\x07")),
                     ("negops", lambda r: r["phases"][0].__setitem__("ops", -1)),
                     ("month13", lambda r: r.__setitem__("started", "2026-13-01T00:00:00Z"))):
    r = json.load(open(f"{t}/r1.json"))
    change(r)
    json.dump(r, open(f"{t}/{name}.json", "w"))
PYEOF
for bad in "esc phases[0].name: expected a phase name" "negops phases[0].ops: expected a count" \
	"month13 started: expected a real UTC time"; do
	f=${bad%% *}
	cb history "$T/dup.db" --add "$T/$f.json" --prom "$T/dup.prom"
	assert_rc 2 "--add $f"
	one_line "--add $f" "$T/$f.json: ${bad#* }"
	LC_ALL=C grep -q '[[:cntrl:]]' "$T/err" && fail "--add $f: a control byte in $(cat -v "$T/err")"
	cb compare "$T/r1.json" "$T/$f.json"
	assert_rc 2 "compare $f"
	one_line "compare $f" "$T/$f.json: ${bad#* }"
done
[ "$(md5sum <"$T/dup.db")" = "$sum" ] || fail "--add of hostile records changed the history"
[ ! -e "$T/dup.prom" ] || fail "--add of a hostile record wrote --prom"

# --- cron jobs at once: none fails on another's lock (even while the first
# creates the file and schema), every run stored whole; of two adding the
# same result, exactly one stores it (the check is in the store's
# transaction)
pids=()
for i in 1 2 3 4 5 6; do
	"$CEPHBENCH" history "$T/par.db" --add "$T/r$(((i - 1) % 5 + 1)).json" --quiet >"$T/par$i" 2>&1 &
	pids+=($!)
done
refused=0
for p in "${pids[@]}"; do
	wait_bg "$p"
	[ "$rc" -eq 2 ] && refused=$((refused + 1)) && continue
	assert_rc 0 "concurrent --add"
done
[ "$refused" -eq 1 ] || fail "concurrent --add of r1 twice: $refused refused: $(cat "$T"/par*)"
grep -l "is already stored" "$T"/par[16] >/dev/null || fail "concurrent --add: $(cat "$T"/par*)"
cb history "$T/par.db" --format csv
[ "$(wc -l <"$T/out")" -eq 6 ] || fail "concurrent --add: $(cat "$T/out" "$T"/par*)"

# --- seeded histories: seven results around r1's figures (±1 %), then one
# to judge. Written by python from the real record, never by cephbench.
"$PY" - "$T" <<'PYEOF'
import copy, json, sys
t = sys.argv[1]
base = json.load(open(f"{t}/r1.json"))
def write(name, day, scale=1.0, p99=1.0, interrupted=False, fsid=None):
    r = copy.deepcopy(base)
    r["started"] = f"2026-01-{day:02d}T00:00:00Z"
    r["interrupted"] = interrupted
    if fsid:
        r["cluster"]["fsid"] = fsid
    ph = r["phases"][0]
    ph["iops"] *= scale
    ph["bw_bytes_per_s"] *= scale
    ph["latency_us"]["p99"] = int(ph["latency_us"]["p99"] * p99)
    # enough ops for a p99 verdict, over time enough for any: the
    # histogram's counts multiplied alike (its percentiles stay), so that
    # its count is the row's ops, as a record's must be
    h = ph["histogram"]
    k = -(-5000 // h["count"])
    h["buckets"] = [[i, c * k] for i, c in h["buckets"]]
    h["count"] *= k
    ph["ops"] = h["count"]
    ph["duration_s"] = 2.0
    json.dump(r, open(f"{t}/{name}.json", "w"))
noise = [1.0, 1.01, 0.99, 1.005, 0.995, 1.008, 0.992]
for i, n in enumerate(noise):
    write(f"s{i + 1}", i + 1, n)
med = 1.0
write("low20", 20, 0.8 * med)
write("low1", 20, 0.99 * med)
write("p99up", 20, 1.0, p99=1.6)
write("cut", 10, 100.0, interrupted=True)
write("elsewhere", 11, 100.0, fsid="00000000-0000-0000-0000-000000000000")
PYEOF
for i in 1 2 3 4 5 6 7; do
	cb history "$T/seed.db" --add "$T/s$i.json" --regression 10
	assert_rc 0 "seeding s$i"
done
grep -q "no verdict (0 earlier runs, 3 needed): write" "$T/out" && fail "s7 had a baseline"
grep -q "ok against the median of earlier runs: write" "$T/out" || fail "s7: $(cat "$T/out")"

cp "$T/seed.db" "$T/a.db"
cb history "$T/a.db" --add "$T/low20.json" --regression 10
assert_rc 1 "20 % lower"
grep -q "^regression: write: IOPS [0-9]* vs median [0-9]* of 7 runs (-20.0 %, limit -10 %, baseline spread ±[0-9.]* %)$" "$T/out" ||
	fail "20 % lower: no IOPS regression line: $(cat "$T/out")"
grep -q "^regression: write: MiB/s" "$T/out" || fail "20 % lower: no MiB/s line: $(cat "$T/out")"
grep -q "^regression: write: p99" "$T/out" && fail "20 % lower: p99 flagged: $(cat "$T/out")"
cb history "$T/a.db" --last 1 --format json
"$PY" -c 'import json,sys; r=json.load(open(sys.argv[1]))[0]["regression"]; assert r["verdict"]=="regression" and r["baseline_runs"]==7 and r["metrics"]["iops"]["regression"], r' "$T/out" ||
	fail "the stored annotation: $(cat "$T/out")"

cp "$T/seed.db" "$T/b.db"
cb history "$T/b.db" --add "$T/low1.json" --regression 10
assert_rc 0 "1 % lower"
grep -q "^regression:" "$T/out" && fail "1 % lower flagged: $(cat "$T/out")"

cp "$T/seed.db" "$T/c.db"
cb history "$T/c.db" --add "$T/p99up.json" --regression 10 --quiet
assert_rc 1 "p99 60 % higher"
[ "$(wc -l <"$T/out")" -eq 1 ] || fail "p99 rise, --quiet: $(cat "$T/out")"
grep -q "^regression: write: p99 [0-9.]* ms vs median [0-9.]* ms of 7 runs (+60.0 %, limit +10 %" "$T/out" ||
	fail "p99 rise: $(cat "$T/out")"

# fewer than 3 usable earlier runs: an interrupted run and another
# cluster's do not count
for s in s1 s2 cut elsewhere; do
	cb history "$T/d.db" --add "$T/$s.json"
	assert_rc 0 "seeding d.db with $s"
done
cb history "$T/d.db" --add "$T/low20.json" --regression 10
assert_rc 0 "two usable earlier runs"
grep -q "no verdict (2 earlier runs, 3 needed): write" "$T/out" || fail "no verdict: $(cat "$T/out")"
grep -q "^regression:" "$T/out" && fail "a verdict on 2 runs: $(cat "$T/out")"
cb history "$T/d.db" --format json
"$PY" -c 'import json,sys; r=json.load(open(sys.argv[1])); assert [x["interrupted"] for x in r]==[False,False,True,False,False], r' "$T/out" ||
	fail "the interrupted run is not marked in the trend"

# --- a live run cut by SIGINT: exit 130, stored and marked, no verdict
"$CEPHBENCH" "${W[@]}" --duration 60 --history "$T/fast.db" --regression 10 >"$T/out" 2>"$T/err" &
signal_and_wait INT $!
assert_rc 130 "interrupted run"
grep -q "no verdict (the run was interrupted): write" "$T/out" || fail "interrupted: $(cat "$T/out")"
cb history "$T/fast.db" --format json
"$PY" -c 'import json,sys; r=json.load(open(sys.argv[1])); assert len(r)==1 and r[0]["interrupted"] and r[0]["regression"]["verdict"]=="none", r' "$T/out" ||
	fail "the interrupted run is not stored marked: $(cat "$T/out")"

# --- --quiet live runs: silent when clean, the regression line alone when not
# (a fresh history: against the earlier runs a live figure could regress
# for real on a busy machine, and this test asserts no timing)
cb "${W[@]}" --ops 300 --history "$T/quiet.db" --regression 10 --prom "$T/prom/q.prom" --quiet
assert_rc 0 "clean --quiet run"
if [ -s "$T/out" ] || [ -s "$T/err" ]; then
	fail "clean --quiet run printed: $(cat "$T/out" "$T/err")"
fi
# a history where this cluster ran ten times faster: the live run (long
# enough for a verdict) regresses
"$PY" - "$T" <<'PYEOF'
import copy, json, sys
t = sys.argv[1]
base = json.load(open(f"{t}/r1.json"))
for i in range(3):
    r = copy.deepcopy(base)
    r["started"] = f"2026-01-0{i + 1}T00:00:00Z"
    r["phases"][0]["duration_s"] = 2.0
    r["phases"][0]["iops"] *= 10
    r["phases"][0]["bw_bytes_per_s"] *= 10
    json.dump(r, open(f"{t}/fast{i}.json", "w"))
PYEOF
for i in 0 1 2; do
	cb history "$T/fast.db" --add "$T/fast$i.json"
	assert_rc 0 "seeding fast.db"
done
cb "${W[@]}" --duration 2 --history "$T/fast.db" --regression 10 --quiet --json "$T/live.json" \
	--prom "$T/prom/cb.prom"
assert_rc 1 "live regression"
[ ! -s "$T/err" ] || fail "live regression, --quiet: stderr: $(cat "$T/err")"
grep -v '^regression: write: ' "$T/out" && fail "live regression, --quiet: other output"
grep -q '^regression: write: IOPS .* of 3 runs' "$T/out" || fail "live regression: $(cat "$T/out")"
"$PY" -c 'import json,sys; a=json.load(open(sys.argv[1]))["phases"][0]["regression"]; assert a["verdict"]=="regression" and a["compared"] and a["metrics"]["iops"]["baseline_median"] > 0, a' "$T/live.json" ||
	fail "--json lacks the regression annotation"
tests=$(dirname "$0")/..
"$tests/validate-json" "$tests/../docs/result.schema.json" "$T/live.json" >/dev/null ||
	fail "the annotated record does not validate"
grep -qF "cephbench_regression{$labels} 1" "$T/prom/cb.prom" || fail "--prom: no cephbench_regression 1"
promtool check metrics <"$T/prom/cb.prom" >"$T/promtool" 2>&1 || fail "promtool: $(cat "$T/promtool")"
assert_ns_empty "at the end"
echo "history: ok"
