/* The regression rule: a phase's figures against the median of the same
 * phase in earlier runs (docs/health.md, "How the baseline works"). Pure
 * arithmetic on JSON, no I/O, so the unit tests pin it down. */
#ifndef CB_REGRESSION_H
#define CB_REGRESSION_H

#include <jansson.h>
#include <stddef.h>

/* The compared figures, in the order of a baseline row. */
enum { CB_REG_IOPS, CB_REG_BW, CB_REG_P99, CB_REG_NMETRICS };

/* Fewer earlier runs than this give no verdict: a median of two is noise. */
#define CB_REG_MIN_RUNS 3

/* A rate measured over less time than this is mostly scheduling noise (a
 * tree test's stat phase lasts milliseconds): no verdict. */
#define CB_REG_MIN_SECONDS 1.0

/* A p99 of fewer ops is little more than their maximum: one slow op in a
 * small phase (a tree test's few creates) is no regression. */
#define CB_REG_P99_MIN_OPS 1000

/* Median of v[0..n) (reorders v). 0 for n == 0. */
double cb_median(double *v, size_t n);

/* Median absolute deviation of v[0..n) from med into *mad (v unchanged).
 * 0, or -ENOMEM (*mad untouched). */
int cb_mad(const double *v, size_t n, double med, double *mad);

/* A phase's figure for metric m from its JSON record (p99 in µs). */
double cb_reg_value(const json_t *phase, int m);

/* The "regression" annotation of phase against n earlier runs whose
 * figures are rows[i * CB_REG_NMETRICS + m]; pct is the --regression limit.
 * With skip set (e.g. "the run was interrupted") there is no comparison.
 * NULL on ENOMEM. */
json_t *cb_regression_judge(const json_t *phase, const double *rows, size_t n, double pct,
			    const char *skip);

#endif
