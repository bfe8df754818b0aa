#!/usr/bin/env python3
"""Open a cephbench page in a real headless Chromium, over the DevTools
protocol on a pipe (--remote-debugging-pipe: stdlib only), and check it:
no console error, no exception, no network request but the file itself,
every chart drawn (pixels on its canvas) with as many points as the JSON
behind it, and a screenshot written for a reader to look at.
usage: check_page.py PAGE.html SCREENSHOT.png [RESULT.json]
       check_page.py PAGE.html SCREENSHOT.png --compare DOC.json
       check_page.py PAGE.html SCREENSHOT.png --history HISTORY.json [--skipped N]
(prints one line per chart; with RESULT.json each phase's per-second charts
must have as many points as that file has samples; with --compare (what
`compare --format json` printed) the page's document must be that one, its
table hold a row per pair and figure, and every pair's curves be drawn, each
with the point count of its input file's samples and histogram, the files
read here; with --history (what `history --format json` printed) each phase
has an IOPS and a p99 chart with a point per row, its regressions and N
skipped runs marked, and the table a row each)"""
import base64, json, os, shutil, subprocess, sys, tempfile, time

opts, args = {}, []
it = iter(sys.argv[1:])
for a in it:
    if a in ("--compare", "--history", "--skipped"):
        opts[a[2:]] = next(it)
    else:
        args.append(a)
sys.argv[1:] = args
page, shot = os.path.abspath(sys.argv[1]), sys.argv[2]
r_ours, w_chrome = os.pipe()   # chromium writes on its fd 4
r_chrome, w_ours = os.pipe()   # chromium reads on its fd 3
profile = tempfile.mkdtemp(prefix="cb-chromium.")


def child_fds():
    # through spare numbers first: the pipes may already sit on 3 and 4
    a, b = os.dup(r_chrome), os.dup(w_chrome)
    os.dup2(a, 3)
    os.dup2(b, 4)


proc = subprocess.Popen(
    ["chromium", "--headless=new", "--no-sandbox", "--disable-gpu",
     "--remote-debugging-pipe", "--user-data-dir=" + profile,
     "--window-size=1200,900", "--no-first-run", "about:blank"],
    close_fds=False, preexec_fn=child_fds,
    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
os.close(r_chrome)
os.close(w_chrome)
os.set_inheritable(r_ours, False)
os.set_inheritable(w_ours, False)
buf, seq, events = b"", 0, []


def recv():
    global buf
    while b"\0" not in buf:
        chunk = os.read(r_ours, 1 << 20)
        if not chunk:
            sys.exit("check_page: chromium closed the pipe")
        buf += chunk
    msg, buf = buf.split(b"\0", 1)
    return json.loads(msg)


def call(method, session=None, **params):
    global seq
    seq += 1
    m = {"id": seq, "method": method, "params": params}
    if session:
        m["sessionId"] = session
    os.write(w_ours, json.dumps(m).encode() + b"\0")
    while True:
        r = recv()
        if r.get("id") == seq:
            if "error" in r:
                sys.exit("check_page: %s: %s" % (method, r["error"]))
            return r["result"]
        events.append(r)


try:
    target = call("Target.createTarget", url="about:blank")["targetId"]
    s = call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
    for d in ("Runtime", "Log", "Network", "Page"):
        call(d + ".enable", s)
    call("Page.navigate", s, url="file://" + page)
    deadline = time.time() + 30
    while time.time() < deadline:
        v = call("Runtime.evaluate", s, expression="document.body && document.body.dataset.ready",
                 returnByValue=True)["result"].get("value")
        if v == "1":
            break
        time.sleep(0.2)
    else:
        sys.exit("check_page: the page never finished drawing (no data-ready)")
    charts = call("Runtime.evaluate", s, returnByValue=True, expression="""
      [...document.querySelectorAll('canvas')].map(c => {
        const ch = Chart.getChart(c);
        const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let ink = 0;
        for (let i = 3; i < px.length; i += 4) if (px[i]) ink++;
        return {id: c.id, want: Number(c.dataset.points),
                got: ch ? ch.data.datasets[0].data.length : -1, ink: ink,
                sets: ch ? ch.data.datasets.map(d => d.data.length) : [],
                labels: ch ? ch.data.datasets.map(d => d.label) : [],
                curves: c.dataset.curves ? JSON.parse(c.dataset.curves) : null,
                phase: c.dataset.phase, figure: c.dataset.figure};
      })""")["result"]["value"]
    tables = call("Runtime.evaluate", s, returnByValue=True, expression="""
      Object.fromEntries([...document.querySelectorAll('table')].map(
        t => [t.id, t.tBodies[0].rows.length]))""")["result"]["value"]
    # the window made as tall as the page first: captureBeyondViewport
    # alone left canvases below the fold blank in the picture
    height = call("Runtime.evaluate", s, returnByValue=True,
                  expression="document.documentElement.scrollHeight")["result"]["value"]
    call("Emulation.setDeviceMetricsOverride", s, width=1200, height=min(int(height), 16000),
         deviceScaleFactor=1, mobile=False)
    time.sleep(0.5)
    png = call("Page.captureScreenshot", s, format="png")
    with open(shot, "wb") as f:
        f.write(base64.b64decode(png["data"]))
finally:
    proc.kill()
    proc.wait()
    shutil.rmtree(profile, ignore_errors=True)

bad = []
for ev in events:
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
    for k, p in enumerate(rec["phases"]):
        for kind in ("rate", "lat"):
            c = by_id.get("p%d-%s" % (k, kind))
            if not c or c["got"] != len(p["samples"]):
                bad.append("phase %s: chart %s has %s points, the JSON %d samples"
                           % (p["name"], kind, c and c["got"], len(p["samples"])))
        # the percentile curve: a point per bucket below the last, counted here
        h = p.get("histogram") or {}
        if h.get("count"):
            seen, want = 0, 0
            for _, n in h["buckets"]:
                seen += n
                if seen >= h["count"]:
                    break
                want += 1
            c = by_id.get("p%d-pct" % k)
            if not c or c["got"] != want:
                bad.append("phase %s: percentile curve has %s points, the histogram %d buckets"
                           " below its last" % (p["name"], c and c["got"], want))


def buckets_below_last(h):
    """The percentile curve's points: a bucket each below the last."""
    seen, want = 0, 0
    for _, n in h["buckets"]:
        seen += n
        if seen >= h["count"]:
            break
        want += 1
    return want


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
            want = len(p["samples"]) if kind == "iops" else buckets_below_last(p["histogram"])
            if got != want:
                bad.append("%s: the curve of %s in %s has %d points, the file %d"
                           % (c["id"], cv["phase"], cv["file"], got, want))
        if len(c["curves"]) != len(c["sets"]):
            bad.append("%s: %d curves named, %d drawn" % (c["id"], len(c["curves"]), len(c["sets"])))
    for cmp_ in doc["comparisons"]:
        for pr in cmp_["phases"]:
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
if os.path.getsize(shot) < 10000:
    bad.append("screenshot %s is %d bytes: blank?" % (shot, os.path.getsize(shot)))
for b in bad:
    print("check_page: " + b, file=sys.stderr)
sys.exit(1 if bad else 0)
