/* Records of RBD images being created or removed (see blk_creating.h). */
#include "blk_creating.h"
#include "blk_image.h"
#include "marked.h"
#include "options.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The images' pool, in the records' namespace: a handle of its own, as
 * librbd may be using io meanwhile. FULL_TRY, like the images' own
 * handles: on a full pool a record's write fails at once instead of
 * waiting out the op timeout, and its removal (a delete) goes through. */
static int creating_io(rados_ioctx_t io, rados_ioctx_t *out)
{
	int r = rados_ioctx_create2(rados_ioctx_get_cluster(io), rados_ioctx_get_id(io), out);
	if (r == 0) {
		rados_ioctx_set_namespace(*out, CB_BLK_CREATING_NS);
		rados_set_pool_full_try(*out);
	}
	return r;
}

/* flags: LIBRADOS_OPERATION_FULL_FORCE lets the record be written on a
 * full pool, as a removal must be: one that frees space never waits for
 * space. A creation's record fails there with -ENOSPC, as the create would.
 * The record carries the run's mark (marked.h): an object of that name
 * without it is not cephbench's and is left as it is (-EEXIST). */
static int record_write(rados_ioctx_t io, const char *image, const char *run, int flags)
{
	rados_ioctx_t cio;
	int r = creating_io(io, &cio);
	if (r < 0)
		return r;
	r = cb_marked_put(cio, image, run, run, strlen(run), false, flags);
	rados_ioctx_destroy(cio);
	return r;
}

int cb_blk_creating_set(rados_ioctx_t io, const char *pool, const char *image, const char *run,
			struct cb_err *e)
{
	int r = record_write(io, image, run, 0);
	if (r == -EEXIST)
		return cb_err_usage(e,
				    "object %s in namespace '%s' of pool '%s' was not made by "
				    "cephbench (no %s mark): refused, left as it is; use another "
				    "--run-name",
				    image, CB_BLK_CREATING_NS, pool, CB_MARK_XATTR);
	if (r < 0)
		cb_err_cluster(e, r, "recording image %s/%s as being made: %s", pool, image,
			       strerror(-r));
	return r;
}

int cb_blk_remove_recorded(rados_ioctx_t io, const char *image, const char *run)
{
	int r = record_write(io, image, run, LIBRADOS_OPERATION_FULL_FORCE);
	if (r < 0)
		return r;
	r = rbd_remove(io, image);
	/* a record left by a failed removal is swept with the image, or kept
	 * for the next cleanup while the image is still listed */
	if (r == 0 || r == -ENOENT)
		cb_blk_creating_clear(io, image, run);
	return r;
}

int cb_blk_creating_clear(rados_ioctx_t io, const char *image, const char *run)
{
	rados_ioctx_t cio;
	int r = creating_io(io, &cio);
	if (r < 0)
		return r;
	r = cb_marked_remove(cio, image, run, LIBRADOS_OPERATION_FULL_FORCE);
	rados_ioctx_destroy(cio);
	return r == -ENOENT ? 0 : r;
}

/* 1 when a record (with the mark, holding the name) says run was creating
 * image, 0 when none does, -errno. */
static int record_of(rados_ioctx_t cio, const char *image, const char *run)
{
	char buf[80];
	int r = cb_marked_read(cio, image, run, buf, sizeof(buf) - 1);
	if (r == -ENOENT || r == -EEXIST)
		return 0;
	if (r < 0)
		return r;
	buf[r] = '\0';
	return strcmp(buf, run) == 0;
}

static int creating_of(rados_ioctx_t io, const char *image, const char *run)
{
	rados_ioctx_t cio;
	int r = creating_io(io, &cio);
	if (r < 0)
		return r;
	r = record_of(cio, image, run);
	rados_ioctx_destroy(cio);
	return r;
}

bool cb_blk_is_runs(rados_ioctx_t io, rbd_image_t img, const char *name, const char *key,
		    const char *run)
{
	char mark[80];
	int r = cb_blk_meta_get(img, key, mark, sizeof(mark));
	if (r == 0)
		return strcmp(mark, run) == 0;
	return r == -ENOENT && creating_of(io, name, run) == 1;
}

int cb_blk_remove_half_made(rados_ioctx_t io, const char *image, const char *run)
{
	int r = creating_of(io, image, run);
	if (r <= 0)
		return r;
	r = cb_blk_remove_recorded(io, image, run);
	return r == 0 ? 1 : r == -ENOENT ? 0 : r;
}

/* Listed, even if not openable: a half-made image still needs its record. */
static bool image_listed(const rbd_image_spec_t *specs, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(specs[i].name, name) == 0)
			return true;
	return false;
}

/* The run a record's name says it is of: "cephbench.<run>.<rest>" (run
 * names hold no dot). false when the name is no image name of a run. */
static bool record_run(const char *name, char run[65])
{
	static const char prefix[] = "cephbench.";
	if (strncmp(name, prefix, sizeof(prefix) - 1) != 0)
		return false;
	const char *p = name + sizeof(prefix) - 1, *dot = strchr(p, '.');
	if (!dot || dot - p > 64)
		return false;
	memcpy(run, p, (size_t)(dot - p));
	run[dot - p] = '\0';
	return cb_name_valid(run);
}

int cb_blk_creating_sweep(rados_ioctx_t io, const char *pool, const char *run, struct cb_err *e)
{
	rados_ioctx_t cio;
	rados_list_ctx_t ctx;
	const char *entry;
	char owner[65];
	int r = creating_io(io, &cio);
	if (r < 0)
		return r;
	/* few records (one per image a killed run was making): collected first,
	 * removing while listing could skip some */
	char **names = NULL;
	size_t n = 0;
	if ((r = rados_nobjects_list_open(cio, &ctx)) == 0) {
		while ((r = rados_nobjects_list_next(ctx, &entry, NULL, NULL)) == 0) {
			if (!record_run(entry, owner) || (run && strcmp(owner, run) != 0))
				continue;
			char **v = realloc(names, (n + 1) * sizeof(*names));
			if (!v || !(v[n] = strdup(entry))) {
				names = v ? v : names;
				r = -ENOMEM;
				break;
			}
			names = v;
			n++;
		}
		rados_nobjects_list_close(ctx);
		r = r == -ENOENT ? 0 : r;
	}
	rbd_image_spec_t *specs = NULL;
	size_t nspecs = 0;
	if (r == 0 && n)
		r = cb_blk_list(io, &specs, &nspecs);
	for (size_t i = 0; i < n; i++) {
		/* only a record: the mark and the run's name as its content (the
		 * mark checked again by the removal's own op) */
		if (r == 0 && !image_listed(specs, nspecs, names[i]) &&
		    record_run(names[i], owner)) {
			int rr = record_of(cio, names[i], owner);
			if (rr == 1)
				rr = cb_marked_remove(cio, names[i], owner,
						      LIBRADOS_OPERATION_FULL_FORCE);
			if (rr < 0 && rr != -ENOENT && rr != -EEXIST)
				r = rr;
		}
		free(names[i]);
	}
	free(names);
	if (specs)
		cb_blk_list_free(specs, nspecs);
	rados_ioctx_destroy(cio);
	if (r < 0)
		cb_err_cluster(e, r, "removing records of images being made in pool %s: %s", pool,
			       strerror(-r));
	return r;
}
