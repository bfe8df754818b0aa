/* The page of one run: data.record is its result record. The open-loop
 * and telemetry parts of a phase are drawn by run_openloop.js and
 * run_telemetry.js (CB.runOpenLoop, CB.runTelemetry). */
CB.kinds.run = function (data, root) {
  const {el, fmt, table, lazyChart, details, axis, percentileCurve, xy, seriesOptions} = CB;
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

  function summary(r) {
    root.append(el("h2", {}, "Summary"));
    const cols = [
      {title: "phase", get: (p) => p.name, show: (v) => v},
      {title: "layer", get: (p) => p.layer, show: (v) => v},
      {title: "op", get: (p) => p.op, show: (v) => v},
      /* sorted by the mean a distribution came to; shown as asked, with it */
      {title: "block size (B)", get: (p) => (p.sizes ? p.sizes.mean : p.block_size),
        show: (v, p) => (p.sizes ? p.sizes.asked + " (mean " + fmt(v, 0) + ")" : fmt(v, 0))},
      {title: "clients", get: (p) => p.clients, digits: 0},
      {title: "in flight", get: (p) => p.concurrency, digits: 0},
      {title: "ops", get: (p) => p.ops, digits: 0},
      {title: "IOPS", get: (p) => p.iops},
      {title: "MiB/s", get: (p) => p.bw_bytes_per_s / 1048576, digits: 2},
      {title: "mean ms", get: (p) => p.latency_us.mean / 1e3, digits: 3},
      {title: "p99 ms", get: (p) => p.latency_us.p99 / 1e3, digits: 3},
      {title: "max ms", get: (p) => p.latency_us.max / 1e3, digits: 3},
      {title: "errors", get: (p) => p.errors, digits: 0},
    ];
    root.append(table(cols, r.phases.map((p) => ({row: p,
      cls: p.failed ? "cb-FAIL" : (p.disturbed && p.disturbed.length ? "cb-disturbed" : "")}))));
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
      {title: "MiB/s", get: (n) => p.by_op[n].bw_bytes_per_s / 1048576, digits: 2},
      ...["mean", "p50", "p99", "p99.9", "max"].map((q) =>
        ({title: q + " ms", get: (n) => p.by_op[n].latency_us[q] / 1e3, digits: 3}))],
      names.map((n) => ({row: n})));
    t.id = "p" + k + "-by-op";
    sec.append(t);
  }

  function phase(p, k) {
    const dist = p.disturbed && p.disturbed.length;
    const sec = el("section", {class: "cb-phase" + (dist ? " cb-disturbed" : ""), id: "phase" + k});
    sec.append(el("h3", {}, p.name + ": " + p.layer + " " + p.op));
    if (dist)
      sec.append(el("p", {class: "cb-note"}, "Disturbed (amber bar at the side; charts shaded on screen): the cluster changed while " +
        "this phase ran: " + p.disturbed.join("; ")));
    const s = p.samples || [];
    const t = s.map((x) => x.t);
    const r = dots(s.length);
    const sx = axis("second of the phase (s)");
    lazyChart(sec, "p" + k + "-rate", () => ({type: "line", data: {datasets: [
      {label: "IOPS", data: xy(t, s.map((x) => x.ops)), yAxisID: "y", pointRadius: r},
      {label: "MiB/s", data: xy(t, s.map((x) => x.bytes / 1048576)), yAxisID: "y1", pointRadius: r}]},
      options: seriesOptions({x: sx, y: axis("ops/s"),
        y1: Object.assign(axis("MiB/s"), {position: "right"})})}), s.length);
    lazyChart(sec, "p" + k + "-lat", () => ({type: "line", data: {datasets: [
      {label: "mean latency", data: xy(t, s.map((x) => x.lat_mean_us / 1e3)), pointRadius: r},
      {label: "max latency", data: xy(t, s.map((x) => x.lat_max_us / 1e3)), pointRadius: r}]},
      options: seriesOptions({x: sx, y: axis("latency (ms)")})}), s.length);
    if (p.histogram && p.histogram.count) {
      const pts = percentileCurve(p.histogram);
      const L = p.latency_us;
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
    details(sec, "per-second figures", () => table(tcols, s.map((x) => ({row: x}))), s.length);
    CB.runOpenLoop(sec, p, k);
    CB.runTelemetry(sec, p, k);
    root.append(sec);
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
    summary(r);
    expectations(r);
    r.phases.forEach(phase);
    layers(r);
  }

  run(data.record);
};
