#!/usr/bin/python3
"""The run page leads with the answer (issue 42, item 5), in a real
headless Chromium at 1280x800, from records made here and rendered by
`cephbench report --html` (no cluster):
- the first screen (the top 800 px) holds the header, the findings (the
  record's "findings", in order, as text) and the overview charts, in
  that order; a record without findings has no findings box;
- the overview has a bar per phase for IOPS and latency (p50, p99, p99.9),
  per phase that moves bytes for MiB/s, a bar per layer-breakdown row,
  each bar the record's figure (read from the charts' data, not pixels);
- the per-phase sections are closed <details>, no chart drawn in them
  until opened;
- a per-second series whose last second is partial does not end in a fall
  (obj-write-4k: 7,400 IOPS, then 7 ops in the 1 ms past second 5) nor
  rise: the last partial sample is left out, a phase of one partial
  second drawn per second;
- rows without bytes (dir-stat, tree-remove) show no block size and no
  bandwidth in the table, the overview or their section;
- a row served by the client's cache ("served": {"by": "client cache"})
  is marked: its table row and badge, its bars striped, the legend.
Then tests/html/check_page.py (every chart, its point count) on that
record and on the writer's sample records (layers, repeats); and the
compare page of compare_gen.py's files: the real differences (worse
first) above the table, within the first screen; the history page of
runs with one regression: the regression listed above the charts, within
the first screen. Negative
controls first: pages broken by hand (the partial second drawn, the
overview pushed below the fold, the sections open, rows without bytes
given a bandwidth, the cache not marked) must each be refused.
usage: html-run-page.py CEPHBENCH SOURCE_DIR SAMPLE_DIR"""
import base64, json, os, shutil, statistics, subprocess, sys, tempfile, time

cb, src, samples = sys.argv[1:4]
sys.path.insert(0, os.path.join(src, "tests", "html"))
sys.path.insert(0, os.path.join(src, "tests", "unit"))
from cdp import Chromium  # noqa: E402
import compare_gen  # noqa: E402

W, H = 1280, 800
MiB = 1048576
CACHED = "served mostly by the client's cache, not the cluster's speed"


# --- the records ---------------------------------------------------------
def phase(name, layer, op, per_s, last, dur, bs=4096, nodata=False, **extra):
    """A row of whole seconds of per_s ops each and a last sample of last
    ops, duration_s dur; compare_gen's row with its counts replaced."""
    p = compare_gen.phase(name, 1000, 0.01, 1, **extra)
    ops_s = list(per_s) + ([last] if last is not None else [])
    bps = 0 if nodata else bs
    p["samples"] = [{"t": t, "ops": n, "bytes": n * bps, "lat_mean_us": 1000.0,
                     "lat_max_us": 3000.0} for t, n in enumerate(ops_s)]
    ops = sum(ops_s)
    p.update({"layer": layer, "op": op, "block_size": bs, "duration_s": dur, "ops": ops,
              "bytes": ops * bps, "write_ops": ops if "write" in op else 0,
              "write_bytes": ops * bps if "write" in op else 0,
              "read_ops": 0 if "write" in op else ops, "read_bytes": 0 if "write" in op else ops * bps,
              "iops": ops / dur, "bw_bytes_per_s": ops * bps / dur})
    p["histogram"]["count"] = ops
    p["histogram"]["buckets"][0][1] = ops
    return p


