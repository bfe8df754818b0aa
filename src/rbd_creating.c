/* Records of RBD images being created or removed (see rbd_creating.h). */
#include "rbd_creating.h"
#include "rbd_common.h"

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
		rados_ioctx_set_namespace(*out, CB_RBD_CREATING_NS);
		rados_set_pool_full_try(*out);
	}
	return r;
}

/* flags: LIBRADOS_OPERATION_FULL_FORCE lets the record be written on a
 * full pool, as a removal must be: one that frees space never waits for
 * space. A creation's record fails there with -ENOSPC, as the create would. */
static int record_write(rados_ioctx_t io, const char *image, const char *run, int flags)
{
	rados_ioctx_t cio;
	int r = creating_io(io, &cio);
	if (r < 0)
		return r;
	rados_write_op_t op = rados_create_write_op();
	if (!op) {
		rados_ioctx_destroy(cio);
		return -ENOMEM;
	}
	rados_write_op_write_full(op, run, strlen(run));
	r = rados_write_op_operate2(op, cio, image, NULL, flags);
	rados_release_write_op(op);
	rados_ioctx_destroy(cio);
	return r;
}

int cb_rbd_creating_set(rados_ioctx_t io, const char *image, const char *run)
{
	return record_write(io, image, run, 0);
}

int cb_rbd_remove_recorded(rados_ioctx_t io, const char *image, const char *run)
{
	int r = record_write(io, image, run, LIBRADOS_OPERATION_FULL_FORCE);
	if (r < 0)
		return r;
	r = rbd_remove(io, image);
	/* a record left by a failed removal is swept with the image, or kept
	 * for the next cleanup while the image is still listed */
	if (r == 0 || r == -ENOENT)
		cb_rbd_creating_clear(io, image);
	return r;
}

int cb_rbd_creating_clear(rados_ioctx_t io, const char *image)
{
	rados_ioctx_t cio;
	int r = creating_io(io, &cio);
	if (r < 0)
		return r;
	r = rados_remove(cio, image);
	rados_ioctx_destroy(cio);
	return r == -ENOENT ? 0 : r;
}

/* 1 when a record says run was creating image, 0 when none does, -errno. */
static int creating_of(rados_ioctx_t io, const char *image, const char *run)
{
	rados_ioctx_t cio;
	char buf[80];
	int r = creating_io(io, &cio);
	if (r < 0)
		return r;
	r = rados_read(cio, image, buf, sizeof(buf) - 1, 0);
	rados_ioctx_destroy(cio);
	if (r == -ENOENT)
		return 0;
	if (r < 0)
		return r;
	buf[r] = '\0';
	return strcmp(buf, run) == 0;
}

bool cb_rbd_is_runs(rados_ioctx_t io, rbd_image_t img, const char *name, const char *key,
		    const char *run)
{
	char mark[80];
	int r = cb_rbd_meta_get(img, key, mark, sizeof(mark));
	if (r == 0)
		return strcmp(mark, run) == 0;
	return r == -ENOENT && creating_of(io, name, run) == 1;
}

int cb_rbd_remove_half_made(rados_ioctx_t io, const char *image, const char *run)
{
	int r = creating_of(io, image, run);
	if (r <= 0)
		return r;
	r = cb_rbd_remove_recorded(io, image, run);
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

int cb_rbd_creating_sweep(rados_ioctx_t io, const char *pool, const char *run, struct cb_err *e)
{
	rados_ioctx_t cio;
	rados_list_ctx_t ctx;
	const char *entry;
	char prefix[96];
	snprintf(prefix, sizeof(prefix), "cephbench.%s", run ? run : "");
	size_t plen = strlen(prefix);
	int r = creating_io(io, &cio);
	if (r < 0)
		return r;
	/* few records (one per image a killed run was making): collected first,
	 * removing while listing could skip some */
	char **names = NULL;
	size_t n = 0;
	if ((r = rados_nobjects_list_open(cio, &ctx)) == 0) {
		while ((r = rados_nobjects_list_next(ctx, &entry, NULL, NULL)) == 0) {
			if (strncmp(entry, prefix, plen) != 0 || (run && entry[plen] != '.'))
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
		r = cb_rbd_list(io, &specs, &nspecs);
	for (size_t i = 0; i < n; i++) {
		int rr = 0;
		if (r == 0 && !image_listed(specs, nspecs, names[i]) &&
		    (rr = rados_remove(cio, names[i])) < 0 && rr != -ENOENT)
			r = rr;
		free(names[i]);
	}
	free(names);
	if (specs)
		cb_rbd_list_free(specs, nspecs);
	rados_ioctx_destroy(cio);
	if (r < 0)
		cb_err_cluster(e, r, "removing records of images being made in pool %s: %s", pool,
			       strerror(-r));
	return r;
}
