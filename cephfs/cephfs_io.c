/* File data I/O through libcephfs: each client reads or writes its own files
 * ("c<client>.<n>" in the workload's directory) in block_size ops, O_DIRECT
 * by default so every op reaches the OSDs, as with the RBD layer's cache off
 * and fio's direct=1. Sequential ops walk the files' blocks interleaved.
 * Each op is a synchronous ceph_read/ceph_write, or, where the build has
 * libcephfs 20.2's nonblocking call, one of up to concurrency in flight
 * (cephfs_nbio.c). */
#include "cephfs_priv.h"
#include "rng.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* append: where each file ends now (empty, or prefilled), where its
 * writes go on. */
static int io_ends(struct cb_phase *ph, struct cfs_state *s)
{
	if (!(s->ends = calloc(s->o->files, sizeof(*s->ends))))
		return cb_err_cluster(ph->err, -ENOMEM, "out of memory");
	for (uint64_t i = 0; i < s->nfds; i++) {
		int64_t end =
		    s->nb ? cfs_nbio_end(s, i) : ceph_lseek(s->ss->cm, s->fds[i], 0, SEEK_END);
		if (end < 0)
			return cb_err_cluster(ph->err, (int)end, "cannot seek in %s/c%u.%llu: %s",
					      s->ss->base, s->client, (unsigned long long)i,
					      strerror((int)-end));
		s->ends[i] = (uint64_t)end;
	}
	return 0;
}

int cfs_io_setup(struct cb_phase *ph, struct cfs_state *s)
{
	const struct cfs_opts *o = s->o;
	const char *op = ph->wl->op;
	bool fill = s->step == CFS_FILL;
	s->bs = fill ? CFS_FILL_BS : ph->wl->block_size;
	if (s->bs > cfs_file_size(o))
		s->bs = cfs_file_size(o);
	if (s->bs != ph->wl->block_size)
		ph->out->block_size = s->bs; /* the fill's own */
	if (!fill && cb_sizes_varies(&ph->wl->sizes)) {
		s->sized = ph->wl;
		s->bs = ph->wl->block_align;
		if (!(s->cur = calloc(o->files, sizeof(*s->cur))))
			return cb_err_cluster(ph->err, -ENOMEM, "out of memory");
	}
	s->writes = fill || strstr(op, "write") != NULL;
	s->rand = !fill && strncmp(op, "rand", 4) == 0;
	s->blocks = (cfs_file_size(o) + s->bs - 1) / s->bs;
	/* a fill pass ends when every block of every file is written once */
	s->count = fill ? s->blocks * o->files : UINT64_MAX;
	s->rng = cb_rng_client(ph->wl->seed, s->client, 0);
	cb_dist_init(&s->dist, &ph->wl->distribution, s->blocks * o->files, ph->wl->coverage,
		     ph->wl->seed, &s->rng);
	s->dur = cb_durable_for(&o->dur, fill);
	int flags = (s->writes ? O_RDWR | O_CREAT | cb_durable_open_flags(s->dur) : O_RDONLY) |
		    (o->direct ? O_DIRECT : 0);
	/* handles with ops in flight (the fill's too: it runs with the
	 * workload's concurrency), or descriptors */
	if (cfs_nbio_on(ph->wl, o)) {
		int r = cfs_nbio_open(ph, s, flags);
		if (r < 0)
			return r;
	} else {
		if (!(s->fds = malloc(o->files * sizeof(*s->fds))))
			return cb_err_cluster(ph->err, -ENOMEM, "out of memory");
		for (; s->nfds < o->files; s->nfds++) {
			if ((size_t)snprintf(s->path, sizeof(s->path), "%s/c%u.%llu", s->ss->base,
					     s->client,
					     (unsigned long long)s->nfds) >= sizeof(s->path))
				return cb_err_cluster(ph->err, -ENAMETOOLONG, "path too long: %s",
						      s->ss->base);
			int fd = ceph_open(s->ss->cm, s->path, flags, 0644);
			if (fd < 0)
				return cb_err_cluster(ph->err, fd,
						      "cannot open %s in file system %s: %s",
						      s->path, o->fs, strerror(-fd));
			s->fds[s->nfds] = fd;
		}
	}
	return !fill && o->append ? io_ends(ph, s) : 0;
}

/* A sync of the file of the last write (fio syncs the file it wrote). */
static int sync_op(struct cfs_state *s, struct cb_op *op, int kind)
{
	op->where = s->last_file << 48;
	bool data = kind == CB_DURABLE_FDATASYNC;
	cb_op_done(op, s->nb ? cfs_nbio_fsync(s, s->last_file, data)
			     : ceph_fsync(s->ss->cm, s->fds[s->last_file], data));
	return 0;
}

int cfs_io_submit(struct cfs_state *s, struct cb_op *op)
{
	int sync = cb_durable_due(s->dur, &s->dc, op);
	if (sync)
		return sync_op(s, op, sync);
	uint64_t j = s->next++, file, block;
	if (s->rand) {
		uint64_t x = cb_dist_next(&s->dist, &s->rng);
		file = x % s->nfds;
		block = x / s->nfds;
	} else {
		file = j % s->nfds;
		block = (j / s->nfds) % s->blocks;
	}
	uint64_t off = block * s->bs;
	uint64_t left = cfs_file_size(s->o) - off;
	op->len = left < s->bs ? left : s->bs;
	if (s->sized) {
		op->len = cb_wl_next_size(s->sized, &s->rng);
		off = s->rand ? cb_sizes_at(block, s->bs, op->len, cfs_file_size(s->o))
			      : cb_sizes_seq(&s->cur[file], s->bs, op->len, cfs_file_size(s->o));
		block = off / s->bs;
	}
	if (s->ends) {
		off = s->ends[file];
		op->len = s->sized ? op->len : s->bs;
		s->ends[file] += op->len;
		block = off / s->bs;
	}
	op->is_write = s->writes;
	op->where = file << 48 | block;
	if (s->writes) {
		s->last_file = file;
		cb_durable_wrote(s->dur, &s->dc, op);
	}
	if (s->nb)
		return cfs_nbio_start(s, op, file, off);
	int fd = s->fds[file];
	int64_t r = s->writes ? ceph_write(s->ss->cm, fd, op->buf, (int64_t)op->len, (int64_t)off)
			      : ceph_read(s->ss->cm, fd, op->buf, (int64_t)op->len, (int64_t)off);
	if (r >= 0 && s->writes && (uint64_t)r != op->len)
		r = -EIO; /* a short write */
	cb_op_done(op, r);
	return 0;
}

int cfs_io_finish(struct cfs_state *s, struct cb_op *op)
{
	if (!cb_durable_end(s->dur, &s->dc, op))
		return CB_EOF;
	op->where = 0;
	int r = 0;
	for (uint64_t i = 0; i < s->nfds && r == 0; i++)
		r = s->nb ? cfs_nbio_fsync(s, i, false) : ceph_fsync(s->ss->cm, s->fds[i], 0);
	cb_op_done(op, r);
	return 0;
}

void cfs_io_teardown(struct cfs_state *s)
{
	cfs_nbio_close(s);
	for (uint64_t i = 0; s->fds && i < s->nfds; i++)
		ceph_close(s->ss->cm, s->fds[i]);
	free(s->fds);
	free(s->ends);
	free(s->cur);
}
