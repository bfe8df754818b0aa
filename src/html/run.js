/* The page of one run: data.record is its result record. */
CB.kinds.run = function (data, root) {
  const {el, fmt, table, chart, axis, percentileCurve} = CB;
  function header(r) {
    const verdict = r.verdict ? r.verdict.result.toUpperCase() : "no thresholds";
    root.append(el("h1", {}, "cephbench: " + r.run_name + " (" + r.profile.name + ")"));
    const c = r.cluster || {};
    root.append(el("p", {class: "cb-head"},
      "cluster " + (c.fsid || "none") + " (ceph " + (c.ceph_version || "-") + "), host " +
      r.host + ", started " + r.started + (r.interrupted ? " (interrupted: partial)" : ""),
      " — verdict: ", el("span", {class: "cb-" + verdict.replace(/ /g, "-")}, verdict)));
  }

  function summary(r) {
    root.append(el("h2", {}, "Summary"));
    const cols = [
      {title: "phase", get: (p) => p.name, show: (v) => v},
      {title: "layer", get: (p) => p.layer, show: (v) => v},
      {title: "op", get: (p) => p.op, show: (v) => v},
      {title: "block size (B)", get: (p) => p.block_size, digits: 0},
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

  function phase(p, k) {
    const sec = el("section", {class: "cb-phase"});
    sec.append(el("h3", {}, p.name + ": " + p.layer + " " + p.op +
      (p.disturbed && p.disturbed.length ? " (disturbed: " + p.disturbed.join(", ") + ")" : "")));
    const s = p.samples || [];
    const t = s.map((x) => x.t);
    chart(sec, "p" + k + "-rate", {type: "line", data: {labels: t, datasets: [
      {label: "IOPS", data: s.map((x) => x.ops), yAxisID: "y"},
      {label: "MiB/s", data: s.map((x) => x.bytes / 1048576), yAxisID: "y1"}]},
      options: {scales: {x: axis("second of the phase"), y: axis("ops/s"),
        y1: Object.assign(axis("MiB/s"), {position: "right"})}}}, s.length);
    chart(sec, "p" + k + "-lat", {type: "line", data: {labels: t, datasets: [
      {label: "mean latency", data: s.map((x) => x.lat_mean_us / 1e3)},
      {label: "max latency", data: s.map((x) => x.lat_max_us / 1e3)}]},
      options: {scales: {x: axis("second of the phase"), y: axis("latency (ms)")}}}, s.length);
    if (p.histogram && p.histogram.count) {
      const pts = percentileCurve(p.histogram);
      const L = p.latency_us;
      chart(sec, "p" + k + "-pct", {type: "line", data: {datasets: [
        {label: "latency at percentile", data: pts, pointRadius: 0},
        {label: "p50 … p99.99", data: ["p50", "p90", "p99", "p99.9", "p99.99"].map((q) =>
          ({x: 1 / (1 - Number(q.slice(1)) / 100), y: L[q] / 1e3, q: q})),
          showLine: false, pointRadius: 4}]},
        options: {scales: {x: axis("percentile, as 1/(1-q): 10 = p90, 100 = p99", "logarithmic"),
          y: axis("latency (ms)", "logarithmic")}}}, pts.length);
    }
    const rows = s.map((x) => ({row: x}));
    const tcols = [{title: "second", get: (x) => x.t, digits: 0},
      {title: "ops", get: (x) => x.ops, digits: 0},
      {title: "MiB", get: (x) => x.bytes / 1048576, digits: 2},
      {title: "mean ms", get: (x) => x.lat_mean_us / 1e3, digits: 3},
      {title: "max ms", get: (x) => x.lat_max_us / 1e3, digits: 3}];
    sec.append(el("details", {}, el("summary", {}, "per-second figures"), table(tcols, rows)));
    root.append(sec);
  }

  function layers(r) {
    if (!r.layers || !r.layers.length) return;
    root.append(el("h2", {}, "Layer breakdown"));
    r.layers.forEach((g, k) => {
      const sec = el("section", {class: "cb-phase"});
      sec.append(el("h3", {}, g.op + " " + g.block_size + " B"));
      chart(sec, "layers" + k, {type: "bar", data: {labels: g.rows.map((x) => x.layer + " " + x.phase),
        datasets: [{label: "IOPS", data: g.rows.map((x) => x.iops)}]},
        options: {scales: {y: axis("ops/s")}}}, g.rows.length);
      root.append(sec);
    });
  }

  function run(r) {
    header(r);
    summary(r);
    r.phases.forEach(phase);
    layers(r);
  }

  run(data.record);
};
