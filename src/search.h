/* `search:` capacity at a latency target: in rate mode, the highest rate
 * whose percentile stays at or under the target, by stepping up from the
 * workload's rate and bisecting, each step a phase of its own. */
#ifndef CB_SEARCH_H
#define CB_SEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct cb_workload;
struct cb_phase_result;
struct cb_result;
struct cb_err;
struct json_t;

/* What a search found, owned by the row (cb_phase_result.search):
 * search_result.h. */
struct cb_search_result;

/* Cross-key checks at profile load. 0, or -EINVAL with why. */
int cb_search_check(const struct cb_workload *wl, char *why, size_t n);

/* Run one step: a phase of the workload at rate ops/s into pr (fresh, from
 * cb_phase_init). 0, -EINTR, or -errno with the error set. */
typedef int (*cb_search_step_fn)(void *arg, uint64_t rate, struct cb_phase_result *pr);

/* The search for wl into row (a fresh row of the record): row ends up with
 * the figures of the step the capacity was measured at, and row->search.
 * 0, -EINTR, or -errno from a step. */
int cb_search_run(const struct cb_workload *wl, cb_search_step_fn step, void *arg,
		  struct cb_phase_result *row, struct cb_err *e);

/* The capacity found (ops/s; 0 when no step passed) for expect's
 * min_capacity; false without a search. */
bool cb_search_capacity(const struct cb_phase_result *p, double *ops);

int cb_search_json(const struct cb_phase_result *p, struct json_t *o);
/* The lines the report leads with: each searched row's capacity, from the
 * record's phases (their "search" sections). */
void cb_search_text(const struct json_t *phases, FILE *out);

#endif
