/* What a group's rows show: each member's group and role, and the
 * side-by-side table of an op alone and in its group (fsopbench's figure:
 * how much slower a stat is while others write). A member names the row it
 * is set beside with alone: the workload that ran the same op by itself. */
#include "group.h"
#include "jget.h"
#include "engine.h"
#include "hist.h"
#include "result.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

/* The row workload alone ran p's step as: its own workload's row of the
 * same step ("md-alone.file-stat" beside "md.file-stat"). NULL when it did
 * not run. */
static const struct cb_phase_result *alone_row(const struct cb_result *r,
					       const struct cb_phase_result *p)
{
	for (size_t i = 0; i < r->nphases; i++) {
		const struct cb_phase_result *a = &r->phases[i];
		if (a->wl && strcmp(a->wl->name, p->alone) == 0 &&
		    (a->step && p->step ? strcmp(a->step, p->step) == 0 : a->step == p->step))
			return a;
	}
	return NULL;
}

struct figures {
	double mean, p50, p99; /* ns */
};

static struct figures figures_of(const struct cb_phase_result *p)
{
	return (struct figures){cb_hist_mean(p->hist), (double)cb_hist_percentile(p->hist, 50),
				(double)cb_hist_percentile(p->hist, 99)};
}

static double ratio(double together, double alone)
{
	return alone > 0 ? together / alone : 0;
}

int cb_group_row_json(const struct cb_phase_result *p, json_t *o)
{
	if (!p->group)
		return 0;
	json_object_set_new(o, "group", json_string(p->group));
	json_object_set_new(o, "role", json_string(p->load ? "load" : "measure"));
	if (p->alone)
		json_object_set_new(o, "alone", json_string(p->alone));
	return 0;
}

static json_t *figures_json(struct figures f, double scale)
{
	return json_pack("{s:f, s:f, s:f}", "mean", f.mean / scale, "p50", f.p50 / scale, "p99",
			 f.p99 / scale);
}

int cb_group_json(const struct cb_result *r, json_t *root)
{
	json_t *a = json_array();
	for (size_t i = 0; a && i < r->nphases; i++) {
		const struct cb_phase_result *p = &r->phases[i], *s;
		if (!p->alone || !(s = alone_row(r, p)))
			continue;
		struct figures t = figures_of(p), l = figures_of(s);
		struct figures x = {ratio(t.mean, l.mean), ratio(t.p50, l.p50),
				    ratio(t.p99, l.p99)};
		json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:s, s:o, s:o, s:o}", "row",
						   p->name, "group", p->group, "alone", s->name,
						   "op", p->op, "alone_us", figures_json(l, 1e3),
						   "together_us", figures_json(t, 1e3), "slowdown",
						   figures_json(x, 1)));
	}
	if (a && json_array_size(a))
		json_object_set_new(root, "interference", a);
	else
		json_decref(a);
	return 0;
}

/* The members of each group, once: what was measured beside what load. */
static void members_text(const json_t *phases, FILE *out)
{
	const json_t *p, *m;
	size_t i, j;
	json_array_foreach(phases, i, p)
	{
		const char *g = cb_jstr(p, "group", NULL);
		bool seen = false;
		for (j = 0; g && j < i && !seen; j++)
			seen = strcmp(cb_jstr(json_array_get(phases, j), "group", ""), g) == 0;
		if (!g || seen)
			continue;
		fprintf(out, "group '%s' ran side by side:", g);
		json_array_foreach(phases, j, m)
		{
			if (j >= i && strcmp(cb_jstr(m, "group", ""), g) == 0)
				fprintf(out, " %s%s", cb_jstr(m, "name", ""),
					strcmp(cb_jstr(m, "role", ""), "load") == 0 ? " (load)"
										    : "");
		}
		fputc('\n', out);
	}
}

/* Row name's object in phases, or NULL. */
static const json_t *row_named(const json_t *phases, const char *name)
{
	const json_t *p;
	size_t i;
	json_array_foreach(phases, i, p)
	{
		if (strcmp(cb_jstr(p, "name", ""), name) == 0)
			return p;
	}
	return NULL;
}

