/* The krbd layer's I/O path: Linux native AIO through libaio. submit picks a
 * device and offset and queues an iocb; commit hands every queued iocb to the
 * kernel in one io_submit; poll reaps completions in batches with
 * io_getevents. A short transfer is resubmitted for its remainder (one op,
 * one latency), -EAGAIN is retried: neither counts as a success until every
 * byte moved. */
#include "krbd_priv.h"
#include "blk_pattern.h"
#include "rng.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Seconds of -EAGAIN from io_submit with no completion before the queued
 * ops fail; completions with -EAGAIN an op may have before it fails. */
#define EAGAIN_TRIES 10
#define AGAIN_MAX    1000

#define WHERE_SHIFT  CB_BLK_PATTERN_SHIFT
#define WHERE_OFF(w) ((w) & ((1ULL << WHERE_SHIFT) - 1))
#define WHERE_DEV(w) ((unsigned)((w) >> WHERE_SHIFT))

int krbd_aio_init(struct krbd_state *s, unsigned depth)
{
	s->depth = depth;
	s->slots = calloc(depth, sizeof(*s->slots));
	s->pending = calloc(depth, sizeof(*s->pending));
	s->events = calloc(depth, sizeof(*s->events));
	if (!s->slots || !s->pending || !s->events)
		return -ENOMEM;
	return io_setup((int)depth, &s->ctx);
}

void krbd_aio_free(struct krbd_state *s)
{
	if (s->ctx)
		io_destroy(s->ctx); /* no op is in flight at teardown */
	free(s->slots);
	free(s->pending);
	free(s->events);
}

/* Sequential ops go round the devices, each from its own cursor; the
 * prefill pass visits every block of every device once, the others wrap. */
static int next_seq(struct krbd_state *s, unsigned *dev, uint64_t *blk)
{
	unsigned n = s->ss->ndev;
	for (unsigned tries = 0; tries < n; tries++) {
		unsigned d = s->rr;
		s->rr = (s->rr + 1) % n;
		if (s->cursor[d] >= s->blocks[d]) {
			if (s->op == CB_BLK_PREFILL)
				continue;
			s->cursor[d] = 0;
		}
		*dev = d;
		*blk = s->cursor[d]++;
		return 0;
	}
	return CB_EOF;
}

static void prep(const struct krbd_state *s, struct krbd_slot *sl, int fd)
{
	struct cb_op *op = sl->op;
	if (sl->sync) {
		if (sl->sync == CB_DURABLE_FDATASYNC)
			io_prep_fdsync(&sl->cb, fd);
		else
			io_prep_fsync(&sl->cb, fd);
		sl->cb.data = sl;
		return;
	}
	char *buf = (char *)op->buf + sl->done;
	size_t len = op->len - sl->done;
	long long off = (long long)(WHERE_OFF(op->where) + sl->done);
	if (op->is_write)
		io_prep_pwrite(&sl->cb, fd, buf, len, off);
	else
		io_prep_pread(&sl->cb, fd, buf, len, off);
	/* sync: the write's own O_SYNC/O_DSYNC (fio's sync on libaio) */
	if (op->is_write)
		sl->cb.aio_rw_flags = s->rwf;
	sl->cb.data = sl;
}

/* The op's slot, made on its first use; NULL when the runner has more
 * slots than the window. */
static struct krbd_slot *slot_of(struct krbd_state *s, struct cb_op *op)
{
	struct krbd_slot *sl = op->priv;
	if (!sl) {
		if (s->nslots == s->depth)
			return NULL;
		sl = &s->slots[s->nslots++];
		sl->op = op;
		op->priv = sl;
	}
	sl->done = 0;
	sl->again = 0;
	sl->sync = 0;
	sl->sync_all = false;
	return sl;
}

/* A sync op on device dev (all: then on each later device in turn). */
static void queue_sync(struct krbd_state *s, struct krbd_slot *sl, int kind, unsigned dev, bool all)
{
	sl->sync = kind;
	sl->sync_all = all;
	sl->op->where = (uint64_t)dev << WHERE_SHIFT;
	prep(s, sl, s->ss->dev[dev].fd);
	s->pending[s->npending++] = &sl->cb;
}

