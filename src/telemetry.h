/* Telemetry: what the client, its host and the cluster did while a phase
 * ran, measured beside the runner at the phase's marks (phase.h), never on
 * the per-op path, and kept with the phase's row. It reads, never writes,
 * and never fails a run: what it cannot measure is one note and a part
 * left out. Each part has its files (tm_client, tm_host, tm_osd, tm_state);
 * this one hands the marks to them in order. */
#ifndef CB_TELEMETRY_H
#define CB_TELEMETRY_H

#include "tm_core.h"

#include <jansson.h>
#include <stdio.h>

struct cb_conn;
struct cb_phase_result;
struct cb_tm_client;
struct cb_tm_host;
struct cb_tm_osd;
struct cb_tm_state;

/* The run's telemetry, before its first phase. conn may be NULL. 0 or
 * -ENOMEM; a part that cannot start is a note, not an error. */
int cb_tm_open(const struct cb_tm_opts *o, struct cb_conn *conn, struct cb_tm **out);
void cb_tm_close(struct cb_tm *tm);

/* What telemetry saw of a row (cb_phase_result.tm), a pointer per part,
 * NULL where the part was off or measured nothing. */
struct cb_phase_tm {
	struct cb_tm_client *client;
	struct cb_tm_host *host;
	struct cb_tm_osd *osd;
	struct cb_tm_state *state;
};

/* Prepare tp for one phase and point ro's marks at it. tm NULL: telemetry
 * off, ro untouched. 0 or -ENOMEM. */
int cb_tm_phase_begin(struct cb_tm *tm, const struct cb_phase *ph, const struct cb_engine *eng,
		      struct cb_tm_phase *tp, struct cb_runner_opts *ro);
/* cb_runner_opts.mark: arg is the struct cb_tm_phase. */
void cb_tm_mark(void *arg, enum cb_mark m);
/* What the phase measured, the caller's (a row's tm), NULL when nothing. */
struct cb_phase_tm *cb_tm_phase_end(struct cb_tm_phase *tp);

/* A later run of the row's step: src's figures added into *dst (src is
 * consumed). 0 or -ENOMEM. */
int cb_tm_merge(struct cb_phase_tm **dst, struct cb_phase_tm *src);

/* The row's telemetry into its JSON object (phase), each part's keys. */
void cb_tm_json(const struct cb_phase_result *pr, json_t *phase);
/* ... and its lines under the text table, from the row's record. */
void cb_tm_text(const json_t *row, FILE *out);
void cb_phase_tm_free(struct cb_phase_tm *t);

#endif
