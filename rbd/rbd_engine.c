/* The RBD layer's engine table: options, checks, phase setup/teardown and
 * cleanup. By default a run creates images cephbench.<run>.<n> in the pool
 * and removes them at the end, each client its own `images` of them on a
 * connection of its own; `image:` names an existing image instead, which is
 * only read unless --allow-destructive. */
#include "rng.h"
#include "blk_check.h"
#include "conn.h"
#include "options.h"
#include "blk_image.h"
#include "blk_creating.h"
#include "rbd_priv.h"
#include "units.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const cache_modes[] = {"off", "writethrough", "writeback", NULL};

static const struct cb_option rbd_options[] = {
    {"pool", CB_OPT_CEPH, offsetof(struct rbd_opts, pool), NULL, 0, 0, NULL, "pool of the images"},
    {"image", CB_OPT_IMAGE, offsetof(struct rbd_opts, image), NULL, 0, 0, NULL,
     "an existing image to run on (read-only unless --allow-destructive)"},
    {"image_size", CB_OPT_SIZE, offsetof(struct rbd_opts, image_size), NULL, 1, CB_RBD_MAX_SIZE,
     NULL, "size of each image the run creates"},
    {"images", CB_OPT_UINT, offsetof(struct rbd_opts, images), "1", 1, CB_BLK_MAX_IMAGES, NULL,
     "images per client; each op picks one"},
    {"features", CB_OPT_STR, offsetof(struct rbd_opts, features), NULL, 0, 0, NULL,
     "image features, e.g. layering,exclusive-lock (default: the cluster's)"},
    {"object_size", CB_OPT_SIZE, offsetof(struct rbd_opts, object_size), NULL, 4096, 32ULL << 20,
     NULL,
     "object size of created images, a power of two (default: the cluster's rbd_default_order, "
     "4M)"},
    {"order", CB_OPT_UINT, offsetof(struct rbd_opts, order), NULL, 12, 25, NULL,
     "object size as a power of two (22 = 4M); or object_size"},
    {"stripe_unit", CB_OPT_SIZE, offsetof(struct rbd_opts, stripe_unit), NULL, 1, 0, NULL,
     "stripe unit of created images (fancy striping)"},
    {"stripe_count", CB_OPT_UINT, offsetof(struct rbd_opts, stripe_count), NULL, 1, 4096, NULL,
     "objects a stripe spans"},
    {"data_pool", CB_OPT_CEPH, offsetof(struct rbd_opts, data_pool), NULL, 0, 0, NULL,
     "pool for the image data, e.g. an erasure-coded one"},
    {"prefill", CB_OPT_BOOL, offsetof(struct rbd_opts, prefill), "false", 0, 0, NULL,
     "write every image in full first, as a phase of its own"},
    {"reuse", CB_OPT_BOOL, offsetof(struct rbd_opts, reuse), "false", 0, 0, NULL,
     "keep the images for later runs of this run name (a prefill is not repeated)"},
    {"rw_mix_read", CB_OPT_UINT, offsetof(struct rbd_opts, rw_mix_read), "50", 0, 100, NULL,
     "rw, randrw: percent of ops that read"},
    {"cache", CB_OPT_ENUM, offsetof(struct rbd_opts, cache), "off", 0, 0, cache_modes,
     "librbd's cache: off (every op reaches the OSDs, as fio's direct=1), writethrough, "
     "writeback (what rbd bench and fio's rbd engine get by default)"},
    {"verify", CB_OPT_BOOL, offsetof(struct rbd_opts, verify), "false", 0, 0, NULL,
     CB_BLK_VERIFY_HELP},
    {"create_only", CB_OPT_BOOL, offsetof(struct rbd_opts, create_only), "false", 0, 0, NULL,
     "only the prefill row: every image written in full, no I/O row (fio's create_only)"},
    {"flush", CB_OPT_UINT, offsetof(struct rbd_opts, flush), "0", 0, CB_DURABLE_MAX_EVERY, NULL,
     "writes: an rbd_aio_flush after every N writes of a client, timed apart as by_op's "
     "sync (fio's fsync on its rbd engine; 0: none)"},
    {NULL, 0, 0, NULL, 0, 0, NULL, NULL},
};