static int start_pending(struct krbd_state *s);

int krbd_submit(void *state, struct cb_op *op)
{
	struct krbd_state *s = state;
	unsigned dev;
	uint64_t blk;

	if (s->failed)
		return s->failed;
	struct krbd_slot *sl = slot_of(s, op);
	if (!sl)
		return -EOVERFLOW; /* the runner has more slots than the window */
	int sync = cb_durable_due(s->dur, &s->dc, op);
	if (sync) {
		queue_sync(s, sl, sync, s->last_dev, false);
		if (s->npending >= s->batch)
			start_pending(s);
		return 0;
	}
	if (cb_blk_op_random(s->op)) {
		blk = cb_dist_next(&s->dist, &s->rng);
		for (dev = 0; dev + 1 < s->ss->ndev && blk >= s->blocks[dev]; dev++)
			blk -= s->blocks[dev];
	} else if (next_seq(s, &dev, &blk) == CB_EOF) {
		return CB_EOF;
	}
	uint64_t off = blk * s->bs, size = s->ss->dev[dev].size;
	op->len = size - off < s->bs ? size - off : s->bs;
	if (s->sized) {
		op->len = cb_wl_next_size(s->sized, &s->rng);
		if (cb_blk_op_random(s->op)) {
			off = cb_sizes_at(blk, s->bs, op->len, size);
		} else {
			s->cursor[dev] = blk; /* from where the last op of the device ended */
			off = cb_sizes_seq(&s->cursor[dev], s->bs, op->len, size);
		}
	}
	op->is_write = cb_blk_op_next_writes(s->op, s->mix, &s->rng);
	op->where = ((uint64_t)dev << WHERE_SHIFT) | off;
	if (op->is_write && s->fill)
		cb_blk_pattern_fill(op->buf, s->first + dev, off, op->len);
	if (op->is_write) {
		s->last_dev = dev;
		cb_durable_wrote(s->dur, &s->dc, op);
	}
	prep(s, sl, s->ss->dev[dev].fd);
	s->pending[s->npending++] = &sl->cb;
	/* Batching is not free: on two cores, 4K random reads from a loop
	 * device ran about 30 % faster started one by one (the device works on
	 * the first while the next is prepared) than 32 at a time. */
	if (s->npending >= s->batch)
		start_pending(s); /* the op completes through cb_op_done either way */
	return 0;
}

int krbd_finish(void *state, struct cb_op *op)
{
	struct krbd_state *s = state;
	if (s->failed || !cb_durable_end(s->dur, &s->dc, op))
		return CB_EOF;
	struct krbd_slot *sl = slot_of(s, op);
	if (!sl)
		return -EOVERFLOW;
	queue_sync(s, sl, CB_DURABLE_FSYNC, 0, true);
	/* started now: the runner's next turn polls before it commits */
	start_pending(s);
	return 0;
}

static void fail(struct krbd_slot *sl, int64_t r)
{
	cb_op_done(sl->op, r);
}

/* Drop the first n pending iocbs (started, or failed). */
static void drop_pending(struct krbd_state *s, unsigned n)
{
	s->npending -= n;
	memmove(s->pending, s->pending + n, s->npending * sizeof(*s->pending));
}

/* libaio itself failed (io_getevents refused): every queued op fails, and
 * every op the kernel has is waited for (io_destroy) and fails, so that none
 * stays in flight and the runner can stop; later submits are refused. */
static int abandon(struct krbd_state *s, int err)
{
	if (!s->failed)
		s->failed = err;
	while (s->npending) {
		fail(s->pending[0]->data, err);
		drop_pending(s, 1);
	}
	if (s->ctx)
		io_destroy(s->ctx);
	s->ctx = 0;
	for (unsigned i = 0; i < s->nslots; i++)
		if (s->slots[i].busy) {
			s->slots[i].busy = false;
			fail(&s->slots[i], err);
		}
	return s->failed;
}

