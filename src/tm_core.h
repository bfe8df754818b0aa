/* Telemetry's core: what every part of telemetry (tm_*.c) uses and the
 * frame (telemetry.c) owns: the run's switches and connection, its notes
 * of what could not be measured, the monitors' and the OSDs' backoff, the
 * phase being measured and a row's JSON section. The parts depend on this
 * file, never on the frame that calls them. */
#ifndef CB_TM_CORE_H
#define CB_TM_CORE_H

#include "engine.h"
#include "phase.h"

#include <jansson.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>

struct cb_conn;
struct cb_phase_result;
struct cb_phase_tm;
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

/* One phase being measured (one cb_run_phase call). */
struct cb_tm_phase {
	struct cb_tm *tm;
	/* The phase as run_step made it: with several clients its ph->out is
	 * filled only when theirs are merged, after END. */
	const struct cb_phase *ph;
	const struct cb_engine *eng;
	struct cb_phase_tm *got;
};

/* The object phase.telemetry.name, made when missing (a part's section:
 * "client", "host", "cluster"); NULL on ENOMEM. Borrowed. */
json_t *cb_tm_json_section(json_t *phase, const char *name);

/* The notes kept, a line each ("telemetry: ..."); none under quiet. */
void cb_tm_print_notes(struct cb_tm *tm, FILE *out);
/* The run's notes (what was not measured) as a JSON array, NULL if none. */
json_t *cb_tm_notes_json(const struct cb_tm *tm);

#endif
