/* The verifiable data pattern the block layers (rbd, krbd) prefill with:
 * each 8-byte word is a function of the target's index and the word's
 * offset only, so any later read of any block can be checked, and a test can
 * recompute what a device must hold (splitmix64 of (target << 48) ^ (off / 8)):
 * pattern.h's with the target's key. */
#ifndef CB_BLK_PATTERN_H
#define CB_BLK_PATTERN_H

#include "pattern.h"

#include <stdbool.h>
#include <stdint.h>

/* Targets (images, devices) are numbered below 2^16, offsets below 2^48. */
#define CB_BLK_PATTERN_SHIFT 48

static inline void cb_blk_pattern_fill(void *buf, unsigned target, uint64_t off, uint64_t len)
{
	cb_pattern_fill(buf, (uint64_t)target << CB_BLK_PATTERN_SHIFT, off, len);
}

static inline bool cb_blk_pattern_ok(const void *buf, unsigned target, uint64_t off, uint64_t len)
{
	return cb_pattern_ok(buf, (uint64_t)target << CB_BLK_PATTERN_SHIFT, off, len);
}

#endif
