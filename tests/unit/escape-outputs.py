#!/usr/bin/python3
"""Every rendered output of a hostile string (issue 41, items 5 and 6):
the unit tests' sample records with each free-text field carrying each
payload (HTML, CSV, Markdown, terminal and shell metacharacters, a field
a payload per rotation), through report (text, json, csv, markdown,
--html), compare (text, json, --html, the files named by payloads),
history (--add, text, json, csv, --html). Each output must parse, read
back as given, and do nothing:
no control byte on a terminal, no formula a spreadsheet would run, no
HTML, link or code in Markdown (markdown-it, CommonMark with tables), and
each page drawn in headless Chromium with no error, no payload run
(window.__pwn) and its data the record. The checkers are run first on
hand-made bad outputs (the payloads unescaped) and must refuse each.
usage: escape-outputs.py CEPHBENCH SOURCE_DIR SAMPLE_DIR"""
import csv, io, json, os, re, shutil, subprocess, sys, tempfile, time

cb, src, samples = sys.argv[1:4]
sys.path.insert(0, os.path.join(src, "tests", "html"))
from cdp import Chromium  # noqa: E402
from markdown_it import MarkdownIt  # noqa: E402

PAYLOADS = [
    "<!--<script>",
    "</script><script>window.__pwn=1</script>",
    '<img src=x onerror="window.__pwn=1">',
    "]]>",
    "a\u2028b\u2029c",
    '=HYPERLINK("http://x")',
    "+cmd|' /C calc'!A0",
    "@SUM(1+1)",
    "-2+3",
    "\tlead-tab",
    "|a|b|",
    "[x](javascript:alert(1))",
    "`code`",
    "*bold* _em_ ~~s~~",
    "\x1b[31mred",
    "$(touch /tmp/x)",
    "'; DROP TABLE x;--",
    'say "hi"',
    "a,b",
    "two\nlines",
    "back\\slash",
    "<!-- --> & &amp; #1 !x",
]
CTRL = re.compile("[\x00-\x1f\x7f\u0080-\u009f]")
FORMULA = tuple("=+-@\t\r")
fails = []
negative = []  # non-empty: checking the negative controls, whose failures are wanted


def fail(msg):
    print(("refused as it should be: " if negative else "FAIL: ") + msg)
    fails.append(msg)


# --- the records -------------------------------------------------------
# What the reader constrains (result_check.c: names, times, hashes) or the
# program itself chose from a fixed set is not free text; everything else
# a string is. K_TEXT/K_TARGET/K_VALUE fields take no control character.
FIXED = re.compile(r"^(schema|started|run_name|profile\.(name|sha256)|phases\.\d+\."
                   r"(name|workload|step|layer|op|histogram\.(layout|unit))|tool\.name)$")
NOCTRL = re.compile(r"^(tool\.version|cluster\.(fsid|ceph_version)|host|phases\.\d+\."
                    r"(pool|sizes\.asked|matrix\..*))$")


def strings(v, path=""):
    """(path, parent, key) of every string leaf of v."""
    if isinstance(v, dict):
        items = v.items()
    elif isinstance(v, list):
        items = enumerate(v)
    else:
        return
    for k, x in items:
        p = "%s%s%s" % (path, "." if path else "", k)
        if isinstance(x, str):
            yield p, v, k
        else:
            yield from strings(x, p)


def fill(rec, pick):
    """Every free-text field of rec set to pick(i, nocontrol), i its
    number; the extra free text a record may hold (skipped reasons, a
    phase's disturbances, findings) added first."""
    rec["skipped"] = [{"workload": "sk", "reason": "x"}]
    rec["findings"] = ["x", "y"]  # the run page's findings box
    rec["phases"][0]["disturbed"] = ["x"]
    n = 0
    for path, parent, key in list(strings(rec)):
        if FIXED.match(path):
            continue
        parent[key] = pick(n, bool(NOCTRL.match(path)))
        n += 1
    return n


def rotation(r):
    def pick(i, noctrl):
        k = i + r
        while noctrl and CTRL.search(PAYLOADS[k % len(PAYLOADS)]):
            k += 1
        return PAYLOADS[k % len(PAYLOADS)]
    return pick


