/* The cluster a run ran on, for the record's "context": the daemons'
 * versions, the OSDs up and in, and each pool, image and file system a row
 * used, once per run and target (docs/result.md#context). Read after the
 * phases through the monitor session; never fails a run: a command refused
 * (caps) is one note on stderr and that part is null. */
#ifndef CB_CONTEXT_H
#define CB_CONTEXT_H

#include "engine.h"
#include "result.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

/* The context being gathered; layers see it through the functions below. */
struct cb_ctx {
	struct cb_conn *conn;
	json_t *root;	  /* the record's "context" */
	json_t *osd_dump; /* `osd dump`, asked once; NULL when refused */
	json_t *rules;	  /* `osd crush rule dump`, likewise */
	bool dump_tried, rules_tried;
	/* a command timed out or the monitor session failed: the rest are not
	 * asked (each would wait out the timeout again) */
	bool unreachable;
	bool quiet;	 /* no notes */
	char noted[512]; /* the parts already noted, '\n'-separated */
};

/* Build r->context and each row's uses (rows with an engine and a target)
 * through conn, after the phases (the run's images and directories still
 * there). Notes on stderr unless quiet. 0, or -ENOMEM (no context). */
int cb_context_record(struct cb_conn *conn, struct cb_result *r, const char *run_name, bool quiet);

/* A monitor command, cmd a JSON object (stolen; "format": "json" added),
 * its reply into *out (the caller's). On failure one note naming part
 * (what is missing from the record) and -errno. */
int cb_ctx_mon(struct cb_ctx *x, const char *part, json_t *cmd, json_t **out);

/* The daemons' versions from `versions` (its JSON) as the record keeps
 * them: {"mon": {"16.2.15": 1}, "osd": {"16.2.15": 3}}, each kind's
 * versions and how many daemons run each, so a half-upgraded cluster
 * shows. A new reference; NULL when out of memory. */
json_t *cb_ctx_versions_of(const json_t *versions);

/* A note on stderr, once per part, unless quiet: "context: PART: WHY". */
void cb_ctx_note(struct cb_ctx *x, const char *part, const char *why);

/* The context's object `name` ("images", "filesystems"), made on first
 * use; borrowed, NULL on ENOMEM. */
json_t *cb_ctx_section(struct cb_ctx *x, const char *name);

/* Name pool as one the row used (its "uses"."pools"), described once in
 * context.pools. */
void cb_ctx_use_pool(struct cb_context_req *req, const char *pool);

/* The name of pool id from `osd dump`, or NULL (refused, no such pool). */
const char *cb_ctx_pool_name(struct cb_ctx *x, int64_t id);

/* context_pool.c: `osd dump` asked (once), NULL when refused. */
const json_t *cb_ctx_osd_dump(struct cb_ctx *x);
/* One pool as the context holds it, or json null when it cannot be read. */
json_t *cb_ctx_pool(struct cb_ctx *x, const char *name);
/* {"total", "up", "in"} OSDs, or json null. */
json_t *cb_ctx_osds(struct cb_ctx *x);

#endif
