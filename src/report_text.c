/* Text rendering: rados-bench-style progress lines while running, and one
 * table row per phase at the end. Latencies in milliseconds. */
#include "expect.h"
#include "report.h"
#include "group.h"
#include "rate.h"
#include "search.h"
#include "steady.h"
#include "preflight.h"
#include "telemetry.h"
#include "tm_client.h"
#include "units.h"

#include <math.h>
#include <string.h>

void cb_report_progress_header(FILE *out, const struct cb_phase *ph, const char *layer,
			       uint64_t block_size, uint64_t depth)
{
	char bs[32], dur[32], ramp[32];
	const struct cb_workload *wl = ph->wl;
	cb_format_size(block_size, bs, sizeof(bs));
	cb_format_duration(wl->duration_ns, dur, sizeof(dur));
	cb_format_duration(wl->ramp_ns, ramp, sizeof(ramp));
	fprintf(out, "== %s: %s %s %s on %s, %llu in flight, ramp %s, duration %s\n", wl->name,
		layer, wl->op, bs, ph->out->target, (unsigned long long)depth, ramp,
		wl->duration_ns ? dur : "unlimited");
	fprintf(out, "%5s %7s %9s %9s %9s %9s %11s %11s\n", "sec", "Cur ops", "started", "finished",
		"avg MB/s", "cur MB/s", "last lat(s)", "avg lat(s)");
	fflush(out);
}

void cb_report_progress(FILE *out, const struct cb_progress *p)
{
	double secs = (double)p->elapsed_ns / 1e9;
	fprintf(out, "%5llu %7llu %9llu %9llu %9.4f %9.4f %11.6f %11.6f%s\n",
		(unsigned long long)p->sec, (unsigned long long)p->inflight,
		(unsigned long long)p->started, (unsigned long long)p->finished,
		secs > 0 ? (double)p->bytes / 1048576.0 / secs : 0.0,
		(double)p->tick_bytes / 1048576.0, (double)p->last_lat_ns / 1e9,
		(double)p->avg_lat_ns / 1e9, p->ramping ? "  (ramp)" : "");
	fflush(out);
}

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

void cb_report_text(FILE *out, const struct cb_result *r)
{
	int w = 5, ow = 9;
	char ts[32];
	struct tm tm;

	gmtime_r(&r->started, &tm);
	strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", &tm);
	char cluster[320] = "no cluster"; /* a run of noop workloads connects to none */
	if (r->fsid[0])
		snprintf(cluster, sizeof(cluster), "cluster %s (ceph %s)", r->fsid,
			 r->ceph_version);
	fprintf(out, "\ncephbench %s: run '%s', profile '%s' (sha256 %.12s), %s, host %s, %s%s\n",
		CB_VERSION, r->run_name, r->profile_name, r->profile_sha256, cluster, r->host, ts,
		r->interrupted ? " (interrupted: partial)" : "");
	if (r->preflight && r->fsid[0]) /* a run without a cluster has no gate */
		cb_preflight_text(r->preflight, out);
	cb_search_text(r, out); /* a capacity found is what the report leads with */
	for (size_t i = 0; i < r->nphases; i++) {
		int n = (int)strlen(r->phases[i].name), o = (int)strlen(r->phases[i].op);
		w = n > w ? n : w;
		ow = o > ow ? o : ow;
	}
	fprintf(out, "%-*s %-6s %-*s %-10s %6s %7s %10s %10s %9s | %9s %9s %9s %9s %9s | %6s\n", w,
		"phase", "layer", ow, "op", "target", "bs", "qd", "ops", "IOPS", "MiB/s", "mean ms",
		"p50 ms", "p99 ms", "p99.9 ms", "max ms", "errors");
	for (size_t i = 0; i < r->nphases; i++) {
		const struct cb_phase_result *p = &r->phases[i];
		const struct cb_hist *h = p->hist;
		char bs[32], qd[48];
		cb_format_size(p->block_size, bs, sizeof(bs));
		/* clients x in flight each, as "4x1" */
		if (p->clients > 1)
			snprintf(qd, sizeof(qd), "%llux%llu", (unsigned long long)p->clients,
				 (unsigned long long)p->concurrency);
		else
			snprintf(qd, sizeof(qd), "%llu", (unsigned long long)p->concurrency);
		fprintf(
		    out,
		    "%-*s %-6s %-*s %-10s %6s %7s %10llu %10.1f %9.2f | %9.3f %9.3f %9.3f %9.3f "
		    "%9.3f | %6llu%s\n",
		    w, p->name, p->layer, ow, p->op, p->target, bs, qd, (unsigned long long)p->ops,
		    cb_phase_iops(p), cb_phase_bw(p) / 1048576.0, cb_hist_mean(h) / 1e6,
		    ms(cb_hist_percentile(h, 50)), ms(cb_hist_percentile(h, 99)),
		    ms(cb_hist_percentile(h, 99.9)), ms(h->count ? h->max : 0),
		    (unsigned long long)p->errors,
		    p->failed ? " failed" : (p->interrupted ? " partial" : ""));
	}
	for (size_t i = 0; i < r->nphases; i++) {
		const struct cb_phase_result *p = &r->phases[i];
		if (p->write_ops == 0 || p->write_ops == p->ops)
			continue;
		uint64_t rd = p->ops - p->write_ops;
		fprintf(out, "%s: reads %.1f %% of ops (%llu reads, %llu writes)\n", p->name,
			100.0 * (double)rd / (double)p->ops, (unsigned long long)rd,
			(unsigned long long)p->write_ops);
	}
	for (size_t i = 0; i < r->nphases; i++) {
		const struct cb_phase_result *p = &r->phases[i];
		struct cb_rate_stats st;
		if (!cb_phase_rate_stats(p, &st))
			continue;
		fprintf(out, "%s: %zu iterations, ops/s max %.1f min %.1f mean %.1f stddev %.1f\n",
			p->name, p->niters, st.max, st.min, st.mean, st.stddev);
	}
	for (size_t i = 0; i < r->nphases; i++) {
		const struct cb_phase_result *p = &r->phases[i];
		const struct cb_rank_figures *f, *l;
		if (!cb_phase_rank_span(p, &f, &l))
			continue;
		fprintf(out,
			"%s: %zu ranks, first done after %.3f s (rank %u on %s), last after "
			"%.3f s (rank %u on %s)\n",
			p->name, p->nranks, (double)f->elapsed_ns / 1e9, f->rank, f->host,
			(double)l->elapsed_ns / 1e9, l->rank, l->host);
	}
	for (size_t i = 0; i < r->nphases; i++) {
		cb_rate_text(&r->phases[i], out);
		cb_steady_text(&r->phases[i], out);
		cb_tm_text(&r->phases[i], out);
	}
	cb_group_text(r, out);
	for (size_t i = 0; i < r->nskipped; i++)
		fprintf(out, "%s: skipped (optional): %s\n", r->skipped[i].workload,
			r->skipped[i].reason);
	cb_report_bottleneck_text(out, r);
	cb_report_verdicts(out, r, false);
}