/* The cache and flush keys: a flush needs writes, and a cache that a
 * flush would not turn to writeback. */
static int check_flush(const struct cb_workload *wl, const struct rbd_opts *o, char *why, size_t n)
{
	if (!o->flush)
		return 0;
	if (o->create_only) {
		snprintf(why, n, "flush and create_only: create_only makes only the prefill row");
		return -EINVAL;
	}
	if (o->cache == RBD_CACHE_WRITETHROUGH) {
		snprintf(why, n,
			 "flush with cache: writethrough: librbd's cache turns to writeback at the "
			 "first flush (rbd_cache_writethrough_until_flush): use cache: off or "
			 "writeback");
		return -EINVAL;
	}
	if (!cb_blk_op_writes(cb_blk_op_of(wl->op), o->rw_mix_read)) {
		snprintf(why, n, "flush: %s makes no writes to flush: drop it", wl->op);
		return -EINVAL;
	}
	return 0;
}

/* The geometry of the images the run creates. */
static int check_created(const struct cb_workload *wl, const struct rbd_opts *o, char *why,
			 size_t n)
{
	uint64_t mask;
	char a[32];
	if (!o->image_size) {
		snprintf(why, n,
			 "workload '%s' needs image_size: (the size of each image the run "
			 "creates, e.g. 1G) or image: (an existing image)",
			 wl->name);
		return -EINVAL;
	}
	if (cb_blk_check_fits(wl->block_size, o->image_size, why, n) < 0)
		return -EINVAL;
	if (o->object_size && o->order) {
		snprintf(why, n, "give object_size or order, not both");
		return -EINVAL;
	}
	if (o->object_size & (o->object_size - 1)) {
		snprintf(why, n, "object_size %s is not a power of two",
			 cb_format_size(o->object_size, a, sizeof(a)));
		return -EINVAL;
	}
	uint64_t objsz = o->object_size ? o->object_size : o->order ? 1ULL << o->order : 4ULL << 20;
	if (o->stripe_unit && (objsz % o->stripe_unit || !o->stripe_count)) {
		snprintf(why, n,
			 "stripe_unit needs stripe_count, and must divide the object size %s",
			 cb_format_size(objsz, a, sizeof(a)));
		return -EINVAL;
	}
	if (o->stripe_count && !o->stripe_unit) {
		snprintf(why, n, "stripe_count needs stripe_unit");
		return -EINVAL;
	}
	if (o->features && cb_blk_features(o->features, &mask, why, n) < 0)
		return -EINVAL;
	return 0;
}

static int rbd_check(const struct cb_workload *wl, const void *lopts, char *why, size_t n)
{
	const struct rbd_opts *o = lopts;
	if (!o->pool) {
		snprintf(why, n, "workload '%s' needs pool: (the pool of the images)", wl->name);
		return -EINVAL;
	}
	const struct cb_blk_target t = {
	    .noun = "image",
	    .given = o->image,
	    .shared = "only reads share an image; give images the run creates (each client its "
		      "own) or clients: 1",
	    .images = o->images,
	    .mix = o->rw_mix_read,
	    .prefill = o->prefill,
	    .create_only = o->create_only,
	    .verify = o->verify,
	    /* check_content: what the run's images hold is checked at setup */
	    .marks_pattern = !o->image,
	};
	if (cb_blk_check_verify(wl, &t, why, n) < 0 || check_flush(wl, o, why, n) < 0 ||
	    cb_blk_check_clients(wl, &t, why, n) < 0)
		return -EINVAL;
	if (!o->image)
		return check_created(wl, o, why, n);
	if (o->image_size || o->images != 1 || o->features || o->object_size || o->order ||
	    o->stripe_unit || o->stripe_count || o->data_pool || o->reuse) {
		snprintf(why, n,
			 "image: names an existing image; image_size, images, features, "
			 "object_size, order, stripe_unit, stripe_count, data_pool and reuse "
			 "apply to images the run creates");
		return -EINVAL;
	}
	return 0;
}

