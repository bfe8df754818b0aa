/* The file system a row ran on, for the record's context (src/context.h):
 * its MDS ranks (up, their state and daemon), max_mds, and its pools,
 * which the context then describes as pools. */
#include "cephfs_context.h"
#include "cephfs_priv.h"
#include "context.h"

#include <stdint.h>
#include <stdio.h>

/* The ranks held, by rank: [{"rank": 0, "state": "up:active", "name": "a"}]. */
static json_t *ranks(const json_t *mdsmap)
{
	json_t *a = json_array(), *d;
	const char *gid;
	json_object_foreach((json_t *)json_object_get(mdsmap, "info"), gid, d)
	{
		json_int_t rank = json_integer_value(json_object_get(d, "rank"));
		const char *state = json_string_value(json_object_get(d, "state"));
		const char *name = json_string_value(json_object_get(d, "name"));
		if (rank < 0 || !json_is_integer(json_object_get(d, "rank")))
			continue; /* a standby-replay or standby holds no rank */
		size_t i = 0;
		while (i < json_array_size(a) &&
		       json_integer_value(json_object_get(json_array_get(a, i), "rank")) < rank)
			i++;
		json_array_insert_new(
		    a, i,
		    json_pack("{s:I, s:s?, s:s?}", "rank", rank, "state", state, "name", name));
	}
	return a;
}

static json_t *pool_names(struct cb_ctx *x, const json_t *ids)
{
	json_t *a = json_array(), *id;
	size_t i;
	json_array_foreach((json_t *)ids, i, id)
	{
		const char *n = cb_ctx_pool_name(x, json_integer_value(id));
		json_array_append_new(a, n ? json_string(n) : json_null());
	}
	return a;
}

json_t *cfs_fs_of(struct cb_ctx *x, const json_t *fsget)
{
	const json_t *m = json_object_get(fsget, "mdsmap");
	const char *meta =
	    cb_ctx_pool_name(x, json_integer_value(json_object_get(m, "metadata_pool")));
	return json_pack("{s:I, s:o, s:o, s:o}", "max_mds",
			 json_integer_value(json_object_get(m, "max_mds")), "ranks", ranks(m),
			 "data_pools", pool_names(x, json_object_get(m, "data_pools")),
			 "metadata_pool", meta ? json_string(meta) : json_null());
}

static json_t *describe(struct cb_ctx *x, const char *fs)
{
	json_t *j;
	if (cb_ctx_mon(x, "file systems (fs get)",
		       json_pack("{s:s, s:s}", "prefix", "fs get", "fs_name", fs), &j) < 0)
		return json_null();
	json_t *d = cfs_fs_of(x, j);
	json_decref(j);
	return d ? d : json_null();
}

void cfs_context(struct cb_context_req *req)
{
	json_object_set_new(req->uses, "filesystem", json_string(req->target));
	json_t *all = cb_ctx_section(req->ctx, "filesystems"), *fs, *p;
	if (!all)
		return;
	if (!(fs = json_object_get(all, req->target))) {
		json_object_set_new(all, req->target, describe(req->ctx, req->target));
		fs = json_object_get(all, req->target);
	}
	/* the data pools first: the files' data is there */
	size_t i;
	json_array_foreach(json_object_get(fs, "data_pools"), i, p)
	    cb_ctx_use_pool(req, json_string_value(p));
	cb_ctx_use_pool(req, json_string_value(json_object_get(fs, "metadata_pool")));
}
