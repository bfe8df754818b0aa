/* `cephbench report --format markdown`: a record for a ticket or a wiki.
 * The header as a line, the table and the verdicts as Markdown tables, the
 * explanations under the table (telemetry, open loop, the layer breakdown)
 * as the text report prints them, in a code block so their columns hold. */
#include "jget.h"
#include "report.h"
#include "units.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A cell's text: '|' would end the cell, a line break the row. */
static void cell(FILE *out, const char *s)
{
	fputs("| ", out);
	for (; *s; s++) {
		if (*s == '|')
			fputs("\\|", out);
		else if (*s == '\n' || *s == '\r')
			fputc(' ', out);
		else
			fputc(*s, out);
	}
	fputc(' ', out);
}

static void cellf(FILE *out, const char *fmt, double v)
{
	char buf[64];
	snprintf(buf, sizeof(buf), fmt, v);
	cell(out, buf);
}

static void row_end(FILE *out)
{
	fputs("|\n", out);
}

static void table(FILE *out, const json_t *phases)
{
	static const char *const head[] = {"phase",  "layer",  "op",	   "target", "bs",
					   "qd",     "ops",    "IOPS",	   "MiB/s",  "mean ms",
					   "p50 ms", "p99 ms", "p99.9 ms", "max ms", "errors"};
	const size_t nh = sizeof(head) / sizeof(head[0]);
	for (size_t k = 0; k < nh; k++)
		cell(out, head[k]);
	row_end(out);
	for (size_t k = 0; k < nh; k++)
		fputs(k < 6 ? "|---" : "|--:", out); /* figures right-aligned */
	row_end(out);
	const json_t *p;
	size_t i;
	json_array_foreach(phases, i, p)
	{
		const json_t *lat = json_object_get(p, "latency_us");
		char bs[64], qd[48], name[300];
		const json_t *z = json_object_get(p, "sizes");
		bool nodata = cb_report_no_data(p);
		if (z)
			snprintf(bs, sizeof(bs), "%.20s (mean %.0f)", cb_jstr(z, "asked", ""),
				 cb_jnum(z, "mean"));
		else if (nodata)
			snprintf(bs, sizeof(bs), "-");
		else
			cb_format_size(cb_jcount(p, "block_size"), bs, sizeof(bs));
		cb_report_depth(p, qd, sizeof(qd));
		snprintf(name, sizeof(name), "%s%s", cb_jstr(p, "name", ""),
			 cb_jtrue(p, "failed")	      ? " (failed)"
			 : cb_jtrue(p, "interrupted") ? " (partial)"
						      : "");
		cell(out, name);
		cell(out, cb_jstr(p, "layer", ""));
		cell(out, cb_jstr(p, "op", ""));
		cell(out, cb_jstr(p, "pool", ""));
		cell(out, bs);
		cell(out, qd);
		cellf(out, "%.0f", (double)cb_jcount(p, "ops"));
		cellf(out, "%.1f", cb_jnum(p, "iops"));
		if (nodata)
			cell(out, "-");
		else
			cellf(out, "%.2f", cb_jnum(p, "bw_bytes_per_s") / 1048576.0);
		static const char *const q[] = {"mean", "p50", "p99", "p99.9", "max"};
		for (size_t k = 0; k < 5; k++)
			cellf(out, "%.3f", cb_jnum(lat, q[k]) / 1e3);
		cellf(out, "%.0f", (double)cb_jcount(p, "errors"));
		row_end(out);
	}
}

static void verdicts(FILE *out, const json_t *phases)
{
	const json_t *p, *v;
	size_t i, k, n = 0;
	json_array_foreach(phases, i, p)
	{
		json_array_foreach(json_object_get(p, "expect"), k, v)
		{
			struct cb_verdict_text t;
			cb_report_verdict_row(p, v, &t);
			if (n++ == 0)
				fputs("\n| phase | threshold | measured | expected | vs expected | "
				      "verdict |\n|---|---|--:|--:|--:|---|\n",
				      out);
			char verdict[80];
			snprintf(verdict, sizeof(verdict), "**%s**%s", t.pass ? "PASS" : "FAIL",
				 t.why);
			cell(out, t.phase);
			cell(out, t.key);
			cell(out, t.measured);
			cell(out, t.bound);
			cell(out, t.margin);
			cell(out, verdict);
			row_end(out);
		}
	}
}

/* A code fence longer than any run of backticks in s (a pool's name may
 * hold some), at least three. */
static int fence_len(const char *s)
{
	int best = 2, run = 0;
	for (; *s; s++) {
		run = *s == '`' ? run + 1 : 0;
		best = run > best ? run : best;
	}
	return best + 1;
}

static void fence(FILE *out, int n)
{
	while (n-- > 0)
		fputc('`', out);
}

int cb_report_markdown(FILE *out, const json_t *rec)
{
	const json_t *cl = json_object_get(rec, "cluster"), *v = json_object_get(rec, "verdict");
	const json_t *phases = json_object_get(rec, "phases");
	fprintf(out, "## cephbench run '%s', profile '%s'\n\n", cb_jstr(rec, "run_name", ""),
		cb_jstr(json_object_get(rec, "profile"), "name", ""));
	if (cb_jstr(cl, "fsid", "")[0])
		fprintf(out, "Cluster %s (ceph %s), ", cb_jstr(cl, "fsid", ""),
			cb_jstr(cl, "ceph_version", "unknown"));
	else
		fputs("No cluster, ", out);
	fprintf(out, "host %s, started %s%s.", cb_jstr(rec, "host", ""),
		cb_jstr(rec, "started", ""),
		cb_jtrue(rec, "interrupted") ? " (interrupted: partial)" : "");
	if (v)
		fprintf(out, " Verdict: **%s**, %llu of %llu thresholds passed.",
			strcmp(cb_jstr(v, "result", ""), "pass") == 0 ? "PASS" : "FAIL",
			(unsigned long long)cb_jcount(v, "passed"),
			(unsigned long long)(cb_jcount(v, "passed") + cb_jcount(v, "failed")));
	fputs("\n\n", out);
	table(out, phases);
	verdicts(out, phases);
	/* the explanations as the text has them */
	char *notes = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&notes, &len);
	if (!m)
		return -ENOMEM;
	cb_report_notes(m, rec);
	if (fclose(m) != 0) {
		free(notes);
		return -ENOMEM;
	}
	if (len) {
		int f = fence_len(notes);
		fputc('\n', out);
		fence(out, f);
		fprintf(out, "text\n%s", notes);
		fence(out, f);
		fputc('\n', out);
	}
	free(notes);
	fputc('\n', out);
	return 0;
}
