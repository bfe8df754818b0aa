/* The page of one run: data.record is its result record. It leads with
 * the answer: the header, the record's findings, the phases side by side
 * (overview), the summary table and the expectations; then a collapsed
 * section per phase with its charts, drawn when opened. The open-loop
 * and telemetry parts of a phase are drawn by run_openloop.js and
 * run_telemetry.js (CB.runOpenLoop, CB.runTelemetry). */
CB.kinds.run = function (data, root) {
  const {el, fmt, table, chart, lazyChart, details, axis, percentileCurve, xy, seriesOptions,
    noData, cached} = CB;
  /* a line of many points is drawn as a line: 600 dots cost more than it */
  const dots = (n) => (n > 60 ? 0 : 2);
  function header(r) {
    const v = r.verdict;
    const verdict = v ? v.result.toUpperCase() : "no thresholds";
    root.append(el("h1", {}, "cephbench: " + r.run_name + " (" + r.profile.name + ")"));
    const c = r.cluster || {};
    root.append(el("p", {class: "cb-head"},
      "cluster " + (c.fsid || "none") + " (ceph " + (c.ceph_version || "-") + "), host " +
      r.host + ", started " + r.started + (r.interrupted ? " (interrupted: partial)" : ""),
      " — verdict: ", el("span", {class: "cb-verdict cb-" + verdict.replace(/ /g, "-")}, verdict),
      v ? " (" + v.passed + " of " + (v.passed + v.failed) + " thresholds passed)" : ""));
  }

  /* What the run found (the record's "findings", when it has them):
   * each a line of text, the first thing under the header. */
  function findings(r) {
    const f = Array.isArray(r.findings) ? r.findings : [];
    if (!f.length) return;
    const text = (x) => (typeof x === "string" ? x : x && typeof x.text === "string" ? x.text :
      JSON.stringify(x));
    root.append(el("div", {class: "cb-findings", id: "cb-findings"}, el("h2", {}, "Findings"),
      el("ul", {}, ...f.map((x) => el("li", {}, text(x))))));
  }

  /* 4096 as "4 KiB", as profiles write sizes */
  const size = (b) => {
    let v = Number(b), u = 0;
    while (v >= 1024 && v % 1024 === 0 && u < 4) { v /= 1024; u++; }
    return fmt(v, 2) + " " + ["B", "KiB", "MiB", "GiB", "TiB"][u];
  };
  const badge = (cls, text, title) => el("span", Object.assign({class: "cb-badge " + cls},
    title ? {title: title} : {}), text);
  const cachedBadge = () => badge("cb-badge-cached", "cached", CB.CACHED_TEXT);
  /* "cold:remount": how a cold row kept the client's caches out
   * (docs/result.md, Cold), its note (OSDs that kept theirs) as the title */
  const coldBadge = (p) => (p.cold ? badge("cb-badge-cold", "cold:" + p.cold.client,
    p.cold.note || "ran cold: the client's caches left out, " + p.cold.osds_dropped + " of " +
    p.cold.osds + " OSDs dropped theirs") : "");
  /* "cached: served mostly by ...", its swatch as the bars draw it */
  const cachedLegend = (rows) => (rows.some(cached) ? el("p", {class: "cb-note cb-legend"},
    el("span", {class: "cb-swatch"}), " ", cachedBadge(), " " + CB.CACHED_TEXT) : "");

  /* The phases side by side, first on the page: a bar per phase for IOPS,
   * for MiB/s (the rows that move bytes), its p50, p99 and p99.9, and the
   * layer breakdown; a cached row's bars striped grey. Drawn at once: the
   * first screen holds them. Each canvas's data-phases names its bars'
   * phases, in order. */
  function overview(r) {
    const ph = r.phases;
    root.append(el("h2", {}, "Overview"));
    root.append(cachedLegend(ph));
    const box = el("div", {class: "cb-overview", id: "cb-overview"});
    root.append(box);
    const bars = (id, rows, cfg) => {
      const ch = chart(box, id, cfg, rows.length);
      ch.canvas.dataset.phases = JSON.stringify(rows.map((p) => p.name));
      return ch;
    };
    const names = (rows) => rows.map((p) => p.name);
    const tip = (rows, unit, digits) => ({callbacks: {label: (c) => c.dataset.label + ": " +
      fmt(c.raw, digits) + " " + unit + (cached(rows[c.dataIndex]) ? " (cached: " + CB.CACHED_TEXT + ")" : "")}});
    const one = (title, rows, label, unit, get, color, digits) => ({type: "bar", data: {labels: names(rows),
      datasets: [{label: label, data: rows.map(get), backgroundColor: CB.barColors(color, rows),
        borderColor: color, borderWidth: 1, maxBarThickness: 80}]},
      options: {plugins: {legend: {display: false}, title: {display: true, text: title},
        tooltip: tip(rows, unit, digits)},
        scales: {x: {type: "category"}, y: axis(unit)}}});
    bars("ov-iops", ph, one("IOPS by phase", ph, "IOPS", "ops/s", (p) => p.iops, "#1f77b4", 1));
    const moving = ph.filter((p) => !noData(p));
    if (moving.length)
      bars("ov-bw", moving, one("Bandwidth by phase (rows that move bytes)", moving, "MiB/s", "MiB/s",
        (p) => p.bw_bytes_per_s / 1048576, "#2ca02c", 2));
    const qs = [["p50", "#1f77b4"], ["p99", "#ff7f0e"], ["p99.9", "#d62728"]];
    const lat = (p, q) => (p.latency_us && p.latency_us[q] ? p.latency_us[q] / 1e3 : null);
    /* a log axis starts at its least value, where that bar would be
     * nothing: from the power of ten below half of it */
    const lows = ph.map((p) => lat(p, "p50")).filter((v) => v > 0);
    const yl = Object.assign(axis("latency (ms, log)", "logarithmic"), lows.length ?
      {min: Math.pow(10, Math.floor(Math.log10(Math.min(...lows) / 2)))} : {});
    bars("ov-lat", ph, {type: "bar", data: {labels: names(ph), datasets: qs.map(([q, col]) => ({
      label: q, data: ph.map((p) => lat(p, q)), backgroundColor: CB.barColors(col, ph),
      borderColor: col, borderWidth: 1, maxBarThickness: 40}))},
      options: {plugins: {title: {display: true, text: "Latency percentiles by phase"},
        tooltip: tip(ph, "ms", 3)},
        scales: {x: {type: "category"}, y: yl}}});
    layersOverview(r, box);
  }

  /* The layer breakdown (the record's "layers": groups of one op and
   * block size on several layers, report_bottleneck.c) as one chart: a
   * bar per row, its IOPS as a share of its group's first (lowest) layer's,
   * so groups of 4 KiB and 4 MiB ops read on one axis; the tooltip has the
   * IOPS and the cost over the layer beneath. */
  function layersOverview(r, box) {
    const rows = [];
    (r.layers || []).forEach((g) => (g.rows || []).forEach((x) => rows.push({g: g, x: x})));
    if (!rows.length) return;
    const byName = new Map(r.phases.map((p) => [p.name, p]));
    const share = (w) => (w.g.rows[0].iops > 0 ? 100 * w.x.iops / w.g.rows[0].iops : null);
    const label = (w) => w.g.op + " " + size(w.g.block_size) + ": " + w.x.layer;
    const cost = (x) => (x.base === undefined ? "" : "; " + (x.iops_lost_pct >= 0 ? "-" : "+") +
      fmt(Math.abs(x.iops_lost_pct), 1) + " % IOPS, " + (x.p99_added_us >= 0 ? "+" : "") +
      fmt(x.p99_added_us / 1e3, 3) + " ms p99 over " + x.base);
    const ch = chart(box, "ov-layers", {type: "bar", data: {labels: rows.map(label),
      datasets: [{label: "IOPS, % of the group's first layer", data: rows.map(share),
        borderColor: "#9467bd", borderWidth: 1, maxBarThickness: 80,
        backgroundColor: CB.barColors("#9467bd", rows.map((w) => byName.get(w.x.phase) || {}))}]},
      options: {plugins: {legend: {display: false},
        title: {display: true, text: "Layer breakdown: IOPS, % of the group's first layer"},
        tooltip: {callbacks: {label: (c) => fmt(c.raw, 1) + " %: " + fmt(rows[c.dataIndex].x.iops, 1) +
          " ops/s (" + rows[c.dataIndex].x.phase + ")" + cost(rows[c.dataIndex].x)}}},
        scales: {x: {type: "category"}, y: axis("% of the first layer's IOPS")}}}, rows.length);
    ch.canvas.dataset.phases = JSON.stringify(rows.map((w) => w.x.phase));
  }

  function summary(r) {
    root.append(el("h2", {}, "Summary"));
    root.append(cachedLegend(r.phases));
    const cols = [
      {title: "phase", get: (p) => p.name,
        show: (v, p) => (cached(p) ? el("span", {}, v, " ", cachedBadge())
          : p.cold ? el("span", {}, v, " ", coldBadge(p)) : v)},
      {title: "layer", get: (p) => p.layer, show: (v) => v},
      {title: "op", get: (p) => p.op, show: (v) => v},
      /* sorted by the mean a distribution came to; shown as asked, with it */
      {title: "block size (B)", get: (p) => (noData(p) ? null : p.sizes ? p.sizes.mean : p.block_size),
        show: (v, p) => (p.sizes && v !== null ? p.sizes.asked + " (mean " + fmt(v, 0) + ")" : fmt(v, 0))},
      {title: "clients", get: (p) => p.clients, digits: 0},
      {title: "in flight", get: (p) => p.concurrency, digits: 0},
      {title: "ops", get: (p) => p.ops, digits: 0},
      {title: "IOPS", get: (p) => p.iops},
      {title: "MiB/s", get: (p) => (noData(p) ? null : p.bw_bytes_per_s / 1048576), digits: 2},
      {title: "mean ms", get: (p) => p.latency_us.mean / 1e3, digits: 3},
      {title: "p99 ms", get: (p) => p.latency_us.p99 / 1e3, digits: 3},
      {title: "max ms", get: (p) => p.latency_us.max / 1e3, digits: 3},
      {title: "errors", get: (p) => p.errors, digits: 0},
    ];
    const t = table(cols, r.phases.map((p) => ({row: p,
      cls: (p.failed ? "cb-FAIL" : (p.disturbed && p.disturbed.length ? "cb-disturbed" : "")) +
        (cached(p) ? " cb-cached" : "")})));
    t.id = "cb-summary";
    root.append(t);
  }

  /* A threshold's figure in its unit, as the text report shows it. */
  function measure(v, unit) {
    if (v === null || v === undefined) return "not measured";
    if (unit === "us") return v >= 1e6 ? fmt(v / 1e6, 3) + " s" : fmt(v / 1e3, 3) + " ms";
    if (unit === "bytes/s") return fmt(v / 1048576, 2) + " MiB/s";
    if (unit === "ops/s") return fmt(v, 1) + " ops/s";
    return fmt(v, 0) + " " + unit;
  }
  function expectations(r) {
    const rows = [];
    r.phases.forEach((p) => (p.expect || []).forEach((x) => rows.push({row: Object.assign({phase: p.name}, x),
      cls: x.pass ? "cb-PASS" : "cb-FAIL"})));
    if (!rows.length) return;
    const v = r.verdict;
    root.append(el("h2", {}, "Expectations: ",
      el("span", {class: "cb-verdict cb-" + (v ? v.result.toUpperCase() : "")}, v ? v.result.toUpperCase() : "-"),
      v ? ", " + v.passed + " of " + (v.passed + v.failed) + " passed" : ""));
    const t = table([
      {title: "phase", get: (x) => x.phase, show: (s) => s},
      {title: "threshold", get: (x) => x.threshold, show: (s) => s},
      {title: "measured", get: (x) => x.measured, show: (m, x) => measure(m, x.unit)},
      {title: "expected", get: (x) => x.expected,
        show: (m, x) => (x.threshold.startsWith("min_") ? "≥ " : "≤ ") + measure(m, x.unit)},
      {title: "vs expected", get: (x) => x.margin_pct,
        show: (m) => (m === null ? "-" : (m > 0 ? "+" : "") + fmt(m, 1) + " %")},
      {title: "verdict", get: (x) => (x.pass ? "PASS" : "FAIL"),
        show: (s) => el("span", {class: "cb-" + s}, s)},
    ], rows);
    t.id = "cb-expect";
    root.append(t);
  }

  /* A mix's kinds (by_op) apart, as fio's read, write and sync sections:
   * their latency percentiles side by side, and the figures as a table. */
  function kinds(sec, p, k) {
    const names = Object.keys(p.by_op);
    const ms = (q) => names.map((n) => p.by_op[n].latency_us[q] / 1e3);
    lazyChart(sec, "p" + k + "-kinds", () => ({type: "bar", data: {labels: names, datasets:
      ["p50", "p99", "p99.9"].map((q) => ({label: q + " latency", data: ms(q)}))},
      options: {scales: {x: axis("kind of op", "category"), y: axis("latency (ms)")}}}), names.length);
    const t = table([
      {title: "kind", get: (n) => n, show: (n) => n + (n === "sync" ? " (not in the row's ops)" : "")},
      {title: "ops", get: (n) => p.by_op[n].ops, digits: 0},
      {title: "IOPS", get: (n) => p.by_op[n].iops, digits: 1},
      {title: "MiB/s", get: (n) => (noData(p.by_op[n]) ? null : p.by_op[n].bw_bytes_per_s / 1048576), digits: 2},
      ...["mean", "p50", "p99", "p99.9", "max"].map((q) =>
        ({title: q + " ms", get: (n) => p.by_op[n].latency_us[q] / 1e3, digits: 3}))],
      names.map((n) => ({row: n})));
    t.id = "p" + k + "-by-op";
    sec.append(t);
  }

  /* A phase's section, in a <details> closed at first: its summary line
   * says what the phase did (its charts are drawn when it is opened). */
  function phase(p, k) {
    const dist = p.disturbed && p.disturbed.length;
    const L = p.latency_us || {};
    const head = el("summary", {class: "cb-phase-head"}, p.name + ": " + p.layer + " " + p.op + " — " +
      fmt(p.iops, 1) + " IOPS" + (noData(p) ? "" : ", " + fmt(p.bw_bytes_per_s / 1048576, 2) + " MiB/s") +
      ", p99 " + fmt(L.p99 === undefined ? null : L.p99 / 1e3, 3) + " ms");
    if (cached(p)) head.append(" ", cachedBadge());
    if (p.cold) head.append(" ", coldBadge(p));
    if (p.failed) head.append(" ", badge("cb-badge-fail", "failed"));
    if (dist) head.append(" ", badge("cb-badge-disturbed", "disturbed"));
    const box = el("details", {class: "cb-phase-box", id: "phase" + k + "-box"}, head);
    const sec = el("section", {class: "cb-phase" + (dist ? " cb-disturbed" : ""), id: "phase" + k});
    box.append(sec);
    if (cached(p))
      sec.append(el("p", {class: "cb-note cb-warn"}, "Cached: " + CB.CACHED_TEXT + "."));
    if (dist)
      sec.append(el("p", {class: "cb-note"}, "Disturbed (amber bar at the side; charts shaded on screen): the cluster changed while " +
        "this phase ran: " + p.disturbed.join("; ")));
    const all = p.samples || [];
    const full = CB.fullSeconds(p);
    const s = full.s;
    if (full.cut)
      sec.append(el("p", {class: "cb-note"}, "The last second (" + full.cut.t + ") covers " +
        fmt(Math.max(0, p.duration_s - full.cut.t), 3) + " s of the phase: left out of the charts, " +
        "in the table as recorded."));
    if (full.scaled !== null)
      sec.append(el("p", {class: "cb-note"}, "The phase ran " + fmt(full.scaled, 3) +
        " s: its one second's ops drawn per second."));
    const t = s.map((x) => x.t);
    const r = dots(s.length);
    const sx = axis("second of the phase (s)");
    const rate = [{label: "IOPS", data: xy(t, s.map((x) => x.ops)), yAxisID: "y", pointRadius: r}];
    if (!noData(p))
      rate.push({label: "MiB/s", data: xy(t, s.map((x) => x.bytes / 1048576)), yAxisID: "y1", pointRadius: r});
    const rateScales = {x: sx, y: axis("ops/s")};
    if (!noData(p)) rateScales.y1 = Object.assign(axis("MiB/s"), {position: "right"});
    lazyChart(sec, "p" + k + "-rate", () => ({type: "line", data: {datasets: rate},
      options: seriesOptions(rateScales)}), s.length);
    lazyChart(sec, "p" + k + "-lat", () => ({type: "line", data: {datasets: [
      {label: "mean latency", data: xy(t, s.map((x) => x.lat_mean_us / 1e3)), pointRadius: r},
      {label: "max latency", data: xy(t, s.map((x) => x.lat_max_us / 1e3)), pointRadius: r}]},
      options: seriesOptions({x: sx, y: axis("latency (ms)")})}), s.length);
    if (p.histogram && p.histogram.count) {
      const pts = percentileCurve(p.histogram);
      lazyChart(sec, "p" + k + "-pct", () => ({type: "line", data: {datasets: [
        {label: "latency at percentile", data: pts, pointRadius: 0},
        {label: "p50 … p99.99", data: ["p50", "p90", "p99", "p99.9", "p99.99"].map((q) =>
          ({x: 1 / (1 - Number(q.slice(1)) / 100), y: L[q] / 1e3, q: q})),
          showLine: false, pointRadius: 4}]},
        options: {scales: {x: axis("percentile, as 1/(1-q): 10 = p90, 100 = p99", "logarithmic"),
          y: axis("latency (ms)", "logarithmic")}}}), pts.length);
    }
    if (p.by_op) kinds(sec, p, k);
    const tcols = [{title: "second", get: (x) => x.t, digits: 0},
      {title: "ops", get: (x) => x.ops, digits: 0},
      {title: "MiB", get: (x) => x.bytes / 1048576, digits: 2},
      {title: "mean ms", get: (x) => x.lat_mean_us / 1e3, digits: 3},
      {title: "max ms", get: (x) => x.lat_max_us / 1e3, digits: 3}];
    if (p.open_loop)
      tcols.push({title: "due", get: (x) => x.due, digits: 0},
        {title: "late", get: (x) => x.late, digits: 0},
        {title: "backlog", get: (x) => x.backlog, digits: 0});
    details(sec, "per-second figures", () => table(tcols, all.map((x) => ({row: x}))), all.length);
    CB.runOpenLoop(sec, p, k, s);
    CB.runTelemetry(sec, p, k);
    return box;
  }

  function layers(r) {
    if (!r.layers || !r.layers.length) return;
    root.append(el("h2", {}, "Layer breakdown"));
    r.layers.forEach((g, k) => {
      const sec = el("section", {class: "cb-phase"});
      sec.append(el("h3", {}, g.op + " " + g.block_size + " B"));
      lazyChart(sec, "layers" + k, () => ({type: "bar", data: {labels: g.rows.map((x) => x.layer + " " + x.phase),
        datasets: [{label: "IOPS", data: g.rows.map((x) => x.iops)}]},
        options: {scales: {y: axis("ops/s")}}}), g.rows.length);
      root.append(sec);
    });
  }

  function run(r) {
    header(r);
    findings(r);
    overview(r);
    summary(r);
    expectations(r);
    root.append(el("h2", {}, "Phases (click one to open its charts)"));
    r.phases.forEach((p, k) => root.append(phase(p, k)));
    layers(r);
  }

  run(data.record);
};
