/* Welch's test against values worked by hand: the t, df and CI formulas
 * (docs/compare.md), the t quantiles from printed tables, and the
 * closed-form CDF of Student's t with 4 degrees of freedom for a p-value. */
#include "welch.h"

#include <check.h>
#include <errno.h>
#include <math.h>

#define EPS 1e-6

START_TEST(quantiles)
{
	/* textbook table values; df 2 has the closed form (2p-1)/sqrt(2p(1-p)) */
	ck_assert_double_eq_tol(cb_t_quantile(0.975, 1), 12.7062047, EPS);
	ck_assert_double_eq_tol(cb_t_quantile(0.975, 2), 4.30265273, EPS);
	ck_assert_double_eq_tol(cb_t_quantile(0.975, 4), 2.77644511, EPS);
	ck_assert_double_eq_tol(cb_t_quantile(0.975, 10), 2.22813885, EPS);
	ck_assert_double_eq_tol(cb_t_quantile(0.995, 5), 4.03214298, EPS);
	/* towards the normal distribution, and symmetric about 0 */
	ck_assert_double_eq_tol(cb_t_quantile(0.975, 1e7), 1.95996398, 1e-5);
	ck_assert_double_eq_tol(cb_t_quantile(0.5, 7), 0, EPS);
	ck_assert_double_eq_tol(cb_t_quantile(0.025, 10), -2.22813885, EPS);
	ck_assert(cb_t_quantile(0.975, 4.5) < cb_t_quantile(0.975, 4));
	ck_assert(cb_t_quantile(0.975, 4.5) > cb_t_quantile(0.975, 5));
}
END_TEST

START_TEST(equal_variances)
{
	/* {1,2,3} vs {4,5,6}: variances 1, se = sqrt(2/3), df = 4 exactly */
	const double a[] = {1, 2, 3}, b[] = {4, 5, 6};
	struct cb_welch w;
	ck_assert_int_eq(cb_welch(a, 3, b, 3, 0.95, &w), 0);
	ck_assert_double_eq_tol(w.mean_a, 2, EPS);
	ck_assert_double_eq_tol(w.mean_b, 5, EPS);
	ck_assert_double_eq_tol(w.var_a, 1, EPS);
	ck_assert_double_eq_tol(w.diff, 3, EPS);
	ck_assert_double_eq_tol(w.se, sqrt(2.0 / 3), EPS);
	ck_assert_double_eq_tol(w.df, 4, EPS);
	ck_assert_double_eq_tol(w.t, 3 / sqrt(2.0 / 3), EPS);
	/* F(t) for df 4: 1/2 + 3/8 x (1 - t^2 / (12 u)) with u = 1 + t^2/4,
	 * x = t / sqrt(u): p = 0.0213116411 for t = 3.6742346 */
	ck_assert_double_eq_tol(w.p, 0.0213116411, 1e-8);
	/* 3 -+ 2.77644511 sqrt(2/3) */
	ck_assert_double_eq_tol(w.lo, 3 - 2.77644511 * sqrt(2.0 / 3), EPS);
	ck_assert_double_eq_tol(w.hi, 3 + 2.77644511 * sqrt(2.0 / 3), EPS);
}
END_TEST

START_TEST(unequal_variances)
{
	/* {1,2,3,4} vs {2,4,6,8}: var 5/3 and 20/3, se^2 = 25/12, t = sqrt(3),
	 * df = (25/12)^2 / ((5/12)^2/3 + (20/12)^2/3) = 75/17 */
	const double a[] = {1, 2, 3, 4}, b[] = {2, 4, 6, 8};
	struct cb_welch w;
	ck_assert_int_eq(cb_welch(a, 4, b, 4, 0.95, &w), 0);
	ck_assert_double_eq_tol(w.se, sqrt(25.0 / 12), EPS);
	ck_assert_double_eq_tol(w.t, sqrt(3), EPS);
	ck_assert_double_eq_tol(w.df, 75.0 / 17, EPS);
	double q = cb_t_quantile(0.975, 75.0 / 17);
	ck_assert_double_eq_tol(w.lo, 2.5 - q * w.se, EPS);
	ck_assert(w.lo < 0 && w.hi > 0 && w.p > 0.05); /* not significant */
	/* swapping the sides mirrors everything */
	struct cb_welch r;
	ck_assert_int_eq(cb_welch(b, 4, a, 4, 0.95, &r), 0);
	ck_assert_double_eq_tol(r.diff, -w.diff, EPS);
	ck_assert_double_eq_tol(r.lo, -w.hi, EPS);
	ck_assert_double_eq_tol(r.df, w.df, EPS);
	ck_assert_double_eq_tol(r.p, w.p, EPS);
	/* at 80 % the same data give a narrower interval that excludes 0
	 * (t = 1.73 > t_0.9(4.41) = 1.5) */
	ck_assert_int_eq(cb_welch(a, 4, b, 4, 0.80, &r), 0);
	ck_assert(r.lo > 0 && r.hi < w.hi);
}
END_TEST

START_TEST(unequal_sizes)
{
	/* {10,12} vs {20,21,22,23,24}: var 2 and 2.5; se^2 = 1 + 0.5 = 1.5;
	 * df = 2.25 / (1/1 + 0.25/4) = 2.25 / 1.0625 */
	const double a[] = {10, 12}, b[] = {20, 21, 22, 23, 24};
	struct cb_welch w;
	ck_assert_int_eq(cb_welch(a, 2, b, 5, 0.95, &w), 0);
	ck_assert_double_eq_tol(w.diff, 11, EPS);
	ck_assert_double_eq_tol(w.se, sqrt(1.5), EPS);
	ck_assert_double_eq_tol(w.df, 2.25 / 1.0625, EPS);
}
END_TEST

START_TEST(no_spread)
{
	const double a[] = {5, 5, 5}, b[] = {5, 5}, c[] = {6, 6};
	struct cb_welch w;
	ck_assert_int_eq(cb_welch(a, 3, b, 2, 0.95, &w), 0);
	ck_assert(w.lo == 0 && w.hi == 0 && w.p == 1);
	ck_assert_int_eq(cb_welch(a, 3, c, 2, 0.95, &w), 0);
	ck_assert(w.lo == 1 && w.hi == 1 && w.p == 0);
}
END_TEST

START_TEST(refused)
{
	const double a[] = {1, 2}, b[] = {3};
	struct cb_welch w;
	ck_assert_int_eq(cb_welch(a, 2, b, 1, 0.95, &w), -EINVAL);
	ck_assert_int_eq(cb_welch(b, 1, a, 2, 0.95, &w), -EINVAL);
	ck_assert_int_eq(cb_welch(a, 2, a, 2, 1.0, &w), -EINVAL);
	ck_assert_int_eq(cb_welch(a, 2, a, 2, 0, &w), -EINVAL);
	ck_assert_int_eq(cb_welch(a, 2, a, 2, NAN, &w), -EINVAL);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("welch");
	TCase *tc = tcase_create("welch");
	tcase_add_test(tc, quantiles);
	tcase_add_test(tc, equal_variances);
	tcase_add_test(tc, unequal_variances);
	tcase_add_test(tc, unequal_sizes);
	tcase_add_test(tc, no_spread);
	tcase_add_test(tc, refused);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
