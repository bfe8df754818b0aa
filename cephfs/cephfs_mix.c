/* op mix: vdbench's file system operation mix through libcephfs. A layout
 * step builds each client's tree (vdbench's FSD: depth levels of branch
 * directories, files in the leaves, file_size each, written in full); the
 * mix step then draws each op by the weights of `mix:` (vdbench's FWD
 * operations, rdpct splitting reads from writes) on a file or leaf
 * directory the distribution picks. Each operation is a kind of its own
 * (by_op). An outcome the mix makes likely on purpose, vdbench's "file
 * already exists" and the like (a create of a file that is there, a read
 * of one a delete took), fails as expected: an op of its kind counted
 * apart, never an error. */
#include "cephfs_priv.h"

#include "rng.h"
#include "units.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *const cfs_mix_ops[CFS_MIX_N + 1] = {
    [CFS_MIX_MKDIR] = "mkdir",	   [CFS_MIX_RMDIR] = "rmdir",	  [CFS_MIX_CREATE] = "create",
    [CFS_MIX_DELETE] = "delete",   [CFS_MIX_OPEN] = "open",	  [CFS_MIX_CLOSE] = "close",
    [CFS_MIX_READ] = "read",	   [CFS_MIX_WRITE] = "write",	  [CFS_MIX_GETATTR] = "getattr",
    [CFS_MIX_SETATTR] = "setattr", [CFS_MIX_READDIR] = "readdir", [CFS_MIX_RENAME] = "rename",
};

/* Leaf directories and files of a client's tree. */
static uint64_t leaves(const struct cfs_opts *o)
{
	uint64_t n = 1;
	for (uint64_t d = 0; d < o->depth; d++)
		n *= o->branch;
	return n;
}

/* The first leaf's number, breadth-first (cfs_bfs_path): the nodes above
 * the leaves' level. */
static uint64_t first_leaf(const struct cfs_opts *o)
{
	uint64_t n = 0, w = 1;
	for (uint64_t d = 0; d < o->depth; d++, w *= o->branch)
		n += w;
	return n;
}

static void entry_path(const struct cfs_state *s, uint64_t i, char c, char *buf, size_t n)
{
	char dir[PATH_MAX / 2];
	cfs_bfs_path(s->o->branch, first_leaf(s->o) + i / s->o->files, dir, sizeof(dir));
	snprintf(buf, n, "%s/%c.%llu", dir, c, (unsigned long long)(i % s->o->files));
}

int cfs_mix_check(const struct cb_workload *wl, const struct cfs_opts *o, char *why, size_t n)
{
	uint64_t sum = 0;
	for (int k = 0; k < CFS_MIX_N; k++)
		sum += o->mix[k];
	bool mix = strcmp(wl->op, "mix") == 0;
	if (!mix) {
		if (sum || o->rdpct != CFS_NO_RDPCT) {
			snprintf(why, n, "%s: op %s is not op mix: drop it", sum ? "mix" : "rdpct",
				 wl->op);
			return -EINVAL;
		}
		return 0;
	}
	if (sum != 100) {
		snprintf(why, n,
			 "mix: the weights add up to %llu, not 100 (mix: { getattr: 40, read: 30, "
			 "write: 10, create: 10, delete: 10 })",
			 (unsigned long long)sum);
		return -EINVAL;
	}
	if (o->rdpct != CFS_NO_RDPCT && o->mix[CFS_MIX_WRITE]) {
		snprintf(why, n,
			 "rdpct splits mix's read weight into reads and writes (vdbench's rdpct): "
			 "give read, not write");
		return -EINVAL;
	}
	if (o->rdpct != CFS_NO_RDPCT && !o->mix[CFS_MIX_READ]) {
		snprintf(why, n, "rdpct splits mix's read weight, and mix has no read: add one");
		return -EINVAL;
	}
	char a[160];
	if (cb_sizes_check_align(&o->file_size, wl->block_size, a, sizeof(a)) < 0 ||
	    cfs_file_size(o) > CFS_MIX_MAX_FILE) {
		snprintf(why, n,
			 "file_size: every size must be a multiple of block_size %llu, at most %s",
			 (unsigned long long)wl->block_size,
			 cb_format_size(CFS_MIX_MAX_FILE, a, sizeof(a)));
		return -EINVAL;
	}
	if (!o->branch || leaves(o) * o->files > CFS_MAX_NODES) {
		snprintf(why, n, "the tree holds branch^depth x files files: 1 to %llu",
			 (unsigned long long)CFS_MAX_NODES);
		return -EINVAL;
	}
	return 0;
}

