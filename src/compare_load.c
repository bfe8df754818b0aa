/* Reading cephbench-result/1 files for `cephbench compare`: only what a
 * comparison uses is checked, each failure named by file and phase. */
#include "compare.h"
#include "result_load.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int num(const json_t *o, const char *key, double *out)
{
	const json_t *v = json_object_get(o, key);
	if (!json_is_number(v))
		return -EINVAL;
	*out = json_number_value(v);
	return 0;
}

static int bad_phase(struct cb_err *e, const char *path, size_t i, const char *name,
		     const char *what)
{
	return cb_err_usage(
	    e, "%s: phases[%zu]%s%s%s: %s (not a complete " CB_RESULT_SCHEMA " record)", path, i,
	    name ? " '" : "", name ? name : "", name ? "'" : "", what);
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
		double ops, bytes, lat;
		if (num(s, "ops", &ops) < 0 || num(s, "bytes", &bytes) < 0 ||
		    num(s, "lat_mean_us", &lat) < 0)
			return -EINVAL;
		p->ops_s[p->nsec] = ops;
		p->bytes_s[p->nsec++] = bytes;
		/* a second without ops has no latency, not a latency of 0 */
		if (ops > 0)
			p->lat_s[p->nlat++] = lat;
	}
	return 0;
}

static int load_reps(const json_t *it, struct cb_cmp_phase *p)
{
	const json_t *a = json_object_get(it, "iops");
	if (!json_is_array(a))
		return -EINVAL;
	p->reps = calloc(json_array_size(a) + 1, sizeof(double));
	if (!p->reps)
		return -ENOMEM;
	size_t i;
	const json_t *v;
	json_array_foreach(a, i, v)
	{
		if (!json_is_number(v))
			return -EINVAL;
		p->reps[p->nreps++] = json_number_value(v);
	}
	return 0;
}

static const char *opt_str(const json_t *o, const char *key, bool *bad)
{
	const json_t *v = json_object_get(o, key);
	if (v && !json_is_string(v))
		*bad = true;
	return json_string_value(v);
}

static int load_phase(const char *path, size_t i, const json_t *o, struct cb_cmp_phase *p,
		      struct cb_err *e)
{
	p->name = json_string_value(json_object_get(o, "name"));
	if (!p->name)
		return bad_phase(e, path, i, NULL, "no 'name'");
	bool bad = false;
	p->workload = opt_str(o, "workload", &bad);
	p->step = opt_str(o, "step", &bad);
	if (bad)
		return bad_phase(e, path, i, p->name, "'workload' and 'step' must be strings");
	p->matrix = json_object_get(o, "matrix");
	if (p->matrix) {
		const char *k;
		const json_t *v;
		if (!json_is_object(p->matrix))
			return bad_phase(e, path, i, p->name, "'matrix' must be an object");
		json_object_foreach((json_t *)p->matrix, k, v)
		{
			if (!json_is_string(v))
				return bad_phase(e, path, i, p->name,
						 "'matrix' values must be strings");
		}
	}
	const json_t *lat = json_object_get(o, "latency_us");
	double ops = 0, bytes = 0;
	if (num(o, "iops", &p->iops) < 0 || num(o, "bw_bytes_per_s", &p->bw) < 0 ||
	    num(o, "ops", &ops) < 0 || num(o, "bytes", &bytes) < 0 ||
	    num(lat, "mean", &p->lat_mean_us) < 0 || num(lat, "p99", &p->lat_p99_us) < 0)
		return bad_phase(e, path, i, p->name,
				 "'iops', 'bw_bytes_per_s', 'ops', 'bytes', 'latency_us.mean' and "
				 "'latency_us.p99' must be numbers");
	p->bytes_per_op = ops > 0 ? bytes / ops : 0;
	/* a partial phase must not be judged like a complete one, so a record
	 * that cannot say which it is is refused rather than taken as complete */
	const json_t *errors = json_object_get(o, "errors");
	const json_t *intr = json_object_get(o, "interrupted");
	const json_t *failed = json_object_get(o, "failed");
	if (!json_is_integer(errors) || json_integer_value(errors) < 0 || !json_is_boolean(intr) ||
	    !json_is_boolean(failed))
		return bad_phase(e, path, i, p->name,
				 "'errors' must be a count, 'interrupted' and 'failed' booleans");
	p->errors = json_integer_value(errors);
	p->interrupted = json_is_true(intr);
	p->failed = json_is_true(failed);
	const json_t *samples = json_object_get(o, "samples");
	if (!json_is_array(samples))
		return bad_phase(e, path, i, p->name, "no 'samples' array");
	int rc = load_samples(samples, p);
	if (rc == -ENOMEM)
		return cb_err_set(e, CB_EXIT_USAGE, rc, "%s: out of memory", path);
	if (rc < 0)
		return bad_phase(e, path, i, p->name,
				 "each sample needs numbers 'ops', 'bytes', 'lat_mean_us'");
	const json_t *it = json_object_get(o, "iterations");
	if (it) {
		rc = load_reps(it, p);
		if (rc == -ENOMEM)
			return cb_err_set(e, CB_EXIT_USAGE, rc, "%s: out of memory", path);
		if (rc < 0)
			return bad_phase(e, path, i, p->name,
					 "'iterations.iops' must be an array of numbers");
	}
	return 0;
}

int cb_cmp_load(const char *path, struct cb_cmp_file *f, struct cb_err *e)
{
	memset(f, 0, sizeof(*f));
	f->path = path;
	int r = cb_result_load(path, &f->root, e);
	if (r < 0)
		return r;
	const json_t *phases = json_object_get(f->root, "phases");
	f->ph = calloc(json_array_size(phases) + 1, sizeof(*f->ph));
	if (!f->ph)
		return cb_err_set(e, CB_EXIT_USAGE, -ENOMEM, "%s: out of memory", path);
	size_t i;
	const json_t *o;
	json_array_foreach(phases, i, o)
	{
		int rc = load_phase(path, i, o, &f->ph[f->n++], e);
		if (rc < 0)
			return rc;
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
	}
	free(f->ph);
	json_decref(f->root);
	memset(f, 0, sizeof(*f));
}