/* With prefill, an unmeasured pass that writes every block once, then the
 * workload: the pass is a row of its own, "<workload>.prefill". */
static size_t rbd_steps(const struct cb_workload *wl, const void *lopts, struct cb_step *out,
			unsigned *iterations)
{
	(void)wl;
	(void)iterations;
	const struct rbd_opts *o = lopts;
	return cb_blk_steps(o->prefill, o->create_only, RBD_STEP_FILL, out);
}

/* What the images hold decides what a phase may do: reads of blocks never
 * written come back as zeros without touching an OSD, so they are refused;
 * verify needs the prefill pattern; a write replaces it, but a verifying
 * one's, which writes the pattern (rbd_io.c). Returns CB_EOF
 * for a prefill of reused images that already hold the pattern. */
static int check_content(struct cb_phase *ph, struct rbd_state *s, const struct rbd_opts *o)
{
	bool all_pattern = true;
	char name[160], c[32];
	for (unsigned i = 0; i < s->nimg; i++) {
		if (cb_blk_meta_get(s->img[i], CB_RBD_KEY_CONTENT, c, sizeof(c)) < 0)
			c[0] = '\0';
		all_pattern &= strcmp(c, "pattern") == 0;
		cb_rbd_state_image_name(s, i, name, sizeof(name));
		if (s->op == CB_BLK_PREFILL)
			continue;
		if (cb_blk_op_reads(s->op, s->mix) && !c[0])
			return cb_err_usage(
			    ph->err,
			    "workload '%s' reads image %s/%s, which was never "
			    "written in full (unwritten blocks read as zeros with no "
			    "OSD work): set prefill: true",
			    ph->wl->name, o->pool, name);
		if (s->verify && strcmp(c, "pattern") != 0)
			return cb_err_usage(ph->err,
					    "workload '%s': verify needs image %s/%s to hold the "
					    "prefill pattern, but it was written since: set "
					    "prefill: true",
					    ph->wl->name, o->pool, name);
		int r = 0;
		if (s->writes && !s->verify && strcmp(c, "pattern") == 0)
			r = rbd_metadata_set(s->img[i], CB_RBD_KEY_CONTENT, "data");
		if (r < 0)
			return cb_err_cluster(ph->err, r, "marking image %s/%s: %s", o->pool, name,
					      strerror(-r));
	}
	if (s->op != CB_BLK_PREFILL)
		return 0;
	if (o->reuse && all_pattern)
		return CB_EOF;
	for (unsigned i = 0; i < s->nimg; i++) {
		int r = rbd_metadata_remove(s->img[i], CB_RBD_KEY_CONTENT);
		cb_rbd_state_image_name(s, i, name, sizeof(name));
		if (r < 0 && r != -ENOENT)
			return cb_err_cluster(ph->err, r, "marking image %s/%s: %s", o->pool, name,
					      strerror(-r));
	}
	return 0;
}

/* librbd reads these when an image is opened; phases run one at a time,
 * and each client has its connection, so setting them on the connection
 * before the opens is per phase. */
static int set_cache(struct cb_phase *ph, struct cb_conn *conn, int mode)
{
	rados_t r = cb_conn_rados(conn);
	int ret = rados_conf_set(r, "rbd_cache", mode == RBD_CACHE_OFF ? "false" : "true");
	/* writethrough is librbd's writethrough until a flush, and only the
	 * flush key flushes: rbd_check refuses it with writethrough */
	if (ret == 0)
		ret = rados_conf_set(r, "rbd_cache_writethrough_until_flush",
				     mode == RBD_CACHE_WRITEBACK ? "false" : "true");
	if (ret < 0)
		return cb_err_cluster(ph->err, ret, "setting librbd's cache: %s", strerror(-ret));
	return 0;
}

/* Cold: the images are opened anew for every phase, so librbd's cache
 * holds nothing of them; the OSDs of the image's pools drop theirs at the
 * start line. */
