/* Telemetry's state part (telemetry.h): the cluster's state during the run (PGs, OSDs up/in,
 * scrubs): a phase during which it changed is disturbed. */
#ifndef CB_TM_STATE_H
#define CB_TM_STATE_H

#include "tm_core.h"

/* At each of the phase's marks; *x is made at the first one it needs. */
void cb_tm_state_mark(struct cb_tm_state **x, enum cb_mark m, const struct cb_tm_phase *tp);
/* dst += src, a later run of the same step. 0 or -ENOMEM. */
int cb_tm_state_merge(struct cb_tm_state *dst, const struct cb_tm_state *src);
/* Its keys into the phase's JSON object; x NULL: it measured nothing. */
void cb_tm_state_json(const struct cb_tm_state *x, const struct cb_phase_result *pr, json_t *phase);
/* Its lines under the phase's row in the text report, from its section
 * of the row's record (row); none when the section is absent. */
void cb_tm_state_text(const json_t *row, FILE *out);
void cb_tm_state_free(struct cb_tm_state *x);

/* What lives across the run's phases (tm->state). 0 or -ENOMEM; a refused
 * command is a note. */
int cb_tm_state_open(struct cb_tm *tm);
void cb_tm_state_close(struct cb_tm *tm);

#endif
