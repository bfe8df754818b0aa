/* The RBD layer's I/O path: which image and offset an op touches, the
 * librbd aio call, and the prefill pattern. Completions go straight to the
 * runner from librbd's callback thread (no eventfd, no lock per op). */
#include "rbd_priv.h"

#include "blk_pattern.h"
#include "rng.h"

#include <stdio.h>

/* Images are at most CB_BLK_MAX_IMAGES, offsets below 2^48: op->where
 * carries both, as the pattern does. */
#define WHERE_SHIFT CB_BLK_PATTERN_SHIFT

/* Runs on librbd's callback thread; releasing here is safe, librbd holds
 * its own reference until the callback returns. */
static void rbd_done(rbd_completion_t c, void *arg)
{
	struct cb_op *op = arg;
	struct rbd_state *s = op->priv;
	int64_t r = rbd_aio_get_return_value(c);
	rbd_aio_release(c);
	/* the pattern is the image's by its index in the run */
	if (r == (int64_t)op->len && s->verify && !op->is_write &&
	    !cb_blk_pattern_ok(op->buf, s->first + (unsigned)(op->where >> WHERE_SHIFT),
			       op->where & ((1ULL << WHERE_SHIFT) - 1), op->len))
		r = CB_EVERIFY;
	if (r < 0)
		atomic_fetch_add(&s->failed, 1);
	cb_op_done(op, r);
}

int cb_rbd_submit(void *state, struct cb_op *op)
{
	struct rbd_state *s = state;
	rbd_completion_t c;
	unsigned img;
	uint64_t blk;
	int r; /* 0 when queued: the op's result comes through the completion */

	if (cb_durable_due(&s->dur, &s->dc, op)) {
		op->where = (uint64_t)s->last_img << WHERE_SHIFT;
		op->priv = s;
		if ((r = rbd_aio_create_completion(op, rbd_done, &c)) < 0)
			return r;
		if ((r = rbd_aio_flush(s->img[s->last_img], c)) < 0)
			rbd_aio_release(c);
		return r < 0 ? r : 0;
	}
	if (cb_blk_op_random(s->op)) {
		uint64_t x = cb_dist_next(&s->dist, &s->rng);
		img = (unsigned)(x % s->nimg);
		blk = x / s->nimg;
	} else {
		/* one pass for prefill; the others wrap around, as rbd bench does */
		if (s->op == CB_BLK_PREFILL && s->next >= s->blocks * s->nimg)
			return CB_EOF;
		uint64_t g = s->next++;
		img = (unsigned)(g % s->nimg);
		blk = (g / s->nimg) % s->blocks;
	}
	uint64_t off = blk * s->bs;
	op->len = s->size - off < s->bs ? s->size - off : s->bs;
	if (s->sized) {
		op->len = cb_wl_next_size(s->sized, &s->rng);
		off = cb_blk_op_random(s->op) ? cb_sizes_at(blk, s->bs, op->len, s->size)
					      : cb_sizes_seq(&s->cur[img], s->bs, op->len, s->size);
	}
	op->is_write = cb_blk_op_next_writes(s->op, s->mix, &s->rng);
	op->where = ((uint64_t)img << WHERE_SHIFT) | off;
	op->priv = s;
	if (op->is_write) {
		s->last_img = img;
		cb_durable_wrote(&s->dur, &s->dc, op);
	}
	if (op->is_write && s->fill)
		cb_blk_pattern_fill(op->buf, s->first + img, off, op->len);

	r = rbd_aio_create_completion(op, rbd_done, &c);
	if (r < 0) {
		atomic_fetch_add(&s->failed, 1);
		return r;
	}
	if (op->is_write)
		r = rbd_aio_write(s->img[img], off, op->len, op->buf, c);
	else
		r = rbd_aio_read(s->img[img], off, op->len, op->buf, c);
	if (r < 0) {
		rbd_aio_release(c);
		atomic_fetch_add(&s->failed, 1);
	}
	return r < 0 ? r : 0;
}

void cb_rbd_describe(void *state, const struct cb_op *op, char *buf, size_t n)
{
	struct rbd_state *s = state;
	char name[160];
	cb_rbd_state_image_name(s, (unsigned)(op->where >> WHERE_SHIFT), name, sizeof(name));
	snprintf(buf, n, "image %s offset %llu", name,
		 (unsigned long long)(op->where & ((1ULL << WHERE_SHIFT) - 1)));
}
