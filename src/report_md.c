/* `cephbench report --format markdown`: a record for a ticket or a wiki.
 * The header as a line, the table and the verdicts as Markdown tables, the
 * explanations under the table (telemetry, open loop, the layer breakdown)
 * as the text report prints them, in a code block so their columns hold. */
#include "jget.h"
#include "report.h"
#include "served.h"
#include "units.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Text from the record (a name, a pool, a host: what a user or a cluster
 * chose) as Markdown that reads back as that text: '<', '>' and '&' as
 * entities, so no HTML (<img onerror=...>) reaches a renderer, and every
 * character that could start a link, an image, code, emphasis or
 * strikethrough, or end a table cell, behind a backslash. A line break
 * would end the row: a space (cmd_report.c escapes them before this). */
static bool alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static void md_text(FILE *out, const char *s)
{
	for (const char *p = s; *p; p++) {
		/* an '_' inside a word (max_p99) never makes emphasis in
		 * CommonMark: kept bare, so the usual names read as they are */
		bool inword = *p == '_' && p > s && alnum(p[-1]) && alnum(p[1]);
		if (*p == '<')
			fputs("&lt;", out);
		else if (*p == '>')
			fputs("&gt;", out);
		else if (*p == '&')
			fputs("&amp;", out);
		else if (*p == '\n' || *p == '\r')
			fputc(' ', out);
		else {
			if (!inword && strchr("\\`*_[]()#!|~", *p))
				fputc('\\', out);
			fputc(*p, out);
		}
	}
}

/* A cell of record text, escaped (md_text). */
static void cell(FILE *out, const char *s)
{
	fputs("| ", out);
	md_text(out, s);
	fputc(' ', out);
}

/* A cell of the program's own text: a figure, a heading, "**PASS**". */
static void cell_raw(FILE *out, const char *s)
{
	fprintf(out, "| %s ", s);
}

static void cellf(FILE *out, const char *fmt, double v)
{
	char buf[64];
	snprintf(buf, sizeof(buf), fmt, v);
	cell_raw(out, buf);
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
		cell_raw(out, head[k]);
	row_end(out);
	for (size_t k = 0; k < nh; k++)
		fputs(k < 6 ? "|---" : "|--:", out); /* figures right-aligned */
	row_end(out);
	const json_t *p;
	size_t i;
	json_array_foreach(phases, i, p)
	{
		const json_t *lat = json_object_get(p, "latency_us");
		char bs[64], qd[48];
		const json_t *z = json_object_get(p, "sizes");
		bool nodata = cb_report_no_data(p);
		cb_report_depth(p, qd, sizeof(qd));
		fputs("| ", out);
		md_text(out, cb_jstr(p, "name", ""));
		fprintf(out, "%s ",
			cb_jtrue(p, "failed")	     ? " (failed)"
			: cb_jtrue(p, "interrupted") ? " (partial)"
			: cb_row_cached(p)	     ? " (cached)"
						     : "");
		/* a cold row: how, a word of the layer's (cold.h) */
		if (json_is_object(json_object_get(p, "cold"))) {
			fputs("(cold: ", out);
			md_text(out, cb_jstr(json_object_get(p, "cold"), "client", ""));
			fputs(") ", out);
		}
		cell(out, cb_jstr(p, "layer", ""));
		cell(out, cb_jstr(p, "op", ""));
		cell(out, cb_jstr(p, "pool", ""));
		if (z) {
			/* the sizes as the profile gave them: its text */
			fputs("| ", out);
			md_text(out, cb_jstr(z, "asked", ""));
			fprintf(out, " (mean %.0f) ", cb_jnum(z, "mean"));
		} else {
			if (nodata)
				snprintf(bs, sizeof(bs), "-");
			else
				cb_format_size(cb_jcount(p, "block_size"), bs, sizeof(bs));
			cell_raw(out, bs);
		}
		cell_raw(out, qd);
		cellf(out, "%.0f", (double)cb_jcount(p, "ops"));
		cellf(out, "%.1f", cb_jnum(p, "iops"));
		if (nodata)
			cell_raw(out, "-");
		else
			cellf(out, "%.2f", cb_jnum(p, "bw_bytes_per_s") / 1048576.0);
		static const char *const q[] = {"mean", "p50", "p99", "p99.9", "max"};
		for (size_t k = 0; k < 5; k++)
			cellf(out, "%.3f", cb_jnum(lat, q[k]) / 1e3);
		cellf(out, "%.0f", (double)cb_jcount(p, "errors"));
		row_end(out);
	}
	bool legend = false;
	json_array_foreach(phases, i, p) legend = legend || cb_row_cached(p);
	if (legend)
		fputs("\n(cached): the client's cache served most of the row's reads or stats: "
		      "not the cluster's speed.\n",
		      out);
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
			char verdict[160];
			snprintf(verdict, sizeof(verdict), "**%s**%s", t.pass ? "PASS" : "FAIL",
				 t.why);
			cell(out, t.phase);
			cell(out, t.key);
			cell_raw(out, t.measured);
			cell_raw(out, t.bound);
			cell_raw(out, t.margin);
			cell_raw(out, verdict);
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
	fputs("## cephbench run '", out);
	md_text(out, cb_jstr(rec, "run_name", ""));
	fputs("', profile '", out);
	md_text(out, cb_jstr(json_object_get(rec, "profile"), "name", ""));
	fputs("'\n\n", out);
	if (cb_jstr(cl, "fsid", "")[0]) {
		fputs("Cluster ", out);
		md_text(out, cb_jstr(cl, "fsid", ""));
		fputs(" (ceph ", out);
		md_text(out, cb_jstr(cl, "ceph_version", "unknown"));
		fputs("), ", out);
	} else {
		fputs("No cluster, ", out);
	}
	fputs("host ", out);
	md_text(out, cb_jstr(rec, "host", ""));
	fputs(", started ", out);
	md_text(out, cb_jstr(rec, "started", ""));
	fprintf(out, "%s.", cb_jtrue(rec, "interrupted") ? " (interrupted: partial)" : "");
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
	cb_report_notes(m, rec, true); /* a ticket holds it all */
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
