/* The RBD layer's images: naming (cephbench.<run>.<n>), creation with the
 * workload's layout, the marks the layer keeps in image metadata, and
 * removal, including images a killed run still watches. */
#include "clock.h"
#include "conn.h"
#include "options.h"
#include "blk_image.h"
#include "blk_creating.h"
#include "rbd_priv.h"
#include "shquote.h"
#include "units.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Longer than the OSDs' default watch timeout (30 s): a watch of a run killed
 * on another host expires by itself within it. */
#define REMOVE_WAIT_NS (40ULL * 1000000000ULL)
/* In a run's setup: time for the OSDs to drop a blocklisted dead watch, not
 * to wait out a live one. */
#define SETUP_WAIT_NS (10ULL * 1000000000ULL)

void cb_rbd_image_name(char *buf, size_t n, const char *run, uint64_t idx)
{
	snprintf(buf, n, "cephbench.%s.%llu", run, (unsigned long long)idx);
}

void cb_rbd_state_image_name(const struct rbd_state *s, unsigned i, char *buf, size_t n)
{
	if (s->user_image)
		snprintf(buf, n, "%s", s->user_image);
	else
		cb_rbd_image_name(buf, n, s->run, s->first + i);
}

/* True when name is an image of run (of any run when run is NULL), with the
 * run part copied to out. Run names have no dots: the name splits one way. */
static bool image_of_run(const char *name, const char *run, char *out, size_t n)
{
	static const char prefix[] = "cephbench.";
	if (strncmp(name, prefix, sizeof(prefix) - 1) != 0)
		return false;
	const char *rest = name + sizeof(prefix) - 1, *dot = strrchr(rest, '.');
	if (!dot || !dot[1] || strspn(dot + 1, "0123456789") != strlen(dot + 1))
		return false;
	size_t len = (size_t)(dot - rest);
	if (len >= n)
		return false;
	memcpy(out, rest, len);
	out[len] = '\0';
	return run ? strcmp(out, run) == 0 : cb_name_valid(out);
}

/* Remove image name of run once no live client has it open, clearing a
 * killed owner's watch first (librbd would otherwise wait the dead watch and
 * exclusive lock out, 30 s). rbd_remove alone is not enough: it takes the
 * exclusive lock from a live owner and removes the image under it. An image
 * without run's mark is left alone. Returns 1 when removed, 0 when gone or
 * not ours. */
static int remove_image(struct cb_conn *conn, rados_ioctx_t io, const char *name, const char *run,
			uint64_t deadline, struct cb_err *e)
{
	for (;;) {
		bool ours;
		unsigned live;
		int r = cb_rbd_inspect(conn, io, name, run, &ours, &live);
		if (r == -ENOENT) { /* gone, or half made: listed, without a header */
			r = cb_blk_remove_half_made(io, name, run);
			/* a run killed while it made the image may still watch it,
			 * with no owner mark yet to blocklist it by: its watch
			 * lapses (osd_client_watch_timeout, 30 s) before the deadline */
			if (r == -EBUSY && cb_now_ns() <= deadline) {
				nanosleep(&(struct timespec){.tv_nsec = 500000000L}, NULL);
				continue;
			}
			return r < 0 ? cb_err_cluster(e, r, "removing image %s: %s", name,
						      strerror(-r))
				     : r;
		}
		if (r < 0)
			return cb_err_cluster(e, r, "inspecting image %s: %s", name, strerror(-r));
		if (!ours)
			return 0;
		if (live == 0) {
			r = cb_blk_remove_recorded(io, name, run);
			if (r == 0)
				return 1;
			if (r == -ENOENT)
				return 0;
			if (r != -EBUSY)
				return cb_err_cluster(e, r, "removing image %s: %s", name,
						      strerror(-r));
		}
		if (cb_now_ns() > deadline)
			return cb_err_cluster(e, -EBUSY,
					      "image %s is still open by another client (a run "
					      "still going, or one killed on another host or "
					      "boot): try again later",
					      name);
		nanosleep(&(struct timespec){.tv_nsec = 500000000L}, NULL);
	}
}