def lead_record():
    ph = [
        # the case of the issue: 7,400 IOPS, then 7 ops in the 1 ms past 5 s
        phase("obj-write-4k", "rados", "write", [7400, 7390, 7410, 7405, 7395], 7, 5.001),
        phase("obj-read-4k", "rados", "rand", [9000 + 10 * k for k in range(10)], 3600, 10.4),
        phase("fs-dir-stat", "cephfs", "dir-stat", [500] * 4, 30, 4.05, nodata=True),
        phase("fs-tree-remove", "cephfs", "tree-remove", [200] * 3, 80, 3.4, nodata=True),
        phase("fs-read-cached", "cephfs", "read", [90000] * 3, 4500, 3.05,
              served={"by": "client cache", "share_pct": 97.0}),
        phase("img-write-4k", "rbd", "randwrite", [3000] * 4, 1500, 4.5, served={"by": "cluster"}),
        # one partial second alone: drawn per second (500 ops in 0.5 s)
        phase("blip", "rados", "write", [], 500, 0.5),
    ]
    ph[1]["latency_us"].update({"p50": 800, "p99": 2500, "p99.9": 9000})
    rec = compare_gen.result(ph)
    rec["findings"] = [
        "fs-read-cached: 90,000 IOPS served mostly by the client's cache, not the cluster",
        "img-write-4k loses 60 % of the IOPS of obj-write-4k over RADOS",
        "<b>not markup</b> & a finding's text is text",
    ]

    def row(p, base=None, lost=None):
        r = {"layer": p["layer"], "phase": p["name"], "op": p["op"], "clients": 1,
             "concurrency": 16, "iops": p["iops"], "p50_us": p["latency_us"]["p50"],
             "p99_us": p["latency_us"]["p99"], "client_bound": False}
        if base:
            r.update({"base": base, "iops_lost_pct": lost, "p50_added_us": 100, "p99_added_us": 300})
        return r
    rec["layers"] = [{"op": "randwrite", "block_size": 4096,
                      "rows": [row(ph[0]), row(ph[5], "rados", 60.0)],
                      "most_lost": {"layer": "rbd", "base": "rados"}, "same_in_flight": True,
                      "same_pool": True, "not_compared": []}]
    return rec


def plain_record():
    """No findings, no served, no layers: none of it drawn, nothing fails."""
    rec = lead_record()
    for k in ("findings", "layers"):
        del rec[k]
    for p in rec["phases"]:
        p.pop("served", None)
    return rec


def no_data(p):
    return p["ops"] > 0 and not p["bytes"]


def whole_seconds(p):
    """The samples the page should draw, counted here: the last sample
    left out when it ends past duration_s, unless it is the only one."""
    s = p["samples"]
    if s and s[-1]["t"] + 1 > p["duration_s"] + 1e-6:
        if len(s) == 1:
            return [dict(s[0], ops=s[0]["ops"] / p["duration_s"])]
        return s[:-1]
    return s


# --- what the page shows ---------------------------------------------------
FACTS = """(() => {
  const box = (sel) => { const e = document.querySelector(sel);
    if (!e) return null; const r = e.getBoundingClientRect(); return {top: r.top, bottom: r.bottom}; };
  const chartOf = (id) => { const c = document.getElementById(id); const ch = c && Chart.getChart(c);
    if (!ch) return null;
    return {labels: ch.data.labels, phases: c.dataset.phases ? JSON.parse(c.dataset.phases) : null,
      sets: ch.data.datasets.map(d => ({label: d.label,
        data: d.data.map(v => (v !== null && typeof v === 'object' ? v.y : v)),
        striped: Array.isArray(d.backgroundColor) ? d.backgroundColor.map(b => typeof b !== 'string') : null})),
      rect: c.getBoundingClientRect().toJSON()}; };
  const heads = [...document.querySelectorAll('#cb-summary thead th')].map(th => th.textContent);
  return {
    scrollY: scrollY, inner: [innerWidth, innerHeight],
    h1: box('h1'), findings: box('#cb-findings'), overview: box('#cb-overview'),
    findingItems: [...document.querySelectorAll('#cb-findings li')].map(li => li.textContent),
    findingHtml: [...document.querySelectorAll('#cb-findings li')].map(li => li.children.length),
    ovCanvases: [...document.querySelectorAll('#cb-overview canvas')].map(c =>
      ({id: c.id, bottom: c.getBoundingClientRect().bottom})),
    charts: Object.fromEntries(['ov-iops', 'ov-bw', 'ov-lat', 'ov-layers'].map(id => [id, chartOf(id)])),
    boxes: [...document.querySelectorAll('details.cb-phase-box')].map(d =>
      ({id: d.id, open: d.open, canvases: d.querySelectorAll('canvas').length,
        head: d.querySelector('summary').textContent,
        badge: !!d.querySelector('summary .cb-badge-cached')})),
    rows: [...document.querySelectorAll('#cb-summary tbody tr')].map(tr => ({cls: tr.className,
      cells: Object.fromEntries([...tr.cells].map((td, i) => [heads[i], td.textContent])),
      badge: !!tr.querySelector('.cb-badge-cached')})),
    legend: [...document.querySelectorAll('.cb-legend')].map(e => e.textContent),
  };
})()"""

