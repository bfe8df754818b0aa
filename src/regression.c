/* Regression verdicts. The baseline of a figure is the median of the earlier
 * runs (robust to one odd run, unlike the mean); its spread is 3 x the
 * MAD scaled to a standard deviation (1.4826 x MAD for normal noise), as a
 * percentage of the median. A change is a regression only when it is worse
 * than both the user's limit and that spread: a limit tighter than the
 * cluster's own run-to-run noise would cry wolf every night. The p99 of a
 * phase with few ops is not compared (CB_REG_P99_MIN_OPS). */
#include "regression.h"

#include <errno.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#define MAD_SCALE  1.4826
#define SPREAD_MAD 3.0

static const struct {
	const char *key;
	bool higher_better;
} metric[CB_REG_NMETRICS] = {
    [CB_REG_IOPS] = {"iops", true},
    [CB_REG_BW] = {"bw_bytes_per_s", true},
    [CB_REG_P99] = {"p99_us", false},
};

double cb_median(double *v, size_t n)
{
	return n ? gsl_stats_median(v, 1, n) : 0;
}

int cb_mad(const double *v, size_t n, double med, double *mad)
{
	/* calloc: it refuses an n whose size in bytes overflows */
	double *d = calloc(n ? n : 1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		d[i] = fabs(v[i] - med);
	*mad = cb_median(d, n);
	free(d);
	return 0;
}

double cb_reg_value(const json_t *phase, int m)
{
	if (m == CB_REG_P99)
		return json_number_value(
		    json_object_get(json_object_get(phase, "latency_us"), "p99"));
	return json_number_value(json_object_get(phase, metric[m].key));
}

/* One figure's comparison into *out, left NULL when the baseline has
 * nothing to compare with (a median of 0: no bytes moved, nothing measured).
 * 0 or -ENOMEM: a spread lost to a failed allocation must not read as 0,
 * which would let any change past the limit through as a regression. */
static int judge_metric(const json_t *phase, int m, const double *rows, size_t n, double pct,
			double *v, bool *bad, json_t **out)
{
	double mad;
	*out = NULL;
	for (size_t i = 0; i < n; i++)
		v[i] = rows[i * CB_REG_NMETRICS + m];
	double med = cb_median(v, n);
	if (med <= 0)
		return 0;
	if (m == CB_REG_P99 &&
	    json_number_value(json_object_get(phase, "ops")) < CB_REG_P99_MIN_OPS)
		return 0;
	if (cb_mad(v, n, med, &mad) < 0)
		return -ENOMEM;
	double spread = 100.0 * SPREAD_MAD * MAD_SCALE * mad / med;
	double val = cb_reg_value(phase, m);
	double change = 100.0 * (val - med) / med;
	/* worse means lower for rates, higher for latency */
	double worse = metric[m].higher_better ? -change : change;
	/* and beyond every earlier run: a MAD of a few runs can be near 0 while
	 * one of them was as bad, and p99 on a busy cluster often is */
	double worst = v[0];
	for (size_t i = 1; i < n; i++)
		worst = metric[m].higher_better ? fmin(worst, v[i]) : fmax(worst, v[i]);
	bool beyond = metric[m].higher_better ? val < worst : val > worst;
	bool reg = worse > pct && worse > spread && beyond;
	*bad |= reg;
	*out = json_pack("{s:f, s:f, s:f, s:f, s:f, s:f, s:b}", "value", val, "baseline_median",
			 med, "baseline_worst", worst, "change_pct", change, "limit_pct",
			 metric[m].higher_better ? -pct : pct, "spread_pct", spread, "regression",
			 reg);
	return *out ? 0 : -ENOMEM;
}

json_t *cb_regression_judge(const json_t *phase, const double *rows, size_t n, double pct,
			    const char *skip)
{
	double secs = json_number_value(json_object_get(phase, "duration_s"));
	char why[160];
	if (!skip && secs < CB_REG_MIN_SECONDS) {
		/* no figure in the text: phases too short group into one line */
		snprintf(why, sizeof(why), "measured for less than %g s", CB_REG_MIN_SECONDS);
		skip = why;
	} else if (!skip && n < CB_REG_MIN_RUNS) {
		snprintf(why, sizeof(why), "%zu earlier run%s, %d needed", n, n == 1 ? "" : "s",
			 CB_REG_MIN_RUNS);
		skip = why;
	}
	json_t *a = json_pack("{s:b, s:I, s:f}", "compared", !skip, "baseline_runs", (json_int_t)n,
			      "limit_pct", pct);
	if (!a)
		return NULL;
	if (skip) {
		json_object_set_new(a, "verdict", json_string("none"));
		json_object_set_new(a, "reason", json_string(skip));
		return a;
	}
	json_t *ms = json_object();
	double *v = calloc(n ? n : 1, sizeof(*v)); /* scratch: the median reorders it */
	bool bad = false;
	/* decided before free(v): v's value is indeterminate after it */
	bool oom = !ms || !v;
	for (int m = 0; m < CB_REG_NMETRICS && !oom; m++) {
		json_t *j;
		oom = judge_metric(phase, m, rows, n, pct, v, &bad, &j) < 0 ||
		      (j && json_object_set_new(ms, metric[m].key, j) < 0);
	}
	free(v);
	if (oom) {
		json_decref(ms);
		json_decref(a);
		return NULL;
	}
	json_object_set_new(a, "metrics", ms);
	json_object_set_new(a, "verdict", json_string(bad ? "regression" : "ok"));
	return a;
}