def only(p):
    safe = CTRL.sub("", p) or "x"
    return lambda i, noctrl: safe if noctrl else p


# --- what each output should show of a string ----------------------------
def term_esc(s):
    """term_esc.h's rule: C0, DEL, C1 and '\\' escaped."""
    out = []
    for ch in s:
        o = ord(ch)
        if ch == "\\":
            out.append("\\\\")
        elif o < 0x20 or o == 0x7f:
            out.append("\\x%02x" % o)
        elif 0x80 <= o <= 0x9f:
            out.append("\\u%04x" % o)
        else:
            out.append(ch)
    return "".join(out)


def term_unesc(s):
    return re.sub(r"\\(\\|x[0-9a-f]{2}|u[0-9a-f]{4})",
                  lambda m: "\\" if m.group(1) == "\\" else chr(int(m.group(1)[1:], 16)), s)


def shown(s):
    """A record's string as text and Markdown show it (cb_esc_json): the
    escaped form when it holds a control, else as it is."""
    return term_esc(s) if CTRL.search(s) else s


def csv_cell(s):
    return ("'" if s.startswith(FORMULA) else "") + term_esc(s)


# --- the checkers --------------------------------------------------------
def plain(text, what):
    """No byte a terminal acts on: a control other than the newline."""
    m = CTRL.search(text.replace("\n", ""))
    if m:
        fail("%s: control character %r on a terminal's output" % (what, m.group()))
        return False
    return True


def check_csv(text, expect_rows, what):
    """Parsed with csv; expect_rows: {column: string} per row, each cell
    the guarded, escaped string that reads back as given; no cell starts
    with a formula character but a number."""
    bad = 0
    rows = list(csv.DictReader(io.StringIO(text)))
    if len(rows) != len(expect_rows):
        fail("%s: %d rows, expected %d" % (what, len(rows), len(expect_rows)))
        return False
    for cell in [c for r in rows for c in r.values()] + list(rows[0].keys() if rows else []):
        if cell and cell.startswith(FORMULA):
            try:
                float(cell)
            except ValueError:
                fail("%s: a cell starts with a formula: %r" % (what, cell))
                bad += 1
    for got, want in zip(rows, expect_rows):
        for col, v in want.items():
            cell = got.get(col)
            back = cell[1:] if cell and v.startswith(FORMULA) else cell
            if cell != csv_cell(v) or term_unesc(back or "") != v:
                fail("%s: column %s is %r, expected %r" % (what, col, cell, csv_cell(v)))
                bad += 1
    return bad == 0


MD = MarkdownIt("commonmark").enable(["table", "strikethrough"])
MARKUP = {"html_inline", "link_open", "image", "code_inline", "em_open", "strong_open", "s_open"}
# the program's own bold: a verdict
OWN_BOLD = re.compile(r"(^|Verdict: )\*\*(PASS|FAIL)\*\*")


def md_inlines(text):
    """(cells, paragraphs, markup): the table cells' text by row, the
    other inline texts, and the markup the record's text made (raw HTML,
    links, images, code, emphasis)."""
    cells, paras, markup, row, in_cell = [], [], [], None, False
    for t in MD.parse(text):
        if t.type == "tr_open":
            row = []
        elif t.type == "tr_close":
            cells.append(row)
        elif t.type in ("td_open", "th_open"):
            in_cell = True
        elif t.type in ("td_close", "th_close"):
            in_cell = False
        elif t.type == "html_block":
            markup.append(t.content)
        elif t.type == "inline":
            kids = t.children or []
            txt = "".join(k.content for k in kids if k.type in ("text", "softbreak"))
            for k in kids:
                if k.type in MARKUP and not (k.type == "strong_open" and OWN_BOLD.search(t.content)):
                    markup.append(t.content)
            (row.append(txt) if in_cell else paras.append(txt))
    return cells, paras, markup


