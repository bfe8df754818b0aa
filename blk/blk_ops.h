/* The ops the block layers share (rbd through librbd, krbd through libaio):
 * one set of names, so that their rows line up in a report, and one notion
 * of which ops read and write, and of the prefill step. */
#ifndef CB_BLK_OPS_H
#define CB_BLK_OPS_H

#include "engine.h"
#include "rng.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* CB_BLK_PREFILL is the fill step's, not the user's: cb_blk_ops[i] is op
 * i + 1. */
enum cb_blk_op {
	CB_BLK_PREFILL,
	CB_BLK_READ,
	CB_BLK_WRITE,
	CB_BLK_RANDREAD,
	CB_BLK_RANDWRITE,
	CB_BLK_RW,
	CB_BLK_RANDRW
};

/* "read", "write", "randread", "randwrite", "rw", "randrw", NULL */
extern const char *const cb_blk_ops[];
/* Those that pick blocks at random (engine->random_ops), and those that
 * write (engine->write_ops). */
extern const char *const cb_blk_random_ops[];
extern const char *const cb_blk_write_ops[];
/* ... that read: cold applies to them */
extern const char *const cb_blk_read_ops[];

/* The op named op (one of cb_blk_ops; the profile checked it). */
enum cb_blk_op cb_blk_op_of(const char *op);

/* Whether op reads or writes, given rw_mix_read (percent of reads) for the
 * mixes; the fill step writes. Inline: the I/O paths ask for every op. */
static inline bool cb_blk_op_reads(enum cb_blk_op op, uint64_t mix)
{
	return op == CB_BLK_READ || op == CB_BLK_RANDREAD ||
	       ((op == CB_BLK_RW || op == CB_BLK_RANDRW) && mix);
}

static inline bool cb_blk_op_writes(enum cb_blk_op op, uint64_t mix)
{
	return op == CB_BLK_PREFILL || op == CB_BLK_WRITE || op == CB_BLK_RANDWRITE ||
	       ((op == CB_BLK_RW || op == CB_BLK_RANDRW) && mix < 100);
}

static inline bool cb_blk_op_random(enum cb_blk_op op)
{
	return op == CB_BLK_RANDREAD || op == CB_BLK_RANDWRITE || op == CB_BLK_RANDRW;
}

/* Whether a workload of op, with or without a prefill step, may write:
 * what decides opening for writing and sharing a target between clients. */
static inline bool cb_blk_workload_writes(bool prefill, enum cb_blk_op op, uint64_t mix)
{
	return prefill || cb_blk_op_writes(op, mix);
}

/* Whether the next op of op writes: a mix draws from *rng (mix percent
 * read), the others always do as cb_blk_op_writes says. */
static inline bool cb_blk_op_next_writes(enum cb_blk_op op, uint64_t mix, uint64_t *rng)
{
	if (op == CB_BLK_RW || op == CB_BLK_RANDRW)
		return cb_rng_next(rng) % 100 >= mix;
	return cb_blk_op_writes(op, mix);
}

/* The steps of a workload: with prefill, a fill step (id fill_id, row
 * "<workload>.prefill", ended by the engine) first; with create_only (fio's)
 * that step alone. Returns how many. */
size_t cb_blk_steps(bool prefill, bool create_only, int fill_id, struct cb_step *out);

#endif
