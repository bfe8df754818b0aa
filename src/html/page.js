/* cephbench's page: draws the record embedded in #cb-data with Chart.js.
 * Every figure comes from the JSON; each chart's points are its samples,
 * and a table under it holds the same numbers as text. */
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("cb-data").textContent);
  const root = document.getElementById("cb-root");

  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    for (const k of kids) e.append(k);
    return e;
  }
  const fmt = (v, d) => (v === null || v === undefined ? "-" :
    Number(v).toLocaleString("en", {maximumFractionDigits: d === undefined ? 1 : d}));

  /* A table whose columns sort on a click of their heading. */
  function table(cols, rows) {
    const t = el("table", {class: "cb-table"});
    const head = el("tr");
    cols.forEach((c, i) => {
      const th = el("th", {}, c.title);
      th.addEventListener("click", () => {
        const body = [...t.tBodies[0].rows];
        const asc = th.dataset.sort !== "asc";
        th.dataset.sort = asc ? "asc" : "desc";
        body.sort((a, b) => {
          const x = a.cells[i].dataset.v, y = b.cells[i].dataset.v;
          const nx = Number(x), ny = Number(y);
          const r = isNaN(nx) || isNaN(ny) ? String(x).localeCompare(y) : nx - ny;
          return asc ? r : -r;
        });
        body.forEach((r) => t.tBodies[0].append(r));
      });
      head.append(th);
    });
    t.append(el("thead", {}, head));
    const tb = el("tbody");
    for (const r of rows) {
      const tr = el("tr", r.cls ? {class: r.cls} : {});
      cols.forEach((c) => {
        const v = c.get(r.row);
        const td = el("td", {}, c.show ? c.show(v, r.row) : fmt(v, c.digits));
        td.dataset.v = v === null || v === undefined ? "" : v;
        tr.append(td);
      });
      tb.append(tr);
    }
    t.append(tb);
    return t;
  }

  function chart(parent, id, cfg, points) {
    const c = el("canvas", {id: id, "data-points": String(points)});
    parent.append(el("div", {class: "cb-chart"}, c));
    /* Chart.js 3 (Debian's) draws every dataset grey unless told */
    const palette = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"];
    cfg.data.datasets.forEach((d, i) => {
      d.borderColor = d.borderColor || palette[i % palette.length];
      d.backgroundColor = d.backgroundColor || palette[i % palette.length];
    });
    cfg.options = Object.assign({animation: false, responsive: true,
      maintainAspectRatio: false, interaction: {mode: "nearest", intersect: false}},
      cfg.options || {});
    return new Chart(c, cfg);
  }
  const axis = (title, type) => ({type: type || "linear", title: {display: true, text: title}});

  /* The percentile curve: x is 1/(1-q) on a log axis, as HdrHistogram
   * draws it, so p99 and p99.99 are as far apart as p90 and p99. */
  function bucketLow(i) {
    return i < 2048 ? i : (1024 + (i & 1023)) * Math.pow(2, (i >> 10) - 1);
  }
  function percentileCurve(h) {
    const pts = [];
    let seen = 0;
    for (const [i, n] of h.buckets) {
      seen += n;
      const q = seen / h.count;
      if (q >= 1) break;
      pts.push({x: 1 / (1 - q), y: bucketLow(i) / 1e6});
    }
    return pts;
  }

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

  if (data.kind === "run") run(data.record);
  document.body.dataset.ready = "1";
})();
