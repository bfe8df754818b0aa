/* JSON rendering of the result record (schema "cephbench-result/2",
 * docs/result.schema.json); histograms by hist_json.c. */
#include "engine.h"
#include "expect.h"
#include "findings.h"
#include "profile.h"
#include "report.h"
#include "hist_json.h"
#include "client_lib.h"
#include "group.h"
#include "rate.h"
#include "search.h"
#include "served.h"
#include "steady.h"
#include "result_load.h"
#include "telemetry.h"

#include <dlfcn.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <string.h>

static json_t *samples_json(const struct cb_phase_result *p)
{
	json_t *a = json_array();
	for (size_t i = 0; i < p->nsamples; i++) {
		const struct cb_sample *s = &p->samples[i];
		json_t *j =
		    json_pack("{s:I, s:I, s:I, s:f, s:f}", "t", (json_int_t)i, "ops",
			      (json_int_t)s->ops, "bytes", (json_int_t)s->bytes, "lat_mean_us",
			      s->ops ? (double)s->lat_sum_ns / (double)s->ops / 1000.0 : 0.0,
			      "lat_max_us", (double)s->lat_max_ns / 1000.0);
		if (j && p->rate_ops > 0) { /* open loop: the schedule's second */
			json_object_set_new(j, "due", json_integer((json_int_t)s->due));
			json_object_set_new(j, "late", json_integer((json_int_t)s->late));
			json_object_set_new(j, "backlog", json_integer((json_int_t)s->backlog));
		}
		json_array_append_new(a, j);
	}
	return a;
}

/* Where a row came from: its workload as written, its step, its matrix
 * values; what compare --by groups rows with. */
static void origin_json(json_t *o, const struct cb_phase_result *p)
{
	const struct cb_workload *w = p->wl;
	if (!w)
		return;
	json_object_set_new(o, "workload", json_string(w->base ? w->base : w->name));
	if (p->step)
		json_object_set_new(o, "step", json_string(p->step));
	if (!w->nmatrix)
		return;
	json_t *m = json_object();
	for (size_t i = 0; i < w->nmatrix; i++)
		json_object_set_new(m, w->matrix[i].key, json_string(w->matrix[i].val));
	json_object_set_new(o, "matrix", m);
}

/* Every parameter that shapes the row's figures, from the typed option
 * tables (the common keys as settled, then the layer's), so compare can
 * name what differed; op and block_size are the row's own (a step's). */
static void params_json(json_t *o, const struct cb_phase_result *p)
{
	static const char *const common_skip[] = {"name", "layer", "optional", NULL};
	if (!p->wl)
		return;
	json_t *j = json_object();
	if (!j || cb_opts_json(cb_workload_options, p->wl, j, common_skip) < 0 ||
	    (p->engine && p->lopts && cb_opts_json(p->engine->options, p->lopts, j, NULL) < 0)) {
		json_decref(j);
		return;
	}
	json_object_set_new(j, "op", json_string(p->op));
	json_object_set_new(j, "block_size",
			    p->sizes[0] ? json_string(p->sizes)
					: json_integer((json_int_t)p->block_size));
	json_object_set_new(j, "concurrency", json_integer((json_int_t)p->concurrency));
	json_object_set_new(j, "clients", json_integer((json_int_t)p->clients));
	json_object_set_new(o, "params", j);
}

/* Latencies in microseconds, like latency_us; margin null when the
 * expected value is 0. */
static json_t *verdict_json(const struct cb_verdict *v)
{
	static const char *const units[CB_EXPECT_NMETRICS] = {"ops/s", "bytes/s", "us",	  "us",
							      "us",    "errors",  "osds", "ops/s"};
	double k = !strcmp(units[v->metric], "us") ? 1e-3 : 1;
	bool none = v->measured < 0; /* not measured */
	json_t *o = json_pack(
	    "{s:s, s:s, s:o, s:f, s:o, s:b}", "threshold", v->key, "unit", units[v->metric],
	    "measured", none ? json_null() : json_real(v->measured * k), "expected",
	    v->expected * k, "margin_pct",
	    isinf(v->margin) || none ? json_null() : json_real(v->margin * 100), "pass", v->pass);
	if (o && v->cached) /* not judged: the client's cache served the row */
		json_object_set_new(o, "cached", json_true());
	return o;
}

