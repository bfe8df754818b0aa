/* The steady-state stop rule. Each measured second gives one value of the
 * metric (ops, bytes, or that second's p99); the phase is steady once every
 * value of the last window lies within `within` of the window's mean, as
 * fio's ss=iops:5% judges. */
#include "steady.h"
#include "jget.h"
#include "engine.h"
#include "hist.h"
#include "result.h"
#include "units.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

const char *const cb_steady_metrics[] = {"off", "iops", "bw", "p99", NULL};

struct judge {
	int metric;
	uint64_t window;     /* seconds */
	double within;	     /* fraction of the mean */
	double *vals;	     /* ring of the last window's values */
	uint64_t have;	     /* values so far */
	struct cb_hist *sec; /* p99: this second's latencies */
};

int cb_steady_check(const struct cb_workload *wl, char *why, size_t n)
{
	const struct cb_steady *s = &wl->steady;
	char a[32], b[32];
	if (s->metric == CB_STEADY_OFF)
		return 0;
	if (s->window_ns % 1000000000ULL) {
		snprintf(
		    why, n,
		    "steady: window %s is not whole seconds: the metric is judged once a second",
		    cb_format_duration(s->window_ns, a, sizeof(a)));
		return -EINVAL;
	}
	if (s->max_ns < wl->ramp_ns + s->window_ns) {
		snprintf(why, n,
			 "steady: max %s is shorter than ramp plus one window (%s): raise max or "
			 "shorten the window",
			 cb_format_duration(s->max_ns, a, sizeof(a)),
			 cb_format_duration(wl->ramp_ns + s->window_ns, b, sizeof(b)));
		return -EINVAL;
	}
	if (wl->ops || wl->bytes) {
		snprintf(
		    why, n,
		    "steady: the phase ends at steady state or at max; leave ops and bytes out");
		return -EINVAL;
	}
	return 0;
}

int cb_steady_begin(struct cb_steady_state *s, const struct cb_workload *wl)
{
	s->priv = NULL;
	if (wl->steady.metric == CB_STEADY_OFF)
		return 0;
	struct judge *j = calloc(1, sizeof(*j));
	if (!j)
		return -ENOMEM;
	j->metric = wl->steady.metric;
	j->window = wl->steady.window_ns / 1000000000ULL;
	j->within = (double)wl->steady.within_ppm / 1e6;
	j->vals = calloc(j->window, sizeof(*j->vals));
	if (j->metric == CB_STEADY_P99)
		j->sec = cb_hist_new();
	if (!j->vals || (j->metric == CB_STEADY_P99 && !j->sec)) {
		free(j->vals);
		cb_hist_free(j->sec);
		free(j);
		return -ENOMEM;
	}
	s->priv = j;
	return 0;
}

void cb_steady_op(struct cb_steady_state *s, uint64_t lat_ns)
{
	struct judge *j = s->priv;
	if (j && j->sec)
		cb_hist_record(j->sec, lat_ns);
}

bool cb_steady_wants_ops(const struct cb_steady_state *s)
{
	const struct judge *j = s->priv;
	return j && j->sec;
}

/* The value of measured second k (its sample is complete: the loop has
 * passed its end). */
static double value_of(struct judge *j, const struct cb_phase_result *res, uint64_t k)
{
	if (j->sec) {
		double v = j->sec->count ? (double)cb_hist_percentile(j->sec, 99) : 0.0;
		cb_hist_reset(j->sec);
		return v;
	}
	const struct cb_sample *sm = k < res->nsamples ? &res->samples[k] : NULL;
	if (!sm)
		return 0.0;
	return j->metric == CB_STEADY_BW ? (double)sm->bytes : (double)sm->ops;
}

bool cb_steady_tick(struct cb_steady_state *s, struct cb_phase_result *res, uint64_t sec)
{
	struct judge *j = s->priv;
	if (!j || sec == 0)
		return false;
	/* the loop may skip a second when it slept through it: judge each */
	for (uint64_t k = j->have; k < sec; k++)
		j->vals[k % j->window] = value_of(j, res, k);
	j->have = sec;
	if (j->have < j->window)
		return false;
	double mean = 0.0;
	for (uint64_t i = 0; i < j->window; i++)
		mean += j->vals[i];
	mean /= (double)j->window;
	if (mean <= 0.0)
		return false; /* nothing measured is not steady */
	for (uint64_t i = 0; i < j->window; i++)
		if (fabs(j->vals[i] - mean) > j->within * mean)
			return false;
	res->steady = 1;
	res->steady_ns = sec * 1000000000ULL;
	return true;
}

void cb_steady_end(struct cb_steady_state *s, struct cb_phase_result *res)
{
	struct judge *j = s->priv;
	if (!j)
		return;
	if (res->steady != 1) {
		res->steady = 2;
		res->steady_ns = j->have * 1000000000ULL;
	}
	free(j->vals);
	cb_hist_free(j->sec);
	free(j);
	s->priv = NULL;
}

int cb_steady_json(const struct cb_phase_result *p, json_t *o)
{
	if (!p->steady || !p->wl)
		return 0;
	const struct cb_steady *s = &p->wl->steady;
	json_t *j =
	    json_pack("{s:s, s:f, s:f, s:f, s:b, s:f}", "metric", cb_steady_metrics[s->metric],
		      "window_s", (double)s->window_ns / 1e9, "within_pct",
		      (double)s->within_ppm / 1e4, "max_s", (double)s->max_ns / 1e9, "reached",
		      p->steady == 1, "after_s", (double)p->steady_ns / 1e9);
	return j && json_object_set_new(o, "steady", j) == 0 ? 0 : -ENOMEM;
}

void cb_steady_text(const json_t *p, FILE *out)
{
	const json_t *s = json_object_get(p, "steady");
	if (!s)
		return;
	char w[32], m[32];
	const char *name = cb_jstr(p, "name", ""), *metric = cb_jstr(s, "metric", "");
	cb_format_duration((uint64_t)llround(cb_jnum(s, "window_s") * 1e9), w, sizeof(w));
	if (cb_jtrue(s, "reached"))
		fprintf(out, "%s: steady: %s held within %.3g%% over %s after %.0f s measured\n",
			name, metric, cb_jnum(s, "within_pct"), w, cb_jnum(s, "after_s"));
	else
		fprintf(
		    out, "%s: steady: not reached: %s never held within %.3g%% over %s by max %s\n",
		    name, metric, cb_jnum(s, "within_pct"), w,
		    cb_format_duration((uint64_t)llround(cb_jnum(s, "max_s") * 1e9), m, sizeof(m)));
}
