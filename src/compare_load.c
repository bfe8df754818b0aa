/* Reading cephbench-result/2 (and /1) files for `cephbench compare`: checked by
 * cb_result_check (as history --add checks them), then the figures a
 * comparison uses taken out. */
#include "compare.h"
#include "served.h"
#include "result_check.h"
#include "result_load.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* + 0.0: a -0.0 (JSON allows it) is shown as 0.0 */
static double num(const json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key)) + 0.0;
}

/* The trailing sample covers [floor(duration_s), duration_s) only
 * (docs/result.md), a partial second, so it is always dropped. */
static int load_samples(const json_t *samples, struct cb_cmp_phase *p)
{
	size_t n = json_array_size(samples);
	size_t keep = n ? n - 1 : 0;
	p->ops_s = calloc(keep + 1, sizeof(double));
	p->bytes_s = calloc(keep + 1, sizeof(double));
	p->lat_s = calloc(keep + 1, sizeof(double));
	if (!p->ops_s || !p->bytes_s || !p->lat_s)
		return -ENOMEM;
	for (size_t i = 0; i < keep; i++) {
		const json_t *s = json_array_get(samples, i);
		double ops = num(s, "ops");
		p->ops_s[p->nsec] = ops;
		p->bytes_s[p->nsec++] = num(s, "bytes");
		/* a second without ops has no latency, not a latency of 0 */
		if (ops > 0)
			p->lat_s[p->nlat++] = num(s, "lat_mean_us");
	}
	return 0;
}

static int load_reps(const json_t *a, struct cb_cmp_phase *p)
{
	p->reps = calloc(json_array_size(a) + 1, sizeof(double));
	if (!p->reps)
		return -ENOMEM;
	size_t i;
	const json_t *v;
	json_array_foreach(a, i, v) p->reps[p->nreps++] = json_number_value(v);
	return 0;
}

/* The rates and latency of a row, or of a kind of its ops. */
static void load_figures(const json_t *o, struct cb_cmp_phase *p)
{
	const json_t *lat = json_object_get(o, "latency_us");
	p->iops = num(o, "iops");
	p->bw = num(o, "bw_bytes_per_s");
	p->lat_mean_us = num(lat, "mean");
	p->lat_p99_us = num(lat, "p99");
	double ops = num(o, "ops");
	p->bytes_per_op = ops > 0 ? num(o, "bytes") / ops : 0;
}

/* o passed cb_result_check: every key read here is there, of its type. */
static int load_phase(const json_t *o, struct cb_cmp_phase *p)
{
	p->name = json_string_value(json_object_get(o, "name"));
	p->workload = json_string_value(json_object_get(o, "workload"));
	p->step = json_string_value(json_object_get(o, "step"));
	p->matrix = json_object_get(o, "matrix");
	p->params = json_object_get(o, "params");
	p->uses = json_object_get(o, "uses");
	load_figures(o, p);
	p->errors = json_integer_value(json_object_get(o, "errors"));
	p->interrupted = json_is_true(json_object_get(o, "interrupted"));
	p->failed = json_is_true(json_object_get(o, "failed"));
	p->cached = cb_row_cached(o);
	int rc = load_samples(json_object_get(o, "samples"), p);
	const json_t *reps = json_object_get(json_object_get(o, "iterations"), "iops");
	if (rc == 0 && reps)
		rc = load_reps(reps, p);
	return rc;
}

/* A kind of a row that says its kinds apart (by_op) as a row of its own,
 * "<row>:<kind>": its rates and latency, without per-second samples (its
 * figures are shown, not tested), paired by that name or under the row's
 * matrix as "<workload>:<kind>". */
static int load_kind(const struct cb_cmp_phase *row, const char *kind, const json_t *k,
		     struct cb_cmp_phase *p)
{
	size_t nn = strlen(row->name) + strlen(kind) + 2;
	size_t nw = row->workload ? strlen(row->workload) + strlen(kind) + 2 : 0;
	*p = (struct cb_cmp_phase){.params = row->params,
				   .uses = row->uses,
				   .context = row->context,
				   .step = row->step,
				   .matrix = row->matrix,
				   .interrupted = row->interrupted,
				   .failed = row->failed,
				   .cached = row->cached};
	p->own_name = malloc(nn);
	p->own_workload = nw ? malloc(nw) : NULL;
	p->ops_s = calloc(1, sizeof(double));
	p->bytes_s = calloc(1, sizeof(double));
	p->lat_s = calloc(1, sizeof(double));
	if (!p->own_name || (nw && !p->own_workload) || !p->ops_s || !p->bytes_s || !p->lat_s)
		return -ENOMEM;
	snprintf(p->own_name, nn, "%s:%s", row->name, kind);
	p->name = p->own_name;
	if (nw) {
		snprintf(p->own_workload, nw, "%s:%s", row->workload, kind);
		p->workload = p->own_workload;
	}
	load_figures(k, p);
	return 0;
}

int cb_cmp_load(const char *path, struct cb_cmp_file *f, struct cb_err *e)
{
	memset(f, 0, sizeof(*f));
	f->path = path;
	int r = cb_result_load(path, &f->root, e);
	if (r == 0)
		r = cb_result_check(f->root, path, e);
	if (r < 0)
		return r;
	const json_t *phases = json_object_get(f->root, "phases");
	size_t i, rows = json_array_size(phases) + 1;
	const json_t *o;
	json_array_foreach(phases, i, o) rows += json_object_size(json_object_get(o, "by_op"));
	f->ph = calloc(rows, sizeof(*f->ph));
	if (!f->ph)
		return cb_err_set(e, CB_EXIT_USAGE, -ENOMEM, "%s: out of memory", path);
	json_array_foreach(phases, i, o)
	{
		struct cb_cmp_phase *row = &f->ph[f->n];
		row->context = json_object_get(f->root, "context");
		if (load_phase(o, &f->ph[f->n++]) < 0)
			return cb_err_set(e, CB_EXIT_USAGE, -ENOMEM, "%s: out of memory", path);
		const char *kind;
		json_t *k;
		json_object_foreach(json_object_get(o, "by_op"), kind, k)
		{
			if (load_kind(row, kind, k, &f->ph[f->n++]) < 0)
				return cb_err_set(e, CB_EXIT_USAGE, -ENOMEM, "%s: out of memory",
						  path);
		}
	}
	return 0;
}

void cb_cmp_free(struct cb_cmp_file *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free(f->ph[i].ops_s);
		free(f->ph[i].bytes_s);
		free(f->ph[i].lat_s);
		free(f->ph[i].reps);
		free(f->ph[i].own_name);
		free(f->ph[i].own_workload);
	}
	free(f->ph);
	json_decref(f->root);
	memset(f, 0, sizeof(*f));
}
