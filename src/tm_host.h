/* Telemetry's host part (telemetry.h): the host beside the run, once a second: CPU, load, memory,
 * network, the disks a phase used. */
#ifndef CB_TM_HOST_H
#define CB_TM_HOST_H

#include "tm_core.h"

/* At each of the phase's marks; *x is made at the first one it needs. */
void cb_tm_host_mark(struct cb_tm_host **x, enum cb_mark m, const struct cb_tm_phase *tp);
/* dst += src, a later run of the same step. 0 or -ENOMEM. */
int cb_tm_host_merge(struct cb_tm_host *dst, const struct cb_tm_host *src);
/* Its keys into the phase's JSON object; x NULL: it measured nothing. */
void cb_tm_host_json(const struct cb_tm_host *x, const struct cb_phase_result *pr, json_t *phase);
/* Its lines under the phase's row in the text report, from its section
 * of the row's record (row); none when the section is absent. */
void cb_tm_host_text(const json_t *row, FILE *out);
void cb_tm_host_free(struct cb_tm_host *x);

struct tm_cpu;
/* The host's CPU ticks over the row's window(s) (tm_proc.h) into *c; false
 * when x is NULL or measured none. */
bool cb_tm_host_cpu(const struct cb_tm_host *x, struct tm_cpu *c);

#endif
