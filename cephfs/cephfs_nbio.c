/* File data I/O with several ops in flight per client: libcephfs 20.2's
 * ceph_ll_nonblocking_readv_writev on a handle (Fh) per file, opened
 * through the low-level API, each op completing through cb_op_done from
 * libcephfs' callback, as librados' ops do. Compiled in only where the
 * library has the call (CB_HAVE_CEPHFS_NONBLOCKING, CMakeLists.txt);
 * elsewhere every op is cephfs_io.c's synchronous ceph_read/ceph_write. */
#include "cephfs_priv.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef CB_HAVE_CEPHFS_NONBLOCKING

#include <linux/futex.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

/* One op slot's request: the runner's op and the library's view of it. */
struct nb_slot {
	struct ceph_ll_io_info io;
	struct iovec iov;
	struct cb_op *op;
	struct cfs_nbio *nb;
	/* set by whichever completes the op: the callback, or submit when the
	 * library refused to start it */
	atomic_bool claimed;
};

struct cfs_nbio {
	struct ceph_mount_info *cm;
	struct Inode *dir;  /* the client's directory */
	struct Inode **ino; /* each file's inode, and its handle */
	struct Fh **fh;
	uint64_t n;	       /* files open */
	struct nb_slot *slots; /* one per op slot of the runner, */
	uint64_t nslots, used; /* handed out in the order ops come */
	atomic_uint inflight;  /* ops started, not yet completed (a futex word) */
	atomic_bool draining;  /* a sync waits for inflight to reach 0 */
};

bool cfs_nbio_on(const struct cb_workload *wl, const struct cfs_opts *o)
{
	static const char *const io_ops[] = {"read", "write", "randread", "randwrite", NULL};
	/* sync: opens the files O_SYNC or O_DSYNC, which the nonblocking call
	 * does not promise to honour before its callback: such writes stay
	 * synchronous (cephfs_io.c), one in flight per client. With one op in
	 * flight anyway the synchronous call is the cheaper: no hop to the
	 * library's callback thread. */
	return cb_op_listed(io_ops, wl->op) && o->dur.sync == CB_SYNC_NONE && wl->concurrency > 1;
}

/* An op done: out of the count (waking a sync that waits for none in
 * flight), then to the runner, the last touch of the slot. */
