#!/usr/bin/env python3
"""Open a cephbench page in a real headless Chromium, over the DevTools
protocol on a pipe (--remote-debugging-pipe: stdlib only), and check it:
no console error, no exception, no network request but the file itself,
every chart drawn (pixels on its canvas, each point inside the plot) with
as many points as the JSON
behind it, and a screenshot written for a reader to look at.
usage: check_page.py PAGE.html SCREENSHOT.png [RESULT.json]
       check_page.py PAGE.html SCREENSHOT.png --compare DOC.json
       check_page.py PAGE.html SCREENSHOT.png --history HISTORY.json [--skipped N]
(prints one line per chart; with RESULT.json the page must hold exactly the
charts that file calls for, each with as many points as it has whole
seconds (the last, partial one left out), threads, OSDs or search steps,
counted here, the overview a bar per phase (MiB/s: per phase that moves
bytes) with the record's figures; the slow OSDs marked, the
expectations coloured as they passed, the disturbed phases shaded; with
--compare (what `compare --format json` printed) the page's document must
be that one, its table hold a row per pair and figure, and every pair's
curves be drawn, each with the point count of its input file's samples and
histogram, the files read here; with --history (what `history --format
json` printed) each phase has an IOPS and a p99 chart with a point per row,
its regressions and N skipped runs marked, and the table a row each).
Charts are drawn lazily (near the window, or before printing): the check
opens every phase's section and draws them all first, as a print does."""
import base64, json, os, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp import Chromium

opts, args = {}, []
it = iter(sys.argv[1:])
for arg in it:
    if arg in ("--compare", "--history", "--skipped"):
        opts[arg[2:]] = next(it)
    else:
        args.append(arg)
sys.argv[1:] = args
page, shot = os.path.abspath(sys.argv[1]), sys.argv[2]
cr = Chromium()

try:
    for d in ("Runtime", "Log", "Network", "Page"):
        cr.call(d + ".enable")
    cr.call("Page.navigate", url="file://" + page)
    deadline = time.time() + 30
    while time.time() < deadline:
        if cr.value("document.body && document.body.dataset.ready") == "1":
            break
        time.sleep(0.2)
    else:
        sys.exit("check_page: the page never finished drawing (no data-ready)")
    # a run page's phases are closed <details> at first: opened, as a
    # print opens them, so every chart is drawn at its size
    cr.value("document.querySelectorAll('details.cb-phase-box').forEach(d => { d.open = true; })")
    cr.value("CB.drawAll()")
    charts = cr.value("""
      [...document.querySelectorAll('canvas')].map(c => {
        const ch = Chart.getChart(c);
        const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let ink = 0;
        for (let i = 3; i < px.length; i += 4) if (px[i]) ink++;
        const d = ch ? ch.data.datasets : [];
        const y = (v) => (v !== null && typeof v === 'object' ? v.y : v);
        // the labels of the bars in the slow colour, in any dataset
        const slow = ch && ch.data.labels ? ch.data.labels.filter((_, j) => d.some(s =>
          Array.isArray(s.backgroundColor) && s.backgroundColor[j] === CB.SLOW)) : [];
        // the first dataset's points placed inside the plot: a scale of
        // the wrong kind (names on a linear axis) places them nowhere
        const a = ch && ch.chartArea;
        const inside = (e) => Number.isFinite(e.x) && Number.isFinite(e.y) &&
          e.x >= a.left - 1 && e.x <= a.right + 1;
        // a bar of no value (a latency of a row that did nothing) is not placed
        const some = (j) => y(d[0].data[j]) !== null && y(d[0].data[j]) !== undefined;
        return {id: c.id, want: Number(c.dataset.points),
                got: ch ? d[0].data.length : -1, ink: ink,
                valued: ch ? d[0].data.filter((_, j) => some(j)).length : -1,
                placed: ch ? ch.getDatasetMeta(0).data.filter((e, j) => some(j) && inside(e)).length : -1,
                sum: ch ? d[0].data.reduce((a, v) => a + (Number(y(v)) || 0), 0) : null,
                slow: slow.map(l => l.split(' ')[0]),
                sets: d.map(s => s.data.length),
                curves: c.dataset.curves ? JSON.parse(c.dataset.curves) : null,
                phases: c.dataset.phases ? JSON.parse(c.dataset.phases) : null,
                last: ch && d[0].data.length ? y(d[0].data[d[0].data.length - 1]) : null,
                phase: c.dataset.phase, figure: c.dataset.figure};
      })""")
    tables = cr.value("""
      Object.fromEntries([...document.querySelectorAll('table')].map(
        t => [t.id, t.tBodies[0].rows.length]))""")
    page_facts = cr.value("""({
      verdict: (document.querySelector('.cb-head .cb-verdict') || {}).textContent,
      verdict_cls: (document.querySelector('.cb-head .cb-verdict') || {}).className,
      expect: [...document.querySelectorAll('#cb-expect tbody tr')].map(r =>
        [r.cells[0].textContent, r.cells[1].textContent, r.cells[5].textContent, r.className]),
      disturbed: [...document.querySelectorAll('section.cb-disturbed')].map(e => e.id)})""")
    # the window made as tall as the page first: captureBeyondViewport
    # alone left canvases below the fold blank in the picture
    height = cr.value("document.documentElement.scrollHeight")
    cr.call("Emulation.setDeviceMetricsOverride", width=1200, height=min(int(height), 16000),
            deviceScaleFactor=1, mobile=False)
    time.sleep(0.5)
    png = cr.call("Page.captureScreenshot", format="png")
    with open(shot, "wb") as f:
        f.write(base64.b64decode(png["data"]))