/* io_submit the pending iocbs. -EAGAIN (the kernel's queue is full) waits
 * for a completion and tries again, for at most EAGAIN_TRIES seconds with
 * none; an iocb the kernel refuses fails its op, and the ones after it are
 * still started. Only unstarted iocbs stay in pending, so a remainder a
 * reap requeues always fits. */
static int start_pending(struct krbd_state *s)
{
	unsigned idle = 0;
	while (s->npending) {
		int r = io_submit(s->ctx, (long)s->npending, s->pending);
		if (r > 0) {
			for (int i = 0; i < r; i++)
				((struct krbd_slot *)s->pending[i]->data)->busy = true;
			drop_pending(s, (unsigned)r);
			idle = 0;
		} else if (r == -EAGAIN || r == 0) {
			int p = krbd_poll(s, 1, 1000);
			if (s->failed)
				return s->failed;
			if (p > 0)
				idle = 0;
			else if (++idle >= EAGAIN_TRIES) {
				/* nothing completes, nothing starts: the ops fail, the
				 * runner counts them against max_errors */
				while (s->npending) {
					fail(s->pending[0]->data, -EAGAIN);
					drop_pending(s, 1);
				}
			}
		} else if (r != -EINTR) {
			fail(s->pending[0]->data, r);
			drop_pending(s, 1);
		}
	}
	return 0;
}

int krbd_commit(void *state)
{
	struct krbd_state *s = state;
	return s->failed ? s->failed : start_pending(s);
}

/* One completion: whole (checked when verifying), short (the rest is queued
 * for the next commit), or failed. Returns 1 when the op is done. */
static int complete(struct krbd_state *s, struct krbd_slot *sl, long res)
{
	struct cb_op *op = sl->op;
	sl->busy = false;
	if (sl->sync) {
		unsigned next = WHERE_DEV(op->where) + 1;
		bool again = res == -EAGAIN && ++sl->again < AGAIN_MAX;
		if (again || (res >= 0 && sl->sync_all && next < s->ss->ndev)) {
			if (!again)
				op->where = (uint64_t)next << WHERE_SHIFT;
			prep(s, sl, s->ss->dev[WHERE_DEV(op->where)].fd);
			s->pending[s->npending++] = &sl->cb;
			return 0;
		}
		cb_op_done(op, res < 0 ? res : 0);
		return 1;
	}
	if ((res == -EAGAIN && ++sl->again < AGAIN_MAX) ||
	    (res > 0 && sl->done + (uint64_t)res < op->len)) {
		if (res > 0)
			sl->done += (uint64_t)res;
		prep(s, sl, sl->cb.aio_fildes);
		s->pending[s->npending++] = &sl->cb;
		return 0;
	}
	if (res == 0)
		res = -ENODATA; /* nothing moved: the end of the device or file */
	if (res > 0 && s->verify && !op->is_write &&
	    !cb_blk_pattern_ok(op->buf, s->first + WHERE_DEV(op->where), WHERE_OFF(op->where),
			       op->len))
		res = CB_EVERIFY;
	cb_op_done(op, res < 0 ? res : (int64_t)op->len);
	return 1;
}

int krbd_poll(void *state, unsigned min, int timeout_ms)
{
	struct krbd_state *s = state;
	struct timespec ts = {.tv_sec = timeout_ms / 1000,
			      .tv_nsec = (timeout_ms % 1000) * 1000000L};
	if (s->failed)
		return s->failed;
	int n = io_getevents(s->ctx, (long)min, (long)s->depth, s->events, &ts);
	if (n == -EINTR)
		return 0;
	if (n < 0)
		return abandon(s, n);
	int done = 0;
	for (int i = 0; i < n; i++)
		done += complete(s, s->events[i].data, (long)s->events[i].res);
	return done;
}

void krbd_describe(void *state, const struct cb_op *op, char *buf, size_t n)
{
	struct krbd_state *s = state;
	snprintf(buf, n, "%s offset %llu", s->ss->dev[WHERE_DEV(op->where)].path,
		 (unsigned long long)WHERE_OFF(op->where));
}