/* Over ranks: each rank's own figures under the aggregate, and when the
 * first and the last were done. */
static void ranks_json(json_t *o, const struct cb_phase_result *p)
{
	const struct cb_rank_figures *first, *last;
	if (!cb_phase_rank_span(p, &first, &last))
		return;
	/* the start line's spread: each rank's window start from the
	 * earliest, by the hosts' own clocks (their offsets included) */
	uint64_t t0 = UINT64_MAX, t1 = 0;
	bool starts = true; /* every rank's known */
	for (size_t k = 0; k < p->nranks; k++) {
		uint64_t t = p->ranks[k].start_unix_ns;
		starts = starts && t;
		t0 = t < t0 ? t : t0;
		t1 = t > t1 ? t : t1;
	}
	json_t *a = json_array();
	for (size_t k = 0; k < p->nranks; k++) {
		const struct cb_rank_figures *f = &p->ranks[k];
		double s = (double)f->elapsed_ns / 1e9;
		json_t *r =
		    json_pack("{s:I, s:s, s:I, s:I, s:I, s:f, s:f}", "rank", (json_int_t)f->rank,
			      "host", f->host, "ops", (json_int_t)f->ops, "bytes",
			      (json_int_t)f->bytes, "errors", (json_int_t)f->errors, "duration_s",
			      s, "iops", s > 0 ? (double)f->ops / s : 0.0);
		if (r && starts)
			json_object_set_new(r, "start_offset_ms",
					    json_real((double)(f->start_unix_ns - t0) / 1e6));
		json_array_append_new(a, r);
	}
	json_object_set_new(o, "ranks", a);
	if (starts)
		json_object_set_new(o, "start_skew_ms", json_real((double)(t1 - t0) / 1e6));
	json_object_set_new(o, "first_done_s", json_real((double)first->elapsed_ns / 1e9));
	json_object_set_new(o, "last_done_s", json_real((double)last->elapsed_ns / 1e9));
}

/* Each client's own figures under the phase's, so that a straggler shows
 * and the sum can be checked: its rate is over its own time. */
static json_t *per_client_json(const struct cb_phase_result *p)
{
	json_t *a = json_array();
	for (size_t k = 0; k < p->nper_client; k++) {
		const struct cb_client_row *c = &p->per_client[k];
		double secs = (double)c->elapsed_ns / 1e9;
		json_array_append_new(
		    a,
		    json_pack("{s:I, s:I, s:I, s:I, s:f, s:f, s:f, s:f}", "client", (json_int_t)k,
			      "ops", (json_int_t)c->ops, "bytes", (json_int_t)c->bytes, "errors",
			      (json_int_t)c->errors, "duration_s", secs, "iops",
			      secs > 0 ? (double)c->ops / secs : 0.0, "bw_bytes_per_s",
			      secs > 0 ? (double)c->bytes / secs : 0.0, "lat_mean_us",
			      c->ops ? (double)c->lat_sum_ns / (double)c->ops / 1000.0 : 0.0));
	}
	return a;
}

