/* Size distributions (sizes.c) as numbers: weighted draws take their
 * weights' shares, a range's draws are its step's multiples, every one
 * and evenly, the mean is what the draws average to, a fixed size draws
 * nothing from the generator, the placing helpers keep an op inside its
 * area, and the parser's refusals. Draws are many (200,000): the bounds
 * are several standard errors wide. */
#include "sizes.h"
#include "unit_run.h"

#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define DRAWS 200000

static struct cb_sizes parsed(const char *s)
{
	struct cb_sizes z;
	char why[160];
	ck_assert_msg(cb_sizes_parse(s, 1, 1ULL << 30, &z, why, sizeof(why)) == 0, "%s: %s", s,
		      why);
	return z;
}

START_TEST(weights_take_their_shares)
{
	struct cb_sizes z = parsed("4K:60,64K:30,1M:10");
	uint64_t rng = 11, n4 = 0, n64 = 0, n1m = 0;
	double sum = 0;
	for (int i = 0; i < DRAWS; i++) {
		uint64_t v = cb_sizes_next(&z, 4096, &rng);
		n4 += v == 4096;
		n64 += v == 65536;
		n1m += v == 1048576;
		sum += (double)v;
	}
	ck_assert_uint_eq(n4 + n64 + n1m, DRAWS);
	/* a share's standard error at 200,000 draws is about 0.1 % */
	ck_assert_double_eq_tol((double)n4 / DRAWS, 0.60, 0.006);
	ck_assert_double_eq_tol((double)n64 / DRAWS, 0.30, 0.006);
	ck_assert_double_eq_tol((double)n1m / DRAWS, 0.10, 0.006);
	double mean = cb_sizes_mean(&z, 4096);
	ck_assert_double_eq_tol(mean, 0.6 * 4096 + 0.3 * 65536 + 0.1 * 1048576, 1e-6);
	ck_assert_double_eq_tol(sum / DRAWS / mean, 1.0, 0.02);
	ck_assert_uint_eq(cb_sizes_min(&z), 4096);
	ck_assert_uint_eq(cb_sizes_max(&z), 1048576);
}
END_TEST

START_TEST(range_draws_every_step)
{
	struct cb_sizes z = parsed("4K-64K");
	uint64_t rng = 5, seen[16] = {0};
	double sum = 0;
	for (int i = 0; i < DRAWS; i++) {
		uint64_t v = cb_sizes_next(&z, 4096, &rng);
		ck_assert_uint_eq(v % 4096, 0);
		ck_assert(v >= 4096 && v <= 65536);
		seen[v / 4096 - 1]++;
		sum += (double)v;
	}
	/* 16 steps, each 1/16 of the draws */
	for (int k = 0; k < 16; k++)
		ck_assert_double_eq_tol((double)seen[k] / DRAWS, 1.0 / 16, 0.004);
	ck_assert_double_eq_tol(cb_sizes_mean(&z, 4096), (4096.0 + 65536.0) / 2, 1e-6);
	ck_assert_double_eq_tol(sum / DRAWS / cb_sizes_mean(&z, 4096), 1.0, 0.01);
	/* a step that does not divide the range: its multiples up to the top */
	struct cb_sizes y = parsed("1K-10K");
	ck_assert_double_eq_tol(cb_sizes_mean(&y, 4096), (1024.0 + 1024 + 8192) / 2, 1e-6);
	for (int i = 0; i < 1000; i++)
		ck_assert_uint_le(cb_sizes_next(&y, 4096, &rng), 9216);
}
END_TEST

START_TEST(fixed_draws_nothing)
{
	struct cb_sizes z = parsed("64K");
	uint64_t rng = 3;
	ck_assert(!cb_sizes_varies(&z));
	ck_assert_uint_eq(cb_sizes_next(&z, 4096, &rng), 65536);
	ck_assert_uint_eq(rng, 3);
}
END_TEST

START_TEST(placing)
{
	/* a random op at the last grain is pulled back to end inside */
	ck_assert_uint_eq(cb_sizes_at(15, 4096, 16384, 65536), 49152);
	ck_assert_uint_eq(cb_sizes_at(2, 4096, 16384, 65536), 8192);
	/* sequential ops follow one another and wrap where the next would
	 * pass the end */
	uint64_t cur = 0;
	ck_assert_uint_eq(cb_sizes_seq(&cur, 4096, 8192, 20480), 0);
	ck_assert_uint_eq(cb_sizes_seq(&cur, 4096, 8192, 20480), 8192);
	ck_assert_uint_eq(cb_sizes_seq(&cur, 4096, 8192, 20480), 0);
	ck_assert_uint_eq(cur, 2);
}
END_TEST

START_TEST(format_and_refusals)
{
	char buf[128], why[160];
	struct cb_sizes z = parsed("4k:60%,64KiB:40");
	cb_sizes_format(&z, buf, sizeof(buf));
	ck_assert_str_eq(buf, "4K:60,64K:40");
	z = parsed("4K-1M");
	cb_sizes_format(&z, buf, sizeof(buf));
	ck_assert_str_eq(buf, "4K-1M");
	ck_assert_int_eq(cb_sizes_check_align(&z, 4096, why, sizeof(why)), 0);
	z = parsed("6K:50,8K:50");
	ck_assert_int_eq(cb_sizes_check_align(&z, 4096, why, sizeof(why)), -EINVAL);
	ck_assert_msg(strstr(why, "6K is not a multiple of block_align 4K"), "%s", why);
	static const char *const bad[][2] = {
	    {"4K:60,64K:30", "sum to 90, not 100"},
	    {"4K:60,64K:50", "sum to 110, not 100"},
	    {"4K:0,8K:100", "weight 0"},
	    {"0:50,4K:50", "a size of 0"},
	    {"4K-0", "a size of 0"},
	    {"64K-4K", "from the smaller size to the larger"},
	    {"4K-4K", "from the smaller size to the larger"},
	    {"4K:50,4K:50", "given twice"},
	    {"4K:-5,8K:105", "a weight is a percent"},
	    {"4K:x", "a weight is a percent"},
	    {"4K,8K:100", "give every size a weight"},
	    {"2G", "outside 1-1G"},
	    {"4Q", "not a size"},
	    {"", "expected a size"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		ck_assert_int_lt(cb_sizes_parse(bad[i][0], 1, 1ULL << 30, &z, why, sizeof(why)), 0);
		ck_assert_msg(strstr(why, bad[i][1]), "%s: %s", bad[i][0], why);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sizes");
	TCase *tc = tcase_create("sizes");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, weights_take_their_shares);
	tcase_add_test(tc, range_draws_every_step);
	tcase_add_test(tc, fixed_draws_nothing);
	tcase_add_test(tc, placing);
	tcase_add_test(tc, format_and_refusals);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
