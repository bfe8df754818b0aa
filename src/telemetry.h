/* Telemetry: what the client, its host and the cluster did while a phase
 * ran, measured beside the runner at the phase's marks (phase.h), never on
 * the per-op path, and kept with the phase's row. It reads, never writes,
 * and never fails a run: what it cannot measure is one note and a part
 * left out. Each part has its files (tm_client, tm_host, tm_osd, tm_state);
 * this one hands the marks to them in order. */
#ifndef CB_TELEMETRY_H
#define CB_TELEMETRY_H

#include "engine.h"
#include "phase.h"

#include <jansson.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>

struct cb_conn;
struct cb_phase_result;
struct cb_tm_client;
struct cb_tm_host;
struct cb_tm_osd;
struct cb_tm_state;
struct cb_tm_osd_run;
struct cb_tm_state_run;

/* A target telemetry asks (the monitors, one OSD) that did not answer in
 * time: not asked again before `until`, after a wait that doubles while it
 * stays silent, up to CB_TM_BACKOFF_MAX_S; so a hung daemon costs a timeout
 * now and then rather than at every mark, and one that comes back is read
 * again. */
struct cb_tm_backoff {
	double until; /* cb_now_s(); 0: ask */
	double wait;  /* the wait after the next failure; 0: the first */
};

#define CB_TM_BACKOFF_MAX_S 300.0

/* Whether b lets the target be asked at now (cb_now_s()). */
bool cb_tm_backoff_ready(const struct cb_tm_backoff *b, double now);
/* It did not answer at now: wait first_s (the first time) or twice the
 * last wait, capped, before asking again. */
void cb_tm_backoff_failed(struct cb_tm_backoff *b, double now, double first_s);
/* It answered: asked as usual again. Returns whether it had been away. */
bool cb_tm_backoff_ok(struct cb_tm_backoff *b);

struct cb_tm_opts {
	bool host;    /* host_stats: the host's per-second series */
	bool cluster; /* telemetry: the cluster's side (needs conn) */
	bool quiet;   /* --quiet: notes are kept, not printed */
};

#define CB_TM_MAX_NOTES 16

/* The run's telemetry: its switches, its connection, and what the cluster
 * parts keep across phases. */
struct cb_tm {
	struct cb_tm_opts o;
	struct cb_conn *conn; /* NULL: no cluster (o.cluster false) */
	struct cb_tm_state_run *state;
	struct cb_tm_osd_run *osd;
	/* What could not be measured, a sentence each, said once; under
	 * notes_mu (a part's sampler thread notes beside the marks) */
	pthread_mutex_t notes_mu;
	/* The monitors, once a command to them timed out: not asked again
	 * until their backoff passes (each ask would wait out the timeout
	 * at every mark, and the run with it); under mon_mu (the state
	 * sampler's thread asks them too) */
	pthread_mutex_t mon_mu;
	struct cb_tm_backoff mon;
	char notes[CB_TM_MAX_NOTES][256];
	size_t nnotes;
};

/* The run's telemetry, before its first phase. conn may be NULL. 0 or
 * -ENOMEM; a part that cannot start is a note, not an error. */
int cb_tm_open(const struct cb_tm_opts *o, struct cb_conn *conn, struct cb_tm **out);
void cb_tm_close(struct cb_tm *tm);

/* Keep, once, that a part could not be measured (the same sentence again
 * is not kept twice); the report prints them (cb_tm_print_notes) and the
 * JSON holds them. Any thread. */
void cb_tm_note(struct cb_tm *tm, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Whether the monitors are in their backoff after a command to them timed
 * out: commands to them are not sent now (tm NULL: false). */
bool cb_tm_mons_away(struct cb_tm *tm);
/* A monitor command's result r: -ETIMEDOUT starts or lengthens their
 * backoff (a note), any other result ends it (they answered). */
void cb_tm_mons_answered(struct cb_tm *tm, int r);

/* What telemetry saw of a row (cb_phase_result.tm), a pointer per part,
 * NULL where the part was off or measured nothing. */
struct cb_phase_tm {
	struct cb_tm_client *client;
	struct cb_tm_host *host;
	struct cb_tm_osd *osd;
	struct cb_tm_state *state;
};

/* One phase being measured (one cb_run_phase call). */
struct cb_tm_phase {
	struct cb_tm *tm;
	/* The phase as run_step made it: with several clients its ph->out is
	 * filled only when theirs are merged, after END. */
	const struct cb_phase *ph;
	const struct cb_engine *eng;
	struct cb_phase_tm *got;
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

/* The object phase.telemetry.name, made when missing (a part's section:
 * "client", "host", "cluster"); NULL on ENOMEM. Borrowed. */
json_t *cb_tm_json_section(json_t *phase, const char *name);

/* The row's telemetry into its JSON object (phase), each part's keys. */
void cb_tm_json(const struct cb_phase_result *pr, json_t *phase);
/* ... and its lines under the text table, from the row's record. */
void cb_tm_text(const json_t *row, FILE *out);
/* The notes kept, a line each ("telemetry: ..."); none under quiet. */
void cb_tm_print_notes(struct cb_tm *tm, FILE *out);
/* The run's notes (what was not measured) as a JSON array, NULL if none. */
json_t *cb_tm_notes_json(const struct cb_tm *tm);

void cb_phase_tm_free(struct cb_phase_tm *t);

#endif