int cb_phase_figures_json(json_t *o, const struct cb_phase_result *p)
{
	json_t *f = json_pack(
	    "{s:I, s:f, s:I, s:I, s:f, s:f, s:I, s:b, s:b, s:o, s:o, s:o, s:I, s:I, s:I, s:I}",
	    "clients", (json_int_t)p->clients, "duration_s", (double)p->elapsed_ns / 1e9, "ops",
	    (json_int_t)p->ops, "bytes", (json_int_t)p->bytes, "iops", cb_phase_iops(p),
	    "bw_bytes_per_s", cb_phase_bw(p), "errors", (json_int_t)p->errors, "interrupted",
	    p->interrupted, "failed", p->failed, "latency_us", cb_latency_json(p->hist),
	    "histogram", cb_histogram_json(p->hist), "samples", samples_json(p),
	    /* the split a mixed workload's read share is judged by */
	    "read_ops", (json_int_t)(p->ops - p->write_ops), "read_bytes",
	    (json_int_t)(p->bytes - p->write_bytes), "write_ops", (json_int_t)p->write_ops,
	    "write_bytes", (json_int_t)p->write_bytes);
	if (!f || json_object_update(o, f) < 0) {
		json_decref(f);
		return -ENOMEM;
	}
	json_decref(f);
	if (p->window_unix_ns)
		json_object_set_new(o, "window_start_unix_s",
				    json_real((double)p->window_unix_ns / 1e9));
	if (p->nper_client)
		json_object_set_new(o, "per_client", per_client_json(p));
	json_t *by = cb_kinds_json(&p->kinds, p->elapsed_ns);
	if (by)
		json_object_set_new(o, "by_op", by);
	ranks_json(o, p);
	return cb_rate_json(p, o);
}

static json_t *phase_json(const struct cb_phase_result *p)
{
	json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:I, s:I}", "name", p->name, "layer", p->layer,
			      "op", p->op, "pool", p->target, "block_size",
			      (json_int_t)p->block_size, "concurrency", (json_int_t)p->concurrency);
	if (!o || cb_phase_figures_json(o, p) < 0) {
		json_decref(o);
		return NULL;
	}
	if (p->sizes[0]) /* the mean as done: what the sizes drawn came to */
		json_object_set_new(o, "sizes",
				    json_pack("{s:s, s:f}", "asked", p->sizes, "mean",
					      p->ops ? (double)p->bytes / (double)p->ops : 0.0));
	origin_json(o, p);
	params_json(o, p);
	if (p->uses)
		json_object_set(o, "uses", p->uses);
	struct cb_verdict v[CB_EXPECT_NMETRICS];
	size_t nv = cb_expect_judge(cb_expect_of(p), p, v);
	if (nv) {
		json_t *a = json_array();
		for (size_t i = 0; i < nv; i++)
			json_array_append_new(a, verdict_json(&v[i]));
		json_object_set_new(o, "expect", a);
	}
	struct cb_rate_stats st;
	if (cb_phase_rate_stats(p, &st)) {
		json_t *rates = json_array();
		for (size_t i = 0; i < p->niters; i++)
			json_array_append_new(rates, json_real(p->iter_rates[i]));
		json_object_set_new(o, "iterations",
				    json_pack("{s:I, s:f, s:f, s:f, s:f, s:o}", "count",
					      (json_int_t)p->niters, "iops_max", st.max, "iops_min",
					      st.min, "iops_mean", st.mean, "iops_stddev",
					      st.stddev, "iops", rates));
	}
	cb_tm_json(p, o);
	/* whether the cluster served its reads and stats, from the row's
	 * own counters (served.h) */
	struct cb_served sv;
	cb_served_judge(o, &sv);
	json_t *served = cb_served_json(&sv);
	if (served)
		json_object_set_new(o, "served", served);
	json_t *cold = cb_cold_json(p->cold, &p->cold_osds);
	if (cold)
		json_object_set_new(o, "cold", cold);
	/* how the load was applied, and what the row is in a group */
	cb_steady_json(p, o);
	cb_search_json(p, o);
	cb_group_row_json(p, o);
	return o;
}

/* Whose malloc this process runs on (WITH_TCMALLOC, LD_PRELOAD, a
 * sanitizer's): the library that defines the malloc every call binds to. */
static const char *allocator(char *buf, size_t n)
{
	Dl_info info;
	void *m = dlsym(RTLD_DEFAULT, "malloc");
	if (!m || !dladdr(m, &info) || !info.dli_fname)
		return "unknown";
	const char *base = strrchr(info.dli_fname, '/');
	base = base ? base + 1 : info.dli_fname;
	if (strstr(base, "tcmalloc"))
		return "tcmalloc";
	if (strncmp(base, "libc.so", 7) == 0)
		return "glibc";
	snprintf(buf, n, "%s", base);
	return buf;
}

