/* Histogram accuracy against exact order statistics on three latency-like
 * distributions, lossless merge, bucket-layout invariants and edge cases.
 * A seeded PRNG keeps every run identical. */
#include "hist.h"

#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NVALUES 1000000
#define NS_US	1000ULL
#define NS_MS	1000000ULL
#define NS_S	1000000000ULL

/* splitmix64: tiny, seedable, good enough for test data. */
static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in (0, 1): never 0, so log() below stays finite. */
static double rng_unit(uint64_t *s)
{
	return ((double)(rng_next(s) >> 11) + 0.5) * 0x1.0p-53;
}

static uint64_t gen_uniform(uint64_t *s)
{
	return NS_US + rng_next(s) % (NS_S - NS_US + 1);
}

static uint64_t gen_exponential(uint64_t *s)
{
	return (uint64_t)llround(-log(rng_unit(s)) * 2.0 * NS_MS);
}

/* Log-normal with median 1 ms and sigma 3: ~5 ns .. a few minutes over 10^6
 * draws, a long right tail like a cluster with stragglers. */
static uint64_t gen_lognormal(uint64_t *s)
{
	double u1 = rng_unit(s), u2 = rng_unit(s);
	double z = sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);

	return (uint64_t)llround(exp(log(1e6) + 3.0 * z));
}

typedef uint64_t (*gen_fn)(uint64_t *);

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static void fill(uint64_t *v, size_t n, gen_fn gen, uint64_t seed)
{
	for (size_t i = 0; i < n; i++)
		v[i] = gen(&seed);
}

/* Percentiles as parts per million so the exact rank is pure integer math,
 * independent of how the histogram computes it. */
static const struct {
	double p;
	uint64_t ppm;
} pcts[] = {{50, 500000}, {90, 900000}, {99, 990000}, {99.9, 999000}, {99.99, 999900}};

static void check_distribution(gen_fn gen, uint64_t seed, const char *name)
{
	uint64_t *v = malloc(NVALUES * sizeof(*v));
	struct cb_hist *h = cb_hist_new();
	long double sum = 0, ss = 0, mean;
	double sd;

	ck_assert_ptr_nonnull(v);
	ck_assert_ptr_nonnull(h);
	fill(v, NVALUES, gen, seed);
	for (size_t i = 0; i < NVALUES; i++)
		cb_hist_record(h, v[i]);
	qsort(v, NVALUES, sizeof(*v), cmp_u64);

	ck_assert_uint_eq(h->count, NVALUES);
	ck_assert_uint_eq(h->min, v[0]);
	ck_assert_uint_eq(h->max, v[NVALUES - 1]);

	for (size_t k = 0; k < sizeof(pcts) / sizeof(pcts[0]); k++) {
		uint64_t rank = (pcts[k].ppm * NVALUES + 999999) / 1000000;
		uint64_t exact = v[rank - 1];
		uint64_t got = cb_hist_percentile(h, pcts[k].p);
		double err = fabs((double)got - (double)exact);

		ck_assert_msg(err <= (double)exact / 1000, "%s p%g: hist %llu exact %llu", name,
			      pcts[k].p, (unsigned long long)got, (unsigned long long)exact);
		/* The documented bound, which a bucket-lo answer would miss. */
		ck_assert_msg(err <= (double)exact / 2048, "%s p%g: error %g over 1/2048 of %llu",
			      name, pcts[k].p, err, (unsigned long long)exact);
	}
	ck_assert_uint_eq(cb_hist_percentile(h, 100), v[NVALUES - 1]);

	/* Two-pass reference in long double. */
	for (size_t i = 0; i < NVALUES; i++)
		sum += v[i];
	mean = sum / NVALUES;
	for (size_t i = 0; i < NVALUES; i++)
		ss += ((long double)v[i] - mean) * ((long double)v[i] - mean);
	sd = (double)sqrtl(ss / NVALUES);
	ck_assert_msg(fabs(cb_hist_mean(h) - (double)mean) <= 1e-6 * (double)mean,
		      "%s mean %.9g vs %.9g", name, cb_hist_mean(h), (double)mean);
	ck_assert_msg(fabs(cb_hist_stddev(h) - sd) <= 1e-6 * sd, "%s stddev %.9g vs %.9g", name,
		      cb_hist_stddev(h), sd);

	cb_hist_free(h);
	free(v);
}

START_TEST(test_uniform)
{
	check_distribution(gen_uniform, 1, "uniform");
}
END_TEST

START_TEST(test_exponential)
{
	check_distribution(gen_exponential, 2, "exponential");
}
END_TEST

