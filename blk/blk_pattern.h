/* The verifiable data pattern the block layers (rbd, krbd) prefill with:
 * each 8-byte word is a function of the target's index and the word's
 * offset only, so any later read of any block can be checked, and a test can
 * recompute what a device must hold (splitmix64 of (target << 48) ^ (off / 8)). */
#ifndef CB_BLK_PATTERN_H
#define CB_BLK_PATTERN_H

#include "rng.h"

#include <stdbool.h>
#include <stdint.h>

/* Targets (images, devices) are numbered below 2^16, offsets below 2^48. */
#define CB_BLK_PATTERN_SHIFT 48

static inline uint64_t cb_blk_pattern_word(unsigned target, uint64_t off)
{
	return cb_splitmix64(((uint64_t)target << CB_BLK_PATTERN_SHIFT) ^ (off >> 3));
}

static inline void cb_blk_pattern_fill(void *buf, unsigned target, uint64_t off, uint64_t len)
{
	uint64_t *w = buf;
	for (uint64_t k = 0; k < len / 8; k++)
		w[k] = cb_blk_pattern_word(target, off + 8 * k);
}

static inline bool cb_blk_pattern_ok(const void *buf, unsigned target, uint64_t off, uint64_t len)
{
	const uint64_t *w = buf;
	for (uint64_t k = 0; k < len / 8; k++)
		if (w[k] != cb_blk_pattern_word(target, off + 8 * k))
			return false;
	return true;
}

#endif
