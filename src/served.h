/* Served by whom (issue 42): whether the cluster served a row's reads and
 * stats, or the client's cache did, judged from the counters telemetry
 * took over the phase (the OSDs' read bytes and read ops, the MDS ranks'
 * client requests) against what the client did. A row mostly served by
 * the client's cache is not the cluster's speed: it is marked in every
 * output, never a regression baseline, not judged by expect: unless its
 * workload says `cached: ok`, and left out of the layer breakdown. */
#ifndef CB_SERVED_H
#define CB_SERVED_H

#include <jansson.h>
#include <stdbool.h>

struct cb_phase_result;

enum cb_served_by {
	CB_SERVED_NONE,	   /* nothing read or stat'ed (writes), or no cluster */
	CB_SERVED_CLUSTER, /* the cluster counted at least half of it */
	CB_SERVED_CACHE,   /* the cluster counted less than half */
	CB_SERVED_UNKNOWN, /* the counters were not read */
};

/* Below this share of the client's reads (or stats) counted by the
 * cluster, the row was mostly served by the client's cache. */
#define CB_SERVED_CLUSTER_MIN 0.5

struct cb_served {
	enum cb_served_by by;
	const char *what;    /* "reads", "stats": what was judged */
	const char *counter; /* the cluster's counter it was judged by; NULL: none */
	const char *unit;    /* "bytes", "ops", "requests" */
	double cluster;	     /* what the counter counted over the phase */
	double client;	     /* what the client did over the same span */
};

/* Judge a record's row (its figures and telemetry.cluster). */
void cb_served_judge(const json_t *row, struct cb_served *s);

/* The same, of a result's row before its record is written. */
void cb_served_of(const struct cb_phase_result *pr, struct cb_served *s);

/* {"by": ..., "judged": ..., "counter": ..., "cluster": N, "client": N,
 * "fraction": F}; NULL for CB_SERVED_NONE. */
json_t *cb_served_json(const struct cb_served *s);

const char *cb_served_name(enum cb_served_by by);

/* Whether a record's row says it was mostly served by the client's cache
 * (its "served" member). */
bool cb_row_cached(const json_t *row);

/* One line on a cached row's evidence, no newline: "the MDS counted 0
 * client requests for 840 stats". */
void cb_served_why(const json_t *row, char *buf, size_t n);

#endif