int cfs_mix_setup(struct cb_phase *ph, struct cfs_state *s)
{
	const struct cfs_opts *o = s->o;
	s->bs = ph->wl->block_size;
	s->seed = ph->wl->seed;
	s->rng = cb_rng_client(ph->wl->seed, s->client, 0);
	uint64_t files = leaves(o) * o->files;
	if (s->step == CFS_MIX_LAYOUT) {
		/* the directories (all levels), then the files, one op each */
		uint64_t dirs = 0;
		for (uint64_t d = 1, w = o->branch; d <= o->depth; d++, w *= o->branch)
			dirs += w;
		s->count = dirs + files;
		s->dirs = dirs;
		ph->out->block_size = s->bs;
		return 0;
	}
	s->count = UINT64_MAX;
	cb_dist_init(&s->dist, &ph->wl->distribution, files, ph->wl->coverage, ph->wl->seed,
		     &s->rng);
	uint64_t at = 0;
	for (int k = 0; k < CFS_MIX_N; k++) {
		uint64_t w = o->mix[k];
		if (o->rdpct != CFS_NO_RDPCT && k == CFS_MIX_READ)
			w = o->mix[CFS_MIX_READ] * o->rdpct; /* in hundredths */
		else if (o->rdpct != CFS_NO_RDPCT && k == CFS_MIX_WRITE)
			w = o->mix[CFS_MIX_READ] * (100 - o->rdpct);
		else
			w *= 100;
		s->mix_at[k] = at += w;
		ph->out->kinds[k] = cfs_mix_ops[k];
	}
	ph->out->nkinds = CFS_MIX_N;
	return 0;
}

/* File i's size: file_size, or a draw of its distribution for the file
 * from the workload's seed and the client (the same for its layout, a
 * create of it and every read), a multiple of block_size. */
static uint64_t size_of(const struct cfs_state *s, uint64_t i)
{
	return cb_sizes_pick(
	    &s->o->file_size, s->bs,
	    cb_splitmix64(s->seed ^ cb_splitmix64(((uint64_t)s->client << 40) ^ i)));
}

/* File i written whole from the op's buffer: create's and the layout's. */
static int64_t write_file(struct cfs_state *s, struct cb_op *op, uint64_t i, const char *path,
			  int flags)
{
	struct ceph_mount_info *cm = s->ss->cm;
	uint64_t size = size_of(s, i);
	int fd = ceph_open(cm, path, O_WRONLY | O_CREAT | flags, 0644);
	if (fd < 0)
		return fd;
	int64_t done = 0, r = 0;
	while (r >= 0 && (uint64_t)done < size) {
		r = ceph_write(cm, fd, op->buf, (int64_t)s->bs, done);
		done += r > 0 ? r : 0;
		if (r >= 0 && (uint64_t)r != s->bs)
			r = -EIO;
	}
	int cr = ceph_close(cm, fd);
	return r < 0 ? r : cr < 0 ? cr : done;
}

static int64_t layout_op(struct cfs_state *s, struct cb_op *op, uint64_t j)
{
	if (j < s->dirs) {
		cfs_bfs_path(s->o->branch, j + 1, s->path, sizeof(s->path)); /* not the root */
		int r = ceph_mkdir(s->ss->cm, s->path, 0755);
		return r == -EEXIST ? 0 : r; /* a later workload of the run's tree */
	}
	op->is_write = true;
	entry_path(s, j - s->dirs, 'f', s->path, sizeof(s->path));
	return write_file(s, op, j - s->dirs, s->path, O_TRUNC);
}

/* The failures the mix makes likely: a file a delete or rename took, one a
 * create finds, an extra directory there or not, nothing open to close. */
static bool expected(int k, int64_t r)
{
	switch (k) {
	case CFS_MIX_CREATE:
	case CFS_MIX_MKDIR:
		return r == -EEXIST;
	case CFS_MIX_RMDIR:
		return r == -ENOENT || r == -ENOTEMPTY;
	case CFS_MIX_CLOSE:
		return r == -EBADF;
	case CFS_MIX_READDIR:
		return false;
	default:
		return r == -ENOENT;
	}
}

/* A block of file i at random, of its size as laid out or created (a
 * rename may have put another's there: a read past its end is short, and
 * the op's bytes are what it read). */
static int64_t io(struct cfs_state *s, struct cb_op *op, uint64_t i, bool write)
{
	struct ceph_mount_info *cm = s->ss->cm;
	int fd = ceph_open(cm, s->path, write ? O_WRONLY : O_RDONLY, 0);
	if (fd < 0)
		return fd;
	int64_t off = (int64_t)((cb_rng_next(&s->rng) % (size_of(s, i) / s->bs)) * s->bs);
	int64_t r = write ? ceph_write(cm, fd, op->buf, (int64_t)s->bs, off)
			  : ceph_read(cm, fd, op->buf, (int64_t)s->bs, off);
	int cr = ceph_close(cm, fd);
	return r < 0 ? r : cr < 0 ? cr : r;
}

