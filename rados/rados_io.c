/* The RADOS layer's I/O path: which block of which object an op touches,
 * and the librados aio call. Completions go straight to the runner from
 * librados' callback thread. */
#include "rados_io.h"

#include "pattern.h"
#include "marked.h"
#include "rng.h"

#include <stdio.h>

uint64_t cb_rados_object_len(const struct cb_sizes *z, uint64_t align, uint64_t seed,
			     unsigned client, uint64_t idx)
{
	return cb_sizes_pick(z, align,
			     cb_splitmix64(seed ^ cb_splitmix64((uint64_t)client << 40 ^ idx)));
}

/* Where a block is: its offset in its object, its bytes, its object's
 * pattern key. */
struct rados_at {
	uint64_t off, len, key;
};

/* The object block b is in (its name into name), and where in it: a
 * write's blocks are its client's own objects; a read's, every writer's in
 * turn (the last writer whose first block is at most b, which skips
 * writers that left no object). */
static struct rados_at locate(const struct rados_state *s, uint64_t b, char *name, size_t n)
{
	unsigned w = s->client;
	if (s->op != RADOS_WRITE) {
		unsigned lo = 0, hi = s->writers - 1;
		while (lo < hi) {
			unsigned mid = (lo + hi + 1) / 2;
			if (s->first[mid] <= b)
				lo = mid;
			else
				hi = mid - 1;
		}
		w = lo;
		b -= s->first[w];
	}
	uint64_t idx = b / s->blocks_per_obj;
	cb_rados_obj_name(name, n, s->run, w, idx);
	return (struct rados_at){
	    .off = (b % s->blocks_per_obj) * s->bs,
	    .len = s->varied ? cb_rados_object_len(&s->osizes, s->size_align, s->size_seed, w, idx)
			     : s->bs,
	    .key = cb_rados_pattern_key(w, idx),
	};
}

/* Runs on librados' finisher thread. Releasing here, rather than on the
 * runner's thread, measured ~10 % more 4K IOPS on 2 cores: the finisher
 * frees the completion while the runner is already submitting. */
static void finish(struct cb_op *op, int r)
{
	struct rados_state *s = op->priv;
	if (r == -ECANCELED) /* a guarded write on an object without the mark */
		r = -EEXIST;
	if (r < 0)
		atomic_fetch_add(&s->failed, 1);
	if (r == -ETIMEDOUT)
		atomic_fetch_add(&s->timed_out, 1);
	cb_op_done(op, r);
}

static void rados_done_retry(rados_completion_t c, void *arg)
{
	int r = rados_aio_get_return_value(c);
	rados_aio_release(c); /* the finisher keeps its own reference meanwhile */
	finish(arg, r);
}

/* Whether a write's first try is the guarded overwrite (else the exclusive
 * create): past an object's first block, or over what this client wrote
 * earlier in the run. */
static bool guarded_first(const struct rados_state *s, uint64_t b)
{
	return b % s->blocks_per_obj != 0 ||
	       (s->rewrite && b / s->blocks_per_obj < s->rewrite_below);
}

/* A write op that holds only on an object carrying the run's mark. */
static rados_write_op_t guarded_op(const struct rados_state *s)
{
	rados_write_op_t w = rados_create_write_op();
	if (w)
		rados_write_op_cmpxattr(w, CB_MARK_XATTR, LIBRADOS_CMPXATTR_OP_EQ, s->run,
					s->run_len);
	return w;
}

/* Start w on object name for op (its completion through cb), then let w
 * go: its steps were handed over to the request. */
static int operate(struct rados_state *s, struct cb_op *op, rados_write_op_t w, const char *name,
		   rados_callback_t cb)
{
	rados_completion_t c;
	int r = rados_aio_create_completion2(op, cb, &c);
	if (r == 0 && (r = rados_aio_write_op_operate(w, s->io, c, name, NULL, 0)) < 0)
		rados_aio_release(c);
	rados_release_write_op(w);
	return r;
}

/* One write as one op, so it can never land in an object the run did not
 * make: an object's first block creates it (exclusive) with the run's mark,
 * set in the same op; any other write holds only if the object carries the
 * mark. */
