/* The page of a history: data.rows is what `cephbench history DB --format
 * json` prints (a row per run and phase, oldest first, docs/health.md),
 * data.skipped the runs the pre-flight gate refused. Per phase, IOPS and
 * p99 over the runs; the x axis numbers the runs shown, oldest first, the
 * run's time in the tooltip and the table. It leads with the stored
 * regressions, the newest first. */
CB.kinds.history = function (data, root) {
  const {el, fmt, table, chart, axis} = CB;
  const rows = data.rows, skipped = data.skipped || [];

  /* The rows of one run follow each other; a run starts where the run's
   * fields change (or a phase name comes again: two runs can share them). */
  const runKey = (r) => [r.started, r.run_name, r.profile, r.profile_sha256, r.fsid, r.host].join("\0");
  const runs = [];
  let cur = null;
  for (const r of rows) {
    const k = runKey(r);
    if (!cur || cur.key !== k || cur.phases.has(r.phase)) {
      cur = {key: k, started: r.started, run_name: r.run_name, profile: r.profile, phases: new Set()};
      runs.push(cur);
    }
    cur.phases.add(r.phase);
    r.cbRun = cur;
  }
  for (const s of skipped)
    runs.push({started: s.started, run_name: s.run_name, profile: s.profile, skip: s});
  /* stable: a skipped run after the runs of its second */
  runs.sort((a, b) => (a.started < b.started ? -1 : a.started > b.started ? 1 : 0));
  runs.forEach((r, i) => (r.index = i + 1));

  const regressed = (r, m) => !!(r.regression && r.regression.metrics &&
    r.regression.metrics[m] && r.regression.metrics[m].regression);
  const marks = (r) => [r.interrupted && "interrupted", r.failed && "failed",
    r.disturbed && "disturbed", r.regression && r.regression.verdict === "regression" &&
    "REGRESSION"].filter(Boolean).join(" ");

  function header() {
    const f = data.filter || {};
    root.append(el("h1", {}, "cephbench history: " + data.file));
    const names = [...new Set(runs.map((r) => r.profile))].join(", ");
    root.append(el("p", {class: "cb-head"}, runs.length + " runs (" + skipped.length +
      " skipped) of profile " + (names || "-") + (runs.length ? ", " + runs[0].started + " to " +
      runs[runs.length - 1].started : "") + (f.profile ? "; --profile " + f.profile : "") +
      (f.workload ? "; --workload " + f.workload : "") + (f.last ? "; --last " + f.last : "")));
  }

  /* One figure of a phase over the runs: its points, the regressions
   * again in red (so the legend names them), the skipped runs of its
   * profile at 0. */
  function trend(sec, id, phase, list, fig) {
    const pts = list.map((r) => ({x: r.cbRun.index, y: fig.get(r), r: r, reg: regressed(r, fig.reg)}));
    const profiles = new Set(list.map((r) => r.profile));
    const skips = runs.filter((r) => r.skip && profiles.has(r.profile)).map((r) =>
      ({x: r.index, y: 0, s: r}));
    const ch = chart(sec, id, {type: "line", data: {datasets: [
      {label: fig.title, data: pts,
        pointStyle: pts.map((p) => (p.reg ? "triangle" : "circle")),
        pointRadius: pts.map((p) => (p.reg ? 7 : 3)),
        pointBackgroundColor: pts.map((p) => (p.reg ? "#d62728" : "#1f77b4"))},
      {label: "regression (" + fig.title + ")", data: pts.filter((p) => p.reg), showLine: false,
        pointStyle: "triangle", pointRadius: 7, borderColor: "#d62728", backgroundColor: "#d62728"},
      {label: "skipped run (no phase ran)", data: skips, showLine: false, pointStyle: "crossRot",
        pointRadius: 8, borderWidth: 2, borderColor: "#777", backgroundColor: "#777"}]},
      options: {scales: {x: Object.assign(axis("run (1 = the oldest shown; its time in the tooltip)"),
        {ticks: {precision: 0}}), y: Object.assign(axis(fig.axis), {beginAtZero: true})},
      plugins: {tooltip: {callbacks: {
        title: (items) => {
          const p = items[0].raw;
          return p.s ? "run " + p.x + ", " + p.s.started + " " + p.s.run_name :
            "run " + p.x + ", " + p.r.started + " " + p.r.run_name;
        },
        label: (c) => (c.raw.s ? "skipped: " + c.raw.s.skip.reason :
          fig.title + " " + fmt(c.raw.y, fig.digits) + (c.raw.reg ? " REGRESSION" : "") +
          (marks(c.raw.r) && !c.raw.reg ? " " + marks(c.raw.r) : "")),
      }}}}}, pts.length);
    ch.canvas.dataset.phase = phase;
    ch.canvas.dataset.figure = fig.key;
  }

  /* The stored regressions first, the newest first: the answer a reader
   * of a history comes for, above the charts of every phase. */
  function regressions() {
    const reg = rows.filter((r) => r.regression && r.regression.verdict === "regression");
    root.append(el("h2", {}, "Regressions"));
    if (!reg.length) {
      root.append(el("p", {id: "cb-regressions"}, "none stored in the runs shown"));
      return;
    }
    root.append(el("ul", {id: "cb-regressions"}, ...reg.slice().reverse().map((r) =>
      el("li", {class: "cb-FAIL"}, "run " + r.cbRun.index + " (" + r.started + ", " + r.run_name + "): " +
        r.phase + ": " + figures.filter((f) => regressed(r, f.reg)).map((f) =>
          f.title + " " + fmt(f.get(r), f.digits)).join(", ")))));
  }

  const figures = [
    {key: "iops", title: "IOPS", axis: "ops/s", digits: 1, reg: "iops", get: (r) => r.iops},
    {key: "p99", title: "p99 latency (ms)", axis: "p99 latency (ms)", digits: 3, reg: "p99_us",
      get: (r) => r.latency_us.p99 / 1e3}];

  function phases() {
    const by = new Map();
    for (const r of rows) {
      if (!by.has(r.phase)) by.set(r.phase, []);
      by.get(r.phase).push(r);
    }
    let k = 0;
    for (const [name, list] of by) {
      const sec = el("section", {class: "cb-phase"});
      const l = list[list.length - 1];
      sec.append(el("h3", {}, name + ": " + l.layer + " " + l.op + ", " + list.length + " runs"));
      figures.forEach((f) => trend(sec, "h" + k + "-" + f.key, name, list, f));
      root.append(sec);
      k++;
    }
    if (!by.size) root.append(el("p", {}, "No runs match."));
  }

  function listing() {
    root.append(el("h2", {}, "The runs"));
    const items = rows.map((r) => ({row: {run: r.cbRun.index, started: r.started, name: r.run_name,
      phase: r.phase, iops: r.iops, bw: r.bw_bytes_per_s / 1048576, mean: r.latency_us.mean / 1e3,
      p99: r.latency_us.p99 / 1e3, errors: r.errors, marks: marks(r)},
      cls: r.regression && r.regression.verdict === "regression" ? "cb-FAIL" : ""}));
    for (const r of runs.filter((x) => x.skip))
      items.push({row: {run: r.index, started: r.started, name: r.run_name, phase: null,
        marks: "skipped: " + r.skip.reason}, cls: "cb-skipped"});
    items.sort((a, b) => a.row.run - b.row.run);
    const cols = [
      {title: "run", get: (r) => r.run, digits: 0},
      {title: "started", get: (r) => r.started, show: (v) => v},
      {title: "name", get: (r) => r.name, show: (v) => v},
      {title: "phase", get: (r) => r.phase, show: (v) => v || "-"},
      {title: "IOPS", get: (r) => r.iops},
      {title: "MiB/s", get: (r) => r.bw, digits: 2},
      {title: "mean ms", get: (r) => r.mean, digits: 3},
      {title: "p99 ms", get: (r) => r.p99, digits: 3},
      {title: "errors", get: (r) => r.errors, digits: 0},
      {title: "marks", get: (r) => r.marks, show: (v) => v}];
    const t = table(cols, items);
    t.id = "cb-history-table";
    root.append(t);
  }

  header();
  regressions();
  phases();
  listing();
};
