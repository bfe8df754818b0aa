/* The cluster's state as the monitors' `status` tells it (health and its
 * checks, PGs by state, OSDs up and in), read into a plain struct, and the
 * two judgements made of it: whether it is ready for a run (the pre-flight
 * gate) and what changed since a phase started (a disturbed phase). The
 * reading and judging are pure functions of the JSON, so the unit tests
 * pin them down on saved `status` outputs. */
#ifndef CB_CLUSTER_STATE_H
#define CB_CLUSTER_STATE_H

#include "err.h"
#include "preflight_opts.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cb_conn;

#define CB_CS_MAX_CHECKS 32
#define CB_CS_MAX_WORDS	 32
#define CB_CS_MAX_OSDS	 1024

enum cb_cs_health { CB_CS_OK, CB_CS_WARN, CB_CS_ERR };

struct cb_cs_check {
	char name[64];
	enum cb_cs_health severity;
	char msg[160]; /* its summary, "noscrub flag(s) set" */
	bool muted;    /* `ceph health mute`: the operator said it does not matter */
};

/* PGs counted by each word of their state other than active and clean
 * ("active+undersized+degraded": undersized, degraded), "scrubbing+deep"
 * as deep-scrubbing, a PG not active as inactive too. */
struct cb_cs_word {
	char word[32];
	uint64_t pgs;
};

struct cb_cstate {
	enum cb_cs_health health;
	struct cb_cs_check checks[CB_CS_MAX_CHECKS];
	size_t nchecks;
	uint64_t pgs;
	struct cb_cs_word words[CB_CS_MAX_WORDS];
	size_t nwords;
	uint64_t osds, up, in;
	/* per OSD id (from `osd dump`, when asked): CB_CS_EXISTS | UP | IN */
	bool have_osds;
	uint8_t osd[CB_CS_MAX_OSDS];
};

enum { CB_CS_EXISTS = 1, CB_CS_UP = 2, CB_CS_IN = 4 };

/* status (the JSON of `ceph status -f json`) into *st. 0, or -EINVAL when
 * it lacks the health, pgmap or osdmap it must have. */
int cb_cstate_parse(const json_t *status, struct cb_cstate *st);

/* Ask the monitors for `status` through c and parse it. 0, or -errno with
 * why set to a short sentence ("status refused: Permission denied"). */
int cb_cstate_fetch(struct cb_conn *c, struct cb_cstate *st, char *why, size_t len);

/* ... and `osd dump` into st->osd (have_osds set). Same returns. */
int cb_cstate_fetch_osds(struct cb_conn *c, struct cb_cstate *st, char *why, size_t len);
/* osd dump's JSON into st->osd. 0 or -EINVAL. */
int cb_cstate_parse_osds(const json_t *dump, struct cb_cstate *st);

/* PGs whose state holds word, 0 if none. */
uint64_t cb_cstate_pgs(const struct cb_cstate *st, const char *word);

/* Whether st is as ready as req asks, the health checks named in allow
 * ignored: true, or false with the reasons, each one string ("12 pgs
 * backfilling", "1 osd down", "OSDMAP_FLAGS (noscrub flag(s) set)"), most
 * PGs first, into reasons (a JSON array the caller owns). require:
 *   any   everything is ready;
 *   warn  no HEALTH_ERR check, no nearfull check (a write run could fill the
 *         cluster), every PG active and clean but for scrubs and snap trims,
 *         no OSD that is in down;
 *   ok    no health check at all, every PG active+clean, every OSD up and in.
 * An allowed or muted check is ignored whatever its severity; PGs and OSDs
 * are judged by their own state. */
bool cb_cstate_ready(const struct cb_cstate *st, enum cb_pf_require req, char *const *allow,
		     size_t nallow, json_t *reasons);

/* Whether every PG state st has besides active+clean is a moment's (a pool
 * just made, a map changed: peering, activating, creating, unknown), so a
 * not-ready verdict on st alone is worth a few seconds' wait. */
bool cb_cstate_transient(const struct cb_cstate *st);

/* The changes from a phase's start (from) to now (to) that disturb it:
 * more PGs in a state other than active+clean, fewer OSDs up or in, a
 * health check that appeared. Each one adds a (key, text) pair to the
 * caller's add: key says what (pg:degraded, osd:down, check:OSD_DOWN), so
 * a later sample can update the same entry. */
void cb_cstate_changes(const struct cb_cstate *from, const struct cb_cstate *to,
		       void (*add)(void *arg, const char *key, const char *text), void *arg);

/* Whether the health check name only repeats what the PG and OSD states
 * say (OSD_DOWN, PG_DEGRADED ...). */
bool cb_cstate_told_by_state(const char *name);

/* The health status's name, "HEALTH_OK" ... */
const char *cb_cstate_health_name(enum cb_cs_health h);

#endif
