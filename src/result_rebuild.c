/* A record's phase back into a struct cb_phase_result (result_rebuild.h).
 * The record holds microseconds and means where the runner held ns and
 * sums: those come back to within the record's rounding, the counts and
 * the histogram's buckets exactly. */
#include "result_rebuild.h"
#include "load_opts.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An integer from 0 at o.key; a missing optional key leaves *out. */
static int count_at(const json_t *o, const char *key, bool optional, uint64_t *out,
		    const char *where, struct cb_err *e)
{
	const json_t *v = json_object_get(o, key);
	if (!v && optional)
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return cb_err_usage(e, "%s %s: expected a count (a whole number from 0)", where,
				    key);
	*out = (uint64_t)json_integer_value(v);
	return 0;
}

/* A number from 0 to hi at o.key; a missing optional key leaves *out. */
static int number_at(const json_t *o, const char *key, bool optional, double hi, double *out,
		     const char *where, struct cb_err *e)
{
	const json_t *v = json_object_get(o, key);
	if (!v && optional)
		return 0;
	double d = json_number_value(v);
	if (!json_is_number(v) || !(d >= 0) || d > hi)
		return cb_err_usage(e, "%s %s: expected a number from 0 to %g", where, key, hi);
	*out = d;
	return 0;
}

/* x (>= 0, finite) rounded to ns, or -ERANGE past what a count holds. */
static int ns_of(double x, uint64_t *out, const char *where, const char *key, struct cb_err *e)
{
	if (!(x >= 0) || x >= 9.2e18)
		return cb_err_usage(e, "%s %s: too large to merge", where, key);
	*out = (uint64_t)llround(x);
	return 0;
}