START_TEST(test_lognormal)
{
	check_distribution(gen_lognormal, 3, "lognormal");
}
END_TEST

static void assert_rel(double a, double b, double tol, const char *what)
{
	double scale = fabs(b) > 0 ? fabs(b) : 1;

	ck_assert_msg(fabs(a - b) <= tol * scale, "%s: %.17g vs %.17g", what, a, b);
}

static void assert_hist_equal(const struct cb_hist *a, const struct cb_hist *b)
{
	ck_assert_uint_eq(a->count, b->count);
	ck_assert_uint_eq(a->min, b->min);
	ck_assert_uint_eq(a->max, b->max);
	ck_assert_int_eq(memcmp(a->buckets, b->buckets, sizeof(a->buckets)), 0);
	assert_rel(cb_hist_mean(a), cb_hist_mean(b), 1e-9, "mean");
	assert_rel(cb_hist_stddev(a), cb_hist_stddev(b), 1e-9, "stddev");
}

START_TEST(test_merge)
{
	struct cb_hist *a = cb_hist_new(), *b = cb_hist_new(), *both = cb_hist_new();
	struct cb_hist *empty = cb_hist_new(), *copy = cb_hist_new();
	uint64_t sa = 11, sb = 12;

	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	ck_assert_ptr_nonnull(both);
	ck_assert_ptr_nonnull(empty);
	ck_assert_ptr_nonnull(copy);
	/* Different sizes and distributions so the Chan correction term matters. */
	for (int i = 0; i < 300000; i++) {
		uint64_t x = gen_uniform(&sa);

		cb_hist_record(a, x);
		cb_hist_record(both, x);
	}
	for (int i = 0; i < 200000; i++) {
		uint64_t x = gen_lognormal(&sb);

		cb_hist_record(b, x);
		cb_hist_record(both, x);
	}
	cb_hist_merge(a, b);
	assert_hist_equal(a, both);
	for (size_t k = 0; k < sizeof(pcts) / sizeof(pcts[0]); k++)
		ck_assert_uint_eq(cb_hist_percentile(a, pcts[k].p),
				  cb_hist_percentile(both, pcts[k].p));

	/* Merging into or from an empty histogram changes nothing. */
	cb_hist_merge(copy, both);
	assert_hist_equal(copy, both);
	cb_hist_merge(copy, empty);
	assert_hist_equal(copy, both);
	ck_assert_uint_eq(empty->count, 0);
	ck_assert_uint_eq(empty->min, UINT64_MAX);

	cb_hist_free(a);
	cb_hist_free(b);
	cb_hist_free(both);
	cb_hist_free(empty);
	cb_hist_free(copy);
}
END_TEST

START_TEST(test_empty)
{
	struct cb_hist *h = cb_hist_new();

	ck_assert_ptr_nonnull(h);
	ck_assert_uint_eq(h->count, 0);
	ck_assert_uint_eq(h->min, UINT64_MAX);
	ck_assert_uint_eq(cb_hist_percentile(h, 50), 0);
	ck_assert_uint_eq(cb_hist_percentile(h, 100), 0);
	ck_assert(cb_hist_mean(h) == 0);
	ck_assert(cb_hist_stddev(h) == 0);

	cb_hist_record(h, 42);
	ck_assert(cb_hist_stddev(h) == 0);
	cb_hist_reset(h);
	ck_assert_uint_eq(h->count, 0);
	ck_assert_uint_eq(h->min, UINT64_MAX);
	ck_assert_uint_eq(h->buckets[42], 0);
	cb_hist_free(h);
	cb_hist_free(NULL);
}
END_TEST

START_TEST(test_zero)
{
	struct cb_hist *h = cb_hist_new();

	ck_assert_ptr_nonnull(h);
	cb_hist_record(h, 0);
	ck_assert_uint_eq(h->buckets[0], 1);
	ck_assert_uint_eq(h->count, 1);
	ck_assert_uint_eq(h->min, 0);
	ck_assert_uint_eq(h->max, 0);
	ck_assert_uint_eq(cb_hist_percentile(h, 50), 0);
	ck_assert_uint_eq(cb_hist_percentile(h, 100), 0);
	ck_assert(cb_hist_mean(h) == 0);
	cb_hist_free(h);
}
END_TEST

