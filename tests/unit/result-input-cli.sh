#!/usr/bin/env bash
# Hostile result files through the binary, for compare and history --add
# alike: each is refused with one line naming the file and the key, exit
# 2, nothing on stdout and nothing stored (the history's bytes unchanged, a
# missing one not made); and what reaches a terminal from a file (compare's
# text, history's text and CSV, error lines) carries no control byte but
# the newline that ends a line. compare_gen.py writes the valid base.
# shellcheck source=tests/unit/results-lib.sh
. "$(dirname "$0")/results-lib.sh"
# bad/NAME.json: base.json with one change; NAME.key: the key the refusal
# must name. Written by python, never by cephbench.
mkdir "$d/bad"
"$py" - "$d" <<'PY'
import json, sys
d = sys.argv[1]
base = open(f"{d}/base.json").read()
def put(name, key, change):
    doc = json.loads(base)
    change(doc, doc["phases"][0])
    json.dump(doc, open(f"{d}/bad/{name}.json", "w"))
    open(f"{d}/bad/{name}.key", "w").write(key)
def setp(k, v):
    return lambda doc, p: p.__setitem__(k, v)
def setr(k, v):
    return lambda doc, p: doc.__setitem__(k, v)
# the issue's names, and their variants
put("name-esc", "phases[0].name", setp("name", "w\x1b[2J"))
put("name-bel", "phases[0].name", setp("name", "w\a"))
put("name-newline", "phases[0].name", setp("name", "w\nregression: fake line"))
put("name-osc-title", "phases[0].name", setp("name", "w\x1b]0;PWNED\a"))
put("name-c1-csi", "phases[0].name", setp("name", "w\u009b2J"))
put("name-100k", "phases[0].name", setp("name", "x" * 100000))
put("name-space", "phases[0].name", setp("name", "w x"))
put("run-esc", "run_name", setr("run_name", "r\x1b[H\x1b[2J"))
put("profile-bel", "profile.name", lambda doc, p: doc["profile"].__setitem__("name", "p\a"))
put("host-csi", "host", setr("host", "h\x1b[31m"))
put("pool-newline", "phases[0].pool", setp("pool", "bench\nx"))
put("workload-esc", "phases[0].workload", setp("workload", "w\x1b"))
put("matrix-esc", "phases[0].matrix.pool", setp("matrix", {"pool": "ssd\x1b[2J"}))
put("layer-long", "phases[0].layer", setp("layer", "r" * 65))
# figures: negative, huge, of the wrong kind
put("ops-negative", "phases[0].ops", setp("ops", -5))
put("ops-huge-real", "phases[0].ops", setp("ops", 1e308))
put("duration-negative", "phases[0].duration_s", setp("duration_s", -1.5))
put("iops-1e308", "phases[0].iops", setp("iops", 1e308))
put("iops-negative", "phases[0].iops", setp("iops", -1e308))
put("bw-string", "phases[0].bw_bytes_per_s", setp("bw_bytes_per_s", "5"))
put("errors-negative", "phases[0].errors", setp("errors", -1))
put("p99-huge", "phases[0].latency_us.p99", lambda doc, p: p["latency_us"].__setitem__("p99", 1e300))
put("sample-negative", "phases[0].samples[3].ops", lambda doc, p: p["samples"][3].__setitem__("ops", -7))
put("sample-1e308", "phases[0].samples[0].lat_mean_us",
    lambda doc, p: p["samples"][0].__setitem__("lat_mean_us", 1e308))
put("rep-negative", "phases[0].iterations.iops[1]",
    setp("iterations", {"count": 2, "iops_max": 1, "iops_min": 1, "iops_mean": 1,
                        "iops_stddev": 0, "iops": [1.0, -1.0]}))
# started: one rule for both commands
put("started-9999", "started", setr("started", "9999-99-99"))
put("started-month13", "started", setr("started", "2026-13-01T00:00:00Z"))
put("started-feb30", "started", setr("started", "2026-02-30T00:00:00Z"))
put("started-second60", "started", setr("started", "2026-01-01T00:00:60Z"))
# histograms merge refuses (issue 41); NAME.want: the message after "FILE: "
# when it is not "KEY: expected ..."
def hist(name, want, change):
    def c(doc, p):
        change(p["histogram"])
    put(name, "phases[0] histogram", c)
    if want:
        open(f"{d}/bad/{name}.want", "w").write(want)
hist("hist-layout", None, lambda h: h.__setitem__("layout", "hdr"))
hist("hist-count", "phases[0] histogram: the buckets hold ",
     lambda h: h.__setitem__("count", h["count"] + 1))
hist("hist-bits", "phases[0] histogram: sub_bucket_bits 7,",
     lambda h: h.__setitem__("sub_bucket_bits", 7))
def fewer(h):
    h["buckets"][0][1] -= 1
    h["count"] -= 1