static uint64_t clamp(uint64_t v, uint64_t lo, uint64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

int cb_hist_rebuild(struct cb_hist *h, const json_t *hist, const json_t *lat, const char *where,
		    struct cb_err *e)
{
	const json_t *b = json_object_get(hist, "buckets");
	json_int_t bits = json_integer_value(json_object_get(hist, "sub_bucket_bits"));
	json_int_t top = json_integer_value(json_object_get(hist, "max_exponent"));
	const char *layout = json_string_value(json_object_get(hist, "layout"));
	if (!json_is_object(hist) || !json_is_array(b) || !layout ||
	    strcmp(layout, "log-linear") != 0)
		return cb_err_usage(e, "%s: expected a log-linear histogram with buckets", where);
	if (bits != CB_HIST_SUB_BITS || top != CB_HIST_MAX_EXP)
		return cb_err_usage(e,
				    "%s: sub_bucket_bits %lld, max_exponent %lld: this cephbench "
				    "merges %d and %d only",
				    where, (long long)bits, (long long)top, CB_HIST_SUB_BITS,
				    CB_HIST_MAX_EXP);
	uint64_t count = 0, sum = 0;
	if (count_at(hist, "count", false, &count, where, e) < 0)
		return -EINVAL;
	size_t i;
	const json_t *pair;
	json_array_foreach(b, i, pair)
	{
		json_int_t idx = json_integer_value(json_array_get(pair, 0));
		json_int_t n = json_integer_value(json_array_get(pair, 1));
		if (json_array_size(pair) != 2 || !json_is_integer(json_array_get(pair, 0)) ||
		    !json_is_integer(json_array_get(pair, 1)) || idx < 0 ||
		    idx >= CB_HIST_NBUCKETS || n < 0 || (uint64_t)n > INT64_MAX - sum)
			return cb_err_usage(e, "%s: buckets[%zu]: expected [index below %d, count]",
					    where, i, CB_HIST_NBUCKETS);
		cb_hist_add_bucket(h, (uint32_t)idx, (uint64_t)n);
		sum += (uint64_t)n;
	}
	if (sum != count)
		return cb_err_usage(e, "%s: the buckets hold %llu values, its count says %llu",
				    where, (unsigned long long)sum, (unsigned long long)count);
	if (!count)
		return 0;
	/* the exact figures the run had, as the record kept them (us) */
	double min_us = 0, max_us = 0, mean_us = 0, sd_us = 0;
	if (number_at(lat, "min", false, 1e12, &min_us, where, e) < 0 ||
	    number_at(lat, "max", false, 1e12, &max_us, where, e) < 0 ||
	    number_at(lat, "mean", false, 1e12, &mean_us, where, e) < 0 ||
	    number_at(lat, "stddev", false, 1e12, &sd_us, where, e) < 0)
		return -EINVAL;
	/* cb_hist_add_bucket widened them to the buckets' bounds; the true
	 * value lies in both those bounds and its whole microsecond */
	uint32_t first = cb_hist_index(h->min), last = cb_hist_index(h->max);
	uint64_t min = (uint64_t)min_us * 1000, max = (uint64_t)max_us * 1000;
	h->min = clamp(min, h->min, cb_hist_bucket_hi(first));
	/* the top bucket also counts the saturated values above it */
	h->max = last == CB_HIST_NBUCKETS - 1
		     ? (max > cb_hist_bucket_lo(last) ? max : cb_hist_bucket_lo(last))
		     : clamp(max, cb_hist_bucket_lo(last), h->max);
	h->mean = mean_us * 1000;
	h->m2 = sd_us * 1000 * sd_us * 1000 * (double)count;
	return 0;
}

static int strings(struct cb_phase_result *p, const json_t *o, struct cb_err *e)
{
	p->name = strdup(json_string_value(json_object_get(o, "name")));
	p->layer = strdup(json_string_value(json_object_get(o, "layer")));
	p->op = strdup(json_string_value(json_object_get(o, "op")));
	if (!p->name || !p->layer || !p->op)
		return cb_err_usage(e, "out of memory");
	snprintf(p->target, sizeof(p->target), "%s", json_string_value(json_object_get(o, "pool")));
	const char *sizes =
	    json_string_value(json_object_get(json_object_get(o, "sizes"), "asked"));
	snprintf(p->sizes, sizeof(p->sizes), "%s", sizes ? sizes : "");
	return 0;
}

static int samples(struct cb_phase_result *p, const json_t *a, const char *where, struct cb_err *e)
{
	if (cb_phase_samples_grow(p, json_array_size(a)) < 0)
		return cb_err_usage(e, "out of memory");
	size_t i;
	const json_t *o;
	json_array_foreach(a, i, o)
	{
		char at[160];
		snprintf(at, sizeof(at), "%s samples[%zu]", where, i);
		struct cb_sample *s = &p->samples[i];
		uint64_t t = 0;
		double mean = 0, max = 0;
		if (count_at(o, "t", false, &t, at, e) < 0 ||
		    count_at(o, "ops", false, &s->ops, at, e) < 0 ||
		    count_at(o, "bytes", false, &s->bytes, at, e) < 0 ||
		    count_at(o, "due", true, &s->due, at, e) < 0 ||
		    count_at(o, "late", true, &s->late, at, e) < 0 ||
		    count_at(o, "backlog", true, &s->backlog, at, e) < 0 ||
		    number_at(o, "lat_mean_us", false, 1e12, &mean, at, e) < 0 ||
		    number_at(o, "lat_max_us", false, 1e12, &max, at, e) < 0 ||
		    ns_of(mean * 1000 * (double)s->ops, &s->lat_sum_ns, at, "lat_mean_us", e) < 0 ||
		    ns_of(max * 1000, &s->lat_max_ns, at, "lat_max_us", e) < 0)
			return -EINVAL;
		/* second t is entry t: cephbench writes them so */
		if (t != i)
			return cb_err_usage(e, "%s t: expected %zu (one entry a second, in order)",
					    at, i);
	}
	return 0;
}

static int per_client(struct cb_phase_result *p, const json_t *a, const char *where,
		      struct cb_err *e)
{
	if (!a)
		return 0;
	if (!json_is_array(a))
		return cb_err_usage(e, "%s per_client: expected an array", where);
	size_t n = json_array_size(a);
	if (n && !(p->per_client = calloc(n, sizeof(*p->per_client))))
		return cb_err_usage(e, "out of memory");
	size_t i;
	const json_t *o;
	json_array_foreach(a, i, o)
	{
		char at[160];
		snprintf(at, sizeof(at), "%s per_client[%zu]", where, i);
		struct cb_client_row *c = &p->per_client[i];
		double secs = 0, mean = 0;
		if (count_at(o, "ops", false, &c->ops, at, e) < 0 ||
		    count_at(o, "bytes", false, &c->bytes, at, e) < 0 ||
		    count_at(o, "errors", false, &c->errors, at, e) < 0 ||
		    number_at(o, "duration_s", false, 1e9, &secs, at, e) < 0 ||
		    number_at(o, "lat_mean_us", false, 1e12, &mean, at, e) < 0 ||
		    ns_of(secs * 1e9, &c->elapsed_ns, at, "duration_s", e) < 0 ||
		    ns_of(mean * 1000 * (double)c->ops, &c->lat_sum_ns, at, "lat_mean_us", e) < 0)
			return -EINVAL;
		p->nper_client++;
	}
	return 0;
}

/* The open loop's own figures (its rate, late ops, backlog, service
 * time), where the row ran at a rate. */
static int open_loop(struct cb_phase_result *p, const json_t *o, const char *where,
		     struct cb_err *e)
{
	if (!o)
		return 0;
	char at[160];
	snprintf(at, sizeof(at), "%s open_loop", where);
	const char *arrival = json_string_value(json_object_get(o, "arrival"));
	if (!json_is_object(o) || !arrival)
		return cb_err_usage(e, "%s: expected an object with arrival", at);
	p->arrival = strcmp(arrival, "poisson") == 0 ? CB_ARRIVAL_POISSON : CB_ARRIVAL_UNIFORM;
	p->saturated = json_is_true(json_object_get(o, "saturated"));
	if (number_at(o, "rate_ops_per_s", false, 1e18, &p->rate_ops, at, e) < 0 ||
	    count_at(o, "late_ops", false, &p->late_ops, at, e) < 0 ||
	    count_at(o, "backlog_max", false, &p->backlog_max, at, e) < 0 ||
	    count_at(o, "unissued_ops", true, &p->unissued_ops, at, e) < 0)
		return -EINVAL;
	if (!(p->service_hist = cb_hist_new()))
		return cb_err_usage(e, "out of memory");
	snprintf(at, sizeof(at), "%s open_loop.service_histogram", where);
	return cb_hist_rebuild(p->service_hist, json_object_get(o, "service_histogram"),
			       json_object_get(o, "service_latency_us"), at, e);
}

int cb_phase_rebuild(struct cb_phase_result *p, const json_t *o, const char *where,
		     struct cb_err *e)
{
	char at[160];
	double secs = 0, start = 0;
	if (strings(p, o, e) < 0)
		return -EINVAL;
	if (count_at(o, "block_size", false, &p->block_size, where, e) < 0 ||
	    count_at(o, "concurrency", false, &p->concurrency, where, e) < 0 ||
	    count_at(o, "clients", false, &p->clients, where, e) < 0 ||
	    count_at(o, "ops", false, &p->ops, where, e) < 0 ||
	    count_at(o, "bytes", false, &p->bytes, where, e) < 0 ||
	    count_at(o, "write_ops", false, &p->write_ops, where, e) < 0 ||
	    count_at(o, "write_bytes", false, &p->write_bytes, where, e) < 0 ||
	    count_at(o, "errors", false, &p->errors, where, e) < 0 ||
	    number_at(o, "duration_s", false, 1e9, &secs, where, e) < 0 ||
	    number_at(o, "window_start_unix_s", true, 1e11, &start, where, e) < 0 ||
	    ns_of(secs * 1e9, &p->elapsed_ns, where, "duration_s", e) < 0 ||
	    ns_of(start * 1e9, &p->window_unix_ns, where, "window_start_unix_s", e) < 0)
		return -EINVAL;
	if (p->write_ops > p->ops || p->write_bytes > p->bytes)
		return cb_err_usage(e, "%s: more write_ops or write_bytes than ops or bytes",
				    where);
	p->interrupted = json_is_true(json_object_get(o, "interrupted"));
	p->failed = json_is_true(json_object_get(o, "failed"));
	p->ran = true;
	snprintf(at, sizeof(at), "%s histogram", where);
	if (cb_hist_rebuild(p->hist, json_object_get(o, "histogram"),
			    json_object_get(o, "latency_us"), at, e) < 0)
		return -EINVAL;
	if (p->hist->count != p->ops)
		return cb_err_usage(e, "%s: the histogram holds %llu ops, the row %llu", where,
				    (unsigned long long)p->hist->count, (unsigned long long)p->ops);
	return samples(p, json_object_get(o, "samples"), where, e) < 0 ||
		       cb_kinds_rebuild(&p->kinds, json_object_get(o, "by_op"), where, e) < 0 ||
		       per_client(p, json_object_get(o, "per_client"), where, e) < 0 ||
		       open_loop(p, json_object_get(o, "open_loop"), where, e) < 0
		   ? -EINVAL
		   : 0;
}
