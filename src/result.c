/* Result record ownership and the figures derived from it. */
#include "result.h"
#include "search_result.h"
#include "telemetry.h"
#include "engine.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cb_phase_init(struct cb_phase_result *p)
{
	memset(p, 0, sizeof(*p));
	p->hist = cb_hist_new();
	return p->hist ? 0 : -ENOMEM;
}

struct cb_phase_result *cb_result_add_phase(struct cb_result *r)
{
	struct cb_phase_result *p = realloc(r->phases, (r->nphases + 1) * sizeof(*p));
	if (!p)
		return NULL;
	r->phases = p;
	p = &r->phases[r->nphases];
	if (cb_phase_init(p) < 0)
		return NULL;
	r->nphases++;
	return p;
}

void cb_search_result_free(struct cb_search_result *s)
{
	if (s)
		free(s->steps);
	free(s);
}

void cb_phase_release(struct cb_phase_result *p)
{
	free(p->name);
	free(p->layer);
	free(p->op);
	cb_hist_free(p->hist);
	cb_kinds_free(&p->kinds);
	free(p->samples);
	free(p->iter_rates);
	free(p->ranks);
	free(p->per_client);
	cb_phase_tm_free(p->tm);
	json_decref(p->uses);
	cb_hist_free(p->service_hist);
	cb_search_result_free(p->search);
	free(p->group);
	free(p->alone);
	memset(p, 0, sizeof(*p));
}

int cb_phase_samples_grow(struct cb_phase_result *p, size_t n)
{
	if (n <= p->nsamples)
		return 0;
	struct cb_sample *s = realloc(p->samples, n * sizeof(*s));
	if (!s)
		return -ENOMEM;
	memset(s + p->nsamples, 0, (n - p->nsamples) * sizeof(*s));
	p->samples = s;
	p->nsamples = n;
	return 0;
}

/* Counts, histogram and flags; samples and time are the callers'. */
static int merge_counts(struct cb_phase_result *dst, const struct cb_phase_result *src)
{
	if (src->service_hist) {
		if (!dst->service_hist && !(dst->service_hist = cb_hist_new()))
			return -ENOMEM;
		cb_hist_merge(dst->service_hist, src->service_hist);
	}
	if (cb_kinds_merge(&dst->kinds, &src->kinds) < 0)
		return -ENOMEM;
	dst->late_ops += src->late_ops;
	dst->unissued_ops += src->unissued_ops;
	dst->ops += src->ops;
	dst->bytes += src->bytes;
	dst->write_ops += src->write_ops;
	dst->write_bytes += src->write_bytes;
	dst->errors += src->errors;
	dst->all_ops += src->all_ops;
	dst->all_bytes += src->all_bytes;
	dst->all_lat_ns += src->all_lat_ns;
	cb_hist_merge(dst->hist, src->hist);
	dst->interrupted |= src->interrupted;
	dst->failed |= src->failed;
	dst->ran |= src->ran;
	return 0;
}

static void sample_add(struct cb_sample *d, const struct cb_sample *s)
{
	d->ops += s->ops;
	d->bytes += s->bytes;
	d->lat_sum_ns += s->lat_sum_ns;
	if (s->lat_max_ns > d->lat_max_ns)
		d->lat_max_ns = s->lat_max_ns;
	d->due += s->due;
	d->late += s->late;
	d->backlog += s->backlog;
}

/* A client's own figures, before they disappear into the phase's. */
static struct cb_client_row client_row(const struct cb_phase_result *p)
{
	struct cb_client_row c = {
	    .ops = p->ops, .bytes = p->bytes, .errors = p->errors, .elapsed_ns = p->elapsed_ns};
	for (size_t i = 0; i < p->nsamples; i++)
		c.lat_sum_ns += p->samples[i].lat_sum_ns;
	return c;
}

/* Move p's samples later by n seconds (zeros before them). 0 or -ENOMEM. */
static int samples_delay(struct cb_phase_result *p, size_t n)
{
	size_t had = p->nsamples;
	if (!n || !had)
		return 0;
	if (cb_phase_samples_grow(p, had + n) < 0)
		return -ENOMEM;
	memmove(p->samples + n, p->samples, had * sizeof(*p->samples));
	memset(p->samples, 0, n * sizeof(*p->samples));
	return 0;
}

/* What side by side means, clients or hosts: counts add, src's second t
 * adds into dst's second t + shift, the time is the slowest's. */