hist("hist-row", "phases[0]: the histogram holds ", fewer)
PY
# not JSON at all, before any key: a NUL escaped in a name, NaN, 1e400
"$py" - "$d" <<'PY'
import sys
d = sys.argv[1]
base = open(f"{d}/base.json").read()
def raw(name, old, new):
    assert old in base
    open(f"{d}/bad/{name}.json", "w").write(base.replace(old, new, 1))
    open(f"{d}/bad/{name}.key", "w").write("not JSON")
raw("name-nul", '"name": "w"', '"name": "w\\u0000x"')
raw("iops-nan", '"iops": ', '"iops": NaN, "x": ')
raw("iops-1e400", '"iops": ', '"iops": 1e400, "x": ')
raw("name-raw-esc", '"name": "w"', '"name": "w\x1b[2J"')
PY

# the bytes of FILE are text a terminal shows as is: no byte below 0x20 but
# the newline, no DEL, no C1 control (UTF-8 U+0080-U+009F)
plain() {
	"$py" -c '
import sys
try:
    t = open(sys.argv[1], "rb").read().decode("utf-8")
except UnicodeDecodeError:
    sys.exit(1)  # a stray byte: 0x9b alone is CSI to an 8-bit terminal
sys.exit(1 if any((c < " " and c != "\n") or "\x7f" <= c <= "\x9f" for c in t) else 0)' "$1"
}
run() {
	set +e
	"$bin" "$@" >"$d/out" 2>"$d/err"
	rc=$?
	set -e
}
sum() { md5sum <"$1"; }

# a history holding one run, whose bytes must not change
"$bin" history "$d/h.db" --add "$d/up10.json" --quiet || fail "seeding the history"
before=$(sum "$d/h.db")

