#!/usr/bin/env bash
# A pool whose name is hostile to every output (issue 41, items 5 and 6):
# "<!--<script>" once blanked the run's page and history's; a name that
# starts with '=' is a formula to a spreadsheet; '|' and '*' are Markdown.
# A short rados write on it with --json, --html and --history, then
# history --html, report --format csv and markdown: each page drawn in
# headless Chromium with its charts (check_page.py), the name reading back
# from each output as given. tests/unit/escape-outputs.py puts every
# payload through every field without a cluster; this is the real pool.
. "$(dirname "$0")/lib.sh"

PX="=cb<!--<script>|*x*-$$"
drop_pool() {
	ceph --conf "$CONF" osd pool rm "$PX" "$PX" --yes-i-really-really-mean-it >/dev/null 2>&1 || true
}
trap 'drop_pool; at_exit' EXIT
ceph --conf "$CONF" osd pool create "$PX" 8 >/dev/null 2>&1 || fail "ceph osd pool create '$PX'"
ceph --conf "$CONF" osd pool application enable "$PX" rados >/dev/null 2>&1

cb rados write -p "$PX" --conf "$CONF" --ops 200 -b 4K -t 4 --run-name esc --quiet \
	--json "$T/r.json" --html "$T/r.html" --history "$T/h.db"
assert_rc 0 "rados write on pool '$PX'"
[ "$(ns_objects_of "$PX" | wc -l)" -eq 0 ] || fail "the run left objects in '$PX'"

# the pages: drawn, every chart, no error (a blank page has no chart)
/usr/bin/python3 "$HERE/../html/check_page.py" "$T/r.html" "$T/r.png" "$T/r.json" \
	>"$T/check" 2>&1 || fail "the run's page in Chromium: $(cat "$T/check")"
cb history "$T/h.db" --format json
assert_rc 0 "history --format json"
cp "$T/out" "$T/h.json"
cb history "$T/h.db" --html "$T/h.html"
assert_rc 0 "history --html"
/usr/bin/python3 "$HERE/../html/check_page.py" "$T/h.html" "$T/h.png" --history "$T/h.json" \
	>"$T/check" 2>&1 || fail "history's page in Chromium: $(cat "$T/check")"
cb report --format csv "$T/r.json"
assert_rc 0 "report --format csv"
cp "$T/out" "$T/r.csv"
cb report --format markdown "$T/r.json"
assert_rc 0 "report --format markdown"
cp "$T/out" "$T/r.md"

# the name read back from each: the record, both pages' data (and no
# <script> tag but the page's three), history's JSON, the CSV cell (the
# one quote that guards a formula taken off), the Markdown cell
/usr/bin/python3 - "$T" "$PX" <<'PY' || fail "the pool's name does not read back (above)"
import csv, json, sys
from markdown_it import MarkdownIt
t, name = sys.argv[1], sys.argv[2]
bad = []
def page(path):
    text = open(path, encoding="utf-8").read()
    if text.count("<script") != 3:
        bad.append("%s: %d <script> tags" % (path, text.count("<script")))
    s = text.index(">", text.index('id="cb-data"')) + 1
    return json.loads(text[s:text.index("</script>", s)])
rec = json.load(open(t + "/r.json"))
if rec["phases"][0]["pool"] != name:
    bad.append("record: %r" % rec["phases"][0]["pool"])
if page(t + "/r.html")["record"] != rec:
    bad.append("the run's page holds another record")
if [r["pool"] for r in page(t + "/h.html")["rows"]] != [name]:
    bad.append("history's page: %r" % page(t + "/h.html")["rows"])
if [r["pool"] for r in json.load(open(t + "/h.json"))] != [name]:
    bad.append("history json")
rows = list(csv.DictReader(open(t + "/r.csv", newline="")))
if [r["pool"] for r in rows] != ["'" + name]:
    bad.append("csv: %r" % [r["pool"] for r in rows])
md = MarkdownIt("commonmark").enable("table")
cells, row, html = [], None, []
for tok in md.parse(open(t + "/r.md").read()):
    if tok.type == "tr_open":
        row = []
    elif tok.type == "tr_close":
        cells.append(row)
    elif tok.type == "inline":
        kids = tok.children or []
        html += [k.content for k in kids if k.type in ("html_inline", "em_open", "strong_open")]
        if row is not None:
            row.append("".join(k.content for k in kids if k.type == "text"))
if [r[3] for r in cells[1:]] != [name]:
    bad.append("markdown: the pool column %r" % [r[3] for r in cells[1:]])
if html:
    bad.append("markdown: the name made markup: %r" % html)
for b in bad:
    print("FAIL: " + b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
echo "ok"