static int start_write(struct rados_state *s, struct cb_op *op, bool guarded, rados_callback_t cb)
{
	char name[128];
	uint64_t off = locate(s, op->where, name, sizeof(name)).off;
	rados_write_op_t w = guarded ? guarded_op(s) : rados_create_write_op();
	if (!w)
		return -ENOMEM;
	if (!guarded)
		rados_write_op_create(w, LIBRADOS_CREATE_EXCLUSIVE, NULL);
	if (off == 0 && s->op == RADOS_WRITE) /* an earlier write's object of the run: replaced */
		rados_write_op_write_full(w, op->buf, op->len);
	else
		rados_write_op_write(w, op->buf, op->len, off);
	if (!guarded)
		rados_write_op_setxattr(w, CB_MARK_XATTR, s->run, s->run_len);
	return operate(s, op, w, name, cb);
}

/* A first block whose object was guessed wrong (absent when the run wrote
 * it before: a write that failed; there when the run wrote it in an
 * earlier write workload of more objects) is tried the other way, once. */
static void rados_done(rados_completion_t c, void *arg)
{
	struct cb_op *op = arg;
	struct rados_state *s = op->priv;
	int r = rados_aio_get_return_value(c);
	rados_aio_release(c);
	/* before the op is done: the check is inside the read's latency */
	if (s->verify && !op->is_write && op->len && r == (int)op->len) {
		char name[128];
		struct rados_at at = locate(s, op->where, name, sizeof(name));
		if (!cb_pattern_ok(op->buf, at.key, at.off, op->len))
			r = CB_EVERIFY;
	}
	if (s->op == RADOS_WRITE && op->where % s->blocks_per_obj == 0) {
		bool guarded = guarded_first(s, op->where);
		if ((guarded && r == -ENOENT) || (!guarded && r == -EEXIST && s->rewrite)) {
			r = start_write(s, op, !guarded, rados_done_retry);
			if (r == 0)
				return;
		}
	}
	finish(op, r);
}

/* A mix's next kind, by its percents. */
static enum rados_kind draw_kind(struct rados_state *s)
{
	uint64_t x = cb_rng_next(&s->rng) % 100;
	int k = 0;
	while (k < RK_N - 1 && x >= s->mix_at[k])
		k++;
	return (enum rados_kind)k;
}

/* omap's keys or an xattr set on an existing object of the run, in one
 * write op guarded by the run's mark: never on an object it did not make. */
static int start_set(struct rados_state *s, struct cb_op *op, enum rados_kind k, const char *name)
{
	rados_write_op_t w = guarded_op(s);
	if (!w)
		return -ENOMEM;
	uint64_t n = k == RK_OMAP ? s->o->omap_keys : 1;
	uint64_t first = s->sets++ * n;
	if (k == RK_OMAP) {
		for (uint64_t i = 0; i < n; i++) {
			snprintf(s->key[i], sizeof(s->key[i]), "%s.%u.%llu", s->wl, s->client,
				 (unsigned long long)(first + i));
			s->keys[i] = s->key[i];
			s->vals[i] = op->buf;
			s->lens[i] = s->o->omap_value_size;
		}
		rados_write_op_omap_set(w, s->keys, s->vals, s->lens, n);
	} else {
		/* a few names per client, set over and over: the object's
		 * attributes stay few, as an application's do */
		char xname[48];
		snprintf(xname, sizeof(xname), "bench.%u.%llu", s->client,
			 (unsigned long long)(first % 8));
		rados_write_op_setxattr(w, xname, op->buf, s->o->xattr_size);
	}
	return operate(s, op, w, name, rados_done);
}

/* delete: the next object of the client's share, removed in one write op
 * guarded by the run's mark. */
static int start_delete(struct rados_state *s, struct cb_op *op)
{
	char name[128];
	op->where = s->next++ * s->blocks_per_obj;
	op->priv = s;
	op->len = 0;
	op->is_write = true;
	locate(s, op->where, name, sizeof(name));
	rados_write_op_t w = guarded_op(s);
	if (!w)
		return -ENOMEM;
	rados_write_op_remove(w);
	return operate(s, op, w, name, rados_done);
}

/* The block a rand read or an object op works at: the distribution's
 * object, at a block of it drawn uniformly (within) or its first; with
 * coverage the distribution's block itself. */