/* The instance mark of image name into inst ("" when absent or unreadable). */
static void image_instance(rados_ioctx_t io, const char *name, char *inst, size_t n)
{
	rbd_image_t img;
	inst[0] = '\0';
	if (rbd_open_read_only(io, name, &img, NULL) < 0)
		return;
	if (cb_blk_meta_get(img, CB_RBD_KEY_INSTANCE, inst, n) < 0)
		inst[0] = '\0';
	rbd_close(img);
}

/* Removes the images of run (every run's when NULL) from io's pool, but
 * those marked with instance spare_id (when not NULL): the rest are still
 * tried after an error, the first of which is returned, with e set. */
static int remove_run_images(struct cb_conn *conn, rados_ioctx_t io, const char *run,
			     const char *spare_id, uint64_t deadline, uint64_t *removed,
			     struct cb_err *e)
{
	rbd_image_spec_t *specs;
	size_t max;
	int ret = 0, r = cb_blk_list(io, &specs, &max);
	if (r == -ENOMEM)
		return cb_err_cluster(e, r, "out of memory");
	if (r < 0) {
		char pool[128] = "?";
		rados_ioctx_get_pool_name(io, pool, sizeof(pool));
		return cb_err_cluster(e, r, "listing images of pool %s: %s", pool, strerror(-r));
	}
	char rn[80], inst[64];
	for (size_t i = 0; i < max; i++) {
		if (!image_of_run(specs[i].name, run, rn, sizeof(rn)))
			continue;
		if (spare_id) {
			image_instance(io, specs[i].name, inst, sizeof(inst));
			if (strcmp(inst, spare_id) == 0)
				continue;
		}
		r = remove_image(conn, io, specs[i].name, rn, deadline, e);
		if (r > 0)
			(*removed)++;
		else if (r < 0 && ret == 0)
			ret = r;
	}
	cb_blk_list_free(specs, max);
	return ret;
}

int cb_rbd_remove(struct cb_conn *conn, rados_ioctx_t io, const char *run, uint64_t *removed,
		  struct cb_err *e)
{
	/* one wait for the whole cleanup, not one per image */
	return remove_run_images(conn, io, run, NULL, cb_now_ns() + REMOVE_WAIT_NS, removed, e);
}

/* Images of this run name that an earlier run left (killed, --no-cleanup)
 * go before this run opens its own: those it would open are replaced
 * anyway, the others (more images, another image count) would stay on the
 * cluster under the benchmark. The run's own (an earlier workload's) stay;
 * an image without the run's mark is left, and refused by open_own. */
static int take_over(struct cb_phase *ph, struct rbd_state *s, const struct rbd_opts *o)
{
	uint64_t n = 0;
	int r = remove_run_images(ph->conn, s->io, s->run, ph->run_id, cb_now_ns() + SETUP_WAIT_NS,
				  &n, ph->err);
	if (r == 0 && n)
		snprintf(ph->out->note, sizeof(ph->out->note),
			 "took over what an earlier run named '%s' left in pool '%s': removed "
			 "%llu images before making its own",
			 s->run, o->pool, (unsigned long long)n);
	return r;
}

static int create_image(struct cb_phase *ph, struct rbd_state *s, const struct rbd_opts *o,
			const char *name)
{
	rbd_image_options_t io;
	uint64_t features = 0;
	char why[256];
	int r = 0;

	rbd_image_options_create(&io);
	if (o->features && (r = cb_blk_features(o->features, &features, why, sizeof(why))) == 0)
		r = rbd_image_options_set_uint64(io, RBD_IMAGE_OPTION_FEATURES, features);
	uint64_t order = o->order;
	for (uint64_t sz = o->object_size; sz > 1; sz >>= 1)
		order++;
	if (r == 0 && order)
		r = rbd_image_options_set_uint64(io, RBD_IMAGE_OPTION_ORDER, order);
	if (r == 0 && o->stripe_unit)
		r = rbd_image_options_set_uint64(io, RBD_IMAGE_OPTION_STRIPE_UNIT, o->stripe_unit);
	if (r == 0 && o->stripe_count)
		r = rbd_image_options_set_uint64(io, RBD_IMAGE_OPTION_STRIPE_COUNT,
						 o->stripe_count);
	if (r == 0 && o->data_pool)
		r = rbd_image_options_set_string(io, RBD_IMAGE_OPTION_DATA_POOL, o->data_pool);
	if (r == 0)
		r = rbd_create4(s->io, name, o->image_size, io);
	rbd_image_options_destroy(io);
	if (r == -ENOENT && o->data_pool)
		return cb_err_cluster(ph->err, r,
				      "creating image %s/%s: data_pool '%s' does not exist",
				      o->pool, name, o->data_pool);
	if (r == -EINVAL || r == -EDOM || r == -ERANGE)
		return cb_err_usage(ph->err,
				    "workload '%s': librbd refused to create image %s/%s with this "
				    "image_size and layout (object_size/order, stripe_unit, "
				    "stripe_count, features): %s",
				    ph->wl->name, o->pool, name, strerror(-r));
	if (r < 0)
		return cb_err_cluster(ph->err, r, "creating image %s/%s: %s", o->pool, name,
				      strerror(-r));
	return 0;
}