# after every section is opened and drawn: each phase's rate chart
SERIES = """(() => {
  document.querySelectorAll('details.cb-phase-box').forEach(d => { d.open = true; });
  CB.drawAll();
  return [...document.querySelectorAll('canvas[id$="-rate"]')].map(c => {
    const ch = Chart.getChart(c);
    return {id: c.id, sets: ch.data.datasets.map(d => ({label: d.label, y: d.data.map(v => v.y)}))};
  });
})()"""


class Browser:
    def __init__(self):
        self.cr = Chromium(W, H)
        for d in ("Runtime", "Log", "Page"):
            self.cr.call(d + ".enable")
        self.cr.call("Emulation.setDeviceMetricsOverride", width=W, height=H,
                     deviceScaleFactor=1, mobile=False)

    def open(self, page, shot=None):
        """(facts, series, errors) of page."""
        self.cr.events.clear()
        self.cr.call("Page.navigate", url="file://" + os.path.abspath(page))
        deadline = time.time() + 30
        while time.time() < deadline and self.cr.value(
                "document.readyState === 'complete' && document.body.dataset.ready") != "1":
            time.sleep(0.1)
        errors = []
        if self.cr.value("document.body && document.body.dataset.ready") != "1":
            errors.append("the page never finished drawing")
        time.sleep(0.3)  # the charts' first layout
        facts = self.cr.value(FACTS)
        if shot:
            png = self.cr.call("Page.captureScreenshot", format="png")
            with open(shot, "wb") as f:
                f.write(base64.b64decode(png["data"]))
        series = self.cr.value(SERIES)
        for ev in self.cr.events:
            m, p = ev.get("method"), ev.get("params", {})
            if m == "Runtime.exceptionThrown":
                errors.append("exception: " + json.dumps(p["exceptionDetails"])[:300])
            elif m == "Runtime.consoleAPICalled" and p["type"] in ("error", "warning", "assert"):
                errors.append("console %s: %s" % (p["type"], json.dumps(p["args"])[:300]))
        return facts, series, errors

    def close(self):
        self.cr.close()


def close(a, b):
    return a is not None and b is not None and abs(a - b) <= 1e-6 * max(1.0, abs(b))


