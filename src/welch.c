/* Welch's t-test on top of GSL: its mean/variance routines and the t
 * distribution's quantile and tail. */
#include "welch.h"

#include <errno.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>

double cb_t_quantile(double p, double df)
{
	return gsl_cdf_tdist_Pinv(p, df);
}

int cb_welch(const double *a, size_t na, const double *b, size_t nb, double confidence,
	     struct cb_welch *w)
{
	if (na < 2 || nb < 2 || !(confidence > 0 && confidence < 1))
		return -EINVAL;
	w->mean_a = gsl_stats_mean(a, 1, na);
	w->mean_b = gsl_stats_mean(b, 1, nb);
	w->var_a = gsl_stats_variance_m(a, 1, na, w->mean_a);
	w->var_b = gsl_stats_variance_m(b, 1, nb, w->mean_b);
	w->diff = w->mean_b - w->mean_a;
	double sa = w->var_a / (double)na, sb = w->var_b / (double)nb;
	w->se = sqrt(sa + sb);
	if (w->se == 0) {
		/* no spread on either side: the difference is exact, and the
		 * Welch-Satterthwaite df is 0/0; use the pooled df so the
		 * record still carries a number */
		w->df = (double)(na + nb - 2);
		w->t = 0;
		w->p = w->diff == 0 ? 1 : 0;
		w->lo = w->hi = w->diff;
		return 0;
	}
	w->df = (sa + sb) * (sa + sb) / (sa * sa / (double)(na - 1) + sb * sb / (double)(nb - 1));
	w->t = w->diff / w->se;
	w->p = 2 * gsl_cdf_tdist_Q(fabs(w->t), w->df);
	double q = gsl_cdf_tdist_Pinv(1 - (1 - confidence) / 2, w->df);
	w->lo = w->diff - q * w->se;
	w->hi = w->diff + q * w->se;
	return 0;
}
