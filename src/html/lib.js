/* cephbench's pages: the helpers every kind of page draws with (lib.js),
 * one file per kind (run.js, ...) that adds its drawer to CB.kinds, and
 * main.js last, which draws the data embedded in #cb-data. They are one
 * script on the page, in that order (CMakeLists.txt). Every figure comes
 * from the JSON; each chart's points are its data, and a table or tooltip
 * holds the same numbers as text. */
"use strict";
const CB = {kinds: {}};
(function () {
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

  Object.assign(CB, {el, fmt, table, chart, axis, bucketLow, percentileCurve});
})();
