/* The page of a comparison: data.compare is the cephbench-compare/1
 * document `cephbench compare --format json` prints (docs/compare.md), the
 * one computation both renderings show; data.inputs holds, per input
 * file, its phases' per-second samples and histograms, for the curves
 * overlaid. It leads with the differences the test calls real (better or
 * worse) and each pair's IOPS change, then what differed besides the
 * figures, then the detail: the whole table and the curves. */
CB.kinds.compare = function (data, root) {
  const {el, fmt, table, chart, lazyChart, axis, percentileCurve} = CB;
  const doc = data.compare;
  const metrics = [
    {key: "iops", name: "IOPS", scale: 1, digits: 1},
    {key: "bw_bytes_per_s", name: "MiB/s", scale: 1 / 1048576, digits: 2},
    {key: "lat_mean_us", name: "mean ms", scale: 1e-3, digits: 3},
    {key: "lat_p99_us", name: "p99 ms", scale: 1e-3, digits: 3}];
  const pct = (v) => (v === null || v === undefined ? "-" : (v >= 0 ? "+" : "") + fmt(v, 1) + " %");
  const setName = (s) => (s.group !== null ? s.group + ": " : "") + s.b.label + " against " + s.a.label;

  function header() {
    root.append(el("h1", {}, "cephbench compare" + (doc.by ? " --by " + doc.by : "")));
    const files = el("ul");
    for (const i of data.inputs)
      files.append(el("li", {}, (i.label ? i.label + ": " : "") + i.file));
    root.append(files);
    root.append(el("p", {class: "cb-head"}, doc.confidence_pct + " % confidence intervals" +
      (doc.fail_if_worse_pct !== null ? "; --fail-if-worse " + doc.fail_if_worse_pct + " %: " : ""),
      doc.fail_if_worse_pct !== null ? el("span", {class: doc.worse ? "cb-FAIL" : "cb-PASS"},
        doc.worse ? "crossed" : "not crossed") : ""));
  }

  const pairName = (p) => (p.a_name === p.b_name ? p.a_name : p.a_name + " / " + p.b_name);

  /* The verdicts better or worse, worse first, each as the text says it;
   * then a bar per pair (a row's kinds left out): its IOPS change, green
   * better, red worse, grey when the test found no real difference. */
  function real() {
    root.append(el("h2", {}, "Real differences (" + doc.confidence_pct + " % confidence)"));
    const items = [];
    doc.comparisons.forEach((s) => s.phases.forEach((p) => metrics.forEach((m) => {
      const x = p[m.key];
      if (x.verdict === "better" || x.verdict === "worse")
        items.push({worse: x.verdict === "worse", text: setName(s) + ": " + pairName(p) + ": " + x.text +
          (p.judged ? "" : " (partial: not judged)")});
    })));
    items.sort((a, b) => b.worse - a.worse);
    root.append(items.length ? el("ul", {id: "cb-real"}, ...items.map((x) =>
      el("li", {class: x.worse ? "cb-FAIL" : "cb-PASS"}, x.text))) :
      el("p", {id: "cb-real"}, "none: no tested figure differs beyond the noise"));
    const pairs = [];
    doc.comparisons.forEach((s) => s.phases.filter((p) => p.data !== "kind").forEach((p) =>
      pairs.push({label: (doc.comparisons.length > 1 || s.group !== null ? setName(s) + ": " : "") + pairName(p),
        x: p.iops})));
    if (!pairs.length) return;
    const col = (x) => (x.verdict === "worse" ? CB.SLOW : x.verdict === "better" ? "#2ca02c" : "#999");
    lazyChart(root, "cmp-iops-change", () => ({type: "bar", data: {labels: pairs.map((q) => q.label),
      datasets: [{label: "IOPS change (%)", data: pairs.map((q) => q.x.change_pct),
        backgroundColor: pairs.map((q) => col(q.x)), borderColor: pairs.map((q) => col(q.x))}]},
      options: {indexAxis: "y", plugins: {legend: {display: false},
        title: {display: true, text: "IOPS change by phase: green better, red worse, grey no real difference"},
        tooltip: {callbacks: {label: (c) => pairs[c.dataIndex].x.text}}},
        scales: {x: axis("IOPS change (%)"), y: {type: "category", ticks: {autoSkip: false}}}}}),
      pairs.length, [Math.max(140, 60 + 22 * pairs.length), Math.max(110, 50 + 17 * pairs.length)]);
  }

  /* every row of every block: a phase pair's metric, as the text shows it */
  function compareTable() {
    root.append(el("h2", {}, "Comparison"));
    const rows = [];
    doc.comparisons.forEach((s) => s.phases.forEach((p) => metrics.forEach((m) => {
      const x = p[m.key];
      rows.push({row: {set: setName(s), phase: pairName(p), data: p.data === "kind" ? "one kind of the row's ops: not tested" :
        (p.data === "repeats" ? "per-repeat rates " : "per-second samples ") + p.n_a + " vs " + p.n_b, m: m, x: x,
        judged: p.judged}, cls: x.verdict === "worse" ? "cb-FAIL" : x.verdict === "better" ?
        "cb-better" : ""});
    })));
    const cols = [
      {title: "comparison", get: (r) => r.set, show: (v) => v},
      {title: "phase", get: (r) => r.phase, show: (v) => v},
      {title: "tested on", get: (r) => r.data, show: (v) => v},
      {title: "figure", get: (r) => r.m.name, show: (v) => v},
      {title: "baseline", get: (r) => r.x.a === null ? null : r.x.a * r.m.scale,
        show: (v, r) => fmt(v, r.m.digits)},
      {title: "other", get: (r) => r.x.b === null ? null : r.x.b * r.m.scale,
        show: (v, r) => fmt(v, r.m.digits)},
      {title: "change", get: (r) => r.x.change_pct, show: pct},
      {title: "estimate", get: (r) => r.x.estimate_pct, show: pct},
      {title: "CI low", get: (r) => r.x.ci_pct ? r.x.ci_pct[0] : null, show: pct},
      {title: "CI high", get: (r) => r.x.ci_pct ? r.x.ci_pct[1] : null, show: pct},
      {title: "p", get: (r) => r.x.p, show: (v) => (v === null || v === undefined ? "-" :
        Number(v).toPrecision(3))},
      {title: "verdict", get: (r) => r.x.text + (r.judged ? "" : " (partial: not judged)"),
        show: (v) => v},
    ];
    const t = table(cols, rows);
    t.id = "cb-compare-table";
    root.append(t);
  }

  /* "concurrency: 4 (A: 1)", "B's pool bench: size 2 (A: 3)" */
  function valueText(v) {
    if (v === null || v === undefined) return "none";
    if (Array.isArray(v)) return v.map(valueText).join(",");
    if (typeof v === "object") return Object.entries(v).map(([k, x]) => k + "=" + valueText(x)).join(" ");
    return String(v);
  }
  function diffItems(list, la, lb) {
    return list.map((d) => el("li", {}, d.kind === "params" ? d.key + ": " + valueText(d.b) +
      " (" + la + ": " + valueText(d.a) + ")" :
      lb + "'s " + (d.kind === "cluster" ? (d.a_name === "osds" ? "OSDs" : "Ceph versions") :
        (d.kind === "filesystem" ? "file system" : d.kind) + " " + d.b_name +
        (d.a_name !== d.b_name ? " (" + la + ": " + d.a_name + ")" : "")) + ": " + d.key +
        " " + valueText(d.b) + " (" + la + ": " + valueText(d.a) + ")"));
  }
  function differences() {
    root.append(el("h2", {}, "What differed besides the figures"));
    const ul = el("ul");
    let n = 0;
    for (const s of doc.comparisons) {
      const items = diffItems(s.context_differences, s.a.label, s.b.label);
      s.phases.forEach((p) => items.push(...diffItems(p.differences, s.a.label, s.b.label).map(
        (li) => (li.prepend(p.a_name + ": "), li))));
      const only = [["only in " + s.a.label, s.only_a], ["only in " + s.b.label, s.only_b]];
      for (const [what, names] of only)
        if (names.length) items.push(el("li", {}, what + ": " + names.join(", ")));
      if (!items.length) continue;
      n += items.length;
      ul.append(el("li", {}, setName(s), el("ul", {}, ...items)));
    }
    if (doc.alone.length) {
      ul.append(el("li", {}, "nothing to compare with: " + doc.alone.join(", ")));
      n++;
    }
    root.append(n ? ul : el("p", {}, "nothing: the parameters, targets and clusters agree"));
  }

  /* A phase's curves: its baseline and every row or file compared with it.
   * A row's kinds (by_op pairs) have no samples of their own: the table
   * holds their figures. */
  function curveGroups() {
    const groups = new Map();
    for (const s of doc.comparisons)
      for (const p of s.phases.filter((p) => p.data !== "kind")) {
        const key = s.a.file + "\0" + p.a_name;
        if (!groups.has(key))
          groups.set(key, {title: s.group !== null ? s.group : p.a_name,
            curves: [{label: s.a.label, file: s.a.file, phase: p.a_name}]});
        groups.get(key).curves.push({label: s.b.label, file: s.b.file, phase: p.b_name});
      }
    return [...groups.values()];
  }
  function phaseOf(c) {
    const input = data.inputs.find((i) => i.file === c.file);
    return input && input.phases.find((p) => p.name === c.phase);
  }
  const curveLabel = (c, g) => c.label + (c.phase !== g.title ? " (" + c.phase + ")" : "");

  function curves(g, k) {
    const sec = el("section", {class: "cb-phase"});
    sec.append(el("h3", {}, g.title + ": " + g.curves.map((c) => c.label).join(", ")));
    const cs = g.curves.map((c) => ({c: c, p: phaseOf(c) || {}}));
    const tag = (ch, list) => (ch.canvas.dataset.curves = JSON.stringify(
      list.map((x) => ({file: x.c.file, phase: x.c.phase}))));
    /* the last sample left out, as the test leaves it (compare_load.c):
     * it covers part of a second, and would end the curve in a fall */
    const rate = cs.map((x) => ({label: curveLabel(x.c, g) + " IOPS",
      data: (x.p.samples || []).slice(0, -1).map((s) => ({x: s.t, y: s.ops}))}));
    tag(chart(sec, "c" + k + "-iops", {type: "line", data: {datasets: rate},
      options: {scales: {x: axis("second of the phase"), y: axis("ops/s")},
        plugins: {tooltip: {callbacks: {title: (items) => "second " + items[0].raw.x}}}}},
      rate[0].data.length), cs);
    const withHist = cs.filter((x) => x.p.histogram && x.p.histogram.count);
    if (withHist.length) {
      const pc = withHist.map((x) => ({label: curveLabel(x.c, g) + " latency at percentile",
        data: percentileCurve(x.p.histogram), pointRadius: 0}));
      tag(chart(sec, "c" + k + "-pct", {type: "line", data: {datasets: pc},
        options: {scales: {x: axis("percentile, as 1/(1-q): 10 = p90, 100 = p99", "logarithmic"),
          y: axis("latency (ms)", "logarithmic")},
        plugins: {tooltip: {callbacks: {
          title: (items) => "p" + fmt(100 * (1 - 1 / items[0].raw.x), 4),
          label: (c) => c.dataset.label + ": " + fmt(c.raw.y, 3) + " ms"}}}}},
        pc[0].data.length), withHist);
    }
    root.append(sec);
  }

  header();
  real();
  differences();
  compareTable();
  root.append(el("h2", {}, "Curves, overlaid"));
  curveGroups().forEach(curves);
};
