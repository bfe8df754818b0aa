/* Cold by choice (issue 42): a read step run with `cold` starts with
 * nothing warm that could answer it in the cluster's place. The layer
 * leaves the client's caches out in its setup (a remount, a stride,
 * image handles opened anew); the runner then, once every client has set up and
 * before the start line, drops the caches of the OSDs that hold the
 * step's pools (`ceph tell osd.N cache drop`). A refusal (the client's
 * caps, an object store without a cache) is one note; the step runs. */
#ifndef CB_COLD_H
#define CB_COLD_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

struct cb_conn;

/* struct cb_workload's cold */
enum cb_cold { CB_COLD_AUTO, CB_COLD_OFF, CB_COLD_ON };

/* Pools one step reads from: an image's and its data pool, a file
 * system's data pools. */
#define CB_COLD_MAX_POOLS 8

/* What a drop did: the OSDs the pools map to, how many dropped their
 * caches, how many have none their object store can drop (memstore), and
 * why the others did not ("" when none refused). */
struct cb_cold_osds {
	int osds, dropped, no_cache;
	char note[256];
};

/* Whether a step runs cold: cold given, else the layer's default. */
static inline bool cb_cold_wanted(int cold, bool layer_default)
{
	return cold == CB_COLD_ON || (cold == CB_COLD_AUTO && layer_default);
}

/* Drop the caches of the OSDs acting for pools (by id). Never fails: what
 * it could not do is in out->note. */
void cb_cold_drop(struct cb_conn *conn, const int64_t *pools, unsigned npools,
		  struct cb_cold_osds *out);

/* The row's "cold": {"client": how, "osds": N, "osds_dropped": M,
 * "osds_no_cache": K, "note": why not}; NULL when the step ran warm (client NULL). */
json_t *cb_cold_json(const char *client, const struct cb_cold_osds *osds);

#endif
