/* The capacity search. From the workload's rate it doubles while steps
 * pass (or halves while they fail) until one rate passes and one above it
 * fails, then bisects that bracket until it is narrower than `error`, all
 * within `steps` phases. A step passes when its percentile (from each op's
 * scheduled start) is at or under the target and it kept its rate: a
 * saturated client did not apply the load it was asked to. */
#include "search.h"
#include "search_result.h"
#include "jget.h"
#include "engine.h"
#include "err.h"
#include "hist.h"
#include "result.h"
#include "units.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum target { T_P99, T_P999, T_MEAN };
static const char *const target_names[] = {"p99", "p999", "mean"};

static int target_of(const struct cb_search *s)
{
	return s->p99_ns ? T_P99 : s->p999_ns ? T_P999 : T_MEAN;
}

int cb_search_check(const struct cb_workload *wl, char *why, size_t n)
{
	const struct cb_search *s = &wl->search;
	bool given = cb_search_given(s);
	if (!given && (s->steps != 12 || s->error_ppm != 30000)) {
		snprintf(
		    why, n,
		    "search: no target: give one of p99, p999 or mean, e.g. search: { p99: 5ms }");
		return -EINVAL;
	}
	if ((wl->expect.set >> CB_EXPECT_MIN_CAPACITY & 1) && !given) {
		snprintf(why, n,
			 "expect: min_capacity judges a capacity search: give search: { p99: 5ms } "
			 "too");
		return -EINVAL;
	}
	if (!given)
		return 0;
	if (!!s->p99_ns + !!s->p999_ns + !!s->mean_ns > 1) {
		snprintf(why, n, "search: give one target of p99, p999 and mean, not several");
		return -EINVAL;
	}
	if (!wl->rate.ops) {
		snprintf(why, n,
			 "search: runs at rates: give rate: as the rate the search starts from");
		return -EINVAL;
	}
	if (wl->steady.metric != CB_STEADY_OFF) {
		snprintf(why, n,
			 "search: each step runs for duration; leave steady out of a search");
		return -EINVAL;
	}
	if (wl->ops || wl->bytes) {
		snprintf(why, n, "search: each step runs for duration; leave ops and bytes out");
		return -EINVAL;
	}
	return 0;
}

static double value_of(const struct cb_search_result *s, const struct cb_phase_result *p)
{
	switch (s->target) {
	case T_P99:
		return (double)cb_hist_percentile(p->hist, 99);
	case T_P999:
		return (double)cb_hist_percentile(p->hist, 99.9);
	default:
		return cb_hist_mean(p->hist);
	}
}

/* The next rate to try, or 0 when the search is done. */
static uint64_t next_rate(const struct cb_search_result *s, uint64_t start, uint64_t floor)
{
	if (!s->nsteps)
		return start;
	if (!s->hi) /* nothing failed yet: up */
		return s->lo * 2;
	if (!s->lo) /* nothing passed yet: down, to one op per second per client */
		return s->hi / 2 >= floor && s->hi / 2 < s->hi ? s->hi / 2 : 0;
	if ((double)(s->hi - s->lo) <= s->error * (double)s->lo || s->hi - s->lo < 2)
		return 0;
	return s->lo + (s->hi - s->lo) / 2;
}

/* Keep the step's figures in best when it is the new best (the highest
 * passing rate; until one passes, the lowest failing one). */
static void keep(struct cb_phase_result *best, bool *have, struct cb_phase_result *pr, bool better)
{
	if (*have && !better) {
		cb_phase_release(pr);
		return;
	}
	if (*have)
		cb_phase_release(best);
	*best = *pr;
	*have = true;
}

int cb_search_run(const struct cb_workload *wl, cb_search_step_fn step, void *arg,
		  struct cb_phase_result *row, struct cb_err *e)
{
	struct cb_search_result *s = calloc(1, sizeof(*s));
	if (s)
		s->steps = calloc(wl->search.steps, sizeof(*s->steps));
	if (!s || !s->steps) {
		cb_search_result_free(s);
		return cb_err_usage(e, "out of memory for a search");
	}
	s->target = target_of(&wl->search);
	s->target_ns = cb_search_target_ns(&wl->search);
	s->error = (double)wl->search.error_ppm / 1e6;
	struct cb_phase_result best;
	bool have = false, cut_int = false, cut_fail = false;
	int r = 0;
	uint64_t rate;
	while (s->nsteps < wl->search.steps &&
	       (rate = next_rate(s, wl->rate.ops, wl->clients)) != 0) {
		struct cb_phase_result pr;
		if (cb_phase_init(&pr) < 0) {
			r = cb_err_usage(e, "out of memory");
			break;
		}
		r = step(arg, rate, &pr);
		if (r < 0 || !pr.ran || pr.interrupted || pr.failed) {
			/* a step cut short measured nothing to judge: the row
			 * keeps the capacity's figures, marked cut or failed; with
			 * no step passed, the cut step is the row */
			s->interrupted = r == -EINTR || pr.interrupted;
			cut_int = pr.interrupted;
			cut_fail = pr.failed;
			keep(&best, &have, &pr, pr.ran && !s->lo);
			break;
		}
		struct cb_search_step *st = &s->steps[s->nsteps++];
		st->rate = rate;
		st->achieved = cb_phase_iops(&pr);
		st->value_ns = value_of(s, &pr);
		st->saturated = pr.saturated;
		st->pass = !pr.saturated && st->value_ns <= (double)s->target_ns;
		if (st->pass && rate > s->lo)
			s->lo = rate;
		if (!st->pass && (!s->hi || rate < s->hi))
			s->hi = rate;
		keep(&best, &have, &pr, st->pass ? rate == s->lo : !s->lo && rate == s->hi);
	}
	if (have) {
		cb_phase_release(row);
		*row = best;
	}
	row->interrupted |= cut_int;
	row->failed |= cut_fail;
	row->search = s;
	return r;
}

