/* The OSDs' part of a cold step: the OSDs acting for its pools, found from
 * their placement groups, each told to drop its caches. */
#include "cold.h"
#include "conn.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* OSD ids; a cluster of more OSDs than this is dropped in its first ones
 * and says so. */
#define COLD_MAX_OSDS 4096
/* CRUSH's hole in an acting set (CRUSH_ITEM_NONE) */
#define COLD_NO_OSD 0x7fffffff

static int add_osd(int *ids, int n, json_int_t id)
{
	if (id < 0 || id == COLD_NO_OSD || n >= COLD_MAX_OSDS)
		return n;
	for (int i = 0; i < n; i++)
		if (ids[i] == (int)id)
			return n;
	ids[n] = (int)id;
	return n + 1;
}

/* The OSDs of pool's placement groups into ids (n of them so far); the new
 * count, or -errno with why. */
static int pool_osds(struct cb_conn *conn, int64_t pool, int *ids, int n, char *why, size_t wn)
{
	char cmd[128];
	json_t *j = NULL, *pg;
	size_t i;
	snprintf(cmd, sizeof(cmd), "{\"prefix\": \"pg ls\", \"pool\": %lld, \"format\": \"json\"}",
		 (long long)pool);
	int r = cb_conn_mon_json(conn, cmd, &j, why, wn);
	if (r < 0)
		return r;
	/* {"pg_stats": [...]} since Octopus, a bare array before */
	const json_t *pgs = json_is_array(j) ? j : json_object_get(j, "pg_stats");
	json_array_foreach(pgs, i, pg)
	{
		size_t k;
		json_t *id;
		json_array_foreach(json_object_get(pg, "acting"), k, id) n =
		    add_osd(ids, n, json_integer_value(id));
	}
	json_decref(j);
	return n;
}

void cb_cold_drop(struct cb_conn *conn, const int64_t *pools, unsigned npools,
		  struct cb_cold_osds *out)
{
	int own[COLD_MAX_OSDS];
	int n = 0;
	char why[256] = "";
	*out = (struct cb_cold_osds){0};
	for (unsigned p = 0; p < npools; p++) {
		int r = pool_osds(conn, pools[p], own, n, why, sizeof(why));
		if (r < 0) {
			snprintf(
			    out->note, sizeof(out->note),
			    "cannot find the OSDs of pool %lld (pg ls: %.120s): their caches were "
			    "not dropped",
			    (long long)pools[p], why);
			return;
		}
		n = r;
	}
	out->osds = n;
	int refused = 0, first = -1;
	char first_why[200] = "";
	for (int i = 0; i < n; i++) {
		char w[200];
		if (cb_conn_osd_cmd(conn, own[i], "{\"prefix\": \"cache drop\"}", w, sizeof(w)) ==
		    0) {
			out->dropped++;
			continue;
		}
		/* an object store without a cache to drop (memstore, the
		 * sandbox's) refuses with this: nothing of it can answer warm
		 * that would not answer cold */
		if (strstr(w, "flushing objectstore cache")) {
			out->no_cache++;
			continue;
		}
		if (refused++ == 0) {
			first = own[i];
			snprintf(first_why, sizeof(first_why), "%s", w);
		}
	}
	if (refused)
		snprintf(out->note, sizeof(out->note),
			 "%d of %d OSDs kept their caches, the step may read from them (osd.%d: "
			 "cache drop: %.120s%s)",
			 refused, n, first, first_why,
			 strstr(first_why, "ermission") ? "; it needs osd 'allow *'" : "");
}

json_t *cb_cold_json(const char *client, const struct cb_cold_osds *osds)
{
	if (!client)
		return NULL;
	json_t *o = json_pack("{s:s, s:i, s:i, s:i}", "client", client, "osds", osds->osds,
			      "osds_dropped", osds->dropped, "osds_no_cache", osds->no_cache);
	if (o)
		json_object_set_new(o, "note",
				    osds->note[0] ? json_string(osds->note) : json_null());
	return o;
}
