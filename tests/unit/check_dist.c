/* The target distributions (dist.c) as numbers: zipf's hottest targets
 * take the share the exact distribution gives, pareto:h puts h of the
 * draws on 1 - h of the targets, normal:PCT keeps 68 % within one
 * deviation of the middle, the hot set is spread (not target 0), coverage
 * visits every target once a pass (so the spreading is a bijection), and
 * the parser's refusals. Draws are
 * many (200,000): the bounds are several standard errors wide. */
#include "dist.h"
#include "unit_run.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DRAWS 200000

static struct cb_dist make(const char *spec, uint64_t n, bool coverage, uint64_t *rng)
{
	struct cb_dist_spec sp;
	char why[128];
	ck_assert_msg(cb_dist_parse(spec, &sp, why, sizeof(why)) == 0, "%s: %s", spec, why);
	struct cb_dist d;
	cb_dist_init(&d, &sp, n, coverage, 42, rng);
	return d;
}

static int by_count_desc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? 1 : x > y ? -1 : 0;
}

/* The share of the draws on the k most drawn of n targets. */
static double top_share(const char *spec, uint64_t n, uint64_t k)
{
	uint64_t rng = 7, *count = calloc(n, sizeof(*count));
	struct cb_dist d = make(spec, n, false, &rng);
	for (int i = 0; i < DRAWS; i++) {
		uint64_t x = cb_dist_next(&d, &rng);
		ck_assert_uint_lt(x, n);
		count[x]++;
	}
	qsort(count, n, sizeof(*count), by_count_desc);
	uint64_t top = 0;
	for (uint64_t i = 0; i < k; i++)
		top += count[i];
	free(count);
	return (double)top / DRAWS;
}

START_TEST(zipf_share)
{
	static const double thetas[] = {0.6, 1.0, 1.2, 2.0};
	for (size_t i = 0; i < sizeof(thetas) / sizeof(thetas[0]); i++) {
		char spec[32];
		snprintf(spec, sizeof(spec), "zipf:%g", thetas[i]);
		double want = cb_dist_zipf_share(thetas[i], 100, 10000);
		double got = top_share(spec, 10000, 100);
		ck_assert_msg(got > want - 0.01 && got < want + 0.01,
			      "%s: top 1%% %.4f, exact %.4f", spec, got, want);
	}
}
END_TEST

START_TEST(pareto_and_normal)
{
	double got = top_share("pareto:0.8", 10000, 2000);
	ck_assert_msg(got > 0.79 && got < 0.81, "pareto:0.8: top 20%% took %.4f", got);
	uint64_t rng = 3, near = 0, n = 100000;
	struct cb_dist d = make("normal:10", n, false, &rng);
	for (int i = 0; i < DRAWS; i++) {
		uint64_t x = cb_dist_next(&d, &rng);
		near += x >= n / 2 - n / 10 && x < n / 2 + n / 10;
	}
	double share = (double)near / DRAWS;
	ck_assert_msg(share > 0.675 && share < 0.69, "normal:10: %.4f within one deviation", share);
	/* uniform: every target about as often */
	got = top_share("uniform", 100, 50);
	ck_assert_msg(got > 0.5 && got < 0.52, "uniform: the busier half took %.4f", got);
}
END_TEST

START_TEST(hot_set_spread)
{
	/* with a theta this steep nearly every draw is rank 1: one target */
	uint64_t rng = 5;
	struct cb_dist d = make("zipf:8", 1000, false, &rng);
	uint64_t first = cb_dist_next(&d, &rng), same = 0;
	for (int i = 0; i < 1000; i++)
		same += cb_dist_next(&d, &rng) == first;
	ck_assert_uint_gt(same, 990);
	/* the hot target is not simply target 0: the hot set is spread, by
	 * the seed: another seed puts it elsewhere */
	ck_assert_uint_ne(first, 0);
	struct cb_dist_spec sp;
	char why[64];
	ck_assert_int_eq(cb_dist_parse("zipf:8", &sp, why, sizeof(why)), 0);
	struct cb_dist other;
	cb_dist_init(&other, &sp, 1000, false, 43, &rng);
	uint64_t moved = 0;
	for (int i = 0; i < 100; i++)
		moved += cb_dist_next(&other, &rng) != first;
	ck_assert_uint_gt(moved, 90);
}
END_TEST

START_TEST(coverage_once_a_pass)
{
	static const uint64_t sizes[] = {1, 2, 3, 1000, 4097};
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint64_t n = sizes[i], rng = 11;
		struct cb_dist d = make("uniform", n, true, &rng);
		unsigned char *seen = calloc(n, 1);
		for (int pass = 1; pass <= 2; pass++)
			for (uint64_t k = 0; k < n; k++) {
				uint64_t x = cb_dist_next(&d, &rng);
				ck_assert_uint_lt(x, n);
				ck_assert_msg(seen[x] == pass - 1, "n %llu: %llu twice in pass %d",
					      (unsigned long long)n, (unsigned long long)x, pass);
				seen[x] = (unsigned char)pass;
			}
		free(seen);
	}
}
END_TEST

START_TEST(parse)
{
	struct cb_dist_spec d;
	char why[128], buf[32];
	ck_assert_int_eq(cb_dist_parse("zipf:1.2", &d, why, sizeof(why)), 0);
	cb_dist_format(&d, buf, sizeof(buf));
	ck_assert_str_eq(buf, "zipf:1.2");
	static const char *const bad[][2] = {
	    {"zipf", "zipf needs a number after ':'"},
	    {"zipf:", "zipf needs a number"},
	    {"zipf:0", "theta must be above 0"},
	    {"zipf:-1", "theta must be above 0"},
	    {"zipf:1.2x", "zipf needs a number"},
	    {"zipf:nan", "zipf needs a number"},
	    {"pareto:1", "between 0 and 1"},
	    {"normal:0", "above 0 and at most 100"},
	    {"uniform:3", "uniform takes no parameter"},
	    {"gauss:3", "expected uniform, zipf:THETA"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		ck_assert_int_eq(cb_dist_parse(bad[i][0], &d, why, sizeof(why)), -EINVAL);
		ck_assert_msg(strstr(why, bad[i][1]), "%s: %s", bad[i][0], why);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("dist");
	TCase *tc = tcase_create("dist");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, zipf_share);
	tcase_add_test(tc, pareto_and_normal);
	tcase_add_test(tc, hot_set_spread);
	tcase_add_test(tc, coverage_once_a_pass);
	tcase_add_test(tc, parse);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
