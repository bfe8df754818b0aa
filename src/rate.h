/* Open-loop load (`rate:`, `arrival:`): each op has a scheduled start from
 * absolute deadlines, its latency counts from there (what users feel) and
 * from its submit (service time); ops due while `concurrency` ops are in
 * flight wait in a backlog. The phase loop (phase.c) asks the schedule;
 * this file owns it, its checks and its figures' rendering. */
#ifndef CB_RATE_H
#define CB_RATE_H

#include <stddef.h>
#include <stdio.h>

struct cb_workload;
struct cb_phase_result;
struct json_t;

/* Cross-key checks of rate and arrival at profile load (after the plan's
 * defaults). 0, or -EINVAL with the reason in why. */
int cb_rate_check(const struct cb_workload *wl, char *why, size_t n);

/* A row's open-loop figures into its JSON object o (nothing in a closed
 * loop). 0 or -ENOMEM. */
int cb_rate_json(const struct cb_phase_result *p, struct json_t *o);

/* ... and its lines under the report's table. */
void cb_rate_text(const struct cb_phase_result *p, FILE *out);

#endif
