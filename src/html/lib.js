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
  /* one formatter per digit count: toLocaleString makes one per call,
   * which made a page of 60,000 table rows take a minute */
  const formats = new Map();
  const fmt = (v, d) => {
    if (v === null || v === undefined) return "-";
    const n = d === undefined ? 1 : d;
    if (!formats.has(n)) formats.set(n, new Intl.NumberFormat("en", {maximumFractionDigits: n}));
    return formats.get(n).format(Number(v));
  };

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

  /* Drawing later: a page of 50 phases holds hundreds of charts and tens
   * of thousands of table rows. A chart is drawn when its slot (already
   * its size, so the page does not jump) comes near the window; a table
   * in a <details> when it is opened; everything at once before printing
   * (drawAll), so a PDF holds every figure. */
  const pending = new Map();
  const seen = typeof IntersectionObserver === "undefined" ? null :
    new IntersectionObserver((es) => es.forEach((e) => e.isIntersecting && drawSlot(e.target)),
      {rootMargin: "600px 0px"});
  function drawSlot(slot) {
    const f = pending.get(slot);
    if (!f) return;
    pending.delete(slot);
    if (seen) seen.unobserve(slot);
    f();
  }
  /* h: [screen, print] heights in px when not the usual (page.css) */
  function lazyChart(parent, id, cfg, points, h) {
    const slot = el("div", {class: "cb-slot", "data-chart": id});
    if (h) slot.setAttribute("style", "--h: " + h[0] + "px; --hp: " + h[1] + "px");
    parent.append(slot);
    pending.set(slot, () => { slot.classList.add("cb-drawn"); chart(slot, id, cfg(), points); });
    if (seen) seen.observe(slot);
    else drawSlot(slot);
    return slot;
  }
  /* A <details> whose body (of `rows` rows) is made the first time it
   * opens. A print opens it when it has at most PRINT_ROWS rows: 50
   * phases of 600 seconds would print a thousand pages of rows (and
   * Chromium's print fails on it); a longer one prints as the reader left it. */
  const PRINT_ROWS = 120;
  function details(parent, title, make, rows) {
    const d = el("details", {}, el("summary", {}, title + (rows === undefined ? "" :
      " (" + rows + " row" + (rows === 1 ? "" : "s") + (rows > PRINT_ROWS ? "; printed only if open" : "") + ")")));
    if (rows > PRINT_ROWS) d.dataset.long = "1";
    const fill = () => { if (!d.dataset.made) { d.dataset.made = "1"; d.append(make()); } };
    d.addEventListener("toggle", () => d.open && fill());
    pending.set(d, fill);
    parent.append(d);
    return d;
  }
  function drawAll() {
    for (const k of [...pending.keys()]) {
      if (k.tagName === "DETAILS") { pending.get(k)(); pending.delete(k); } else drawSlot(k);
    }
  }
  /* Printing: every figure drawn, every table open, each chart at the
   * printed width (Chart.js 3 does not resize for print by itself). */
  const printed = [];
  addEventListener("beforeprint", () => {
    /* opened first: a chart drawn inside a closed <details> has no size */
    document.querySelectorAll("details:not([data-long])").forEach((d) => {
      if (!d.open) { d.open = true; printed.push(d); }
    });
    drawAll();
    document.querySelectorAll("canvas").forEach((c) => {
      const ch = Chart.getChart(c);
      const hp = parseInt(getComputedStyle(c.parentNode).getPropertyValue("--hp"), 10);
      if (ch) ch.resize(640, hp || 170);
    });
  });
  addEventListener("afterprint", () => {
    printed.splice(0).forEach((d) => { d.open = false; });
    document.querySelectorAll("canvas").forEach((c) => { const ch = Chart.getChart(c); if (ch) ch.resize(); });
  });
  const SLOW = "#d62728";

  /* A row whose ops moved no data (a tree test's, a stat's): neither a
   * block size nor a bandwidth applies (report_text.c cb_report_no_data:
   * ops but no bytes); the tables show '-', no chart draws its MiB/s. */
  const noData = (p) => p.ops > 0 && !p.bytes;
  /* A row served mostly by the client's cache (its "served" object, when
   * the record has one): its figures are not the cluster's speed. */
  const cached = (p) => !!(p.served && p.served.by === "client cache");
  const CACHED_TEXT = "served mostly by the client's cache, not the cluster's speed";
  /* A cached row's bar: the colour in stripes over light grey, as the
   * legend's swatch (page.css .cb-swatch) draws it. */
  const hatches = new Map();
  function hatch(color) {
    if (!hatches.has(color)) {
      const c = document.createElement("canvas");
      c.width = c.height = 8;
      const g = c.getContext("2d");
      g.fillStyle = "#ddd";
      g.fillRect(0, 0, 8, 8);
      g.strokeStyle = color;
      g.lineWidth = 2;
      g.beginPath();
      for (const o of [-8, 0, 8]) { g.moveTo(o, 8); g.lineTo(o + 8, 0); }
      g.stroke();
      hatches.set(color, g.createPattern(c, "repeat"));
    }
    return hatches.get(color);
  }
  const barColors = (color, rows) => rows.map((p) => (cached(p) ? hatch(color) : color));

  /* The samples a per-second chart draws. Sample t holds the ops that
   * completed in second [t, t+1) from the ramp's end (src/phase.c), and
   * the phase ends at its last completion, duration_s: the first sample
   * covers a whole second and is kept, the last covers only duration_s - t
   * of one. Drawn as a rate it would fall (to about 0 when the phase ended
   * just past a whole second: 7,400 IOPS, then 0 at second 5). It is left
   * out rather than scaled: scaled up from a few milliseconds it would be
   * noise, a rise that did not happen. A phase of one partial second keeps
   * it, its counts scaled to a second by the part it covers, so the chart
   * is not empty. Where duration_s cannot place it (repeats' samples
   * follow each other, so the last t passes duration_s), a last sample
   * that does not end within duration_s is left out too. The tables keep
   * every sample as recorded. Returns {s: the samples to draw, cut: the
   * sample left out, or null, scaled: the part of a second the one kept
   * sample covered, or null}. */
  function fullSeconds(p) {
    const s = p.samples || [];
    const d = Number(p.duration_s);
    const last = s[s.length - 1];
    if (!last || !(d >= 0) || last.t + 1 <= d + 1e-6) return {s: s, cut: null, scaled: null};
    const part = d - last.t;
    if (s.length === 1 && part > 0) {
      const k = 1 / part;
      const x = Object.assign({}, last, {ops: last.ops * k, bytes: last.bytes * k});
      for (const f of ["due", "late"]) if (x[f] !== undefined) x[f] *= k;
      return {s: [x], cut: null, scaled: part};
    }
    return {s: s.slice(0, -1), cut: last, scaled: null};
  }
  /* A time series as {x, y} points on a linear axis, with parsing off:
   * a category axis of 600 labels costs Chart.js twice the time. */
  const xy = (xs, ys) => xs.map((x, i) => ({x: x, y: ys[i]}));
  const seriesOptions = (scales, more) => Object.assign({parsing: false, scales: scales}, more || {});

  Object.assign(CB, {el, fmt, table, chart, axis, bucketLow, percentileCurve,
    lazyChart, details, drawAll, SLOW, xy, seriesOptions, PRINT_ROWS, noData, cached,
    CACHED_TEXT, hatch, barColors, fullSeconds});
})();
