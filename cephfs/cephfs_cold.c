/* Cold steps of the CephFS layer: how a stat or read phase keeps this
 * client's cache from answering in the cluster's place, and the data
 * pools whose OSDs drop their caches before it. The tree test's stat and
 * read phases run cold unless the workload says cold: false: with two or
 * more clients each works on its neighbour's items (mdtest -N, stride 1),
 * which its cache never held; with one, or with a stonewall (a
 * stonewalled client makes fewer items than its neighbour would work
 * on), its mount is made anew. File reads go past the cache with
 * O_DIRECT, or buffered after a remount. */
#include "cephfs_priv.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

uint64_t cfs_stride(const struct cfs_opts *o, const struct cb_workload *wl, unsigned clients)
{
	if (o->stride || clients < 2 || o->stonewall_ns || !cb_cold_wanted(wl->cold, true))
		return o->stride;
	return 1;
}

/* The tree's phases that stat or read what an earlier phase made. */
static bool tree_reads(enum cfs_step st)
{
	return st == CFS_DIR_STAT || st == CFS_FILE_STAT || st == CFS_FILE_READ;
}

const char *cfs_cold_way(const struct cb_phase *ph, const struct cfs_state *s)
{
	const struct cfs_opts *o = s->o;
	const struct cb_workload *wl = ph->wl;
	if (s->step == CFS_IO && (!strcmp(wl->op, "read") || !strcmp(wl->op, "randread")) &&
	    cb_cold_wanted(wl->cold, false))
		return o->direct ? "direct" : "remount";
	if (!tree_reads(s->step) || !cb_cold_wanted(wl->cold, true))
		return NULL;
	return s->stride ? "stride" : "remount";
}

/* The file system's data pools, by id, into out (client 0's: its drop is
 * the step's); a file system the monitors do not describe drops none, and
 * the row's note says why (the runner drops nothing and keeps it). */
void cfs_cold_pools(struct cb_phase *ph)
{
	const struct cfs_opts *o = ph->lopts;
	struct cb_phase_out *out = ph->out;
	json_t *j = NULL, *id;
	size_t i;
	char why[160];
	if (cfs_fs_get(ph->conn, o->fs, &j, why, sizeof(why)) < 0)
		snprintf(out->cold_osds.note, sizeof(out->cold_osds.note),
			 "cannot read the data pools of file system %s (fs get: %s): the OSDs' "
			 "caches were not dropped",
			 o->fs, why);
	else {
		json_array_foreach(json_object_get(json_object_get(j, "mdsmap"), "data_pools"), i,
				   id)
		{
			if (out->ncold_pools < CB_COLD_MAX_POOLS)
				out->cold_pools[out->ncold_pools++] = json_integer_value(id);
		}
	}
	json_decref(j);
}
