/* Text rendering: one table row per phase at the end, and the lines under
 * it. Latencies in milliseconds. */
#include "expect.h"
#include "findings.h"
#include "report.h"
#include "served.h"
#include "group.h"
#include "rate.h"
#include "search.h"
#include "steady.h"
#include "preflight.h"
#include "telemetry.h"
#include "tm_client.h"
#include "units.h"
#include "jget.h"

#include <string.h>

bool cb_report_no_data(const json_t *p)
{
	return cb_jcount(p, "ops") > 0 && cb_jcount(p, "bytes") == 0;
}

/* The table's header line: what ran, where, when. */
static void header_text(const json_t *rec, FILE *out)
{
	const json_t *cl = json_object_get(rec, "cluster");
	const json_t *prof = json_object_get(rec, "profile");
	const char *fsid = cb_jstr(cl, "fsid", "");
	char cluster[320] = "no cluster"; /* a run of noop workloads connects to none */
	if (fsid[0])
		snprintf(cluster, sizeof(cluster), "cluster %s (ceph %s, client %s)", fsid,
			 cb_jstr(cl, "ceph_version", "unknown"),
			 cb_jstr(json_object_get(rec, "tool"), "ceph_client", "unknown"));
	fprintf(out, "\ncephbench %s: run '%s', profile '%s' (sha256 %.12s), %s, host %s, %s%s\n",
		cb_jstr(json_object_get(rec, "tool"), "version", "?"), cb_jstr(rec, "run_name", ""),
		cb_jstr(prof, "name", ""), cb_jstr(prof, "sha256", ""), cluster,
		cb_jstr(rec, "host", ""), cb_jstr(rec, "started", ""),
		cb_jtrue(rec, "interrupted") ? " (interrupted: partial)" : "");
	const json_t *pf = json_object_get(rec, "preflight");
	if (pf && fsid[0]) /* a run without a cluster has no gate */
		cb_preflight_text(pf, out);
}

/* Clients x in flight each, as "4x1"; the in-flight count alone for one. */
void cb_report_depth(const json_t *row, char *buf, size_t n)
{
	uint64_t clients = cb_jcount(row, "clients"), qd = cb_jcount(row, "concurrency");
	if (clients > 1)
		snprintf(buf, n, "%llux%llu", (unsigned long long)clients, (unsigned long long)qd);
	else
		snprintf(buf, n, "%llu", (unsigned long long)qd);
}

/* Latencies as latency_us holds them (whole microseconds), in ms. */
static double ms_of(const json_t *lat, const char *key)
{
	return cb_jnum(lat, key) / 1e3;
}

/* " cold:stride": a row run cold says how its client's caches were left
 * out ("none": the library keeps none, the OSDs' dropped); "" else. */
static const char *cold_mark(const json_t *p, char *buf, size_t n)
{
	const json_t *c = json_object_get(p, "cold");
	buf[0] = '\0';
	if (json_is_object(c))
		snprintf(buf, n, " cold:%s", cb_jstr(c, "client", "?"));
	return buf;
}

static void table_text(const json_t *phases, FILE *out)
{
	int w = 5, ow = 9;
	size_t i;
	const json_t *p;
	json_array_foreach(phases, i, p)
	{
		int n = (int)strlen(cb_jstr(p, "name", "")), o = (int)strlen(cb_jstr(p, "op", ""));
		w = n > w ? n : w;
		ow = o > ow ? o : ow;
	}
	fprintf(out, "%-*s %-6s %-*s %-10s %6s %7s %10s %10s %9s | %9s %9s %9s %9s %9s | %6s\n", w,
		"phase", "layer", ow, "op", "target", "bs", "qd", "ops", "IOPS", "MiB/s", "mean ms",
		"p50 ms", "p99 ms", "p99.9 ms", "max ms", "errors");
	json_array_foreach(phases, i, p)
	{
		const json_t *lat = json_object_get(p, "latency_us");
		char bs[32], qd[48], bw[32] = "-", cold[48];
		bool nodata = cb_report_no_data(p);
		/* a distribution's sizes and mean are on a line of their own */
		if (json_object_get(p, "sizes"))
			snprintf(bs, sizeof(bs), "mixed");
		else if (nodata)
			snprintf(bs, sizeof(bs), "-");
		else
			cb_format_size(cb_jcount(p, "block_size"), bs, sizeof(bs));
		if (!nodata)
			snprintf(bw, sizeof(bw), "%.2f", cb_jnum(p, "bw_bytes_per_s") / 1048576.0);
		cb_report_depth(p, qd, sizeof(qd));
		fprintf(out,
			"%-*s %-6s %-*s %-10s %6s %7s %10llu %10.1f %9s | %9.3f %9.3f %9.3f %9.3f "
			"%9.3f | %6llu%s\n",
			w, cb_jstr(p, "name", ""), cb_jstr(p, "layer", ""), ow,
			cb_jstr(p, "op", ""), cb_jstr(p, "pool", ""), bs, qd,
			(unsigned long long)cb_jcount(p, "ops"), cb_jnum(p, "iops"), bw,
			ms_of(lat, "mean"), ms_of(lat, "p50"), ms_of(lat, "p99"),
			ms_of(lat, "p99.9"), ms_of(lat, "max"),
			(unsigned long long)cb_jcount(p, "errors"),
			cb_jtrue(p, "failed")	     ? " failed"
			: cb_jtrue(p, "interrupted") ? " partial"
			: cb_row_cached(p)	     ? " cached"
						     : cold_mark(p, cold, sizeof(cold)));
	}
	/* the marker's legend, with each cached row's evidence: a figure the
	 * client's cache served is not the cluster's speed */
	json_array_foreach(phases, i, p)
	{
		if (!cb_row_cached(p))
			continue;
		char why[160];
		cb_served_why(p, why, sizeof(why));
		fprintf(out,
			"%s: cached: the client's cache served most of its %s (%s): not the "
			"cluster's speed\n",
			cb_jstr(p, "name", ""),
			cb_jstr(json_object_get(p, "served"), "judged", "reads"), why);
	}
}