static uint64_t pick_block(struct rados_state *s, bool within)
{
	uint64_t b = cb_dist_next(&s->dist, &s->rng);
	if (s->dist.coverage)
		return b;
	return b * s->blocks_per_obj + (within ? cb_rng_next(&s->rng) % s->blocks_per_obj : 0);
}

/* stat, omap, xattr and a mix's ops: on an object the distribution picks
 * (with coverage, a block), a read or write at a block of it. */
static int object_op(struct rados_state *s, struct cb_op *op)
{
	enum rados_kind k = s->op == RADOS_STAT	   ? RK_STAT
			    : s->op == RADOS_OMAP  ? RK_OMAP
			    : s->op == RADOS_XATTR ? RK_XATTR
						   : draw_kind(s);
	op->kind = s->op == RADOS_MIX ? (uint8_t)k : 0;
	uint64_t b = pick_block(s, k <= RK_READ);
	op->where = b;
	op->priv = s;
	op->is_write = k == RK_WRITE || k == RK_OMAP || k == RK_XATTR;
	char name[128];
	struct rados_at at = locate(s, b, name, sizeof(name));
	op->len = k == RK_STAT	  ? 0
		  : k == RK_OMAP  ? s->o->omap_keys * s->o->omap_value_size
		  : k == RK_XATTR ? s->o->xattr_size
				  : at.len;
	if (k == RK_WRITE) {
		if (s->pattern) /* over the pattern, the pattern again */
			cb_pattern_fill(op->buf, at.key, at.off, op->len);
		return start_write(s, op, true, rados_done);
	}
	if (k == RK_OMAP || k == RK_XATTR)
		return start_set(s, op, k, name);
	rados_completion_t c;
	int r = rados_aio_create_completion2(op, rados_done, &c);
	if (r < 0)
		return r;
	/* the buffer holds a stat's answer: the runner makes it 64 bytes at least */
	if (k == RK_STAT)
		r = rados_aio_stat(s->io, name, c, (uint64_t *)op->buf,
				   (time_t *)((char *)op->buf + sizeof(uint64_t)));
	else
		r = rados_aio_read(s->io, name, c, op->buf, op->len, at.off);
	if (r < 0)
		rados_aio_release(c);
	return r;
}

int cb_rados_submit(void *state, struct cb_op *op)
{
	struct rados_state *s = state;
	rados_completion_t c;
	char name[128];
	uint64_t b;
	int r;

	if (s->op >= RADOS_STAT || s->op == RADOS_DELETE) {
		if (s->op == RADOS_DELETE && s->next >= s->end)
			return CB_EOF;
		if ((r = s->op == RADOS_DELETE ? start_delete(s, op) : object_op(s, op)) < 0)
			atomic_fetch_add(&s->failed, 1);
		return r;
	}
	if (s->op == RADOS_RAND) {
		b = pick_block(s, true);
	} else if (s->op == RADOS_SEQ) {
		if (s->next >= s->end)
			return CB_EOF;
		b = s->next++;
	} else {
		if (s->limit_blocks && s->next >= s->limit_blocks)
			return CB_EOF;
		b = s->next++;
	}
	op->where = b;
	op->is_write = s->op == RADOS_WRITE;
	op->priv = s;
	struct rados_at at = locate(s, b, name, sizeof(name));
	op->len = at.len;
	if (op->is_write) {
		if (s->pattern)
			cb_pattern_fill(op->buf, at.key, at.off, op->len);
		r = start_write(s, op, guarded_first(s, b), rados_done);
	} else {
		r = rados_aio_create_completion2(op, rados_done, &c);
		if (r == 0 && (r = rados_aio_read(s->io, name, c, op->buf, op->len, at.off)) < 0)
			rados_aio_release(c);
	}
	if (r < 0)
		atomic_fetch_add(&s->failed, 1);
	return r;
}

void cb_rados_describe(void *state, const struct cb_op *op, char *buf, size_t n)
{
	struct rados_state *s = state;
	char name[128];
	uint64_t off = locate(s, op->where, name, sizeof(name)).off;
	snprintf(buf, n, "object %s offset %llu%s", name, (unsigned long long)off,
		 op->is_write && op->result == -EEXIST
		     ? " (there already, not made by this run: left as it is)"
		     : "");
}