START_TEST(test_saturation)
{
	struct cb_hist *h = cb_hist_new();
	uint64_t big = (1ULL << 50) + 12345;

	ck_assert_ptr_nonnull(h);
	cb_hist_record(h, big);
	ck_assert_uint_eq(h->buckets[CB_HIST_NBUCKETS - 1], 1);
	ck_assert_uint_eq(h->max, big);
	ck_assert_uint_eq(h->min, big);
	ck_assert_uint_eq(cb_hist_percentile(h, 50), big);
	ck_assert_uint_eq(cb_hist_percentile(h, 100), big);
	assert_rel(cb_hist_mean(h), (double)big, 1e-15, "mean");

	/* With a small value too, p100 is still the exact max and a percentile
	 * landing in the saturated bucket never exceeds it. */
	cb_hist_record(h, 100);
	cb_hist_record(h, UINT64_MAX);
	ck_assert_uint_eq(h->buckets[CB_HIST_NBUCKETS - 1], 2);
	ck_assert_uint_eq(h->min, 100);
	ck_assert_uint_eq(h->max, UINT64_MAX);
	ck_assert_uint_eq(cb_hist_percentile(h, 100), UINT64_MAX);
	ck_assert_uint_eq(cb_hist_percentile(h, 1), 100);
	ck_assert_uint_le(cb_hist_percentile(h, 50), h->max);
	ck_assert_uint_ge(cb_hist_percentile(h, 50), cb_hist_bucket_lo(CB_HIST_NBUCKETS - 1));
	cb_hist_free(h);
}
END_TEST

static void assert_in_bucket(uint64_t v)
{
	uint32_t i = cb_hist_index(v);

	ck_assert_uint_lt(i, CB_HIST_NBUCKETS);
	ck_assert_msg(cb_hist_bucket_lo(i) <= v && v <= cb_hist_bucket_hi(i),
		      "v=%llu idx=%u [%llu, %llu]", (unsigned long long)v, i,
		      (unsigned long long)cb_hist_bucket_lo(i),
		      (unsigned long long)cb_hist_bucket_hi(i));
}

START_TEST(test_layout)
{
	uint64_t s = 99;

	/* Exact buckets below 2048, as documented. */
	for (uint64_t v = 0; v < 2048; v++) {
		ck_assert_uint_eq(cb_hist_index(v), v);
		ck_assert_uint_eq(cb_hist_bucket_lo((uint32_t)v), v);
		ck_assert_uint_eq(cb_hist_bucket_hi((uint32_t)v), v);
	}
	for (uint64_t v = 0; v < 100000; v++)
		assert_in_bucket(v);
	/* Around every power of two, and random values of every magnitude. */
	for (int e = 1; e < CB_HIST_MAX_EXP; e++) {
		uint64_t p = 1ULL << e;

		assert_in_bucket(p - 1);
		assert_in_bucket(p);
		assert_in_bucket(p + 1);
		for (int k = 0; k < 10000; k++)
			assert_in_bucket(p + rng_next(&s) % p);
	}

	/* Contiguous, each bucket's ends map back to it, width within 1/1024. */
	ck_assert_uint_eq(cb_hist_bucket_lo(0), 0);
	for (uint32_t i = 0; i < CB_HIST_NBUCKETS; i++) {
		uint64_t lo = cb_hist_bucket_lo(i), hi = cb_hist_bucket_hi(i);

		ck_assert_uint_le(lo, hi);
		ck_assert_uint_eq(cb_hist_index(lo), i);
		ck_assert_uint_eq(cb_hist_index(hi), i);
		if (lo >= 1024)
			ck_assert_uint_le((hi - lo + 1) * 1024, lo);
		if (i + 1 < CB_HIST_NBUCKETS)
			ck_assert_uint_eq(cb_hist_bucket_lo(i + 1), hi + 1);
	}
	ck_assert_uint_eq(cb_hist_bucket_hi(CB_HIST_NBUCKETS - 1), (1ULL << CB_HIST_MAX_EXP) - 1);
	ck_assert_uint_eq(cb_hist_index(1ULL << CB_HIST_MAX_EXP), CB_HIST_NBUCKETS - 1);
	ck_assert_uint_eq(cb_hist_index(UINT64_MAX), CB_HIST_NBUCKETS - 1);
}
END_TEST