/* Whether a row's by_op names kinds of the layer's (a RADOS mix's stat, a
 * replay's NTCreateX): its ops that do not write are not all reads. */
static bool own_kinds(const json_t *p)
{
	const char *name;
	json_t *k;
	json_object_foreach(json_object_get(p, "by_op"), name, k)
	{
		(void)k;
		if (strcmp(name, "read") && strcmp(name, "write") && strcmp(name, "sync"))
			return true;
	}
	return false;
}

/* The lines under the table that a phase has only sometimes: a read
 * share, iterations, ranks. */
static void mix_text(const json_t *phases, FILE *out)
{
	size_t i;
	const json_t *p;
	json_array_foreach(phases, i, p)
	{
		const json_t *z = json_object_get(p, "sizes");
		if (z)
			fprintf(out, "%s: sizes %s, %.1f KiB per op\n", cb_jstr(p, "name", ""),
				cb_jstr(z, "asked", ""), cb_jnum(z, "mean") / 1024.0);
	}
	json_array_foreach(phases, i, p)
	{
		uint64_t ops = cb_jcount(p, "ops"), wr = cb_jcount(p, "write_ops");
		if (wr == 0 || wr == ops || own_kinds(p))
			continue;
		fprintf(out, "%s: reads %.1f %% of ops (%llu reads, %llu writes)\n",
			cb_jstr(p, "name", ""), 100.0 * (double)(ops - wr) / (double)ops,
			(unsigned long long)(ops - wr), (unsigned long long)wr);
	}
	json_array_foreach(phases, i, p)
	{
		const json_t *it = json_object_get(p, "iterations");
		if (!it)
			continue;
		fprintf(out, "%s: %llu iterations, ops/s max %.1f min %.1f mean %.1f stddev %.1f\n",
			cb_jstr(p, "name", ""), (unsigned long long)cb_jcount(it, "count"),
			cb_jnum(it, "iops_max"), cb_jnum(it, "iops_min"), cb_jnum(it, "iops_mean"),
			cb_jnum(it, "iops_stddev"));
	}
	json_array_foreach(phases, i, p)
	{
		const json_t *ranks = json_object_get(p, "ranks"), *f = NULL, *l = NULL, *k;
		size_t j;
		if (json_array_size(ranks) < 2)
			continue;
		/* the first of equals, as they ran */
		json_array_foreach(ranks, j, k)
		{
			if (!f || cb_jnum(k, "duration_s") < cb_jnum(f, "duration_s"))
				f = k;
			if (!l || cb_jnum(k, "duration_s") > cb_jnum(l, "duration_s"))
				l = k;
		}
		fprintf(out,
			"%s: %zu ranks, first done after %.3f s (rank %llu on %s), last after "
			"%.3f s (rank %llu on %s)\n",
			cb_jstr(p, "name", ""), json_array_size(ranks), cb_jnum(f, "duration_s"),
			(unsigned long long)cb_jcount(f, "rank"), cb_jstr(f, "host", ""),
			cb_jnum(l, "duration_s"), (unsigned long long)cb_jcount(l, "rank"),
			cb_jstr(l, "host", ""));
	}
}

void cb_report_notes(FILE *out, const json_t *rec, bool detail)
{
	const json_t *phases = json_object_get(rec, "phases"), *p;
	size_t i;
	mix_text(phases, out);
	json_array_foreach(phases, i, p)
	{
		cb_kinds_text(p, out);
		cb_rate_text(p, out);
		cb_steady_text(p, out);
		if (detail) /* the findings hold what of it needs attention */
			cb_tm_text(p, out);
	}
	cb_group_text(rec, out);
	json_array_foreach(json_object_get(rec, "skipped"), i, p)
	{
		fprintf(out, "%s: skipped (optional): %s\n", cb_jstr(p, "workload", ""),
			cb_jstr(p, "reason", ""));
	}
	cb_report_bottleneck_text(out, rec);
}