n=0
for f in "$d"/bad/*.json; do
	name=$(basename "$f" .json)
	key=$(cat "$d/bad/$name.key")
	n=$((n + 1))
	if [ -f "$d/bad/$name.want" ]; then
		want="$f: $(cat "$d/bad/$name.want")"
	elif [ "$key" = "not JSON" ]; then
		want="$f: not JSON ("
	else
		want="$f: $key: expected "
	fi
	for cmd in "compare $d/base.json $f" "history $d/h.db --add $f" "history $d/new.db --add $f" \
		"report $f"; do
		# shellcheck disable=SC2086
		run $cmd
		what="$name: ${cmd%% *}"
		[ "$rc" -eq 2 ] || fail "$what: exit $rc"
		[ "$(wc -l <"$d/err")" -eq 1 ] || fail "$what: stderr: $(cat "$d/err")"
		[ -s "$d/out" ] && fail "$what: stdout: $(cat "$d/out")"
		grep -qF -- "cephbench ${cmd%% *}: $want" "$d/err" || fail "$what: $(cat "$d/err")"
		plain "$d/err" || fail "$what: a control byte in the error line: $(od -c "$d/err" | head)"
		[ "$(wc -c <"$d/err")" -lt 400 ] || fail "$what: an error line of $(wc -c <"$d/err") bytes"
	done
	[ "$(sum "$d/h.db")" = "$before" ] || fail "$name: the history changed"
	[ ! -e "$d/new.db" ] || fail "$name: a history was made"
done
[ "$n" -ge 30 ] || fail "only $n hostile files"
"$py" -c "
import sqlite3, sys
c = sqlite3.connect('$d/h.db')
sys.exit(0 if c.execute('select count(*) from runs').fetchone()[0] == 1 and
         c.execute('select count(*) from phases').fetchone()[0] == 3 else 1)" ||
	fail "the history holds other rows than its one run"
# the culprit is shown escaped and cut short
run compare "$d/base.json" "$d/bad/name-osc-title.json"
grep -qF "got 'w\\x1b]0;PWNED\\x07'" "$d/err" || fail "the OSC name is not shown escaped: $(cat "$d/err")"
run history "$d/h.db" --add "$d/bad/name-100k.json"
grep -qE "got 'x{20,60}\\.\\.\\.'$" "$d/err" || fail "the long name is not cut: $(head -c 300 "$d/err")"

# --- what a file's text becomes on a terminal: a history written by
# something else (an older cephbench, a hand) with controls in its text
"$py" - "$d/h.db" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("update runs set run_name = ?, host = ?", ("r\x1b[2J\a", "h\x1b]0;T\a"))
c.execute("update phases set name = ?, pool = ? where seq = 0",
          ('w\x1b]0;PWNED\a,"x"\nregression: fake', "po\u009bol\\"))
# figures stored before imported files were checked
c.execute("update phases set iops = 1e308, lat_p99_us = -1e300 where seq = 1")
c.commit()
PY
run history "$d/h.db"
[ "$rc" -eq 0 ] || fail "history text: exit $rc $(cat "$d/err")"
plain "$d/out" || fail "history text: a control byte reached stdout: $(od -c "$d/out" | head -20)"
[ "$(wc -l <"$d/out")" -eq 4 ] || fail "history text: $(wc -l <"$d/out") lines, not a header and 3 rows"
[ "$(awk '{ if (length($0) > m) m = length($0) } END { print m }' "$d/out")" -lt 200 ] ||
	fail "history text: a huge stored figure printed whole: $(cat "$d/out")"
grep -qE '^.* only-b +1e\+308 .* -1e\+297 ' "$d/out" || fail "history text: huge figures: $(cat "$d/out")"
grep -qF 'r\x1b[2J\x07' "$d/out" || fail "history text: the run name is not shown escaped: $(cat "$d/out")"
grep -qF 'w\x1b]0;PWNED\x07,"x"\x0aregression: fake' "$d/out" ||
	fail "history text: the phase name is not shown escaped: $(cat "$d/out")"
run history "$d/h.db" --format csv
[ "$rc" -eq 0 ] || fail "history csv: exit $rc $(cat "$d/err")"
plain "$d/out" || fail "history csv: a control byte reached stdout: $(od -c "$d/out" | head -20)"
"$py" - "$d/out" <<'PY' || fail "history csv: not 4 records of RFC 4180 with the escaped text"
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
assert len(rows) == 4 and all(len(r) == len(rows[0]) for r in rows), rows
assert rows[1][1] == "r\\x1b[2J\\x07", rows[1]
assert rows[1][3] == 'w\\x1b]0;PWNED\\x07,"x"\\x0aregression: fake', rows[1]
assert rows[1][6] == "po\\u009bol\\\\", rows[1]
PY
# JSON escapes by its own rules: every C0 control as \u00XX (other text is
# the UTF-8 stored, as a JSON reader gets it)
run history "$d/h.db" --format json
tr -d '\n' <"$d/out" | LC_ALL=C grep -q '[[:cntrl:]]' && fail "history json: a C0 control reached stdout"
"$py" -c "import json; r = json.load(open('$d/out')); assert r[0]['run_name'] == 'r\x1b[2J\x07'" ||
	fail "history json: the run name does not read back"

# --- report: the text the checks leave free (a skipped workload's reason,
# a disturbed reason, a disk's name, the pre-flight's health) reaches the
# terminal escaped, in text and Markdown; JSON keeps it as stored
"$py" - "$d" <<'PY'
import json, sys
d = sys.argv[1]
doc = json.load(open(f"{d}/base.json"))
doc["skipped"] = [{"workload": "k", "reason": "no\x1b[2J rbd\nregression: fake"}]
p = doc["phases"][0]
p["disturbed"] = ["scrub\x1b]0;T\a at +1.0 s"]
doc["\x1bk"] = "\x1bv"  # a key and its value both to escape (the value first freed the key's)
p["telemetry"] = {"host": {"window_s": 1.0, "cpu": {"usr": 1.0, "sys": 1.0, "iowait": 0.0,
        "steal": 0.0, "idle": 98.0}, "samples": [],
        "disks": {"sd\u009ba": {"reads": 1, "writes": 2, "read_sectors": 8, "write_sectors": 16,
                  "r_await_ms": 0.5, "w_await_ms": 0.5, "aqu_sz": 0.1, "util_pct": 5.0}}}}
json.dump(doc, open(f"{d}/free.json", "w"))
PY
# (--detail: the disk's line is telemetry's; the findings' disturbed line
# is checked alone below)
for fmt in text markdown; do
	run report --format "$fmt" --detail "$d/free.json"
	[ "$rc" -eq 0 ] || fail "report $fmt: exit $rc $(cat "$d/err")"
	plain "$d/out" || fail "report $fmt: a control byte reached stdout: $(od -c "$d/out" | head -20)"
	grep -qF 'k: skipped (optional): no\x1b[2J rbd\x0aregression: fake' "$d/out" ||
		fail "report $fmt: the reason is not shown escaped: $(cat "$d/out")"
	grep -qF 'disturbed: scrub\x1b]0;T\x07 at +1.0 s' "$d/out" ||
		fail "report $fmt: the disturbed reason is not shown escaped"
	grep -qF 'disk sd\u009ba: 1 reads' "$d/out" || fail "report $fmt: the disk is not shown escaped"
done
run report "$d/free.json"
[ "$rc" -eq 0 ] || fail "report: exit $rc $(cat "$d/err")"
plain "$d/out" || fail "report: a control byte reached stdout: $(od -c "$d/out" | head -20)"
grep -qF '  w: disturbed: scrub\x1b]0;T\x07 at +1.0 s' "$d/out" ||
	fail "report: the finding of the disturbed phase is not shown escaped: $(cat "$d/out")"
grep -q 'disk sd' "$d/out" && fail "report: a disk's line without --detail: $(cat "$d/out")"
run report --format json "$d/free.json"
"$py" -c "import json; r = json.load(open('$d/out')); assert r['skipped'][0]['reason'].startswith('no\x1b')" ||
	fail "report json: the reason does not read back as stored"

# --- compare's text: a matrix value with a C1 control (no C0 control, so
# the rules let it in) is shown escaped in labels and titles
"$py" - "$d" <<'PY'
import json, sys
d = sys.argv[1]
doc = json.load(open(f"{d}/matrix.json"))
for p in doc["phases"]:
    if p.get("matrix", {}).get("pool") == "hdd":
        p["matrix"]["pool"] = "hdd\u009b2J\\"
    if "block_size" in p.get("matrix", {}):
        p["matrix"]["block_size"] += "\u0085"
json.dump(doc, open(f"{d}/c1.json", "w"))
PY
run compare --by pool "$d/c1.json"
[ "$rc" -eq 0 ] || fail "compare --by a C1 value: exit $rc $(cat "$d/err")"
plain "$d/out" || fail "compare text: a control byte reached stdout: $(od -c "$d/out" | grep -m3 302)"
grep -qF 'pool=hdd\u009b2J\\ -50.0 % IOPS' "$d/out" || fail "compare text: the label is not shown escaped"
grep -qF 'w [block_size=4K\u0085]' "$d/out" || fail "compare text: the title is not shown escaped"
run compare --by pool --fail-if-worse 5 "$d/c1.json"
[ "$rc" -eq 1 ] && plain "$d/err" && grep -qF 'pool=hdd\u009b2J\\ IOPS' "$d/err" ||
	fail "compare --fail-if-worse line: exit $rc $(od -c "$d/err" | head)"

# --- a baseline of 0, or near it: n/a and bounded numbers, never inf or
# hundreds of digits
"$py" - "$d" <<'PY'
import json, sys
d = sys.argv[1]
for name, iops in (("zero", 0.0), ("tiny", 1e-300)):
    doc = json.load(open(f"{d}/base.json"))
    p = doc["phases"][0]
    p["iops"] = iops
    p["latency_us"]["mean"] = iops
    for s in p["samples"]:
        s["lat_mean_us"] = iops
    json.dump(doc, open(f"{d}/{name}.json", "w"))
PY
for base in zero tiny; do
	run compare "$d/$base.json" "$d/up10.json"
	[ "$rc" -eq 0 ] || fail "$base baseline: exit $rc $(cat "$d/err")"
	grep -qiE 'inf|nan' "$d/out" && fail "$base baseline: $(grep -iE 'inf|nan' "$d/out")"
	[ "$(awk '{ if (length($0) > m) m = length($0) } END { print m }' "$d/out")" -lt 160 ] ||
		fail "$base baseline: a line of $(awk '{ if (length($0) > m) m = length($0) } END { print m }' "$d/out") characters"
done
run compare "$d/zero.json" "$d/up10.json"
grep -Eq '^  IOPS +0\.0 +11000\.[0-9] +n/a  ' "$d/out" || fail "zero baseline: $(grep IOPS "$d/out")"
run compare "$d/tiny.json" "$d/up10.json"
grep -Eq '^  IOPS +0\.0 +11000\.[0-9] +\+1\.1e\+306 %  ' "$d/out" || fail "tiny baseline: $(grep IOPS "$d/out")"
grep -Eq '^  mean ms +0\.000 +1\.[0-9]+ \+1\.[0-9]+e\+305 %  B \+1\.[0-9]+e\+305 % mean latency \(95 % CI \+1\.[0-9]+e\+305…\+1\.[0-9]+e\+305 %\), worse$' "$d/out" ||
	fail "tiny baseline latency: $(grep 'mean ms' "$d/out")"
# numbers JSON allows that read as 0: -0.0, and 1e-400 (it underflows)
for v in -0.0 1e-400; do
	sed "0,/\"iops\": [0-9.e+-]*/s//\"iops\": $v/" "$d/base.json" >"$d/zero-like.json"
	grep -qF "\"iops\": $v," "$d/zero-like.json" || fail "iops $v: the file was not made"
	run compare "$d/zero-like.json" "$d/up10.json"
	[ "$rc" -eq 0 ] || fail "iops $v: exit $rc $(cat "$d/err")"
	grep -Eq '^  IOPS +0\.0 +11000\.[0-9] +n/a  ' "$d/out" || fail "iops $v: $(grep IOPS "$d/out")"
done
run compare --format json "$d/tiny.json" "$d/up10.json"
"$py" -c "import json; json.load(open('$d/out'))" || fail "tiny baseline: the JSON does not parse"

[ "$fails" -eq 0 ] && echo "result-input-cli: all checks passed ($n hostile files)"
[ "$fails" -eq 0 ]
