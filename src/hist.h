/* HDR-style log-linear latency histogram in nanoseconds: 1024 linear
 * sub-buckets per power of two (relative error <= 1/2048, better than 3
 * significant digits), from 1 ns to 2^43 ns (about 2.4 h), fixed memory,
 * lossless merge by adding buckets. Also keeps exact count/min/max and a
 * Welford mean/variance that merges with Chan's formula. */
#ifndef CB_HIST_H
#define CB_HIST_H

#include <stdint.h>

#define CB_HIST_SUB_BITS 10
#define CB_HIST_MAX_EXP	 43
#define CB_HIST_NBUCKETS ((CB_HIST_MAX_EXP - CB_HIST_SUB_BITS + 1) << CB_HIST_SUB_BITS)

struct cb_hist {
	uint64_t count;
	uint64_t min; /* UINT64_MAX when empty */
	uint64_t max;
	double mean; /* Welford running mean, ns */
	double m2;   /* Welford sum of squared deviations */
	uint64_t buckets[CB_HIST_NBUCKETS];
};

/* Allocate an empty histogram (caller owns; free with cb_hist_free). NULL on ENOMEM. */
struct cb_hist *cb_hist_new(void);
void cb_hist_free(struct cb_hist *h);
/* Empty h in place. */
void cb_hist_reset(struct cb_hist *h);

/* Record one value (ns). Values beyond the top bucket count in the top bucket;
 * min/max/mean stay exact. */
void cb_hist_record(struct cb_hist *h, uint64_t ns);

/* dst += src (buckets, count, min, max, mean/m2 combined). */
void cb_hist_merge(struct cb_hist *dst, const struct cb_hist *src);

/* Value at percentile p (0 < p <= 100): the midpoint of the bucket holding the
 * ceil(p/100*count)-th smallest value, clamped to [min, max]. 0 when empty.
 * When that rank is count (p = 100, or p close enough to it) the exact max is
 * returned, so p100 == max even for values in the saturated top bucket. */
uint64_t cb_hist_percentile(const struct cb_hist *h, double p);

double cb_hist_mean(const struct cb_hist *h);	/* 0 when empty */
double cb_hist_stddev(const struct cb_hist *h); /* population stddev; 0 when count < 2 */

/* Bucket index of a value and the [lo, hi] range of values a bucket holds;
 * exposed for the sparse JSON form and for tests. Buckets are contiguous from
 * lo(0) = 0 to hi(CB_HIST_NBUCKETS - 1) = 2^43 - 1 (the top bucket also counts
 * saturated values above that). lo/hi of an index >= CB_HIST_NBUCKETS is 0. */
uint32_t cb_hist_index(uint64_t ns);
uint64_t cb_hist_bucket_lo(uint32_t idx);
uint64_t cb_hist_bucket_hi(uint32_t idx);

/* Rebuild the histogram from sparse (index, count) pairs as written in JSON;
 * used by tools that merge results later. Returns 0 or -EINVAL on a bad index
 * (h unchanged). Also estimates min/max (widened to the bucket's lo/hi) and
 * mean/m2 (values taken at the bucket midpoint); a caller that has the exact
 * min/max/mean/m2 writes them into h after adding all buckets. */
int cb_hist_add_bucket(struct cb_hist *h, uint32_t idx, uint64_t count);

#endif