void cb_report_text(FILE *out, const json_t *rec, bool detail)
{
	const json_t *phases = json_object_get(rec, "phases");
	header_text(rec, out);
	cb_search_text(phases, out); /* a capacity found is what the report leads with */
	table_text(phases, out);
	/* what deserves attention, before the lines it was found in */
	cb_findings_text(out, rec, detail);
	cb_report_notes(out, rec, detail);
	cb_report_verdicts(out, rec, false);
}

/* "above"/"below" the expected value by how much, for a verdict row. */
static const char *margin_text(const json_t *v, char *buf, size_t n)
{
	if (!cb_jhas(v, "measured"))
		snprintf(buf, n, "-"); /* not measured */
	else if (!cb_jhas(v, "margin_pct"))
		snprintf(buf, n, "above 0"); /* expected 0 */
	else
		snprintf(buf, n, "%+.1f %%", cb_jnum(v, "margin_pct"));
	return buf;
}

/* The metric a verdict's threshold names, -1 for one this build lacks. */
static int metric_of(const char *key)
{
	for (int m = 0; m < CB_EXPECT_NMETRICS; m++)
		if (strcmp(cb_expect_options[m].name, key) == 0)
			return m;
	return -1;
}

/* A verdict's figure in its metric's own unit (latencies in ns), -1 when
 * it was not measured. */
static double figure(const json_t *v, const char *key)
{
	if (!cb_jhas(v, key))
		return -1;
	double k = strcmp(cb_jstr(v, "unit", ""), "us") == 0 ? 1e3 : 1;
	return cb_jnum(v, key) * k;
}

static void figure_text(int m, double v, char *buf, size_t n)
{
	if (v < 0 && m != CB_EXPECT_MIN_CAPACITY) /* capacity says why itself */
		snprintf(buf, n, "not measured");
	else if (m < 0)
		snprintf(buf, n, "%g", v);
	else
		cb_expect_format((enum cb_expect_metric)m, v, buf, n);
}

void cb_report_verdict_row(const json_t *row, const json_t *v, struct cb_verdict_text *t)
{
	const json_t *client = json_object_get(json_object_get(row, "telemetry"), "client");
	char x[48];
	t->phase = cb_jstr(row, "name", "");
	t->key = cb_jstr(v, "threshold", "");
	t->pass = cb_jtrue(v, "pass");
	int metric = metric_of(t->key);
	bool min = metric >= 0 ? cb_expect_is_min((enum cb_expect_metric)metric)
			       : strncmp(t->key, "min_", 4) == 0;
	figure_text(metric, figure(v, "measured"), t->measured, sizeof(t->measured));
	figure_text(metric, figure(v, "expected"), x, sizeof(x));
	snprintf(t->bound, sizeof(t->bound), "%s %s", min ? ">=" : "<=", x);
	margin_text(v, t->margin, sizeof(t->margin));
	snprintf(t->why, sizeof(t->why), "%s%s%s",
		 cb_jtrue(row, "failed") ? " (the phase failed)" : "",
		 cb_jtrue(v, "cached") ? " (served by the client's cache: not the cluster's; "
					 "cached: ok judges it)"
				       : "",
		 !t->pass && cb_jtrue(client, "bound") ? " (client-bound)" : "");
}

void cb_report_verdicts(FILE *out, const json_t *rec, bool only_failed)
{
	const json_t *phases = json_object_get(rec, "phases"), *p, *v;
	size_t passed = 0, failed = 0, w = 5, i, k;
	json_array_foreach(phases, i, p)
	{
		json_array_foreach(json_object_get(p, "expect"), k, v)
		{
			cb_jtrue(v, "pass") ? passed++ : failed++;
		}
		if (json_array_size(json_object_get(p, "expect")) &&
		    strlen(cb_jstr(p, "name", "")) > w)
			w = strlen(cb_jstr(p, "name", ""));
	}
	if (passed + failed == 0 || (only_failed && !failed))
		return;
	fprintf(out, "\nexpectations: %s, %zu of %zu passed\n", failed ? "FAIL" : "PASS", passed,
		passed + failed);
	fprintf(out, "%-*s %-17s %16s %18s %12s  %s\n", (int)w, "phase", "threshold", "measured",
		"expected", "vs expected", "verdict");
	json_array_foreach(phases, i, p)
	{
		json_array_foreach(json_object_get(p, "expect"), k, v)
		{
			struct cb_verdict_text t;
			cb_report_verdict_row(p, v, &t);
			if (only_failed && t.pass)
				continue;
			fprintf(out, "%-*s %-17s %16s %18s %12s  %s%s\n", (int)w, t.phase, t.key,
				t.measured, t.bound, t.margin, t.pass ? "PASS" : "FAIL", t.why);
		}
	}
}