finally:
    cr.close()


def no_data(p):
    """A row whose ops moved no data: no block size, no bandwidth
    (report_text.c cb_report_no_data)."""
    return p["ops"] > 0 and not p["bytes"]


def full_seconds(p):
    """The samples a per-second chart draws (lib.js fullSeconds): a last
    sample that ends past duration_s covers part of a second and is left
    out; alone, it is kept, its counts per second of the part it covers."""
    s = p.get("samples") or []
    d = p["duration_s"]
    if not s or s[-1]["t"] + 1 <= d + 1e-6:
        return s
    part = d - s[-1]["t"]
    if len(s) == 1 and part > 0:
        x = dict(s[0])
        for f in ("ops", "bytes", "due", "late"):
            if f in x:
                x[f] = x[f] / part
        return [x]
    return s[:-1]


def judge(rec, by_id, facts):
    """The charts, expectations and shading the record calls for, counted
    here from the JSON, against what the page drew."""
    bad, want = [], {}

    def need(cid, n, total=None):
        want[cid] = True
        c = by_id.get(cid)
        if not c or c["got"] != n:
            bad.append("chart %s: %s points, the JSON %d" % (cid, c and c["got"], n))
        elif total is not None and abs(c["sum"] - total) > 1e-6 * max(1, abs(total)):
            bad.append("chart %s: its points add to %r, the JSON's to %r" % (cid, c["sum"], total))

    # the overview: a bar per phase (MiB/s: per phase that moves bytes),
    # each canvas naming its bars' phases in order
    ph = rec["phases"]
    moving = [p for p in ph if not no_data(p)]
    need("ov-iops", len(ph), sum(p["iops"] for p in ph))
    if moving:
        need("ov-bw", len(moving), sum(p["bw_bytes_per_s"] / 1048576 for p in moving))
    need("ov-lat", len(ph), sum(p["latency_us"]["p50"] / 1e3 for p in ph if p["latency_us"]["p50"]))
    lrows = [x for g in rec.get("layers") or [] for x in g.get("rows") or []]
    if lrows:
        need("ov-layers", len(lrows))
    for cid, rows in (("ov-iops", ph), ("ov-bw", moving), ("ov-lat", ph)):
        c = by_id.get(cid)
        if c and c["phases"] != [p["name"] for p in rows]:
            bad.append("chart %s: bars of %s, the JSON's phases %s" % (cid, c["phases"], [p["name"] for p in rows]))
    for k, p in enumerate(rec["phases"]):
        s = full_seconds(p)
        want["p%d-rate" % k] = want["p%d-lat" % k] = True
        if p.get("histogram", {}).get("count"):
            want["p%d-pct" % k] = True
        by = p.get("by_op")
        if by:
            need("p%d-kinds" % k, len(by), sum(v["latency_us"]["p50"] / 1e3 for v in by.values()))
            if tables.get("p%d-by-op" % k) != len(by):
                bad.append("table p%d-by-op: %s rows, by_op %d kinds" % (k, tables.get("p%d-by-op" % k), len(by)))
        if p.get("open_loop"):
            need("p%d-due" % k, len(s), sum(x["due"] for x in s))
            need("p%d-late" % k, len(s), sum(x["late"] for x in s))
        steps = (p.get("search") or {}).get("steps")
        if steps:
            need("p%d-search" % k, len(steps), sum(x["achieved_ops_per_s"] for x in steps))
        tm = p.get("telemetry") or {}
        th = (tm.get("client") or {}).get("threads") or []
        if th:
            need("p%d-threads" % k, len(th), sum(x["cpu_s"] for x in th))
        hs = (tm.get("host") or {}).get("samples") or []
        if hs:
            need("p%d-hcpu" % k, len(hs), sum(x["cpu"]["usr"] for x in hs if "cpu" in x))
            if any(v["rx_bytes"] or v["tx_bytes"] for x in hs for v in x.get("net", {}).values()):
                need("p%d-hnet" % k, len(hs))
            if any(x.get("disks") for x in hs):
                need("p%d-hdisk" % k, len(hs))
        cl = tm.get("cluster") or {}
        if cl.get("osds"):
            cid = "p%d-osd" % k
            need(cid, len(cl["osds"]), sum(o["op_latency_ms"] or 0 for o in cl["osds"]))
            slow = sorted({"osd.%d" % x["osd"] for x in cl.get("slow_osds") or []})
            got = sorted(set((by_id.get(cid) or {}).get("slow") or []))
            if got != slow:
                bad.append("chart %s: %s marked slow, the JSON names %s" % (cid, got, slow))
    for k, _ in enumerate(rec.get("layers") or []):
        want["layers%d" % k] = True
    extra = sorted(set(by_id) - set(want))
    if extra:
        bad.append("charts the JSON does not call for: %s" % extra)
    ex = [[p["name"], x["threshold"], "PASS" if x["pass"] else "FAIL", "cb-PASS" if x["pass"] else "cb-FAIL"]
          for p in rec["phases"] for x in p.get("expect") or []]
    if facts["expect"] != ex:
        bad.append("expectations on the page %s, in the JSON %s" % (facts["expect"], ex))
    v = rec.get("verdict")
    wv = v["result"].upper() if v else "no thresholds"
    if facts["verdict"] != wv or (v and "cb-" + wv not in facts["verdict_cls"].split()):
        bad.append("header verdict %r (%s), the JSON %r" % (facts["verdict"], facts["verdict_cls"], wv))
    dist = ["phase%d" % k for k, p in enumerate(rec["phases"]) if p.get("disturbed")]
    if facts["disturbed"] != dist:
        bad.append("shaded phases %s, disturbed in the JSON %s" % (facts["disturbed"], dist))
    return bad