static void cold_images(struct cb_phase *ph, const struct rbd_state *s)
{
	struct cb_phase_out *out = ph->out;
	out->cold = "reopen";
	out->cold_pools[out->ncold_pools++] = rados_ioctx_get_id(s->io);
	int64_t data = s->nimg ? rbd_get_data_pool_id(s->img[0]) : -1;
	if (data >= 0 && data != out->cold_pools[0])
		out->cold_pools[out->ncold_pools++] = data;
}

static int rbd_setup(struct cb_phase *ph, void **state)
{
	const struct rbd_opts *o = ph->lopts;
	struct rbd_state *s = calloc(1, sizeof(*s));
	char a[32], b[32];
	int r;

	snprintf(ph->out->target, sizeof(ph->out->target), "%s", o->pool);
	if (!s)
		return cb_err_cluster(ph->err, -ENOMEM, "out of memory");
	*state = s;
	s->run = ph->run_name;
	s->user_image = o->image;
	s->op = ph->step == RBD_STEP_FILL ? CB_BLK_PREFILL : cb_blk_op_of(ph->wl->op);
	s->mix = (unsigned)o->rw_mix_read;
	s->verify = o->verify && ph->step != RBD_STEP_FILL;
	s->fill = s->op == CB_BLK_PREFILL || s->verify;
	s->writes = cb_blk_op_writes(s->op, s->mix);
	s->bs = ph->wl->block_size;
	s->rng = cb_rng_client(ph->wl->seed, ph->client, 0);
	s->dur.fsync = s->op == CB_BLK_PREFILL ? 0 : o->flush;
	r = cb_conn_for_client(ph->conn, ph->client, (struct cb_conn **)ph->session, &s->conn,
			       ph->err);
	if (r == 0)
		r = cb_conn_ioctx(s->conn, o->pool, NULL, &s->io, ph->err);
	if (r < 0) {
		s->io = NULL;
		return r;
	}
	/* Fail fast on a full pool (-ENOSPC, counted) rather than have librbd's
	 * writes held until space is freed: its images inherit the flag. */
	rados_set_pool_full_try(s->io);
	if ((r = set_cache(ph, s->conn, o->cache)) < 0 || (r = cb_rbd_open_images(ph, s, o)) < 0)
		return r;
	if (s->bs > s->size)
		return cb_err_usage(
		    ph->err, "workload '%s': block_size %s is larger than image %s/%s (%s)",
		    ph->wl->name, cb_format_size(s->bs, a, sizeof(a)), o->pool,
		    o->image ? o->image : "", cb_format_size(s->size, b, sizeof(b)));
	if (s->op == CB_BLK_PREFILL) {
		/* whole objects: no read-modify-write, few ops */
		rbd_image_info_t info;
		if ((r = rbd_stat(s->img[0], &info, sizeof(info))) < 0)
			return cb_err_cluster(ph->err, r, "reading image %s/%s: %s", o->pool,
					      o->image ? o->image : s->run, strerror(-r));
		s->bs = info.obj_size < s->size ? info.obj_size : s->size;
		ph->out->block_size = s->bs;
	}
	if (s->op != CB_BLK_PREFILL && cb_sizes_varies(&ph->wl->sizes)) {
		s->sized = ph->wl;
		s->bs = ph->wl->block_align;
		if (!(s->cur = calloc(s->nimg, sizeof(*s->cur))))
			return cb_err_cluster(ph->err, -ENOMEM, "out of memory");
	}
	s->blocks = s->op == CB_BLK_PREFILL ? (s->size + s->bs - 1) / s->bs : s->size / s->bs;
	cb_dist_init(&s->dist, &ph->wl->distribution, s->blocks * s->nimg, ph->wl->coverage,
		     ph->wl->seed, &s->rng);
	if (s->op != CB_BLK_PREFILL && cb_op_listed(cb_blk_read_ops, ph->wl->op) &&
	    cb_cold_wanted(ph->wl->cold, false))
		cold_images(ph, s);
	if (o->image)
		return 0; /* no marks on images the run does not own */
	r = check_content(ph, s, o);
	if (r == CB_EOF && s->reused) {
		size_t len = strlen(ph->out->note);
		snprintf(ph->out->note + len, sizeof(ph->out->note) - len,
			 ", all holding the prefill pattern: prefill skipped");
	}
	return r;
}

