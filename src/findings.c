/* A run's findings (findings.h): each kind a function over the record's
 * rows, appending "PHASE: what" lines, the kinds in order of importance;
 * the text block shows the first CB_FINDINGS_SHOWN. */
#include "findings.h"
#include "jget.h"
#include "report.h"
#include "served.h"
#include "units.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

/* Append one line made like printf to the array a. 0 or -ENOMEM. */
__attribute__((format(printf, 2, 3))) static int add(json_t *a, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	return json_array_append_new(a, json_string(line)) < 0 ? -ENOMEM : 0;
}

/* A row that did not run to its end. */
static int ended_early(json_t *a, const json_t *p, const char *name)
{
	if (cb_jtrue(p, "failed"))
		return add(a, "%s: failed: ended early by an error (%llu errors counted)", name,
			   (unsigned long long)cb_jcount(p, "errors"));
	if (cb_jtrue(p, "interrupted"))
		return add(a, "%s: partial: a signal ended it early, its figures are partial",
			   name);
	return 0;
}

static int expectations(json_t *a, const json_t *p, const char *name)
{
	const json_t *v;
	size_t k;
	int r = 0;
	json_array_foreach(json_object_get(p, "expect"), k, v)
	{
		struct cb_verdict_text t;
		cb_report_verdict_row(p, v, &t);
		if (!t.pass && r == 0)
			r = add(a, "%s: expectation failed: %s measured %s, expected %s%s", name,
				t.key, t.measured, t.bound, t.why);
	}
	return r;
}

/* An open loop that did not keep its schedule. */
static int rate_missed(json_t *a, const json_t *p, const char *name)
{
	const json_t *o = json_object_get(p, "open_loop");
	char got[32], want[32];
	if (!o || (!cb_jtrue(o, "saturated") && !cb_jcount(o, "unissued_ops")))
		return 0;
	return add(
	    a, "%s: rate target missed: achieved %s of %s ops/s", name,
	    cb_format_count((uint64_t)llround(cb_jnum(o, "achieved_ops_per_s")), got, sizeof(got)),
	    cb_format_count((uint64_t)llround(cb_jnum(o, "rate_ops_per_s")), want, sizeof(want)));
}

/* The cluster's state changed under the phase: its first reason, and how
 * many more the detail names. */
static int disturbed(json_t *a, const json_t *p, const char *name)
{
	const json_t *d = json_object_get(p, "disturbed");
	size_t n = json_array_size(d);
	const char *first = json_string_value(json_array_get(d, 0));
	if (!n)
		return 0;
	if (n == 1)
		return add(a, "%s: disturbed: %s", name, first ? first : "");
	return add(a, "%s: disturbed: %s (and %zu more)", name, first ? first : "", n - 1);
}

static const json_t *cluster_of(const json_t *p)
{
	return json_object_get(json_object_get(p, "telemetry"), "cluster");
}

static int slow_osds(json_t *a, const json_t *p, const char *name)
{
	const json_t *s;
	size_t i;
	int r = 0;
	json_array_foreach(json_object_get(cluster_of(p), "slow_osds"), i, s)
	{
		if (r == 0)
			r = add(a,
				"%s: slow OSD: osd.%llu on host %s, %s %.1f ms mean, %.1fx its "
				"peers' median",
				name, (unsigned long long)cb_jcount(s, "osd"),
				cb_jstr(s, "host", ""), cb_jstr(s, "op", ""), cb_jnum(s, "mean_ms"),
				cb_jnum(s, "ratio"));
	}
	return r;
}

/* Counts that disagree with no known mechanism to explain them: the one
 * cause the operator controls is other load on the same OSDs. */
static int counts_differ(json_t *a, const json_t *p, const char *name)
{
	const json_t *c = cluster_of(p);
	if (!json_is_false(json_object_get(c, "agree")) || cb_jhas(c, "mismatch_why"))
		return 0;
	return add(a,
		   "%s: counts differ: %s against cephbench's; other clients of these OSDs "
		   "count too: rerun with the cluster otherwise idle",
		   name, cb_jstr(c, "agree_note", "the cluster counted otherwise"));
}

static int client_bound(json_t *a, const json_t *p, const char *name)
{
	const json_t *c = json_object_get(json_object_get(p, "telemetry"), "client");
	if (!cb_jtrue(c, "bound"))
		return 0;
	return add(a, "%s: client-bound: %s", name, cb_jstr(c, "bound_reason", ""));
}

static int cache_served(json_t *a, const json_t *p, const char *name)
{
	if (!cb_row_cached(p))
		return 0;
	return add(a,
		   "%s: served by the client cache: most of its %s never reached the cluster, "
		   "its figures are not the cluster's speed",
		   name, cb_jstr(json_object_get(p, "served"), "judged", "reads"));
}

/* A cold row whose OSDs kept (some of) their caches: the read it asked to
 * be cold may have been served warm. */
static int cold_kept(json_t *a, const json_t *p, const char *name)
{
	const json_t *c = json_object_get(p, "cold");
	const char *note = cb_jstr(c, "note", NULL);
	if (!note)
		return 0;
	return add(a, "%s: not cold: %s", name, note);
}

/* The kinds, most important first: a row's figures wrong as the
 * cluster's (a cache served it) before a row limited by its client. */
static int (*const kinds[])(json_t *, const json_t *, const char *) = {
    ended_early,   expectations, rate_missed, disturbed,    slow_osds,
    counts_differ, cache_served, cold_kept,   client_bound,
};

json_t *cb_findings_json(const json_t *rec)
{
	const json_t *phases = json_object_get(rec, "phases"), *p;
	json_t *a = json_array();
	size_t i;
	for (size_t k = 0; a && k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		json_array_foreach(phases, i, p)
		{
			if (kinds[k](a, p, cb_jstr(p, "name", "")) < 0) {
				json_decref(a);
				return NULL;
			}
		}
	}
	return a;
}

int cb_findings_record(json_t *rec)
{
	json_t *a = cb_findings_json(rec);
	return a && json_object_set_new(rec, "findings", a) == 0 ? 0 : -ENOMEM;
}

void cb_findings_text(FILE *out, const json_t *rec, bool all)
{
	const json_t *f = json_object_get(rec, "findings");
	json_t *made = NULL;
	if (!json_is_array(f))
		f = made = cb_findings_json(rec);
	size_t n = json_array_size(f), shown = n, i;
	if (!all && n > CB_FINDINGS_SHOWN)
		shown = CB_FINDINGS_SHOWN - 1; /* and the line saying how many more */
	fprintf(out, "\nfindings:%s\n", n ? "" : " none, nothing needs attention");
	for (i = 0; i < shown; i++) {
		const char *s = json_string_value(json_array_get(f, i));
		fprintf(out, "  %s\n", s ? s : "");
	}
	if (shown < n)
		fprintf(out, "  ... and %zu more (--detail shows them all)\n", n - shown);
	json_decref(made);
}
