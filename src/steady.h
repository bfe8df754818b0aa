/* `steady:` a stop rule: the phase ends once its metric (iops, bw, p99)
 * over the last window held within a bound of the window's mean (fio's
 * ss), or at max with "not reached". Client 0's loop asks it once a
 * second; it sees only that client's figures. */
#ifndef CB_STEADY_H
#define CB_STEADY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct cb_workload;
struct cb_phase_result;
struct json_t;

/* The metrics' names by enum cb_steady_metric, NULL-terminated: the
 * profile key's choices and the report's words. */
extern const char *const cb_steady_metrics[];

/* Cross-key checks at profile load. 0, or -EINVAL with why. */
int cb_steady_check(const struct cb_workload *wl, char *why, size_t n);

/* One client's judge over a phase; zeroed before begin. */
struct cb_steady_state {
	void *priv;
};

/* Prepare for wl's rule (nothing without one). 0 or -ENOMEM. */
int cb_steady_begin(struct cb_steady_state *s, const struct cb_workload *wl);
/* A measured op's latency (only called with a rule whose metric needs it). */
void cb_steady_op(struct cb_steady_state *s, uint64_t lat_ns);
/* Whether the rule needs each op's latency (cb_steady_op). */
bool cb_steady_wants_ops(const struct cb_steady_state *s);
/* Second sec of the measured window has ended (res's samples hold it):
 * true when the phase is steady now (res->steady, res->steady_ns set). */
bool cb_steady_tick(struct cb_steady_state *s, struct cb_phase_result *res, uint64_t sec);
/* The phase ended: a rule not reached is recorded so; freed. */
void cb_steady_end(struct cb_steady_state *s, struct cb_phase_result *res);

int cb_steady_json(const struct cb_phase_result *p, struct json_t *o);
/* The row's steady line, from its record's "steady" section. */
void cb_steady_text(const struct json_t *row, FILE *out);

#endif