def judge(rec, facts, series):
    """What is wrong with the page of rec, as (tag, text) pairs."""
    bad = []
    ph = rec["phases"]
    names = [p["name"] for p in ph]
    ch = facts["charts"]

    # the first screen: header, findings, overview, in that order, above H
    if facts["scrollY"] != 0 or facts["inner"] != [W, H]:
        bad.append(("screen", "window %s scrolled to %s, not %dx%d at the top"
                    % (facts["inner"], facts["scrollY"], W, H)))
    ov, fi = facts["overview"], facts["findings"]
    if not ov or not facts["ovCanvases"]:
        bad.append(("overview", "no overview"))
    else:
        above = fi if fi else facts["h1"]
        if ov["top"] < above["bottom"] - 1:
            bad.append(("screen", "the overview (top %d) is not below the %s (bottom %d)"
                        % (ov["top"], "findings" if fi else "header", above["bottom"])))
        for c in facts["ovCanvases"]:
            if c["bottom"] > H:
                bad.append(("screen", "overview chart %s ends at %d px, below the first %d"
                            % (c["id"], c["bottom"], H)))
    if rec.get("findings"):
        if not fi or fi["bottom"] > H or fi["top"] < facts["h1"]["bottom"] - 1:
            bad.append(("screen", "the findings box %s is not between the header and %d px" % (fi, H)))
        if facts["findingItems"] != rec["findings"]:
            bad.append(("findings", "findings %s, the record's %s" % (facts["findingItems"], rec["findings"])))
        if any(facts["findingHtml"]):
            bad.append(("findings", "a finding's text made elements: %s" % facts["findingHtml"]))
    elif fi:
        bad.append(("findings", "a findings box for a record without findings"))

    # the overview's bars: the record's figures, a bar per phase
    def bars(cid, rows, sets):
        c = ch.get(cid)
        if not c:
            bad.append(("overview", "no chart %s" % cid))
            return None
        want = [p["name"] for p in rows]
        if c["labels"] != want or c["phases"] != want:
            bad.append(("overview", "%s: bars %s (phases %s), the record's %s"
                        % (cid, c["labels"], c["phases"], want)))
        for (label, get), got in zip(sets, c["sets"]):
            vals = [get(p) for p in rows]
            if got["label"] != label or len(got["data"]) != len(vals) or \
                    not all(close(a, b) if b is not None else a is None for a, b in zip(got["data"], vals)):
                bad.append(("overview", "%s %s: %s, the record %s" % (cid, got["label"], got["data"], vals)))
        if len(c["sets"]) != len(sets):
            bad.append(("overview", "%s: %d datasets, want %d" % (cid, len(c["sets"]), len(sets))))
        return c

    bars("ov-iops", ph, [("IOPS", lambda p: p["iops"])])
    moving = [p for p in ph if not no_data(p)]
    c = bars("ov-bw", moving, [("MiB/s", lambda p: p["bw_bytes_per_s"] / MiB)])
    if c and any(no_data(p) for p in ph if p["name"] in (c["labels"] or [])):
        bad.append(("bandwidth", "ov-bw has a bar for a row without bytes: %s" % c["labels"]))
    bars("ov-lat", ph, [(q, lambda p, q=q: p["latency_us"][q] / 1e3 or None)
                        for q in ("p50", "p99", "p99.9")])
    lrows = [x for g in rec.get("layers") or [] for x in g["rows"]]
    if lrows:
        c = ch.get("ov-layers")
        if not c or c["phases"] != [x["phase"] for x in lrows] or len(c["sets"][0]["data"]) != len(lrows):
            bad.append(("overview", "ov-layers: %s, the record's rows %s"
                        % (c and c["phases"], [x["phase"] for x in lrows])))
    elif ch.get("ov-layers"):
        bad.append(("overview", "a layer chart for a record without layers"))

    # the phases: closed, nothing drawn in them until opened
    boxes = facts["boxes"]
    if [b["id"] for b in boxes] != ["phase%d-box" % k for k in range(len(ph))]:
        bad.append(("collapsed", "phase sections %s for %d phases" % ([b["id"] for b in boxes], len(ph))))
    for b in boxes:
        if b["open"] or b["canvases"]:
            bad.append(("collapsed", "%s open (%s) with %d charts drawn at first"
                        % (b["id"], b["open"], b["canvases"])))

    # the per-second rates: every whole second, no fall or rise at the end
    rates = {s["id"]: s["sets"] for s in series}
    for k, p in enumerate(ph):
        sets = rates.get("p%d-rate" % k)
        if not sets:
            bad.append(("partial", "%s: no rate chart" % p["name"]))
            continue
        y = sets[0]["y"]
        whole = whole_seconds(p)
        want = [x["ops"] for x in whole]
        if len(y) != len(want) or not all(close(a, b) for a, b in zip(y, want)):
            bad.append(("partial", "%s: IOPS per second %s, the whole seconds %s" % (p["name"], y, want)))
        if len(y) > 1:
            mid = statistics.median(y[:-1])
            if y[-1] < 0.5 * mid or y[-1] > 1.5 * max(y[:-1]):
                bad.append(("partial", "%s: the rate ends at %g after a median %g: a %s that did not happen"
                            % (p["name"], y[-1], mid, "fall" if y[-1] < mid else "rise")))
        has_bw = any(s["label"] == "MiB/s" for s in sets)
        if no_data(p) == has_bw:
            bad.append(("bandwidth", "%s (%s): a MiB/s line %s" % (p["name"], "no bytes" if no_data(p)
                        else "bytes", "drawn" if has_bw else "missing")))

    # rows without bytes: '-' for block size and MiB/s; the others a figure
    for p, row, b in zip(ph, facts["rows"], boxes):
        cells = row["cells"]
        shown = (cells.get("block size (B)"), cells.get("MiB/s"))
        if no_data(p):
            if shown != ("-", "-") or "MiB/s" in b["head"]:
                bad.append(("bandwidth", "%s has no bytes: block size %r, MiB/s %r, section %r"
                            % (p["name"], shown[0], shown[1], b["head"])))
        elif "-" in shown:
            bad.append(("bandwidth", "%s moves bytes: block size %r, MiB/s %r" % (p["name"], *shown)))

    # the client's cache: the row, its badge, its bars striped, the legend
    cached = [bool(p.get("served") and p["served"].get("by") == "client cache") for p in ph]
    for p, row, b, yes in zip(ph, facts["rows"], boxes, cached):
        marked = ("cb-cached" in row["cls"].split(), row["badge"], b["badge"])
        if marked != (yes, yes, yes):
            bad.append(("cached", "%s (%s): row class, badge, section badge %s"
                        % (p["name"], "cached" if yes else "not cached", marked)))
    for cid, rows in (("ov-iops", ph), ("ov-lat", ph), ("ov-bw", moving)):
        c = ch.get(cid)
        want = [cached[names.index(p["name"])] for p in rows]
        for s in (c["sets"] if c else []):
            if s["striped"] != want:
                bad.append(("cached", "%s %s: striped bars %s, cached rows %s" % (cid, s["label"], s["striped"], want)))
    legend = any(CACHED in t and "cached" in t for t in facts["legend"])
    if legend != any(cached):
        bad.append(("cached", "the legend %s, cached rows %s" % (facts["legend"], any(cached))))
    return bad