static int merge_beside(struct cb_phase_result *dst, const struct cb_phase_result *src,
			size_t shift)
{
	if (src->nsamples && cb_phase_samples_grow(dst, shift + src->nsamples) < 0)
		return -ENOMEM;
	if (merge_counts(dst, src) < 0)
		return -ENOMEM;
	for (size_t i = 0; i < src->nsamples; i++)
		sample_add(&dst->samples[shift + i], &src->samples[i]);
	/* at once: their backlogs add (the sum of each one's largest) */
	dst->backlog_max += src->backlog_max;
	dst->saturated |= src->saturated;
	if (src->window_unix_ns &&
	    (!dst->window_unix_ns || src->window_unix_ns < dst->window_unix_ns))
		dst->window_unix_ns = src->window_unix_ns;
	if (src->elapsed_ns > dst->elapsed_ns)
		dst->elapsed_ns = src->elapsed_ns;
	return 0;
}

int cb_phase_merge_client(struct cb_phase_result *dst, const struct cb_phase_result *src)
{
	struct cb_client_row *rows =
	    realloc(dst->per_client, (dst->nper_client + 1) * sizeof(*rows));
	if (!rows)
		return -ENOMEM;
	dst->per_client = rows;
	if (merge_beside(dst, src, 0) < 0)
		return -ENOMEM;
	rows[dst->nper_client++] = client_row(src);
	return 0;
}

int64_t cb_phase_offset_s(const struct cb_phase_result *dst, const struct cb_phase_result *src)
{
	if (!dst->window_unix_ns || !src->window_unix_ns)
		return 0;
	double d = ((double)src->window_unix_ns - (double)dst->window_unix_ns) / 1e9;
	return (int64_t)llround(d);
}

int cb_phase_merge_host(struct cb_phase_result *dst, const struct cb_phase_result *src,
			int64_t offset_s)
{
	/* a side with one client has no rows: its own figures are its row */
	size_t add = src->nper_client ? src->nper_client : 1;
	size_t mine = dst->nper_client ? 0 : 1;
	struct cb_client_row *rows =
	    realloc(dst->per_client, (dst->nper_client + mine + add) * sizeof(*rows));
	if (!rows)
		return -ENOMEM;
	dst->per_client = rows;
	struct cb_client_row own = client_row(dst);
	/* the span both ran over, the later one's start counted in: the
	 * rates are over the seconds the samples hold */
	uint64_t d_end = dst->elapsed_ns + (offset_s < 0 ? (uint64_t)-offset_s * 1000000000u : 0);
	uint64_t s_end = src->elapsed_ns + (offset_s > 0 ? (uint64_t)offset_s * 1000000000u : 0);
	if (offset_s < 0 && samples_delay(dst, (size_t)-offset_s) < 0)
		return -ENOMEM;
	if (merge_beside(dst, src, offset_s > 0 ? (size_t)offset_s : 0) < 0)
		return -ENOMEM;
	dst->elapsed_ns = d_end > s_end ? d_end : s_end;
	if (mine)
		rows[dst->nper_client++] = own;
	if (src->nper_client)
		memcpy(rows + dst->nper_client, src->per_client, src->nper_client * sizeof(*rows));
	else
		rows[dst->nper_client] = client_row(src);
	dst->nper_client += add;
	return 0;
}

int cb_phase_add_host(struct cb_phase_result *p, unsigned rank, const char *host,
		      const struct cb_phase_result *of)
{
	struct cb_rank_figures *f = realloc(p->ranks, (p->nranks + 1) * sizeof(*f));
	if (!f)
		return -ENOMEM;
	p->ranks = f;
	f += p->nranks++;
	memset(f, 0, sizeof(*f));
	f->rank = rank;
	snprintf(f->host, sizeof(f->host), "%s", host);
	f->ops = of->ops;
	f->bytes = of->bytes;
	f->errors = of->errors;
	f->elapsed_ns = of->elapsed_ns;
	f->start_unix_ns = of->window_unix_ns;
	return 0;
}

static int rate_add(struct cb_phase_result *p, double rate)
{
	double *r = realloc(p->iter_rates, (p->niters + 1) * sizeof(*r));
	if (!r)
		return -ENOMEM;
	p->iter_rates = r;
	r[p->niters++] = rate;
	return 0;
}

bool cb_phase_rate_stats(const struct cb_phase_result *p, struct cb_rate_stats *st)
{
	if (p->niters < 2)
		return false;
	double sum = 0, sq = 0;
	st->max = st->min = p->iter_rates[0];
	for (size_t i = 0; i < p->niters; i++) {
		double x = p->iter_rates[i];
		st->max = x > st->max ? x : st->max;
		st->min = x < st->min ? x : st->min;
		sum += x;
	}
	st->mean = sum / (double)p->niters;
	for (size_t i = 0; i < p->niters; i++)
		sq += (p->iter_rates[i] - st->mean) * (p->iter_rates[i] - st->mean);
	st->stddev = sqrt(sq / (double)p->niters);
	return true;
}

