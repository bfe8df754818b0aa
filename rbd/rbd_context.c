/* The image a row ran on, for the record's context (src/context.h): its
 * features, object size, striping and data pool. The run's images are made
 * alike, so the first (client 0's) stands for them. */
#include "conn.h"
#include "context.h"
#include "rbd_priv.h"

#include <stdio.h>
#include <string.h>

/* The image as the context holds it; json null when it cannot be read,
 * with a note. */
static json_t *describe(struct cb_context_req *req, rados_ioctx_t io, const char *name,
			char *data_pool, size_t n)
{
	rbd_image_t img;
	rbd_image_info_t info;
	uint64_t features = 0, unit = 0, count = 0;
	char why[300];
	int r = rbd_open_read_only(io, name, &img, NULL);
	if (r == 0) {
		if ((r = rbd_stat(img, &info, sizeof(info))) == 0 &&
		    (r = rbd_get_features(img, &features)) == 0 &&
		    (r = rbd_get_stripe_unit(img, &unit)) == 0)
			r = rbd_get_stripe_count(img, &count);
		int64_t id = rbd_get_data_pool_id(img);
		/* its own pool when it has no data pool */
		if (id >= 0 && id != rados_ioctx_get_id(io) &&
		    rados_pool_reverse_lookup(rados_ioctx_get_cluster(io), id, data_pool, n) < 0)
			data_pool[0] = '\0';
		rbd_close(img);
	}
	if (r < 0) {
		snprintf(why, sizeof(why), "image %s: %s", name, strerror(-r));
		cb_ctx_note(req->ctx, "RBD images", why);
		return json_null();
	}
	return json_pack("{s:o, s:I, s:I, s:I, s:I, s:o}", "features",
			 cb_blk_feature_names(features), "size", (json_int_t)info.size,
			 "object_size", (json_int_t)info.obj_size, "stripe_unit", (json_int_t)unit,
			 "stripe_count", (json_int_t)count, "data_pool",
			 data_pool[0] ? json_string(data_pool) : json_null());
}

void cb_rbd_context(struct cb_context_req *req)
{
	const struct rbd_opts *o = req->lopts;
	char name[160], key[512], data_pool[256] = "";
	if (o->image)
		snprintf(name, sizeof(name), "%s", o->image);
	else
		cb_rbd_image_name(name, sizeof(name), req->run_name, 0);
	snprintf(key, sizeof(key), "%s/%s", o->pool, name);
	cb_ctx_use_pool(req, o->pool);
	json_object_set_new(req->uses, "image", json_string(key));
	json_t *images = cb_ctx_section(req->ctx, "images"), *img;
	if (!images)
		return;
	if (!(img = json_object_get(images, key))) {
		rados_ioctx_t io;
		struct cb_err e = {0};
		if (cb_conn_ioctx(req->conn, o->pool, NULL, &io, &e) < 0) {
			cb_ctx_note(req->ctx, "RBD images", e.msg);
			json_object_set_new(images, key, json_null());
			return;
		}
		json_object_set_new(images, key,
				    describe(req, io, name, data_pool, sizeof(data_pool)));
		rados_ioctx_destroy(io);
		img = json_object_get(images, key);
	}
	cb_ctx_use_pool(req, json_string_value(json_object_get(img, "data_pool")));
}
