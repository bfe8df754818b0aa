/* Log-linear latency histogram: recording is a handful of integer ops on the
 * per-op path; percentiles, merging and the sparse JSON form are off it.
 * Bucket layout: values below 2^11 have one bucket each; above that every
 * power of two [2^e, 2^(e+1)) is cut into 1024 equal buckets. */
#include "hist.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SUB	   (1U << CB_HIST_SUB_BITS)
#define HIST_LIMIT (1ULL << CB_HIST_MAX_EXP) /* first value that saturates */

/* OR-ing in SUB makes values below 1024 take the e = 10 path, where the
 * general formula reduces to idx = v, so there is no branch for small values;
 * saturation is a compare that compiles to a cmov. */
static inline uint32_t hist_index(uint64_t v)
{
	uint64_t c = v < HIST_LIMIT ? v : HIST_LIMIT - 1;
	unsigned e = 63U - (unsigned)__builtin_clzll(c | SUB);
	unsigned shift = e - CB_HIST_SUB_BITS;

	return ((shift + 1) << CB_HIST_SUB_BITS) + (uint32_t)(c >> shift) - SUB;
}

uint32_t cb_hist_index(uint64_t ns)
{
	return hist_index(ns);
}

/* Out-of-range indexes give 0 for both lo and hi: callers validate with
 * cb_hist_add_bucket, these are only for formatting. */
uint64_t cb_hist_bucket_lo(uint32_t idx)
{
	if (idx >= CB_HIST_NBUCKETS)
		return 0;
	if (idx < 2 * SUB)
		return idx;
	return (uint64_t)(SUB | (idx & (SUB - 1))) << ((idx >> CB_HIST_SUB_BITS) - 1);
}

/* The top bucket's nominal hi is 2^43 - 1 even though it also counts the
 * saturated values above it; their true extent is only known from max. */
uint64_t cb_hist_bucket_hi(uint32_t idx)
{
	if (idx >= CB_HIST_NBUCKETS)
		return 0;
	if (idx < 2 * SUB)
		return idx;
	return cb_hist_bucket_lo(idx) + (1ULL << ((idx >> CB_HIST_SUB_BITS) - 1)) - 1;
}

struct cb_hist *cb_hist_new(void)
{
	struct cb_hist *h = malloc(sizeof(*h));

	if (h)
		cb_hist_reset(h);
	return h;
}

void cb_hist_free(struct cb_hist *h)
{
	free(h);
}

void cb_hist_reset(struct cb_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

/* The one division left is Welford's mean update: the public struct holds a
 * running mean and m2 (not sums), which keep the variance accurate where
 * sum-of-squares would cancel catastrophically. Multiplying by 1/count rather
 * than dividing takes the division off the mean -> mean dependency chain
 * (13 -> 9 ns per call in a tight loop); it costs one extra rounding. */
void cb_hist_record(struct cb_hist *h, uint64_t ns)
{
	double x = (double)ns;
	double delta = x - h->mean;

	h->buckets[hist_index(ns)]++;
	h->count++;
	if (ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
	h->mean += delta * (1.0 / (double)h->count);
	h->m2 += delta * (x - h->mean);
}

/* Fold n values with mean mb and squared-deviation sum m2b into h (Chan,
 * Golub & LeVeque 1979): exact in real arithmetic, and stable because it works
 * on deviations rather than raw sums. */
static void hist_combine(struct cb_hist *h, uint64_t nb, double mb, double m2b)
{
	double na = (double)h->count, n = na + (double)nb;
	double delta = mb - h->mean;

	if (nb == 0)
		return;
	h->mean += delta * ((double)nb / n);
	h->m2 += m2b + delta * delta * (na * (double)nb / n);
	h->count += nb;
}

void cb_hist_merge(struct cb_hist *dst, const struct cb_hist *src)
{
	if (src->count == 0)
		return;
	for (uint32_t i = 0; i < CB_HIST_NBUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	hist_combine(dst, src->count, src->mean, src->m2);
}

/* Rank of the p-th percentile, ceil(p/100 * count), computed as p*count/100
 * (p*count is exact for decimal p up to 2^53) and snapped to a nearby integer
 * so that 99.9% of 10^6 is rank 999000, not 999001 through rounding noise. */
static uint64_t hist_rank(double p, uint64_t count)
{
	double x, r;

	if (!(p > 0))
		return 1;
	if (p >= 100)
		return count;
	x = p * (double)count / 100;
	r = nearbyint(x);
	if (fabs(x - r) <= 1e-9 * r)
		x = r;
	r = ceil(x);
	if (r < 1)
		return 1;
	return r > (double)count ? count : (uint64_t)r;
}

/* p = 100 returns max itself rather than a bucket midpoint: the top of the
 * distribution is known exactly, and it may sit in the saturated top bucket
 * where the midpoint would mean nothing. */
uint64_t cb_hist_percentile(const struct cb_hist *h, double p)
{
	uint64_t rank, seen = 0, mid;
	uint32_t i;

	if (h->count == 0)
		return 0;
	rank = hist_rank(p, h->count);
	if (rank == h->count)
		return h->max;
	for (i = 0; i < CB_HIST_NBUCKETS - 1; i++) {
		seen += h->buckets[i];
		if (seen >= rank)
			break;
	}
	mid = cb_hist_bucket_lo(i) + (cb_hist_bucket_hi(i) - cb_hist_bucket_lo(i)) / 2;
	if (mid < h->min)
		return h->min;
	if (mid > h->max)
		return h->max;
	return mid;
}

double cb_hist_mean(const struct cb_hist *h)
{
	return h->count ? h->mean : 0;
}

double cb_hist_stddev(const struct cb_hist *h)
{
	if (h->count < 2 || !(h->m2 > 0))
		return 0;
	return sqrt(h->m2 / (double)h->count);
}

/* Buckets alone do not carry min/max/mean, so they are estimated from the
 * bucket range (min/max widened to lo/hi, each value taken at the midpoint).
 * This keeps percentile clamping sane; a caller that also has the exact
 * min/max/mean/m2 from the JSON writes them over these afterwards. */
int cb_hist_add_bucket(struct cb_hist *h, uint32_t idx, uint64_t count)
{
	uint64_t lo, hi;

	if (idx >= CB_HIST_NBUCKETS)
		return -EINVAL;
	if (count == 0)
		return 0;
	lo = cb_hist_bucket_lo(idx);
	hi = cb_hist_bucket_hi(idx);
	h->buckets[idx] += count;
	if (lo < h->min)
		h->min = lo;
	if (hi > h->max)
		h->max = hi;
	hist_combine(h, count, (double)lo + (double)(hi - lo) / 2, 0);
	return 0;
}
