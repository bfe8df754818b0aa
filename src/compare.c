/* Pairing phases and testing each pair's metrics for `cephbench compare`;
 * the method is docs/compare.md's. */
#include "compare.h"
#include "term_esc.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct cb_cmp_metric_desc cb_cmp_metrics[CB_CMP_NMETRICS] = {
    [CB_CMP_IOPS] = {"iops", "IOPS", true, true},
    [CB_CMP_BW] = {"bw_bytes_per_s", "bandwidth", true, true},
    [CB_CMP_LAT] = {"lat_mean_us", "mean latency", false, true},
    [CB_CMP_P99] = {"lat_p99_us", "p99 latency", false, false},
};

static void metric(struct cb_cmp_metric *m, const struct cb_cmp_metric_desc *d, double a, double b,
		   const double *xa, size_t na, const double *xb, size_t nb, double confidence)
{
	m->a = a;
	m->b = b;
	/* a baseline of 0 (or so near it that the ratio overflows) has no
	 * percentage: NAN, shown as n/a */
	m->change_pct = a > 0 ? 100 * (b - a) / a : NAN;
	if (!isfinite(m->change_pct))
		m->change_pct = NAN;
	if (!d->tested)
		return;
	if (cb_welch(xa, na, xb, nb, confidence, &m->w) < 0) {
		m->untested = "fewer than 2 values on a side";
		return;
	}
	if (!(m->w.mean_a > 0)) {
		m->untested = "A's mean is 0";
		return;
	}
	m->est_pct = 100 * m->w.diff / m->w.mean_a;
	m->lo_pct = 100 * m->w.lo / m->w.mean_a;
	m->hi_pct = 100 * m->w.hi / m->w.mean_a;
	if (!isfinite(m->est_pct) || !isfinite(m->lo_pct) || !isfinite(m->hi_pct)) {
		m->untested = "A's mean is too near 0 for a percentage";
		return;
	}
	m->tested = true;
	/* the CI excludes 0 exactly when Welch's two-sided p < 1 - confidence */
	int up = m->w.lo > 0 ? 1 : m->w.hi < 0 ? -1 : 0;
	m->verdict = d->higher_better ? up : -up;
}

int cb_cmp_phases(const struct cb_cmp_phase *a, const struct cb_cmp_phase *b, double confidence,
		  struct cb_cmp *c)
{
	memset(c, 0, sizeof(*c));
	c->a = a;
	c->b = b;
	/* partial figures, or a cache's, are not a verdict on the cluster */
	c->judged = !a->interrupted && !a->failed && !b->interrupted && !b->failed && !a->cached &&
		    !b->cached;
	c->repeats = a->nreps >= 2 && b->nreps >= 2;
	double *bw_a = NULL, *bw_b = NULL;
	const double *ia = a->ops_s, *ib = b->ops_s, *ba = a->bytes_s, *bb = b->bytes_s;
	size_t na = a->nsec, nb = b->nsec;
	if (c->repeats) {
		/* a repeat's bandwidth is its rate times the phase's bytes per op */
		bw_a = calloc(a->nreps, sizeof(double));
		bw_b = calloc(b->nreps, sizeof(double));
		if (!bw_a || !bw_b) {
			free(bw_a);
			free(bw_b);
			return -ENOMEM;
		}
		for (size_t i = 0; i < a->nreps; i++)
			bw_a[i] = a->reps[i] * a->bytes_per_op;
		for (size_t i = 0; i < b->nreps; i++)
			bw_b[i] = b->reps[i] * b->bytes_per_op;
		ia = a->reps;
		ib = b->reps;
		ba = bw_a;
		bb = bw_b;
		na = a->nreps;
		nb = b->nreps;
	}
	c->n_a = na;
	c->n_b = nb;
	const struct cb_cmp_metric_desc *d = cb_cmp_metrics;
	metric(&c->m[CB_CMP_IOPS], &d[CB_CMP_IOPS], a->iops, b->iops, ia, na, ib, nb, confidence);
	metric(&c->m[CB_CMP_BW], &d[CB_CMP_BW], a->bw, b->bw, ba, na, bb, nb, confidence);
	metric(&c->m[CB_CMP_LAT], &d[CB_CMP_LAT], a->lat_mean_us, b->lat_mean_us, a->lat_s, a->nlat,
	       b->lat_s, b->nlat, confidence);
	metric(&c->m[CB_CMP_P99], &d[CB_CMP_P99], a->lat_p99_us, b->lat_p99_us, NULL, 0, NULL, 0,
	       confidence);
	free(bw_a);
	free(bw_b);
	return 0;
}

int cb_cmp_worse_beyond(const struct cb_cmp *c, double pct)
{
	if (!c->judged)
		return -1;
	for (int i = 0; i < CB_CMP_NMETRICS; i++) {
		const struct cb_cmp_metric *m = &c->m[i];
		if (!m->tested)
			continue;
		if (cb_cmp_metrics[i].higher_better ? m->hi_pct < -pct : m->lo_pct > pct)
			return i;
	}
	return -1;
}