def buckets_below_last(h):
    """The percentile curve's points: a bucket each below the last."""
    seen, want = 0, 0
    for _, n in h["buckets"]:
        seen += n
        if seen >= h["count"]:
            break
        want += 1
    return want


bad = []
for ev in cr.events:
    m, p = ev.get("method"), ev.get("params", {})
    if m == "Runtime.exceptionThrown":
        bad.append("exception: " + json.dumps(p["exceptionDetails"])[:300])
    elif m == "Runtime.consoleAPICalled" and p["type"] in ("error", "warning", "assert"):
        bad.append("console %s: %s" % (p["type"], json.dumps(p["args"])[:300]))
    elif m == "Log.entryAdded" and p["entry"]["level"] in ("error", "warning"):
        bad.append("log: " + p["entry"]["text"][:300])
    elif m == "Network.requestWillBeSent" and p["request"]["url"] != "file://" + page:
        bad.append("network request: " + p["request"]["url"][:300])
if len(sys.argv) > 3:
    with open(sys.argv[3]) as f:
        rec = json.load(f)
    by_id = {c["id"]: c for c in charts}
    bad += judge(rec, by_id, page_facts)
    for k, p in enumerate(rec["phases"]):
        full = full_seconds(p)
        for kind in ("rate", "lat"):
            c = by_id.get("p%d-%s" % (k, kind))
            if not c or c["got"] != len(full):
                bad.append("phase %s: chart %s has %s points, the JSON %d whole seconds"
                           % (p["name"], kind, c and c["got"], len(full)))
        c = by_id.get("p%d-rate" % k)
        if c and full and abs(c["last"] - full[-1]["ops"]) > 1e-6 * max(1, full[-1]["ops"]):
            bad.append("phase %s: the rate ends at %r, the last whole second has %r ops"
                       % (p["name"], c["last"], full[-1]["ops"]))
        # the percentile curve: a point per bucket below the last, counted here
        h = p.get("histogram") or {}
        if h.get("count"):
            want = buckets_below_last(h)
            c = by_id.get("p%d-pct" % k)
            if not c or c["got"] != want:
                bad.append("phase %s: percentile curve has %s points, the histogram %d buckets"
                           " below its last" % (p["name"], c and c["got"], want))