int cb_phase_merge_iteration(struct cb_phase_result *dst, const struct cb_phase_result *src)
{
	size_t at = dst->nsamples;
	if (dst->niters == 0 && rate_add(dst, cb_phase_iops(dst)) < 0)
		return -ENOMEM;
	/* a cut iteration's rate is not one of the iterations' */
	if (!src->interrupted && !src->failed && rate_add(dst, cb_phase_iops(src)) < 0)
		return -ENOMEM;
	if (cb_phase_samples_grow(dst, at + src->nsamples) < 0)
		return -ENOMEM;
	for (size_t i = 0; i < src->nsamples; i++)
		sample_add(&dst->samples[at + i], &src->samples[i]);
	if (merge_counts(dst, src) < 0)
		return -ENOMEM;
	if (src->backlog_max > dst->backlog_max)
		dst->backlog_max = src->backlog_max;
	dst->saturated |= src->saturated;
	dst->elapsed_ns += src->elapsed_ns;
	/* each rank's own figures add up over the iterations too */
	for (size_t k = 0; k < dst->nranks && k < src->nranks; k++) {
		dst->ranks[k].ops += src->ranks[k].ops;
		dst->ranks[k].bytes += src->ranks[k].bytes;
		dst->ranks[k].errors += src->ranks[k].errors;
		dst->ranks[k].elapsed_ns += src->ranks[k].elapsed_ns;
	}
	/* the same clients ran each iteration */
	for (size_t k = 0; k < dst->nper_client && k < src->nper_client; k++) {
		struct cb_client_row *d = &dst->per_client[k];
		const struct cb_client_row *c = &src->per_client[k];
		d->ops += c->ops;
		d->bytes += c->bytes;
		d->errors += c->errors;
		d->elapsed_ns += c->elapsed_ns;
		d->lat_sum_ns += c->lat_sum_ns;
	}
	return 0;
}

void cb_result_drop_last(struct cb_result *r)
{
	if (r->nphases)
		cb_phase_release(&r->phases[--r->nphases]);
}

bool cb_phase_rank_span(const struct cb_phase_result *p, const struct cb_rank_figures **first,
			const struct cb_rank_figures **last)
{
	if (p->nranks < 2)
		return false;
	*first = *last = &p->ranks[0];
	for (size_t k = 1; k < p->nranks; k++) {
		if (p->ranks[k].elapsed_ns < (*first)->elapsed_ns)
			*first = &p->ranks[k];
		if (p->ranks[k].elapsed_ns > (*last)->elapsed_ns)
			*last = &p->ranks[k];
	}
	return true;
}

double cb_phase_iops(const struct cb_phase_result *p)
{
	return p->elapsed_ns ? (double)p->ops * 1e9 / (double)p->elapsed_ns : 0.0;
}

double cb_phase_bw(const struct cb_phase_result *p)
{
	return p->elapsed_ns ? (double)p->bytes * 1e9 / (double)p->elapsed_ns : 0.0;
}

bool cb_phase_is_prefill(const struct cb_phase_result *p)
{
	return (p->step && strcmp(p->step, CB_STEP_PREFILL) == 0) ||
	       (p->op && strcmp(p->op, CB_STEP_PREFILL) == 0);
}

int cb_result_add_skip(struct cb_result *r, const char *workload, const char *reason)
{
	struct cb_skip *v = realloc(r->skipped, (r->nskipped + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	r->skipped = v;
	v[r->nskipped].workload = strdup(workload);
	v[r->nskipped].reason = strdup(reason);
	if (!v[r->nskipped].workload || !v[r->nskipped].reason) {
		free(v[r->nskipped].workload);
		free(v[r->nskipped].reason);
		return -ENOMEM;
	}
	r->nskipped++;
	return 0;
}

void cb_result_release(struct cb_result *r)
{
	for (size_t i = 0; i < r->nphases; i++)
		cb_phase_release(&r->phases[i]);
	free(r->phases);
	for (size_t i = 0; i < r->nskipped; i++) {
		free(r->skipped[i].workload);
		free(r->skipped[i].reason);
	}
	free(r->skipped);
	free(r->run_name);
	free(r->profile_name);
	json_decref(r->context);
	memset(r, 0, sizeof(*r));
}