/* Open image i of the run, creating it when absent. Without reuse, an image
 * left by an earlier run of the same name (a crash) is replaced. */
static int open_own(struct cb_phase *ph, struct rbd_state *s, const struct rbd_opts *o, unsigned i)
{
	char name[160], inst[64] = "", a[32], b[32];
	rbd_image_info_t info;
	rbd_image_t img = NULL;

	cb_rbd_image_name(name, sizeof(name), s->run, s->first + i);
	/* also clears a killed namesake's watch, which would stall this run's
	 * first metadata write 30 s */
	bool ours;
	unsigned live;
	int r = cb_rbd_inspect(s->conn, s->io, name, s->run, &ours, &live);
	if (r == 0 && !ours)
		return cb_err_usage(ph->err,
				    "image %s/%s exists but was not made by cephbench run '%s' (no "
				    "%s mark): refused; rename or remove it, or use another "
				    "--run-name",
				    o->pool, name, s->run, CB_RBD_KEY_RUN);
	if (r == 0)
		r = rbd_open(s->io, name, &img, NULL);
	if (r == 0 && cb_blk_meta_get(img, CB_RBD_KEY_INSTANCE, inst, sizeof(inst)) < 0)
		inst[0] = '\0';
	if (r == 0 && o->reuse && strcmp(inst, ph->run_id) != 0)
		s->reused++;
	if (r == 0 && !o->reuse && strcmp(inst, ph->run_id) != 0) {
		/* an earlier run's (a crash, --no-cleanup, reuse): made anew */
		rbd_close(img);
		img = NULL;
		r = remove_image(s->conn, s->io, name, s->run, cb_now_ns() + SETUP_WAIT_NS,
				 ph->err);
		if (r < 0)
			return r;
		r = -ENOENT;
	}
	if (r == -ENOENT) {
		/* before the create: one that times out may still land */
		if (o->reuse)
			ph->out->kept = true;
		else
			ph->out->created = true;
		if ((r = cb_blk_creating_set(s->io, o->pool, name, s->run, ph->err)) < 0)
			return r;
		if ((r = create_image(ph, s, o, name)) < 0)
			return r;
		if ((r = rbd_open(s->io, name, &img, NULL)) < 0)
			return cb_err_cluster(ph->err, r, "opening image %s/%s: %s", o->pool, name,
					      strerror(-r));
		if ((r = rbd_metadata_set(img, CB_RBD_KEY_RUN, s->run)) == 0)
			r = rbd_metadata_set(img, CB_RBD_KEY_INSTANCE, ph->run_id);
		if (r < 0) {
			rbd_close(img);
			return cb_err_cluster(ph->err, r, "marking image %s/%s: %s", o->pool, name,
					      strerror(-r));
		}
		cb_blk_creating_clear(s->io, name, s->run); /* a record left is swept by cleanup */
	}
	if (r < 0)
		return cb_err_cluster(ph->err, r, "opening image %s/%s: %s", o->pool, name,
				      strerror(-r));
	s->img[s->nimg++] = img; /* teardown closes it from here on */
	if (o->reuse)
		ph->out->kept = true;
	else
		ph->out->created = true;
	if ((r = rbd_stat(img, &info, sizeof(info))) < 0)
		return cb_err_cluster(ph->err, r, "reading image %s/%s: %s", o->pool, name,
				      strerror(-r));
	/* the watch a killed run leaves is this connection's */
	if ((r = cb_rbd_mark_owner(s->conn, img)) < 0)
		return cb_err_cluster(ph->err, r, "marking image %s/%s: %s", o->pool, name,
				      strerror(-r));
	if (info.size != o->image_size && strcmp(inst, ph->run_id) == 0)
		return cb_err_usage(ph->err,
				    "workload '%s': image_size %s differs from the %s of image "
				    "%s/%s an earlier workload of this run made (a run's rbd "
				    "workloads on a pool share its images): use one image_size",
				    ph->wl->name, cb_format_size(o->image_size, b, sizeof(b)),
				    cb_format_size(info.size, a, sizeof(a)), o->pool, name);
	char cmd[CB_SH_CMD_MAX];
	if (info.size != o->image_size)
		return cb_err_usage(
		    ph->err,
		    "workload '%s': image %s/%s exists with size %s, not image_size "
		    "%s: use that size, or remove it with: %s",
		    ph->wl->name, o->pool, name, cb_format_size(info.size, a, sizeof(a)),
		    cb_format_size(o->image_size, b, sizeof(b)),
		    CB_SH_CMD(cmd, "cephbench", "cleanup", "--pool", o->pool, "--run-name",
			      s->run));
	s->size = info.size;
	return 0;
}

