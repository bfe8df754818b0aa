/* A phase run at a rate (its open_loop object, the samples' due, late and
 * backlog) and a capacity search's steps, for the run page. s: the
 * samples to draw (CB.fullSeconds: the last partial second left out). */
CB.runOpenLoop = function (sec, p, k, s) {
  const {el, fmt, table, lazyChart, details, axis, xy, seriesOptions} = CB;
  const o = p.open_loop;
  if (!o) return;
  const ms = (us) => fmt(us / 1e3, 3) + " ms";
  const sv = o.service_latency_us || {};
  sec.append(el("p", {class: "cb-note" + (o.saturated ? " cb-warn" : "")},
    "Open loop (" + o.arrival + "): achieved " + fmt(o.achieved_ops_per_s) + " of " +
    fmt(o.rate_ops_per_s) + " ops/s" + (o.saturated ? ": saturated" : "") + "; " +
    fmt(o.late_ops, 0) + " ops late (over 1 ms behind schedule), backlog up to " +
    fmt(o.backlog_max, 0) +
    (o.unissued_ops ? ", " + fmt(o.unissued_ops, 0) + " due ops not issued by the end" : "") +
    "; latency is from each op's " + o.latency_from +
    (sv.mean !== undefined ? ", service time mean " + ms(sv.mean) + ", p99 " + ms(sv.p99) : "")));
  const t = s.map((x) => x.t);
  const r = s.length > 60 ? 0 : 2;
  const sx = axis("second of the phase (s)");
  lazyChart(sec, "p" + k + "-due", () => ({type: "line", data: {datasets: [
    {label: "due (by schedule)", data: xy(t, s.map((x) => x.due)), pointRadius: r},
    {label: "done", data: xy(t, s.map((x) => x.ops)), pointRadius: r}]},
    options: seriesOptions({x: sx, y: axis("ops/s")})}), s.length);
  lazyChart(sec, "p" + k + "-late", () => ({type: "line", data: {datasets: [
    {label: "late ops (over 1 ms behind)", data: xy(t, s.map((x) => x.late)), yAxisID: "y", pointRadius: r},
    {label: "backlog (most due, not submitted)", data: xy(t, s.map((x) => x.backlog)), yAxisID: "y1",
      pointRadius: r}]},
    options: seriesOptions({x: sx, y: axis("late ops per second"),
      y1: Object.assign(axis("backlog (ops)"), {position: "right"})})}), s.length);

  const q = p.search;
  if (!q || !q.steps) return;
  sec.append(el("p", {class: "cb-note"}, "Capacity search at " + q.target + " ≤ " + ms(q.target_us) +
    ": " + q.status + "; capacity " + (q.capacity_ops_per_s === null ? "none" : fmt(q.capacity_ops_per_s, 0) +
    " ops/s") + (q.failed_at_ops_per_s === null ? "" : ", failed at " + fmt(q.failed_at_ops_per_s, 0) +
    " ops/s") + (q.error_pct === null ? "" : " (±" + fmt(q.error_pct) + " %)") + ", " + q.steps.length +
    " steps; the rest of this phase is the step at the capacity"));
  /* drawn by offered rate; the table keeps the order they ran in */
  const st = q.steps.map((x, i) => Object.assign({step: i + 1}, x));
  const by = st.slice().sort((a, b) => a.rate_ops_per_s - b.rate_ops_per_s);
  const mark = by.map((x) => (x.passed ? "#2ca02c" : CB.SLOW));
  lazyChart(sec, "p" + k + "-search", () => ({type: "line", data: {datasets: [
    {label: "achieved ops/s", data: by.map((x) => ({x: x.rate_ops_per_s, y: x.achieved_ops_per_s})),
      yAxisID: "y", pointRadius: 5, pointBackgroundColor: mark},
    {label: q.target + " from scheduled start (ms)", data: by.map((x) => ({x: x.rate_ops_per_s,
      y: x.value_us / 1e3})), yAxisID: "y1", pointRadius: 5, pointBackgroundColor: mark,
      borderDash: [4, 3]},
    {label: "target " + q.target + " (ms)", data: [{x: by[0].rate_ops_per_s, y: q.target_us / 1e3},
      {x: by[by.length - 1].rate_ops_per_s, y: q.target_us / 1e3}], yAxisID: "y1", pointRadius: 0,
      borderColor: "#888", borderWidth: 1}]},
    options: {plugins: {subtitle: {display: true, text: "points: green passed, red failed"}},
      scales: {x: axis("offered rate (ops/s)"), y: axis("achieved (ops/s)"),
        y1: Object.assign(axis(q.target + " latency (ms)"), {position: "right"})}}}), st.length);
  details(sec, "search steps", () => table([
    {title: "step", get: (x) => x.step, digits: 0},
    {title: "offered ops/s", get: (x) => x.rate_ops_per_s, digits: 0},
    {title: "achieved ops/s", get: (x) => x.achieved_ops_per_s},
    {title: q.target + " ms", get: (x) => x.value_us / 1e3, digits: 3},
    {title: "saturated", get: (x) => (x.saturated ? "yes" : "no"), show: (v) => v},
    {title: "passed", get: (x) => (x.passed ? "PASS" : "FAIL"),
      show: (v) => el("span", {class: "cb-" + v}, v)},
  ], st.map((x) => ({row: x, cls: x.passed ? "cb-PASS" : "cb-FAIL"}))), st.length);
};
