/* Open-loop schedules, their checks and their figures' rendering. */
#include "rate.h"
#include "jget.h"
#include "engine.h"
#include "hist_json.h"
#include "result.h"
#include "rng.h"
#include "units.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>

static double exp_gap(struct cb_sched *s)
{
	/* (0, 1]: log never sees 0 */
	double u = ((double)(cb_rng_next(&s->rng) >> 11) + 1.0) / 9007199254740992.0;
	return -log(u) * s->gap_ns;
}

void cb_sched_init(struct cb_sched *s, uint64_t t0, double rate, int arrival, unsigned k,
		   unsigned clients)
{
	*s = (struct cb_sched){.t0 = t0,
			       .gap_ns = 1e9 * (double)clients / rate,
			       .offset = (double)k / (double)clients,
			       .poisson = arrival == CB_ARRIVAL_POISSON,
			       .rng = cb_splitmix64(t0 ^ ((uint64_t)k << 32)) | 1};
	s->next = s->poisson ? t0 + (uint64_t)exp_gap(s) : t0 + (uint64_t)(s->offset * s->gap_ns);
}

void cb_sched_advance(struct cb_sched *s)
{
	s->n++;
	if (s->poisson)
		s->next += (uint64_t)exp_gap(s);
	else /* from t0 each time: rounding never adds up */
		s->next = s->t0 + (uint64_t)(((double)s->n + s->offset) * s->gap_ns);
}

int cb_rate_check(const struct cb_workload *wl, char *why, size_t n)
{
	if (wl->rate.bytes && !wl->block_size) {
		snprintf(why, n,
			 "rate: %llu bytes/s needs a block size to make ops of: give block_size, "
			 "or the rate in ops/s",
			 (unsigned long long)wl->rate.bytes);
		return -EINVAL;
	}
	if (!wl->rate.ops && wl->arrival == CB_ARRIVAL_POISSON) {
		snprintf(why, n, "arrival: poisson spaces the ops of a rate: give rate too");
		return -EINVAL;
	}
	if (wl->rate.ops && wl->rate.ops < wl->clients) {
		snprintf(why, n,
			 "rate: %llu ops/s is less than one op per second for each of its %llu "
			 "clients: raise rate or lower clients",
			 (unsigned long long)wl->rate.ops, (unsigned long long)wl->clients);
		return -EINVAL;
	}
	return 0;
}

int cb_rate_json(const struct cb_phase_result *p, json_t *o)
{
	if (p->rate_ops <= 0)
		return 0;
	json_t *j = json_pack(
	    "{s:f, s:s, s:f, s:b, s:I, s:I, s:I, s:s, s:o, s:o}", "rate_ops_per_s", p->rate_ops,
	    "arrival", p->arrival == CB_ARRIVAL_POISSON ? "poisson" : "uniform",
	    "achieved_ops_per_s", cb_phase_iops(p), "saturated", p->saturated, "late_ops",
	    (json_int_t)p->late_ops, "backlog_max", (json_int_t)p->backlog_max, "unissued_ops",
	    (json_int_t)p->unissued_ops, "latency_from", "scheduled start", "service_latency_us",
	    cb_latency_json(p->service_hist), "service_histogram",
	    cb_histogram_json(p->service_hist));
	return j && json_object_set_new(o, "open_loop", j) == 0 ? 0 : -ENOMEM;
}

void cb_rate_text(const json_t *p, FILE *out)
{
	const json_t *o = json_object_get(p, "open_loop");
	if (!o)
		return;
	const json_t *svc = json_object_get(o, "service_latency_us");
	char a[32], t[32], late[32], bl[32], un[32], unl[80] = "";
	if (cb_jcount(o, "unissued_ops"))
		snprintf(unl, sizeof(unl), ", %s due ops not issued by the end",
			 cb_format_count(cb_jcount(o, "unissued_ops"), un, sizeof(un)));
	fprintf(out,
		"%s: open loop (%s): achieved %s of %s ops/s%s; %s ops late (over 1 ms behind "
		"schedule), backlog up to %s%s; latency above is from each op's scheduled start, "
		"service time mean %.3f ms, p99 %.3f ms\n",
		cb_jstr(p, "name", ""), cb_jstr(o, "arrival", ""),
		cb_format_count((uint64_t)llround(cb_jnum(o, "achieved_ops_per_s")), a, sizeof(a)),
		cb_format_count((uint64_t)llround(cb_jnum(o, "rate_ops_per_s")), t, sizeof(t)),
		cb_jtrue(o, "saturated") ? ": saturated" : "",
		cb_format_count(cb_jcount(o, "late_ops"), late, sizeof(late)),
		cb_format_count(cb_jcount(o, "backlog_max"), bl, sizeof(bl)), unl,
		cb_jnum(svc, "mean") / 1e3, cb_jnum(svc, "p99") / 1e3);
}