/* An image the run did not create: read-only unless --allow-destructive. */
static int open_user(struct cb_phase *ph, struct rbd_state *s, const struct rbd_opts *o)
{
	rbd_image_info_t info;
	rbd_image_t img;
	int r = rbd_open_read_only(s->io, o->image, &img, NULL);
	if (r == -ENOENT)
		return cb_err_cluster(ph->err, r, "image '%s' does not exist in pool '%s'",
				      o->image, o->pool);
	if (r < 0)
		return cb_err_cluster(ph->err, r, "opening image %s/%s: %s", o->pool, o->image,
				      strerror(-r));
	if (s->writes) {
		rbd_close(img);
		if (!ph->allow_destructive && ph->step == RBD_STEP_FILL)
			return cb_err_usage(
			    ph->err,
			    "workload '%s': prefill would write image %s/%s, which "
			    "this run did not create: refused; drop prefill, or give "
			    "--allow-destructive to overwrite its data",
			    ph->wl->name, o->pool, o->image);
		if (!ph->allow_destructive)
			return cb_err_usage(
			    ph->err,
			    "workload '%s' writes (op %s) to image %s/%s, which this "
			    "run did not create: refused; use a read op, or "
			    "--allow-destructive to overwrite its data",
			    ph->wl->name, ph->wl->op, o->pool, o->image);
		if ((r = rbd_open(s->io, o->image, &img, NULL)) < 0)
			return cb_err_cluster(ph->err, r, "opening image %s/%s: %s", o->pool,
					      o->image, strerror(-r));
	}
	s->img[s->nimg++] = img;
	if ((r = rbd_stat(img, &info, sizeof(info))) < 0)
		return cb_err_cluster(ph->err, r, "reading image %s/%s: %s", o->pool, o->image,
				      strerror(-r));
	if (info.size > CB_RBD_MAX_SIZE)
		return cb_err_usage(ph->err, "image %s/%s is larger than cephbench handles (256T)",
				    o->pool, o->image);
	s->size = info.size;
	return 0;
}

int cb_rbd_open_images(struct cb_phase *ph, struct rbd_state *s, const struct rbd_opts *o)
{
	unsigned n = o->image ? 1 : (unsigned)o->images;
	s->img = calloc(n, sizeof(*s->img));
	if (!s->img)
		return cb_err_cluster(ph->err, -ENOMEM, "out of memory");
	if (o->image)
		return open_user(ph, s, o);
	/* client 0 sets up alone, before the others: it alone takes over, so
	 * no client removes an image another is making */
	int r = o->reuse || ph->client > 0 ? 0 : take_over(ph, s, o);
	s->first = ph->client * n;
	for (unsigned i = 0; i < n && r == 0; i++)
		r = open_own(ph, s, o, i);
	/* said once per workload: at its prefill step, if it has one; by client
	 * 0 (the note printed), of its own images */
	if (r == 0 && s->reused && (ph->step == RBD_STEP_FILL || !o->prefill))
		snprintf(ph->out->note, sizeof(ph->out->note),
			 "reuses %u images an earlier run named '%s' left in pool '%s' (reuse: "
			 "true)%s",
			 s->reused, s->run, o->pool,
			 ph->clients > 1 ? " for client 0, each client its own" : "");
	return r;
}