/* fsopbench's two tables of each group: its ops alone ("Reading only")
 * and beside the group's load ("In competition with N writers", N the load
 * rows' clients): count, min, max, mean and stdev as fsopbench prints
 * them, and the p99. */
static void fsop_tables(const json_t *rec, FILE *out)
{
	const json_t *phases = json_object_get(rec, "phases"),
		     *xs = json_object_get(rec, "interference");
	const json_t *x, *p;
	size_t i, j, k;
	json_array_foreach(xs, i, x)
	{
		const char *g = cb_jstr(x, "group", "");
		bool seen = false;
		for (j = 0; j < i && !seen; j++)
			seen = strcmp(cb_jstr(json_array_get(xs, j), "group", ""), g) == 0;
		if (seen)
			continue;
		uint64_t writers = 0;
		json_array_foreach(phases, k, p)
		{
			if (strcmp(cb_jstr(p, "group", ""), g) == 0 &&
			    strcmp(cb_jstr(p, "role", ""), "load") == 0)
				writers += cb_jcount(p, "clients");
		}
		for (int side = 0; side < 2; side++) {
			if (side)
				fprintf(out, "\nIn competition with %llu writer%s (group '%s')\n",
					(unsigned long long)writers, writers == 1 ? "" : "s", g);
			else
				fprintf(out, "\nReading only (group '%s' alone)\n", g);
			fprintf(out,
				"-----------------------------------------------------------------"
				"---------------\n");
			const json_t *y;
			json_array_foreach(xs, j, y)
			{
				const json_t *r =
				    row_named(phases, cb_jstr(y, side ? "row" : "alone", ""));
				if (!r || strcmp(cb_jstr(y, "group", ""), g) != 0)
					continue;
				const json_t *l = json_object_get(r, "latency_us");
				fprintf(
				    out,
				    "%-14s cnt %8llu    min %9.3f ms    max %9.3f ms    mean %9.3f "
				    "ms    stdev %8.3f    p99 %9.3f ms\n",
				    cb_jstr(y, "op", ""), (unsigned long long)cb_jcount(r, "ops"),
				    cb_jnum(l, "min") / 1e3, cb_jnum(l, "max") / 1e3,
				    cb_jnum(l, "mean") / 1e3, cb_jnum(l, "stddev") / 1e3,
				    cb_jnum(l, "p99") / 1e3);
				if (strcmp(cb_jstr(y, "op", ""), "read") == 0)
					fprintf(out, "%-14s %.3f MB/s\n", "read rate",
						cb_jnum(r, "bw_bytes_per_s") / 1e6);
			}
		}
	}
}

void cb_group_text(const json_t *rec, FILE *out)
{
	members_text(json_object_get(rec, "phases"), out);
	const json_t *x;
	size_t i;
	json_array_foreach(json_object_get(rec, "interference"), i, x)
	{
		const json_t *l = json_object_get(x, "alone_us"),
			     *t = json_object_get(x, "together_us");
		const json_t *r = json_object_get(x, "slowdown");
		if (i == 0)
			fprintf(out,
				"\nInterference: each op alone and in its group (slowdown = in "
				"group / alone)\n"
				"%-16s %-22s %-12s | %26s | %26s\n"
				"%-16s %-22s %-12s | %8s %8s %8s | %8s %8s %8s\n",
				"", "", "", "mean latency (ms)", "p99 latency (ms)", "row", "alone",
				"op", "alone", "in group", "slowdown", "alone", "in group",
				"slowdown");
		fprintf(out, "%-16s %-22s %-12s | %8.3f %8.3f %7.1fx | %8.3f %8.3f %7.1fx\n",
			cb_jstr(x, "row", ""), cb_jstr(x, "alone", ""), cb_jstr(x, "op", ""),
			cb_jnum(l, "mean") / 1e3, cb_jnum(t, "mean") / 1e3, cb_jnum(r, "mean"),
			cb_jnum(l, "p99") / 1e3, cb_jnum(t, "p99") / 1e3, cb_jnum(r, "p99"));
	}
	fsop_tables(rec, out);
}