/* "above"/"below" the expected value by how much, for a verdict row. */
static const char *margin_text(const struct cb_verdict *v, char *buf, size_t n)
{
	if (v->measured < 0)
		snprintf(buf, n, "-"); /* not measured */
	else if (isinf(v->margin))
		snprintf(buf, n, "above 0");
	else
		snprintf(buf, n, "%+.1f %%", v->margin * 100);
	return buf;
}

void cb_report_verdicts(FILE *out, const struct cb_result *r, bool only_failed)
{
	size_t passed, failed, w = 5;
	cb_expect_count(r, &passed, &failed);
	if (passed + failed == 0 || (only_failed && !failed))
		return;
	for (size_t i = 0; i < r->nphases; i++)
		if (cb_expect_of(&r->phases[i]) && strlen(r->phases[i].name) > w)
			w = strlen(r->phases[i].name);
	fprintf(out, "\nexpectations: %s, %zu of %zu passed\n", failed ? "FAIL" : "PASS", passed,
		passed + failed);
	fprintf(out, "%-*s %-17s %16s %18s %12s  %s\n", (int)w, "phase", "threshold", "measured",
		"expected", "vs expected", "verdict");
	for (size_t i = 0; i < r->nphases; i++) {
		const struct cb_phase_result *p = &r->phases[i];
		struct cb_verdict v[CB_EXPECT_NMETRICS];
		size_t n = cb_expect_judge(cb_expect_of(p), p, v);
		for (size_t k = 0; k < n; k++) {
			char m[48], x[48], g[32], bound[56];
			bool min = cb_expect_is_min(v[k].metric);
			if (only_failed && v[k].pass)
				continue;
			snprintf(bound, sizeof(bound), "%s %s", min ? ">=" : "<=",
				 cb_expect_format(v[k].metric, v[k].expected, x, sizeof(x)));
			char why[128];
			fprintf(out, "%-*s %-17s %16s %18s %12s  %s%s%s\n", (int)w, p->name,
				v[k].key,
				cb_expect_format(v[k].metric, v[k].measured, m, sizeof(m)), bound,
				margin_text(&v[k], g, sizeof(g)), v[k].pass ? "PASS" : "FAIL",
				p->failed ? " (the phase failed)" : "",
				!v[k].pass && cb_tm_client_bound(p->tm, why, sizeof(why))
				    ? " (client-bound)"
				    : "");
		}
	}
}
