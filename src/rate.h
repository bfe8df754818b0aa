/* Open-loop load (`rate:`, `arrival:`): each op has a scheduled start from
 * absolute deadlines, its latency counts from there (what users feel) and
 * from its submit (service time); ops due while `concurrency` ops are in
 * flight wait in a backlog. The phase loop (phase.c) asks the schedule;
 * this file owns it, its checks and its figures' rendering. */
#ifndef CB_RATE_H
#define CB_RATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct cb_workload;
struct cb_phase_result;
struct json_t;

/* One client's schedule: the scheduled start of its n-th op, from
 * absolute deadlines (t0 + n gaps, or a Poisson process's sum), so no
 * lateness accumulates as drift. */
struct cb_sched {
	uint64_t t0;
	double gap_ns; /* mean time between this client's ops */
	double offset; /* this client's share of a gap: clients interleave */
	bool poisson;
	uint64_t rng;
	uint64_t n;    /* ops scheduled so far */
	uint64_t next; /* the scheduled start of op n */
};

/* Client k of clients, all sharing rate ops/s, from t0. */
void cb_sched_init(struct cb_sched *s, uint64_t t0, double rate, int arrival, unsigned k,
		   unsigned clients);
/* Op n was taken: next is op n+1's scheduled start. */
void cb_sched_advance(struct cb_sched *s);

/* Lateness that counts an op late: submitted this long after its
 * scheduled start. */
#define CB_LATE_NS 1000000ULL

/* A phase fell short of its rate: achieved under this share of it. */
#define CB_SATURATED_SHARE 0.97

/* Cross-key checks of rate and arrival at profile load (after the plan's
 * defaults). 0, or -EINVAL with the reason in why. */
int cb_rate_check(const struct cb_workload *wl, char *why, size_t n);

/* A row's open-loop figures into its JSON object o (nothing in a closed
 * loop). 0 or -ENOMEM. */
int cb_rate_json(const struct cb_phase_result *p, struct json_t *o);

/* ... and its line under the report's table, from that section of the
 * row's record. */
void cb_rate_text(const struct json_t *row, FILE *out);

#endif