static int rbd_teardown(struct cb_phase *ph, void *state)
{
	const struct rbd_opts *o = ph->lopts;
	struct rbd_state *s = state;
	int r = 0;
	if (!s)
		return 0;
	/* A pass that reached every block without an error fills the images
	 * (blocks is 0 until setup succeeded). A write's blocks are whole ones:
	 * it fills only an image that is a multiple of them. */
	bool full = s->blocks && s->next >= s->blocks * s->nimg && atomic_load(&s->failed) == 0 &&
		    (s->op == CB_BLK_PREFILL || s->size % s->bs == 0);
	const char *mark = s->op == CB_BLK_PREFILL ? "pattern"
			   : s->op == CB_BLK_WRITE ? "data"
						   : NULL;
	for (unsigned i = 0; i < s->nimg; i++) {
		char name[160];
		cb_rbd_state_image_name(s, i, name, sizeof(name));
		/* the mark promises data on the OSDs: a writeback cache flushes first */
		int fr = 0;
		if (mark && full && !o->image && r == 0 && (fr = rbd_flush(s->img[i])) == 0)
			fr = rbd_metadata_set(s->img[i], CB_RBD_KEY_CONTENT, mark);
		if (fr < 0 && r == 0)
			r = cb_err_cluster(ph->err, fr, "marking image %s/%s: %s", o->pool, name,
					   strerror(-fr));
		int cr = rbd_close(s->img[i]);
		if (cr < 0 && r == 0)
			r = cb_err_cluster(ph->err, cr, "closing image %s/%s: %s", o->pool, name,
					   strerror(-cr));
	}
	free(s->img);
	free(s->cur);
	if (s->io)
		rados_ioctx_destroy(s->io);
	free(s);
	return r;
}

/* A client's own connection (none for client 0, which uses the shared one). */
static void rbd_release(void *session)
{
	cb_conn_close(session);
}

static int rbd_cleanup(struct cb_cleanup_req *req)
{
	const struct rbd_opts *o = req->lopts;
	const char *pool = o ? o->pool : req->target;
	rados_ioctx_t io;
	if (!pool || (o && o->image))
		return 0;
	int r = cb_conn_ioctx(req->conn, pool, NULL, &io, req->err);
	if (r < 0)
		return r;
	/* librbd takes no per-op flags, so no FULL_FORCE: with FULL_TRY its
	 * deletes are sent to a full pool instead of held, and the OSDs apply
	 * them (they free space); its other writes there fail with -ENOSPC. */
	rados_set_pool_full_try(io);
	const char *run = req->all ? NULL : req->run_name;
	r = cb_rbd_remove(req->conn, io, run, &req->removed, req->err);
	if (r == 0)
		r = cb_blk_creating_sweep(io, pool, run, req->err);
	rados_ioctx_destroy(io);
	return r;
}

const struct cb_engine cb_engine_rbd = {
    .name = "rbd",
    .osd_more_why = "librbd's own ops: an image's object map is updated at the first write to "
		    "each object, exclusive-lock and header ops add a few",
    .ops = cb_blk_ops,
    .options = rbd_options,
    .target = &cb_target_pool,
    .removes = "images",
    .options_size = sizeof(struct rbd_opts),
    .max_clients = 1024,
    .default_block_size = CB_RBD_DEFAULT_BS,
    .random_ops = cb_blk_random_ops,
    .write_ops = cb_blk_write_ops,
    .cold_ops = cb_blk_read_ops,
    .sized_ops = cb_blk_ops,
    .check = rbd_check,
    .steps = rbd_steps,
    .setup = rbd_setup,
    .submit = cb_rbd_submit,
    .poll = NULL,
    .describe = cb_rbd_describe,
    .teardown = rbd_teardown,
    .release = rbd_release,
    .cleanup = rbd_cleanup,
    .context = cb_rbd_context,
    .probe = cb_rbd_probe,
};