static void nb_finish(struct nb_slot *sl, int64_t r)
{
	struct cfs_nbio *nb = sl->nb;
	struct cb_op *op = sl->op;
	if (atomic_fetch_sub(&nb->inflight, 1) == 1 && atomic_load(&nb->draining))
		syscall(SYS_futex, &nb->inflight, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	cb_op_done(op, r);
}

/* libcephfs' callback, on its finisher thread: no lock, no library call. */
static void nb_done(struct ceph_ll_io_info *io)
{
	struct nb_slot *sl = io->priv;
	int64_t r = io->result;
	if (r >= 0 && io->write && (uint64_t)r != sl->op->len)
		r = -EIO; /* a short write */
	if (!atomic_exchange(&sl->claimed, true))
		nb_finish(sl, r);
}

int cfs_nbio_open(struct cb_phase *ph, struct cfs_state *s, int flags)
{
	const struct cfs_opts *o = s->o;
	struct cfs_nbio *nb = calloc(1, sizeof(*nb));
	if (!nb)
		return cb_err_cluster(ph->err, -ENOMEM, "out of memory");
	s->nb = nb;
	nb->cm = s->ss->cm;
	nb->nslots = ph->wl->concurrency;
	nb->ino = calloc(o->files, sizeof(*nb->ino));
	nb->fh = calloc(o->files, sizeof(*nb->fh));
	nb->slots = calloc(nb->nslots, sizeof(*nb->slots));
	if (!nb->ino || !nb->fh || !nb->slots)
		return cb_err_cluster(ph->err, -ENOMEM, "out of memory");
	UserPerm *perms = ceph_mount_perms(nb->cm);
	struct ceph_statx stx;
	int r = ceph_ll_walk(nb->cm, s->ss->base, &nb->dir, &stx, CEPH_STATX_INO, 0, perms);
	if (r < 0)
		return cb_err_cluster(ph->err, r, "cannot look up %s in file system %s: %s",
				      s->ss->base, o->fs, strerror(-r));
	/* O_CREAT is ceph_ll_create's to act on, never ceph_ll_open's */
	int oflags = flags & ~O_CREAT;
	char name[64];
	for (; nb->n < o->files; nb->n++) {
		snprintf(name, sizeof(name), "c%u.%llu", s->client, (unsigned long long)nb->n);
		uint64_t i = nb->n;
		r = ceph_ll_lookup(nb->cm, nb->dir, name, &nb->ino[i], &stx, CEPH_STATX_INO, 0,
				   perms);
		if (r == 0) {
			r = ceph_ll_open(nb->cm, nb->ino[i], oflags, &nb->fh[i], perms);
		} else if (r == -ENOENT && (flags & O_CREAT)) {
			nb->ino[i] = NULL;
			r = ceph_ll_create(nb->cm, nb->dir, name, 0644, oflags | O_CREAT,
					   &nb->ino[i], &nb->fh[i], &stx, CEPH_STATX_INO, 0, perms);
		}
		if (r < 0) {
			if (nb->ino[i])
				ceph_ll_put(nb->cm, nb->ino[i]);
			nb->ino[i] = NULL;
			return cb_err_cluster(ph->err, r, "cannot open %s/%s in file system %s: %s",
					      s->ss->base, name, o->fs, strerror(-r));
		}
	}
	s->nfds = nb->n;
	return 0;
}

int cfs_nbio_start(struct cfs_state *s, struct cb_op *op, uint64_t file, uint64_t off)
{
	struct cfs_nbio *nb = s->nb;
	struct nb_slot *sl = op->priv;
	if (!sl) { /* the runner's slots are op->priv NULL at first */
		if (nb->used == nb->nslots)
			return -EOVERFLOW; /* more ops in flight than the workload's concurrency */
		sl = op->priv = &nb->slots[nb->used++];
		sl->nb = nb;
	}
	sl->op = op;
	sl->iov = (struct iovec){.iov_base = op->buf, .iov_len = op->len};
	sl->io = (struct ceph_ll_io_info){
	    .callback = nb_done,
	    .priv = sl,
	    .fh = nb->fh[file],
	    .iov = &sl->iov,
	    .iovcnt = 1,
	    .off = (int64_t)off,
	    .write = op->is_write,
	};
	atomic_store(&sl->claimed, false);
	atomic_fetch_add(&nb->inflight, 1);
	int64_t r = ceph_ll_nonblocking_readv_writev(nb->cm, &sl->io);
	/* refused before it started (a bad handle, a full pool, quota): no
	 * callback comes, unless it already came */
	if (r < 0 && !atomic_exchange(&sl->claimed, true))
		nb_finish(sl, r);
	return 0;
}

/* Wait until no op of this client is in flight (they complete on the
 * library's threads meanwhile). */
static void nb_drain(struct cfs_nbio *nb)
{
	atomic_store(&nb->draining, true);
	for (unsigned v; (v = atomic_load(&nb->inflight)) != 0;) {
		struct timespec ts = {.tv_nsec = 10 * 1000 * 1000};
		syscall(SYS_futex, &nb->inflight, FUTEX_WAIT_PRIVATE, v, &ts, NULL, 0);
	}
	atomic_store(&nb->draining, false);
}

int cfs_nbio_fsync(struct cfs_state *s, uint64_t file, bool dataonly)
{
	/* the N writes a sync is owed after may still be in flight: it covers
	 * them only once they completed, as fsync(2) covers completed writes */
	nb_drain(s->nb);
	return ceph_ll_fsync(s->nb->cm, s->nb->fh[file], dataonly);
}

int64_t cfs_nbio_end(struct cfs_state *s, uint64_t file)
{
	return ceph_ll_lseek(s->nb->cm, s->nb->fh[file], 0, SEEK_END);
}

void cfs_nbio_close(struct cfs_state *s)
{
	struct cfs_nbio *nb = s->nb;
	if (!nb)
		return;
	nb_drain(nb); /* none, by the runner's contract: teardown comes with none in flight */
	for (uint64_t i = 0; i < nb->n; i++) {
		ceph_ll_close(nb->cm, nb->fh[i]);
		ceph_ll_put(nb->cm, nb->ino[i]);
	}
	if (nb->dir)
		ceph_ll_put(nb->cm, nb->dir);
	free(nb->ino);
	free(nb->fh);
	free(nb->slots);
	free(nb);
	s->nb = NULL;
}

#else /* libcephfs without ceph_ll_nonblocking_readv_writev (before 20.2) */

bool cfs_nbio_on(const struct cb_workload *wl, const struct cfs_opts *o)
{
	(void)wl;
	(void)o;
	return false;
}

/* Never called: s->nb stays NULL. */
int cfs_nbio_open(struct cb_phase *ph, struct cfs_state *s, int flags)
{
	(void)s;
	(void)flags;
	return cb_err_cluster(ph->err, -ENOSYS, "internal error: no nonblocking I/O in this build");
}

int cfs_nbio_start(struct cfs_state *s, struct cb_op *op, uint64_t file, uint64_t off)
{
	(void)s;
	(void)op;
	(void)file;
	(void)off;
	return -ENOSYS;
}

int cfs_nbio_fsync(struct cfs_state *s, uint64_t file, bool dataonly)
{
	(void)s;
	(void)file;
	(void)dataonly;
	return -ENOSYS;
}

int64_t cfs_nbio_end(struct cfs_state *s, uint64_t file)
{
	(void)s;
	(void)file;
	return -ENOSYS;
}

void cfs_nbio_close(struct cfs_state *s)
{
	(void)s;
}

#endif
