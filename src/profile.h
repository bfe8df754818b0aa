/* Profiles: a YAML file (or ad-hoc flags) turned into a validated plan, one
 * item per workload, with every key checked against the common table and
 * the layer's own, and errors as file:line:column: message. */
#ifndef CB_PROFILE_H
#define CB_PROFILE_H

#include "engine.h"
#include "preflight_opts.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The largest seed: the record's JSON integers are signed. */
#define CB_SEED_MAX ((1ULL << 63) - 1)

struct cb_plan_item {
	struct cb_workload wl;
	const struct cb_engine *engine;
	void *lopts; /* engine->options_size bytes, owned by the profile */
};

struct cb_profile {
	char *name;
	char *conf, *client, *keyring;	    /* cluster: section; NULL when absent */
	uint64_t timeout_ns;		    /* cluster.timeout; 0 when absent */
	bool telemetry;			    /* telemetry: the cluster's side (telemetry.h) */
	bool host_stats;		    /* host_stats: the host's per-second series */
	struct cb_preflight_opts preflight; /* preflight: the gate before the first phase */
	char sha256[65];		    /* of the file's bytes (or of the ad-hoc flags) */
	struct cb_plan_item *items;
	size_t n;
};

struct cb_ranks;

/* Give every workload without a seed one drawn now, the same on every
 * rank (rank 0's); called once as the run starts. */
void cb_profile_seed(struct cb_profile *p, struct cb_ranks *rk);

/* Load and validate path, then apply overrides ("workloads.NAME.KEY=V",
 * "NAME.KEY=V", "KEY=V" for every workload, "cluster.KEY=V"). On success
 * *out is the caller's (cb_profile_free). Errors set e (exit 2). */
int cb_profile_load(const char *path, char *const *overrides, size_t noverrides,
		    struct cb_profile **out, struct cb_err *e);

/* cb_profile_load on len bytes already read (a NUL inside is refused);
 * path names them in messages and, without name:, names the profile. */
int cb_profile_parse(const char *path, const char *buf, size_t len, char *const *overrides,
		     size_t noverrides, struct cb_profile **out, struct cb_err *e);

/* Build a one-workload profile from KEY=V pairs, validated exactly like a
 * file; origins[i] (e.g. "-b") names pair i in messages (origins may be NULL). */
int cb_profile_adhoc(const char *name, char *const *kv, const char *const *origins, size_t nkv,
		     struct cb_profile **out, struct cb_err *e);

void cb_profile_free(struct cb_profile *p);

/* The common workload keys (name, layer, op, block_size, ...). */
extern const struct cb_option cb_workload_options[];

#endif