bool cb_search_capacity(const struct cb_phase_result *p, double *ops)
{
	if (!p->search)
		return false;
	*ops = (double)p->search->lo; /* 0 when no step passed */
	return true;
}

/* The bracket's width over the capacity: how far above it the real one may
 * be; infinite when nothing above it failed. */
static double bracket(const struct cb_search_result *s)
{
	return s->lo && s->hi ? (double)(s->hi - s->lo) / (double)s->lo : INFINITY;
}

static const char *status(const struct cb_search_result *s)
{
	if (s->interrupted)
		return "interrupted";
	if (!s->lo)
		return "none passed";
	if (!s->hi)
		return "every step passed";
	return bracket(s) <= s->error ? "found" : "step budget spent";
}

int cb_search_json(const struct cb_phase_result *p, json_t *o)
{
	const struct cb_search_result *s = p->search;
	if (!s)
		return 0;
	json_t *steps = json_array();
	for (size_t i = 0; steps && i < s->nsteps; i++) {
		const struct cb_search_step *st = &s->steps[i];
		json_array_append_new(steps,
				      json_pack("{s:I, s:f, s:f, s:b, s:b}", "rate_ops_per_s",
						(json_int_t)st->rate, "achieved_ops_per_s",
						st->achieved, "value_us", st->value_ns / 1e3,
						"saturated", st->saturated, "passed", st->pass));
	}
	double b = bracket(s);
	json_t *j =
	    json_pack("{s:s, s:f, s:s, s:o, s:o, s:o, s:f, s:o}", "target", target_names[s->target],
		      "target_us", (double)s->target_ns / 1e3, "status", status(s),
		      "capacity_ops_per_s", s->lo ? json_integer((json_int_t)s->lo) : json_null(),
		      "failed_at_ops_per_s", s->hi ? json_integer((json_int_t)s->hi) : json_null(),
		      "error_pct", isinf(b) ? json_null() : json_real(b * 100), "error_asked_pct",
		      s->error * 100, "steps", steps);
	return j && json_object_set_new(o, "search", j) == 0 ? 0 : -ENOMEM;
}

void cb_search_text(const json_t *phases, FILE *out)
{
	size_t i;
	const json_t *p;
	json_array_foreach(phases, i, p)
	{
		const json_t *s = json_object_get(p, "search");
		const char *name = cb_jstr(p, "name", "");
		char t[32], c[32], h[32];
		if (!s)
			continue;
		uint64_t lo = cb_jcount(s, "capacity_ops_per_s"),
			 hi = cb_jcount(s, "failed_at_ops_per_s");
		size_t nsteps = json_array_size(json_object_get(s, "steps"));
		cb_format_duration((uint64_t)llround(cb_jnum(s, "target_us") * 1e3), t, sizeof(t));
		const char *sym = cb_jstr(s, "target", "");
		if (lo && hi)
			fprintf(out, "%s: capacity at %s ≤ %s: %s ops/s (±%.1f %%)%s, %zu steps\n",
				name, sym, t, cb_format_count(lo, c, sizeof(c)),
				cb_jnum(s, "error_pct"),
				strcmp(cb_jstr(s, "status", ""), "step budget spent") == 0 ||
					(strcmp(cb_jstr(s, "status", ""), "interrupted") == 0 &&
					 cb_jnum(s, "error_pct") > cb_jnum(s, "error_asked_pct"))
				    ? ", step budget spent first"
				    : "",
				nsteps);
		else if (lo)
			fprintf(out,
				"%s: capacity at %s ≤ %s: at least %s ops/s: every step passed; "
				"raise rate or search.steps\n",
				name, sym, t, cb_format_count(lo, c, sizeof(c)));
		else
			fprintf(out, "%s: capacity at %s ≤ %s: below %s ops/s: no step passed\n",
				name, sym, t,
				hi ? cb_format_count(hi, h, sizeof(h)) : "any rate tried");
		if (strcmp(cb_jstr(s, "status", ""), "interrupted") == 0)
			fprintf(out, "%s: the search was interrupted after %zu steps\n", name,
				nsteps);
	}
}
