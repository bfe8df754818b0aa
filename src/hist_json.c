/* A histogram in the record's JSON (hist_json.h): written sparsely as
 * [bucket index, count] pairs with its layout, so results can be merged. */
#include "hist_json.h"

#include <stdint.h>

json_t *cb_latency_json(const struct cb_hist *h)
{
	return json_pack("{s:I, s:f, s:I, s:f, s:I, s:I, s:I, s:I, s:I}", "min",
			 (json_int_t)(h->count ? h->min / 1000 : 0), "mean",
			 cb_hist_mean(h) / 1000.0, "max", (json_int_t)(h->max / 1000), "stddev",
			 cb_hist_stddev(h) / 1000.0, "p50",
			 (json_int_t)(cb_hist_percentile(h, 50) / 1000), "p90",
			 (json_int_t)(cb_hist_percentile(h, 90) / 1000), "p99",
			 (json_int_t)(cb_hist_percentile(h, 99) / 1000), "p99.9",
			 (json_int_t)(cb_hist_percentile(h, 99.9) / 1000), "p99.99",
			 (json_int_t)(cb_hist_percentile(h, 99.99) / 1000));
}

json_t *cb_histogram_json(const struct cb_hist *h)
{
	json_t *b = json_array();
	for (uint32_t i = 0; i < CB_HIST_NBUCKETS; i++)
		if (h->buckets[i])
			json_array_append_new(
			    b, json_pack("[I, I]", (json_int_t)i, (json_int_t)h->buckets[i]));
	return json_pack("{s:s, s:s, s:i, s:i, s:I, s:o}", "layout", "log-linear", "unit", "ns",
			 "sub_bucket_bits", CB_HIST_SUB_BITS, "max_exponent", CB_HIST_MAX_EXP,
			 "count", (json_int_t)h->count, "buckets", b);
}