def check_md(text, recs, what):
    """Each record's section: its pool column and thresholds read back,
    the host line reads back, and no markup came from its text."""
    bad = 0
    cells, paras, markup = md_inlines(text)
    for m in markup:
        fail("%s: the record's text made markup: %r" % (what, m[:120]))
        bad += 1
    tables = [r for r in cells if r]
    pools = [r[3] for r in tables if len(r) == 15 and r[0] != "phase"]
    want = [shown(p["pool"]) for rec in recs for p in rec["phases"]]
    if pools != want:
        fail("%s: the pool column reads %r, expected %r" % (what, pools[:4], want[:4]))
        bad += 1
    keys = [r[1] for r in tables if len(r) == 6 and r[0] != "phase"]
    wantk = [shown(x["threshold"]) for rec in recs for p in rec["phases"]
             for x in p.get("expect") or []]
    if keys != wantk:
        fail("%s: the thresholds read %r, expected %r" % (what, keys[:4], wantk[:4]))
        bad += 1
    for rec in recs:
        line = "host %s, started" % shown(rec["host"])
        if not any(line in p for p in paras):
            fail("%s: no line reads %r" % (what, line))
            bad += 1
    return bad == 0


def page_data(path):
    """The page's embedded JSON, parsed; and the number of <script tags."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    start = text.index(">", text.index('<script type="application/json" id="cb-data">')) + 1
    end = text.index("</script>", start)
    body = text[start:end]
    if re.search("[<>&\u2028\u2029]", body):
        fail("%s: the embedded JSON holds a raw '<', '>', '&' or U+2028/9" % path)
    return json.loads(body), text.count("<script")


class Pages:
    """One Chromium for every page."""

    def __init__(self):
        self.cr = Chromium()
        for d in ("Runtime", "Log", "Page"):
            self.cr.call(d + ".enable")

    def check(self, path, want_data=None, texts=(), what=None):
        what = what or os.path.basename(path)
        bad = 0
        data, nscripts = page_data(path)
        if want_data is not None and data != want_data:
            fail("%s: the page's data is not what was rendered" % what)
            bad += 1
        if nscripts != 3:
            fail("%s: %d <script> tags, the page has 3" % (what, nscripts))
            bad += 1
        self.cr.events.clear()
        self.cr.call("Page.navigate", url="file://" + os.path.abspath(path))
        # the page's script runs while the page loads: by the load event
        # it has drawn (data-ready) or never will
        deadline = time.time() + 20
        while time.time() < deadline and self.cr.value("document.readyState") != "complete":
            time.sleep(0.1)
        ready = self.cr.value("document.body && document.body.dataset.ready") == "1"
        if not ready:
            fail("%s: the page never finished drawing (blank)" % what)
            bad += 1
        facts = self.cr.value("""({pwn: typeof window.__pwn, scripts: document.scripts.length,
          canvases: document.querySelectorAll('.cb-slot, canvas').length,
          imgs: document.images.length,
          text: document.body ? document.body.innerText : ''})""")
        if facts["pwn"] != "undefined":
            fail("%s: a payload ran (window.__pwn is %s)" % (what, facts["pwn"]))
            bad += 1
        if facts["imgs"]:
            fail("%s: %d <img> elements on the page" % (what, facts["imgs"]))
            bad += 1
        if ready and not facts["canvases"]:
            fail("%s: no chart on the page" % what)
            bad += 1
        for t in texts:
            # innerText folds a line break or U+2028 into layout
            if t not in facts["text"] and re.sub(r"\s+", " ", t) not in re.sub(r"\s+", " ", facts["text"]):
                fail("%s: %r is not on the page as text" % (what, t))
                bad += 1
        for ev in self.cr.events:
            m, p = ev.get("method"), ev.get("params", {})
            if m == "Runtime.exceptionThrown":
                fail("%s: exception: %s" % (what, json.dumps(p["exceptionDetails"])[:300]))
                bad += 1
            elif m == "Runtime.consoleAPICalled" and p["type"] in ("error", "assert"):
                fail("%s: console error: %s" % (what, json.dumps(p["args"])[:300]))
                bad += 1
        return bad == 0

    def close(self):
        self.cr.close()


def run(*args, rc=0, what=None):
    p = subprocess.run([cb, *args], capture_output=True)
    if p.returncode != rc:
        fail("%s: exit %d (expected %d): %s" % (what or " ".join(args[:2]), p.returncode, rc,
                                               p.stderr.decode(errors="replace")[:400]))
    return p.stdout.decode("utf-8", errors="strict")


def negative_controls(d, pages):
    """Each checker against an output made bad by hand, which it must
    refuse; fails is emptied after, what they printed kept as a sign."""
    negative.append(True)
    before = len(fails)
    # the good page with its data embedded as the old code did: jansson's
    # JSON_ESCAPE_SLASH alone
    with open(os.path.join(d, "neg-good.html"), encoding="utf-8") as f:
        text = f.read()
    start = text.index(">", text.index('id="cb-data"')) + 1
    end = text.index("</script>", start)
    old = json.dumps(json.loads(text[start:end]), ensure_ascii=False, separators=(",", ":"))
    bad = os.path.join(d, "neg-bad.html")
    with open(bad, "w", encoding="utf-8") as f:
        f.write(text[:start] + old.replace("/", "\\/") + text[end:])
    n = len(fails)
    pages.check(bad, what="negative: unescaped page")
    ok_html = len(fails) > n
    n = len(fails)
    check_csv('name\n=HYPERLINK("http://x")\n', [{"name": '=HYPERLINK("http://x")'}],
              "negative: unguarded CSV")
    ok_csv = len(fails) > n
    n = len(fails)
    check_md("## cephbench run 'r', profile 'p'\n\nNo cluster, host <img src=x onerror=y>, "
             "started [x](javascript:alert(1)).\n\n",
             [{"host": "<img src=x onerror=y>", "phases": []}], "negative: raw Markdown")
    ok_md = len(fails) > n
    n = len(fails)
    plain("\x1b[31mred\n", "negative: raw ESC")
    ok_term = len(fails) > n
    del fails[before:]
    negative.clear()
    for name, ok in (("HTML", ok_html), ("CSV", ok_csv), ("Markdown", ok_md), ("terminal", ok_term)):
        if not ok:
            fail("negative control: the %s checker passed a bad output" % name)


def main():
    t0 = time.time()
    d = tempfile.mkdtemp(prefix="cb-escape.")
    try:
        go(d)
    finally:
        shutil.rmtree(d, ignore_errors=True)
    print("%d failures, %.1f s" % (len(fails), time.time() - t0))
    sys.exit(1 if fails else 0)


def load(name):
    with open(os.path.join(samples, name + "-sample.json")) as f:
        return json.load(f)


def save(path, rec):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(rec, f, ensure_ascii=False)
    return path


def lap(what, t=[time.time()]):
    now = time.time()
    print("%s: %.1f s" % (what, now - t[0]))
    t[0] = now


def go(d):
    bases = ["expect", "telemetry_host", "bottleneck", "context"]
    files, recs = [], []
    for b in bases:
        for r in range(len(PAYLOADS)):
            rec = load(b)
            nf = fill(rec, rotation(r))
            recs.append(rec)
            files.append(save(os.path.join(d, "%s-%02d.json" % (b, r)), rec))
        print("%s: %d free-text fields, %d rotations" % (b, nf, len(PAYLOADS)))

    # report: every record in one invocation per format
    out = run("report", "--format", "json", *files)
    try:
        back = json.loads(out)
        if back != recs:
            wrong = [f for f, a, b in zip(files, back, recs) if a != b]
            fail("report json: %d records do not read back (%s)" % (len(wrong), wrong[:2]))
    except ValueError as e:
        fail("report json: not JSON: %s" % e)
    out = run("report", "--detail", *files)  # the telemetry's text too
    if plain(out, "report text"):
        for p in PAYLOADS:
            if shown(p) not in out:
                fail("report text: %r is not shown" % shown(p))
    out = run("report", "--format", "csv", *files)
    plain(out, "report csv")
    want = []
    for rec in recs:
        for p in rec["phases"]:
            row = {"host": rec["host"], "fsid": rec["cluster"]["fsid"], "pool": p["pool"]}
            if p.get("disturbed"):
                row["disturbed"] = "; ".join(p["disturbed"])
            for x in p.get("expect") or []:
                # a header cell is escaped as any other (and starts "expect.")
                row[term_esc("expect.%s.unit" % x["threshold"])] = x["unit"]
            want.append(row)
    check_csv(out, want, "report csv")
    out = run("report", "--format", "markdown", *files)
    if plain(out, "report markdown"):
        check_md(out, recs, "report markdown")

    lap("records and report's four formats")
    pages = Pages()
    lap("Chromium started")
    try:
        # the run page: one per payload that HTML reads as markup (every
        # field carrying it), and each base with every payload
        html_payloads = [p for p in PAYLOADS if re.search("[<>&\u2028]", p)]
        for k, p in enumerate(html_payloads):
            rec = load("expect")
            fill(rec, only(p))
            f = save(os.path.join(d, "only-%d.json" % k), rec)
            page = os.path.join(d, "only-%d.html" % k)
            run("report", "--html", page, f)
            if k == 0:
                shutil.copy(page, os.path.join(d, "neg-good.html"))
            pages.check(page, {"kind": "run", "record": rec}, [CTRL.sub("", p)],
                        "run page of %r" % p)
        lap("run pages, a payload each")
        negative_controls(d, pages)
        lap("negative controls")
        for b in range(len(bases)):
            f, rec = files[b * len(PAYLOADS)], recs[b * len(PAYLOADS)]
            page = f[:-5] + ".html"
            run("report", "--html", page, f)
            pages.check(page, {"kind": "run", "record": rec}, [rec["host"], *rec["findings"]],
                        "run page of %s" % bases[b])

        lap("run pages of every payload")
        # compare: rotations of one base side by side, each file named by a
        # payload (no '/', no control: a path rule), which the outputs show
        named = []
        for k, p in enumerate(PAYLOADS[:8]):
            name = os.path.join(d, "%d %s.json" % (k, p.replace("/", "_")))
            if CTRL.search(name):
                continue
            shutil.copy(files[k], name)
            named.append(name)
        out = run("compare", *named, what="compare text")
        plain(out, "compare text")
        doc_text = run("compare", "--format", "json", *named, what="compare json")
        try:
            doc = json.loads(doc_text)
            got = [doc["comparisons"][0]["a"]["file"]] + [c["b"]["file"] for c in doc["comparisons"]]
            if got != named:
                fail("compare json: files %r, given %r" % (got[:3], named[:3]))
        except (ValueError, KeyError, IndexError) as e:
            fail("compare json: %s: %s" % (type(e).__name__, e))
            doc = None
        page = os.path.join(d, "compare.html")
        run("compare", "--html", page, *named, what="compare --html")
        data, _ = page_data(page)
        if doc is not None and data.get("compare") != doc:
            fail("compare page: its document is not compare --format json's")
        pages.check(page, None, [os.path.basename(n) for n in named[:1]], "compare page")

        lap("compare")
        # history: a record whose phases' pools are the payloads
        rec = load("expect")
        fill(rec, only("x"))
        p0 = rec["phases"][0]
        rec["phases"] = []
        for k, p in enumerate(PAYLOADS):
            q = json.loads(json.dumps(p0))
            q["name"] = q["workload"] = "w%d" % k
            q["pool"] = CTRL.sub("", p) or "x"
            q.pop("expect", None)
            rec["phases"].append(q)
        rec.pop("verdict", None)
        f = save(os.path.join(d, "hist.json"), rec)
        db = os.path.join(d, "h", "h.db")
        os.mkdir(os.path.dirname(db))
        page = os.path.join(d, "history.html")
        run("history", db, "--add", f, "--quiet", "--html", page, what="history --add")
        pools = [q["pool"] for q in rec["phases"]]
        rows = json.loads(run("history", db, "--format", "json", what="history json"))
        if [r.get("pool") for r in rows] != pools:
            fail("history json: pools %r, stored %r" % ([r.get("pool") for r in rows][:3], pools[:3]))
        out = run("history", db, "--format", "csv", what="history csv")
        plain(out, "history csv")
        check_csv(out, [{"pool": p} for p in pools], "history csv")
        plain(run("history", db, what="history text"), "history text")
        pages.check(page, None, [], "history page")
        data, _ = page_data(page)
        if [r.get("pool") for r in data.get("rows", [])] != pools:
            fail("history page: its rows' pools are not the stored ones")
        lap("history")

    finally:
        pages.close()


main()