/* s->path renamed to other, over it. libcephfs 16.2 marks the target's
 * dentry "renaming" before it looks the source up and never clears the mark
 * when that lookup fails (ceph PR #40787): every later lookup of the name
 * then waits for ever ("rename is on the way"), and a delete of the source
 * is a likely outcome here. So the source is looked up first: this client
 * alone works in its tree, one op at a time, so the answer still holds at
 * the rename. A rename onto itself (one file a directory) changes nothing
 * (POSIX) and is not asked of libcephfs either. */
static int64_t rename_file(struct cfs_state *s, const char *other)
{
	struct ceph_statx stx;
	int r = ceph_statx(s->ss->cm, s->path, &stx, CEPH_STATX_INO, AT_SYMLINK_NOFOLLOW);
	if (r < 0 || strcmp(s->path, other) == 0)
		return r;
	return ceph_rename(s->ss->cm, s->path, other);
}

static int64_t mix_op(struct cfs_state *s, struct cb_op *op, int k, uint64_t i)
{
	struct ceph_mount_info *cm = s->ss->cm;
	struct ceph_statx stx;
	char other[PATH_MAX];
	uint64_t any = cb_rng_next(&s->rng) % s->o->files;
	bool dir_op = k == CFS_MIX_MKDIR || k == CFS_MIX_RMDIR || k == CFS_MIX_READDIR;
	entry_path(s, dir_op ? i / s->o->files * s->o->files + any : i, dir_op ? 'x' : 'f', s->path,
		   sizeof(s->path));
	switch (k) {
	case CFS_MIX_MKDIR:
		return ceph_mkdir(cm, s->path, 0755);
	case CFS_MIX_RMDIR:
		return ceph_rmdir(cm, s->path);
	case CFS_MIX_CREATE:
		op->is_write = true;
		return write_file(s, op, i, s->path, O_EXCL);
	case CFS_MIX_DELETE:
		return ceph_unlink(cm, s->path);
	case CFS_MIX_OPEN: {
		int fd = ceph_open(cm, s->path, O_RDONLY, 0);
		if (fd < 0)
			return fd;
		if (s->nopen == CFS_MIX_OPEN_MAX) { /* the oldest goes unmeasured */
			ceph_close(cm, s->open[0]);
			memmove(s->open, s->open + 1, (CFS_MIX_OPEN_MAX - 1) * sizeof(int));
			s->nopen--;
		}
		s->open[s->nopen++] = fd;
		return 0;
	}
	case CFS_MIX_CLOSE:
		if (!s->nopen)
			return -EBADF;
		return ceph_close(cm, s->open[--s->nopen]);
	case CFS_MIX_READ:
	case CFS_MIX_WRITE:
		op->is_write = k == CFS_MIX_WRITE;
		return io(s, op, i, op->is_write);
	case CFS_MIX_GETATTR:
		return ceph_statx(cm, s->path, &stx, CEPH_STATX_BASIC_STATS, 0);
	case CFS_MIX_SETATTR:
		stx.stx_mtime = (struct timespec){.tv_sec = time(NULL)};
		return ceph_setattrx(cm, s->path, &stx, CEPH_SETATTR_MTIME, 0);
	case CFS_MIX_READDIR: {
		struct ceph_dir_result *d;
		cfs_bfs_path(s->o->branch, first_leaf(s->o) + i / s->o->files, s->path,
			     sizeof(s->path));
		int r = ceph_opendir(cm, s->path, &d);
		if (r < 0)
			return r;
		while (ceph_readdir(cm, d))
			;
		ceph_closedir(cm, d);
		return 0;
	}
	case CFS_MIX_RENAME: /* to another file's name, which it replaces */
		if (any == i % s->o->files && s->o->files > 1)
			any = (any + 1) % s->o->files;
		entry_path(s, i / s->o->files * s->o->files + any, 'f', other, sizeof(other));
		return rename_file(s, other);
	}
	return -EINVAL;
}

int cfs_mix_submit(struct cfs_state *s, struct cb_op *op)
{
	uint64_t j = s->next++;
	op->where = j;
	op->is_write = false;
	op->len = 0;
	int64_t r;
	if (s->step == CFS_MIX_LAYOUT) {
		r = layout_op(s, op, j);
	} else {
		uint64_t x = cb_rng_next(&s->rng) % 10000;
		int k = 0;
		while (k < CFS_MIX_N - 1 && x >= s->mix_at[k])
			k++;
		op->kind = (uint8_t)k;
		r = mix_op(s, op, k, cb_dist_next(&s->dist, &s->rng));
		if (r < 0 && expected(k, r)) {
			op->outcome = CB_OUTCOME_EXPECTED_FAIL;
			r = 0;
		}
	}
	if (r >= 0)
		op->len = (uint64_t)r;
	cb_op_done(op, r < 0 ? r : (int64_t)op->len);
	return 0;
}

void cfs_mix_teardown(struct cfs_state *s)
{
	for (unsigned i = 0; i < s->nopen; i++)
		ceph_close(s->ss->cm, s->open[i]);
	s->nopen = 0;
}
