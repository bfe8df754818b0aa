/* What telemetry saw beside a phase (its telemetry object), for the run
 * page: the client's CPU by thread, the host's per-second CPU, network
 * and disks, the OSDs' latencies with the slow ones marked. Only parts
 * the record holds are drawn; rates are the samples' counts over their
 * interval_s. */
CB.runTelemetry = function (sec, p, k) {
  const {el, fmt, table, lazyChart, details, axis, xy, seriesOptions} = CB;
  const tm = p.telemetry;
  if (!tm) return;
  const MiB = 1048576;
  const dots = (n) => (n > 60 ? 0 : 2);
  const ms = (v) => (v === null || v === undefined ? "-" : fmt(v, 3) + " ms");

  function client(c) {
    sec.append(el("p", {class: "cb-note" + (c.bound ? " cb-warn" : "")}, "Client CPU " +
      (c.cpu_us_per_op === null ? "-" : fmt(c.cpu_us_per_op)) + " µs/op (user " + fmt(c.cpu_user_s, 2) +
      " s, sys " + fmt(c.cpu_sys_s, 2) + " s), " + fmt(c.ctx_voluntary + c.ctx_involuntary, 0) +
      " context switches, peak RSS " + fmt(c.max_rss_kib / 1024, 0) + " MiB" +
      (c.bound ? "; client-bound: " + c.bound_reason : "")));
    const th = c.threads || [];
    if (!th.length) return;
    lazyChart(sec, "p" + k + "-threads", () => ({type: "bar", data: {
      labels: th.map((x) => x.name + " x" + x.count), datasets: [
        {label: "CPU over the window (s)", data: th.map((x) => x.cpu_s)}]},
      options: {indexAxis: "y", scales: {x: axis("CPU (s)"),
        y: Object.assign(axis("client thread", "category"), {ticks: {autoSkip: false}})}}}), th.length,
      [Math.max(160, 70 + 20 * th.length), Math.max(120, 50 + 17 * th.length)]);
    details(sec, "client threads", () => table([
      {title: "thread", get: (x) => x.name, show: (v) => v},
      {title: "count", get: (x) => x.count, digits: 0},
      {title: "CPU s", get: (x) => x.cpu_s, digits: 3},
      {title: "busiest % of a core", get: (x) => x.core_pct}], th.map((x) => ({row: x}))), th.length);
  }

  function host(h) {
    const c = h.cpu || {};
    sec.append(el("p", {class: "cb-note"}, "Host CPU over " + fmt(h.window_s, 2) + " s: usr " +
      fmt(c.usr) + " %, sys " + fmt(c.sys) + " %, iowait " + fmt(c.iowait) + " %, steal " +
      fmt(c.steal) + " %, idle " + fmt(c.idle) + " %"));
    const s = h.samples || [];
    if (!s.length) return;
    const t = s.map((x) => x.t), r = dots(s.length);
    const cpu = (f) => s.map((x) => (x.cpu ? x.cpu[f] : null));
    const sx = axis("second of the phase (s)");
    /* stacked areas, not bars: 600 stacked bars cost Chart.js 10x a line */
    lazyChart(sec, "p" + k + "-hcpu", () => ({type: "line", data: {datasets:
      [["usr", "#1f77b4"], ["sys", "#ff7f0e"], ["iowait", "#9467bd"], ["steal", "#d62728"],
        ["idle", "#d9d9d9"]].map(([f, col], i) => ({label: f + " %", data: xy(t, cpu(f)),
        borderColor: col, backgroundColor: col, fill: i ? "-1" : "origin", pointRadius: r}))},
      options: seriesOptions({x: sx, y: Object.assign(axis("host CPU (%)"), {stacked: true, min: 0, max: 100})})}),
      s.length);
    /* interfaces and disks that moved something in some second */
    const ifs = [...new Set(s.flatMap((x) => Object.keys(x.net || {})))].filter((n) =>
      s.some((x) => x.net && x.net[n] && (x.net[n].rx_bytes || x.net[n].tx_bytes)));
    const rate = (x, v) => (v === undefined ? null : v / x.interval_s / MiB);
    if (ifs.length)
      lazyChart(sec, "p" + k + "-hnet", () => ({type: "line", data: {datasets:
        ifs.flatMap((n) => ["rx", "tx"].map((d) => ({label: n + " " + d + " MiB/s", pointRadius: r,
          data: xy(t, s.map((x) => rate(x, x.net && x.net[n] ? x.net[n][d + "_bytes"] : undefined)))})))},
        options: seriesOptions({x: sx, y: axis("host network (MiB/s)")})}), s.length);
    const disks = [...new Set(s.flatMap((x) => Object.keys(x.disks || {})))];
    const dk = (x, n) => (x.disks && x.disks[n]) || {};
    const sect = (x, n, f) => (dk(x, n)[f] === undefined ? undefined : dk(x, n)[f] * 512);
    if (disks.length)
      lazyChart(sec, "p" + k + "-hdisk", () => ({type: "line", data: {datasets:
        disks.flatMap((n) => [
          {label: n + " read MiB/s", data: xy(t, s.map((x) => rate(x, sect(x, n, "read_sectors")))),
            yAxisID: "y", pointRadius: r},
          {label: n + " write MiB/s", data: xy(t, s.map((x) => rate(x, sect(x, n, "write_sectors")))),
            yAxisID: "y", pointRadius: r},
          {label: n + " util %", data: xy(t, s.map((x) => (x.disks && x.disks[n] ? x.disks[n].util_pct : null))),
            yAxisID: "y1", pointRadius: r, borderDash: [4, 3]}])},
        options: seriesOptions({x: sx, y: axis("disk (MiB/s)"),
          y1: Object.assign(axis("utilisation (%)"), {position: "right", max: 100})})}), s.length);
    const cols = [{title: "second", get: (x) => x.t, digits: 0},
      {title: "interval s", get: (x) => x.interval_s, digits: 3}];
    for (const f of ["usr", "sys", "iowait", "steal", "idle"])
      cols.push({title: f + " %", get: (x) => (x.cpu ? x.cpu[f] : null)});
    cols.push({title: "load1", get: (x) => x.load1, digits: 2},
      {title: "mem used GiB", get: (x) => x.mem_used_bytes / 1073741824, digits: 2},
      {title: "mem available GiB", get: (x) => x.mem_available_bytes / 1073741824, digits: 2});
    for (const n of ifs)
      for (const d of ["rx", "tx"])
        cols.push({title: n + " " + d + " MiB/s", digits: 3,
          get: (x) => rate(x, x.net && x.net[n] ? x.net[n][d + "_bytes"] : undefined)});
    for (const n of disks)
      cols.push({title: n + " read MiB/s", digits: 3, get: (x) => rate(x, sect(x, n, "read_sectors"))},
        {title: n + " write MiB/s", digits: 3, get: (x) => rate(x, sect(x, n, "write_sectors"))},
        {title: n + " await ms", digits: 3, get: (x) => dk(x, n).await_ms},
        {title: n + " util %", get: (x) => dk(x, n).util_pct});
    details(sec, "host per-second figures", () => table(cols, s.map((x) => ({row: x}))), s.length);
  }

  /* Bars per OSD for each latency it timed; an OSD the finder named slow
   * for a kind has that kind's bar in CB.SLOW. */
  function cluster(c) {
    sec.append(el("p", {class: "cb-note" + (c.agree === false ? " cb-warn" : "")}, "Cluster counted " +
      fmt(c.ops, 0) + " ops, " + fmt(c.bytes / MiB, 1) + " MiB; cephbench " + fmt(c.client_ops, 0) +
      (c.compared ? " (" + c.compared + " compared: " + (c.agree ? "agree within 1 %" : "differ by more than 1 %") + ")" : "") +
      (c.lat_mean_us !== undefined && c.agree ? "; cluster mean " + ms(c.lat_mean_us / 1e3) +
        ", client mean " + ms(c.client_lat_mean_us / 1e3) : "")));
    const slow = c.slow_osds || [];
    for (const x of slow)
      sec.append(el("p", {class: "cb-note cb-slow"}, "Slow OSD: osd." + x.osd + " " + x.op + " " +
        ms(x.mean_ms) + " mean, " + fmt(x.ratio) + "x the median of " + x.peers + " other OSDs (" +
        ms(x.median_ms) + "), host " + x.host +
        (x.intervals !== undefined ? ", slow in " + x.slow_intervals + " of " + x.intervals + " intervals" : "")));
    /* the sum, then each rank when the file system has several */
    const ranks = c.mds ? c.mds.ranks || [] : [];
    if (c.mds)
      sec.append(el("p", {class: "cb-note"}, "MDS counted " + fmt(c.mds.requests, 0) + " requests (" +
        fmt(c.mds.client_requests, 0) + " from clients), " + fmt(c.mds.replies, 0) + " replies, reply latency " +
        ms(c.mds.reply_latency_ms) + (ranks.length > 1 ? " over " + ranks.length + " ranks" : "")));
    for (const k of ranks.length > 1 ? ranks : [])
      sec.append(el("p", {class: "cb-note"}, "MDS rank " + k.rank + " (mds." + k.name + "): " +
        fmt(k.requests, 0) + " requests (" + fmt(k.client_requests, 0) + " from clients), " +
        fmt(k.replies, 0) + " replies, reply latency " + ms(k.reply_latency_ms)));
    const osds = c.osds || [];
    if (!osds.length) return;
    const kinds = [["op_latency_ms", "client ops", null, "#1f77b4"],
      ["op_r_latency_ms", "reads", "read", "#2ca02c"],
      ["op_w_latency_ms", "writes (primary)", "write", "#ff7f0e"],
      ["op_rw_latency_ms", "read-modify-writes (primary)", "write", "#9467bd"],
      ["subop_w_latency_ms", "replica writes", "replica write", "#8c564b"]]
      .filter(([f], i) => i === 0 || osds.some((o) => o[f] !== null && o[f] !== undefined));
    const isSlow = (o, op) => op && slow.some((x) => x.osd === o.osd && x.op === op);
    lazyChart(sec, "p" + k + "-osd", () => ({type: "bar", data: {
      labels: osds.map((o) => "osd." + o.osd + (slow.some((x) => x.osd === o.osd) ? " (slow)" : "")),
      datasets: kinds.map(([f, label, op, col]) => ({label: label + " (mean ms)",
        data: osds.map((o) => o[f]), borderColor: col,
        backgroundColor: osds.map((o) => (isSlow(o, op) ? CB.SLOW : col))}))},
      options: {plugins: {subtitle: {display: slow.length > 0, text: "red: the kind an OSD was found slow in"}},
        scales: {x: axis("OSD", "category"), y: axis("mean latency (ms)")}}}), osds.length);
    details(sec, "per-OSD figures", () => table([
      {title: "OSD", get: (o) => "osd." + o.osd, show: (v) => v},
      {title: "host", get: (o) => o.host, show: (v) => v},
      {title: "ops", get: (o) => o.ops, digits: 0},
      {title: "reads", get: (o) => o.read_ops, digits: 0},
      {title: "writes", get: (o) => o.write_ops, digits: 0},
      {title: "rw", get: (o) => o.rw_ops, digits: 0},
      {title: "in MiB", get: (o) => o.in_bytes / MiB, digits: 2},
      {title: "out MiB", get: (o) => o.out_bytes / MiB, digits: 2},
      {title: "replica writes", get: (o) => o.subop_w_ops, digits: 0},
      ...kinds.map(([f, label]) => ({title: label + " ms", get: (o) => o[f], digits: 3})),
      {title: "before queue ms", get: (o) => o.op_before_queue_op_lat_ms, digits: 3},
    ], osds.map((o) => ({row: o, cls: slow.some((x) => x.osd === o.osd) ? "cb-FAIL" : ""}))), osds.length);
  }

  if (tm.client) client(tm.client);
  if (tm.host) host(tm.host);
  if (tm.cluster) cluster(tm.cluster);
};