START_TEST(test_add_bucket)
{
	struct cb_hist *src = cb_hist_new(), *dst = cb_hist_new();
	uint64_t s = 7;

	ck_assert_ptr_nonnull(src);
	ck_assert_ptr_nonnull(dst);
	ck_assert_int_eq(cb_hist_add_bucket(dst, CB_HIST_NBUCKETS, 1), -EINVAL);
	ck_assert_int_eq(cb_hist_add_bucket(dst, UINT32_MAX, 1), -EINVAL);
	ck_assert_uint_eq(dst->count, 0);
	ck_assert_int_eq(cb_hist_add_bucket(dst, 5, 0), 0);
	ck_assert_uint_eq(dst->count, 0);

	/* Rebuild from the sparse form: same buckets, and with the exact min/max
	 * written over the estimates, the same percentiles. */
	for (int i = 0; i < 100000; i++)
		cb_hist_record(src, gen_exponential(&s));
	for (uint32_t i = 0; i < CB_HIST_NBUCKETS; i++)
		if (src->buckets[i])
			ck_assert_int_eq(cb_hist_add_bucket(dst, i, src->buckets[i]), 0);
	ck_assert_uint_eq(dst->count, src->count);
	ck_assert_int_eq(memcmp(dst->buckets, src->buckets, sizeof(src->buckets)), 0);
	ck_assert_uint_le(dst->min, src->min);
	ck_assert_uint_ge(dst->max, src->max);
	assert_rel(cb_hist_mean(dst), cb_hist_mean(src), 1e-3, "estimated mean");
	dst->min = src->min;
	dst->max = src->max;
	for (size_t k = 0; k < sizeof(pcts) / sizeof(pcts[0]); k++)
		ck_assert_uint_eq(cb_hist_percentile(dst, pcts[k].p),
				  cb_hist_percentile(src, pcts[k].p));
	cb_hist_free(src);
	cb_hist_free(dst);
}
END_TEST

START_TEST(test_small_counts)
{
	struct cb_hist *h = cb_hist_new();

	ck_assert_ptr_nonnull(h);
	/* 1..10: every value exact, rank = ceil(p/100 * 10). */
	for (uint64_t v = 10; v >= 1; v--)
		cb_hist_record(h, v);
	ck_assert_uint_eq(cb_hist_percentile(h, 10), 1);
	ck_assert_uint_eq(cb_hist_percentile(h, 10.5), 2);
	ck_assert_uint_eq(cb_hist_percentile(h, 50), 5);
	ck_assert_uint_eq(cb_hist_percentile(h, 90), 9);
	ck_assert_uint_eq(cb_hist_percentile(h, 99), 10);
	ck_assert_uint_eq(cb_hist_percentile(h, 100), 10);
	assert_rel(cb_hist_mean(h), 5.5, 1e-15, "mean");
	assert_rel(cb_hist_stddev(h), sqrt(8.25), 1e-15, "stddev");

	/* 1..1000: p*n/100 is an integer here but computes as 161.00000000000003
	 * in double; the rank must still be 161, not 162. */
	cb_hist_reset(h);
	for (uint64_t v = 1; v <= 1000; v++)
		cb_hist_record(h, v);
	ck_assert_uint_eq(cb_hist_percentile(h, 16.1), 161);
	ck_assert_uint_eq(cb_hist_percentile(h, 64.9), 649);
	ck_assert_uint_eq(cb_hist_percentile(h, 16.11), 162);
	ck_assert_uint_eq(cb_hist_percentile(h, 0.001), 1);
	ck_assert_uint_eq(cb_hist_percentile(h, 99.95), 1000);

	/* A wide bucket answers with its midpoint, then clamps to [min, max]. */
	{
		uint32_t i = cb_hist_index(3000000000ULL);
		uint64_t lo = cb_hist_bucket_lo(i), hi = cb_hist_bucket_hi(i);

		ck_assert_uint_gt(hi - lo, 1000);
		cb_hist_reset(h);
		cb_hist_record(h, lo);
		cb_hist_record(h, hi);
		cb_hist_record(h, hi);
		ck_assert_uint_eq(cb_hist_percentile(h, 10), (lo + hi) / 2);
		cb_hist_reset(h);
		cb_hist_record(h, hi - 1);
		cb_hist_record(h, hi);
		ck_assert_uint_eq(cb_hist_percentile(h, 10), hi - 1);
	}
	cb_hist_free(h);
}
END_TEST

static Suite *hist_suite(void)
{
	Suite *s = suite_create("histogram");
	TCase *acc = tcase_create("accuracy");
	TCase *tc = tcase_create("core");

	/* 10^6-value runs take a few seconds under ASan; Check's default is 4 s. */
	tcase_set_timeout(acc, 120);
	tcase_add_test(acc, test_uniform);
	tcase_add_test(acc, test_exponential);
	tcase_add_test(acc, test_lognormal);
	tcase_add_test(acc, test_merge);
	suite_add_tcase(s, acc);

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_empty);
	tcase_add_test(tc, test_zero);
	tcase_add_test(tc, test_saturation);
	tcase_add_test(tc, test_layout);
	tcase_add_test(tc, test_add_bucket);
	tcase_add_test(tc, test_small_counts);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(hist_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