def broken(page, d, name, old, new):
    """A copy of page with old (which must be there) replaced by new."""
    with open(page, encoding="utf-8") as f:
        text = f.read()
    if old not in text:
        sys.exit("html-run-page: %r is not in the page: the negative control %s is stale" % (old, name))
    out = os.path.join(d, "neg-%s.html" % name)
    with open(out, "w", encoding="utf-8") as f:
        f.write(text.replace(old, new, 1))
    return out


NEGATIVES = [
    # (name, the tag its failure must carry, what the page had, what it gets)
    ("partial", "partial", "function fullSeconds(p) {",
     "function fullSeconds(p) { return {s: p.samples || [], cut: null, scaled: null};"),
    ("fold", "screen", "</style>", "#cb-overview { margin-top: 900px; }\n</style>"),
    ("open", "collapsed", '{class: "cb-phase-box", ', '{open: "", class: "cb-phase-box", '),
    ("bandwidth", "bandwidth", "const noData = (p) => p.ops > 0 && !p.bytes;", "const noData = (p) => false;"),
    ("cached", "cached", 'const cached = (p) => !!(p.served && p.served.by === "client cache");',
     "const cached = (p) => false;"),
    ("findings", "findings", 'el("li", {}, text(x))', 'el("li", {}, "x")'),
]

fails = []