/* {"debug": "quiet", "debug_kept": {"ms": "1/1"}, "malloc": "tcmalloc"}: how
 * the Ceph client ran, since its debug levels and its allocator change its
 * CPU per op. */
static json_t *client_json(const struct cb_result *r)
{
	json_t *kept = json_object();
	char buf[sizeof(r->debug_kept)], *save = NULL;
	snprintf(buf, sizeof(buf), "%s", r->debug_kept);
	for (char *t = strtok_r(buf, " ", &save); kept && t; t = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(t, '=');
		if (eq) {
			*eq = '\0';
			json_object_set_new(kept, t, json_string(eq + 1));
		}
	}
	char lib[64];
	return json_pack("{s:s, s:o, s:s}", "debug", r->client_debug, "debug_kept", kept, "malloc",
			 allocator(lib, sizeof(lib)));
}

json_t *cb_result_json(const struct cb_result *r)
{
	char ts[32];
	struct tm tm;
	gmtime_r(&r->started, &tm);
	strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", &tm);

	json_t *phases = json_array();
	for (size_t i = 0; i < r->nphases; i++)
		json_array_append_new(phases, phase_json(&r->phases[i]));
	json_t *root = json_pack(
	    "{s:s, s:{s:s, s:s}, s:{s:s, s:s}, s:s, s:s, s:s, s:{s:s, s:s}, s:b, s:o}", "schema",
	    CB_RESULT_SCHEMA, "tool", "name", "cephbench", "version", CB_VERSION, "cluster", "fsid",
	    r->fsid, "ceph_version", r->ceph_version, "host", r->host, "started", ts, "run_name",
	    r->run_name, "profile", "name", r->profile_name, "sha256", r->profile_sha256,
	    "interrupted", r->interrupted, "phases", phases);
	/* which client libraries ran, beside the cluster's version: a change
	 * of either between two records is a change of what was measured */
	json_t *lib = cb_client_lib_json(), *tool = json_object_get(root, "tool");
	if (lib && tool) {
		json_object_set(tool, "ceph_client", json_object_get(lib, "ceph_version"));
		json_object_set(tool, "features", json_object_get(lib, "features"));
	}
	json_decref(lib);
	size_t passed, failed;
	cb_expect_count(r, &passed, &failed);
	if (root && passed + failed)
		json_object_set_new(root, "verdict",
				    json_pack("{s:s, s:I, s:I}", "result", failed ? "fail" : "pass",
					      "passed", (json_int_t)passed, "failed",
					      (json_int_t)failed));
	if (root && r->nskipped) {
		json_t *a = json_array();
		for (size_t i = 0; i < r->nskipped; i++)
			json_array_append_new(a, json_pack("{s:s, s:s}", "workload",
							   r->skipped[i].workload, "reason",
							   r->skipped[i].reason));
		json_object_set_new(root, "skipped", a);
	}
	if (root)
		json_object_set_new(root, "layers", cb_bottleneck_json(r));
	if (root && r->client_debug[0])
		json_object_set_new(root, "client", client_json(r));
	if (root && r->preflight)
		json_object_set(root, "preflight", (json_t *)r->preflight);
	json_t *notes = cb_tm_notes_json(r->tm);
	if (root && notes)
		json_object_set_new(root, "telemetry_notes", notes);
	else
		json_decref(notes);
	if (root && r->context)
		json_object_set(root, "context", r->context);
	if (root)
		cb_group_json(r, root);
	/* last: drawn from the record above, what every reader of it shows */
	if (root && cb_findings_record(root) < 0) {
		json_decref(root);
		return NULL;
	}
	return root;
}

int cb_report_json_dump(FILE *out, const json_t *root)
{
	int rc = json_dumpf(root, out, JSON_INDENT(2)) == 0 ? 0 : -EIO;
	fputc('\n', out);
	return rc;
}

int cb_report_json(FILE *out, const struct cb_result *r)
{
	json_t *root = cb_result_json(r);
	if (!root)
		return -ENOMEM;
	int rc = cb_report_json_dump(out, root);
	json_decref(root);
	return rc;
}