def page_data():
    with open(page) as f:
        text = f.read()
    start = text.index('<script type="application/json" id="cb-data">')
    start = text.index(">", start) + 1
    return json.loads(text[start:text.index("</script>", start)])


if "compare" in opts:
    with open(opts["compare"]) as f:
        doc = json.load(f)
    if page_data().get("compare") != doc:
        bad.append("the page's compare document is not the one --format json printed")
    files, phases_of = {}, {}
    for cmp_ in doc["comparisons"]:
        for side in ("a", "b"):
            path = cmp_[side]["file"]
            if path not in files:
                with open(path) as f:
                    files[path] = json.load(f)["phases"]
    def phase_of(path, name):
        return next(p for p in files[path] if p["name"] == name)
    want_rows = sum(4 * len(c["phases"]) for c in doc["comparisons"])
    if tables.get("cb-compare-table") != want_rows:
        bad.append("compare table: %s rows, the document %d (4 figures a pair)"
                   % (tables.get("cb-compare-table"), want_rows))
    drawn = {}
    for c in charts:
        if c["curves"] is None:
            continue
        kind = c["id"].rsplit("-", 1)[1]
        for (cv, got) in zip(c["curves"], c["sets"]):
            drawn.setdefault((kind, cv["file"], cv["phase"]), []).append(c["id"])
            p = phase_of(cv["file"], cv["phase"])
            # the IOPS curve leaves out the last, partial second, as the test does
            want = max(0, len(p["samples"]) - 1) if kind == "iops" else buckets_below_last(p["histogram"])
            if got != want:
                bad.append("%s: the curve of %s in %s has %d points, the file %d"
                           % (c["id"], cv["phase"], cv["file"], got, want))
        if len(c["curves"]) != len(c["sets"]):
            bad.append("%s: %d curves named, %d drawn" % (c["id"], len(c["curves"]), len(c["sets"])))
    for cmp_ in doc["comparisons"]:
        for pr in cmp_["phases"]:
            if pr.get("data") == "kind":
                continue  # a row's kind (by_op): in the table, no curves of its own
            for side, name in (("a", pr["a_name"]), ("b", pr["b_name"])):
                path = cmp_[side]["file"]
                kinds = ["iops"] + (["pct"] if (phase_of(path, name).get("histogram") or {})
                                    .get("count") else [])
                for kind in kinds:
                    if (kind, path, name) not in drawn:
                        bad.append("no %s curve of %s in %s" % (kind, name, path))
if "history" in opts:
    with open(opts["history"]) as f:
        rows = json.load(f)
    nskip = int(opts.get("skipped", 0))
    by_phase = {}
    for r in rows:
        by_phase.setdefault(r["phase"], []).append(r)
    seen = set()
    for c in charts:
        if c["phase"] is None:
            continue
        seen.add((c["phase"], c["figure"]))
        mine = by_phase.get(c["phase"], [])
        metric = {"iops": "iops", "p99": "p99_us"}[c["figure"]]
        regs = sum(1 for r in mine if ((r.get("regression") or {}).get("metrics") or {})
                   .get(metric, {}).get("regression"))
        want = [len(mine), regs, nskip]
        if c["sets"] != want:
            bad.append("%s (%s %s): points, regressions, skipped runs %s; the JSON %s"
                       % (c["id"], c["phase"], c["figure"], c["sets"], want))
    for name in by_phase:
        for fig in ("iops", "p99"):
            if (name, fig) not in seen:
                bad.append("phase %s: no %s chart" % (name, fig))
    if tables.get("cb-history-table") != len(rows) + nskip:
        bad.append("history table: %s rows, the JSON %d and %d skipped"
                   % (tables.get("cb-history-table"), len(rows), nskip))
if not charts:
    bad.append("no chart on the page")
for c in charts:
    print("%s: %d points (want %d), %d pixels drawn" % (c["id"], c["got"], c["want"], c["ink"]))
    if c["got"] != c["want"]:
        bad.append("%s: %d points, the JSON has %d" % (c["id"], c["got"], c["want"]))
    if c["ink"] == 0:
        bad.append("%s: nothing drawn" % c["id"])
    if c["placed"] != c["valued"]:
        bad.append("%s: %d of %d points inside the plot" % (c["id"], c["placed"], c["valued"]))
if os.path.getsize(shot) < 10000:
    bad.append("screenshot %s is %d bytes: blank?" % (shot, os.path.getsize(shot)))
for b in bad:
    print("check_page: " + b, file=sys.stderr)
sys.exit(1 if bad else 0)