def run(*args):
    p = subprocess.run([cb, *args], capture_output=True, text=True)
    if p.returncode != 0:
        fails.append("cephbench %s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr[:400]))
    return p


def main(d):
    recs = {"lead": lead_record(), "plain": plain_record()}
    pages = {}
    for name, rec in recs.items():
        f = os.path.join(d, name + ".json")
        with open(f, "w") as out:
            json.dump(rec, out)
        pages[name] = os.path.join(d, name + ".html")
        run("report", "--html", pages[name], f)
    if fails:
        return
    br = Browser()
    try:
        # the negative controls first: each broken page refused, for its reason
        for name, tag, old, new in NEGATIVES:
            page = broken(pages["lead"], d, name, old, new)
            facts, series, errors = br.open(page)
            tags = {t for t, _ in judge(recs["lead"], facts, series)}
            print("negative %s: refused for %s" % (name, sorted(tags) or "nothing"))
            if tag not in tags:
                fails.append("negative control %s: the check passed a page that %s" % (name, tag))
        for name, rec in recs.items():
            shot = os.path.join(os.environ.get("CB_HTML_SHOTS", d), "first-screen-%s.png" % name)
            facts, series, errors = br.open(pages[name], shot)
            bad = errors + ["%s: %s" % t for t in judge(rec, facts, series)]
            print("%s page: first screen: findings %s, overview %s, charts %s; %d phases closed"
                  % (name, facts["findings"], facts["overview"],
                     [(c["id"], round(c["bottom"])) for c in facts["ovCanvases"]], len(facts["boxes"])))
            fails.extend("%s page: %s" % (name, b) for b in bad)
    finally:
        br.close()
    compare_page(d)
    history_page(d)
    # every chart of the page, its point count, by check_page.py; and the
    # writer's own records: a layer breakdown, repeats, telemetry
    check = os.path.join(src, "tests", "html", "check_page.py")
    files = [(os.path.join(d, "lead.json"), pages["lead"])]
    for s in ("bottleneck", "telemetry_host", "expect"):
        f = os.path.join(samples, s + "-sample.json")
        page = os.path.join(d, s + ".html")
        run("report", "--html", page, f)
        files.append((f, page))
    for f, page in files:
        p = subprocess.run([sys.executable, check, page, page[:-5] + ".png", f],
                           capture_output=True, text=True)
        if p.returncode != 0:
            fails.append("check_page.py %s: %s" % (os.path.basename(f), p.stderr[-1500:]))
        else:
            print("check_page.py %s: %d charts" % (os.path.basename(f), len(p.stdout.splitlines())))


def compare_page(d):
    """The compare page leads with what is real: compare_gen's +10 % and
    -10 % files against their base, the worse first, above the table and
    within the first screen; then check_page.py --compare (its curves,
    without the partial last second, as the test leaves it out)."""
    g = os.path.join(d, "cmp")
    os.mkdir(g)
    compare_gen.rng.seed(20261130)  # compare-cli.sh's draws, whatever ran before
    compare_gen.main(g)
    files = [os.path.join(g, f) for f in ("base.json", "up10.json", "down10.json")]
    doc = run("compare", "--format", "json", *files).stdout
    with open(os.path.join(g, "doc.json"), "w") as f:
        f.write(doc)
    page = os.path.join(g, "compare.html")
    run("compare", "--html", page, *files)
    if fails:
        return
    want = [(x["verdict"], x["text"]) for c in json.loads(doc)["comparisons"] for p in c["phases"]
            for x in (p["iops"], p["bw_bytes_per_s"], p["lat_mean_us"], p["lat_p99_us"])
            if x.get("verdict") in ("better", "worse")]
    br = Chromium(W, H)
    try:
        br.call("Emulation.setDeviceMetricsOverride", width=W, height=H, deviceScaleFactor=1, mobile=False)
        br.call("Page.navigate", url="file://" + page)
        deadline = time.time() + 30
        while time.time() < deadline and br.value("document.body && document.body.dataset.ready") != "1":
            time.sleep(0.1)
        facts = br.value("""(() => { const r = document.getElementById('cb-real');
          const t = document.getElementById('cb-compare-table');
          return {real: r ? [...r.querySelectorAll('li')].map(li => [li.className, li.textContent]) : null,
            bottom: r ? r.getBoundingClientRect().bottom : null,
            before: !!(r && t && (r.compareDocumentPosition(t) & Node.DOCUMENT_POSITION_FOLLOWING))}; })()""")
    finally:
        br.close()
    real = facts["real"] or []
    worse = [t for v, t in want if v == "worse"]
    if not want or not worse or len(real) != len(want) or \
            [c for c, _ in real] != sorted((c for c, _ in real), key=lambda c: c != "cb-FAIL") or \
            not all(any(t in x for _, x in real) for _, t in want):
        fails.append("compare page: real differences %s, the document's %s (worse first)" % (real, want))
    if not facts["before"] or facts["bottom"] is None or facts["bottom"] > H:
        fails.append("compare page: the real differences end at %s px, before the table: %s"
                     % (facts["bottom"], facts["before"]))
    p = subprocess.run([sys.executable, os.path.join(src, "tests", "html", "check_page.py"), page,
                        page[:-5] + ".png", "--compare", os.path.join(g, "doc.json")],
                       capture_output=True, text=True, cwd=g)
    if p.returncode != 0:
        fails.append("check_page.py --compare: %s" % p.stderr[-1500:])
    print("compare page: %d real differences first (%d worse), ending at %d px; check_page.py %s"
          % (len(real), len(worse), facts["bottom"] or -1, "passed" if p.returncode == 0 else "failed"))


def first_screen(page, expr):
    """expr's value in page, opened at WxH once it has drawn."""
    br = Chromium(W, H)
    try:
        br.call("Emulation.setDeviceMetricsOverride", width=W, height=H, deviceScaleFactor=1, mobile=False)
        br.call("Page.navigate", url="file://" + page)
        deadline = time.time() + 30
        while time.time() < deadline and br.value("document.body && document.body.dataset.ready") != "1":
            time.sleep(0.1)
        return br.value(expr)
    finally:
        br.close()


def history_page(d):
    """The history page leads with its stored regressions: compare_gen's
    base run stored three times, then a run at 30 % of its IOPS (a
    regression at --regression 20); the page's list names that run and
    phase, above the first chart, within the first screen."""
    g = os.path.join(d, "hist")
    os.mkdir(g)
    with open(os.path.join(d, "cmp", "base.json")) as f:
        base = json.load(f)
    db = os.path.join(g, "h.db")
    for i, scale in enumerate([1.0, 1.01, 0.99, 0.3]):
        r = json.loads(json.dumps(base))
        r["started"] = "2026-11-30T1%d:00:00Z" % (i + 2)
        for p in r["phases"]:
            p["iops"] *= scale
            p["bw_bytes_per_s"] *= scale
        f = os.path.join(g, "r%d.json" % i)
        with open(f, "w") as out:
            json.dump(r, out)
        subprocess.run([cb, "history", db, "--add", f, "--regression", "20", "--quiet"],
                       capture_output=True)
    rows = json.loads(run("history", db, "--format", "json").stdout)
    want = [(r["phase"], r["started"]) for r in rows
            if (r.get("regression") or {}).get("verdict") == "regression"]
    page = os.path.join(g, "h.html")
    run("history", db, "--html", page)
    if fails:
        return
    facts = first_screen(page, """(() => { const r = document.getElementById('cb-regressions');
      const c = document.querySelector('canvas');
      return {items: r ? [...r.querySelectorAll('li')].map(li => li.textContent) : null,
        bottom: r ? r.getBoundingClientRect().bottom : null,
        before: !!(r && c && (r.compareDocumentPosition(c) & Node.DOCUMENT_POSITION_FOLLOWING))}; })()""")
    items = facts["items"] or []
    if not want or len(items) != len(want) or not all(
            any(ph in t and st in t and "IOPS" in t for t in items) for ph, st in want):
        fails.append("history page: regressions listed %s, the history's %s" % (items, want))
    if not facts["before"] or facts["bottom"] is None or facts["bottom"] > H:
        fails.append("history page: the regressions end at %s px, before the charts: %s"
                     % (facts["bottom"], facts["before"]))
    with open(os.path.join(g, "h.json"), "w") as f:
        json.dump(rows, f)
    p = subprocess.run([sys.executable, os.path.join(src, "tests", "html", "check_page.py"), page,
                        page[:-5] + ".png", "--history", os.path.join(g, "h.json")],
                       capture_output=True, text=True)
    if p.returncode != 0:
        fails.append("check_page.py --history: %s" % p.stderr[-1500:])
    print("history page: %d regressions first, ending at %s px; check_page.py %s"
          % (len(items), facts["bottom"], "passed" if p.returncode == 0 else "failed"))


if __name__ == "__main__":
    t0 = time.time()
    d = tempfile.mkdtemp(prefix="cb-html-run.")
    try:
        main(d)
    finally:
        shutil.rmtree(d, ignore_errors=True)
    for f in fails:
        print("FAIL: " + f)
    print("%d failures, %.1f s" % (len(fails), time.time() - t0))
    sys.exit(1 if fails else 0)
