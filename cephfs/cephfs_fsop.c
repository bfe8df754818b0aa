/* op fsop: fsopbench's measured operations through libcephfs. A layout
 * step makes each client a tree like a home directory: `depth` levels of
 * `branch` directories, `files` files in every one, each file's size drawn
 * from a lognormal (cfs_fsop_size); then one step per operation, each over
 * the whole tree once: readdir (list each directory), lstat, open (and
 * close), the first byte (open, read 1 byte, close) and the read rate (each
 * file read whole). Set beside writers in a workload group (alone:), these
 * are fsopbench's two tables. */
#include "cephfs_priv.h"

#include "rng.h"

#include <errno.h>
#include <fcntl.h>
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const cfs_fsop_steps[CFS_FSOP_READ - CFS_FSOP_LAYOUT + 1] = {
    "layout", "readdir", "lstat", "open", "first-byte", "read"};

uint64_t cfs_fsop_size(uint64_t seed, unsigned client, uint64_t i, uint64_t cap)
{
	/* a quantile of the normal from a uniform in (0, 1) drawn for the file */
	double u =
	    ((double)(cb_splitmix64(seed ^ cb_splitmix64(((uint64_t)client << 40) ^ i)) >> 11) +
	     0.5) /
	    9007199254740992.0;
	double v = CFS_FSOP_MEDIAN * exp(CFS_FSOP_SIGMA * gsl_cdf_ugaussian_Pinv(u));
	uint64_t size = v < 1 ? 1 : v > (double)cap ? cap : (uint64_t)v;
	return size;
}

/* Directories of the tree (the root counts) and files in all. */
static uint64_t dirs_of(const struct cfs_opts *o)
{
	uint64_t n = 1, w = 1;
	for (uint64_t d = 0; d < o->depth; d++)
		n += w *= o->branch;
	return n;
}

static void file_path(const struct cfs_state *s, uint64_t i, char *buf, size_t n)
{
	char dir[PATH_MAX / 2];
	cfs_bfs_path(s->o->branch, i / s->o->files, dir, sizeof(dir));
	snprintf(buf, n, "%s/f.%llu", dir, (unsigned long long)(i % s->o->files));
}

int cfs_fsop_setup(struct cb_phase *ph, struct cfs_state *s)
{
	const struct cfs_opts *o = s->o;
	uint64_t dirs = dirs_of(o), files = dirs * o->files;
	s->bs = ph->wl->block_size;
	s->dirs = dirs;
	s->seed = ph->wl->seed;
	s->cap = cfs_file_size(o) < CFS_FSOP_MAX_FILE ? cfs_file_size(o) : CFS_FSOP_MAX_FILE;
	switch (s->step) {
	case CFS_FSOP_LAYOUT:
		s->count = dirs - 1 + files; /* the root is the client's base */
		break;
	case CFS_FSOP_READDIR:
		s->count = dirs;
		break;
	default:
		s->count = files;
	}
	return 0;
}

/* A file written whole, its size the model's for it. */
static int64_t make_file(struct cfs_state *s, struct cb_op *op, uint64_t i)
{
	struct ceph_mount_info *cm = s->ss->cm;
	uint64_t size = cfs_fsop_size(s->seed, s->client, i, s->cap);
	file_path(s, i, s->path, sizeof(s->path));
	int fd = ceph_open(cm, s->path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return fd;
	int64_t done = 0, r = 0;
	while (r >= 0 && (uint64_t)done < size) {
		uint64_t n = size - (uint64_t)done < s->bs ? size - (uint64_t)done : s->bs;
		r = ceph_write(cm, fd, op->buf, (int64_t)n, done);
		if (r >= 0 && (uint64_t)r != n)
			r = -EIO;
		done += r > 0 ? r : 0;
	}
	int cr = ceph_close(cm, fd);
	return r < 0 ? r : cr < 0 ? cr : done;
}

/* read bytes of file i (1 for the first byte, else all). */
static int64_t read_file(struct cfs_state *s, struct cb_op *op, uint64_t i, bool first)
{
	struct ceph_mount_info *cm = s->ss->cm;
	file_path(s, i, s->path, sizeof(s->path));
	/* past the client's cache, which the layout filled (direct: true) */
	int fd = ceph_open(cm, s->path, O_RDONLY | (s->o->direct ? O_DIRECT : 0), 0);
	if (fd < 0)
		return fd;
	int64_t done = 0, r;
	do {
		r = ceph_read(cm, fd, op->buf, first ? 1 : (int64_t)s->bs, done);
		done += r > 0 ? r : 0;
	} while (r > 0 && !first);
	int cr = ceph_close(cm, fd);
	return r < 0 ? r : cr < 0 ? cr : done;
}

int cfs_fsop_submit(struct cfs_state *s, struct cb_op *op)
{
	struct ceph_mount_info *cm = s->ss->cm;
	struct ceph_statx stx;
	uint64_t j = s->next++;
	int64_t r = 0;
	op->where = j;
	op->is_write = s->step == CFS_FSOP_LAYOUT;
	op->len = 0;
	switch (s->step) {
	case CFS_FSOP_LAYOUT:
		if (j < s->dirs - 1) {
			cfs_bfs_path(s->o->branch, j + 1, s->path, sizeof(s->path));
			r = ceph_mkdir(cm, s->path, 0755);
		} else {
			r = make_file(s, op, j - (s->dirs - 1));
		}
		break;
	case CFS_FSOP_READDIR: {
		struct ceph_dir_result *d;
		cfs_bfs_path(s->o->branch, j, s->path, sizeof(s->path));
		if ((r = ceph_opendir(cm, s->path, &d)) == 0) {
			while (ceph_readdir(cm, d))
				;
			ceph_closedir(cm, d);
		}
		break;
	}
	case CFS_FSOP_LSTAT:
		file_path(s, j, s->path, sizeof(s->path));
		r = ceph_statx(cm, s->path, &stx, CEPH_STATX_BASIC_STATS, AT_SYMLINK_NOFOLLOW);
		break;
	case CFS_FSOP_OPEN: {
		file_path(s, j, s->path, sizeof(s->path));
		int fd = ceph_open(cm, s->path, O_RDONLY, 0);
		r = fd < 0 ? fd : ceph_close(cm, fd);
		break;
	}
	case CFS_FSOP_FIRST_BYTE:
	case CFS_FSOP_READ:
		r = read_file(s, op, j, s->step == CFS_FSOP_FIRST_BYTE);
		break;
	default:
		r = -EINVAL;
	}
	if (r > 0)
		op->len = (uint64_t)r;
	cb_op_done(op, r);
	return 0;
}