int cb_cmp_match(const struct cb_cmp_file *a, const struct cb_cmp_file *b, struct cb_cmp_match *m)
{
	memset(m, 0, sizeof(*m));
	bool *used = calloc(b->n + 1, sizeof(bool));
	m->pair_a = calloc(a->n + 1, sizeof(size_t));
	m->pair_b = calloc(a->n + 1, sizeof(size_t));
	m->only_a = calloc(a->n + 1, sizeof(size_t));
	m->only_b = calloc(b->n + 1, sizeof(size_t));
	if (!used || !m->pair_a || !m->pair_b || !m->only_a || !m->only_b) {
		free(used);
		cb_cmp_match_free(m);
		return -ENOMEM;
	}
	for (size_t i = 0; i < a->n; i++) {
		size_t j = 0;
		while (j < b->n && (used[j] || strcmp(a->ph[i].name, b->ph[j].name) != 0))
			j++;
		if (j == b->n) {
			m->only_a[m->n_only_a++] = i;
			continue;
		}
		used[j] = true;
		m->pair_a[m->npairs] = i;
		m->pair_b[m->npairs++] = j;
	}
	for (size_t j = 0; j < b->n; j++)
		if (!used[j])
			m->only_b[m->n_only_b++] = j;
	free(used);
	return 0;
}

void cb_cmp_match_free(struct cb_cmp_match *m)
{
	free(m->pair_a);
	free(m->pair_b);
	free(m->only_a);
	free(m->only_b);
	memset(m, 0, sizeof(*m));
}

static bool str_eq(const char *x, const char *y)
{
	return x == y || (x && y && strcmp(x, y) == 0);
}

/* Rows x and y differ at most in key (both carry it). */
static bool same_group(const struct cb_cmp_phase *x, const struct cb_cmp_phase *y, const char *key)
{
	if (!str_eq(x->workload, y->workload) || !str_eq(x->step, y->step) ||
	    json_object_size(x->matrix) != json_object_size(y->matrix))
		return false;
	const char *k;
	const json_t *v;
	json_object_foreach((json_t *)x->matrix, k, v)
	{
		if (strcmp(k, key) == 0)
			continue;
		if (!str_eq(json_string_value(v), json_string_value(json_object_get(y->matrix, k))))
			return false;
	}
	return true;
}

static int no_key(const struct cb_cmp_file *f, const char *key, struct cb_err *e)
{
	/* name the keys there are, as a did-you-mean would */
	char keys[256] = "";
	size_t len = 0;
	for (size_t i = 0; i < f->n; i++) {
		const char *k;
		const json_t *v;
		json_object_foreach((json_t *)f->ph[i].matrix, k, v)
		{
			char quoted[80], esc[64];
			snprintf(quoted, sizeof(quoted), "'%s'", cb_esc_str(k, esc, sizeof(esc)));
			if (strstr(keys, quoted) || len + strlen(quoted) + 3 >= sizeof(keys))
				continue;
			len += (size_t)snprintf(keys + len, sizeof(keys) - len, "%s%s",
						len ? ", " : "", quoted);
		}
	}
	return cb_err_usage(e, "--by '%s': %s has no matrix row varying '%s' (its matrix keys: %s)",
			    key, f->path, key, keys);
}

int cb_cmp_group_by(const struct cb_cmp_file *f, const char *key, struct cb_cmp_groups *gs,
		    struct cb_err *e)
{
	memset(gs, 0, sizeof(*gs));
	bool any_matrix = false, any_key = false;
	for (size_t i = 0; i < f->n; i++) {
		any_matrix |= f->ph[i].matrix != NULL;
		any_key |= json_object_get(f->ph[i].matrix, key) != NULL;
	}
	if (!any_matrix)
		return cb_err_usage(e,
				    "--by '%s': %s has no matrix rows (--by compares the rows of "
				    "one profile run with a matrix)",
				    key, f->path);
	if (!any_key)
		return no_key(f, key, e);

	size_t *group_of = calloc(f->n + 1, sizeof(size_t));
	gs->g = calloc(f->n + 1, sizeof(*gs->g));
	gs->alone = calloc(f->n + 1, sizeof(size_t));
	if (!group_of || !gs->g || !gs->alone) {
		free(group_of);
		cb_cmp_groups_free(gs);
		return cb_err_set(e, CB_EXIT_USAGE, -ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < f->n; i++) {
		const struct cb_cmp_phase *p = &f->ph[i];
		group_of[i] = SIZE_MAX;
		if (!json_object_get(p->matrix, key))
			continue;
		size_t g = 0;
		while (g < gs->n && !same_group(&f->ph[gs->g[g].rows[0]], p, key))
			g++;
		if (g == gs->n) {
			gs->g[g].rows = calloc(f->n, sizeof(size_t));
			if (!gs->g[g].rows) {
				free(group_of);
				cb_cmp_groups_free(gs);
				return cb_err_set(e, CB_EXIT_USAGE, -ENOMEM, "out of memory");
			}
			gs->n++;
		}
		gs->g[g].rows[gs->g[g].n++] = i;
		group_of[i] = g;
	}
	for (size_t i = 0; i < f->n; i++)
		if (group_of[i] == SIZE_MAX || gs->g[group_of[i]].n < 2)
			gs->alone[gs->nalone++] = i;
	free(group_of);
	return 0;
}

void cb_cmp_groups_free(struct cb_cmp_groups *gs)
{
	for (size_t g = 0; g < gs->n; g++)
		free(gs->g[g].rows);
	free(gs->g);
	free(gs->alone);
	memset(gs, 0, sizeof(*gs));
}
