/* Two-sample statistics for `cephbench compare`: Welch's t-test and the
 * confidence interval of a difference of means (docs/compare.md). */
#ifndef CB_WELCH_H
#define CB_WELCH_H

#include <stdbool.h>
#include <stddef.h>

struct cb_welch {
	double mean_a, mean_b;
	double var_a, var_b; /* sample variances (divided by n - 1) */
	double diff;	     /* mean_b - mean_a */
	double se;	     /* standard error of diff */
	double df;	     /* Welch-Satterthwaite degrees of freedom */
	double t;	     /* diff / se (0 when se is 0) */
	double p;	     /* two-sided p-value */
	double lo, hi;	     /* confidence interval of diff */
};

/* Welch's test of b against a at two-sided level confidence (0.95 for
 * 95 %). Needs at least 2 values on each side: -EINVAL otherwise, or when
 * confidence is not strictly between 0 and 1. */
int cb_welch(const double *a, size_t na, const double *b, size_t nb, double confidence,
	     struct cb_welch *w);

/* The quantile of Student's t distribution with df degrees of freedom below
 * which probability p lies. */
double cb_t_quantile(double p, double df);

#endif
