/* A verifiable data pattern: each 8-byte word a function of a key (the
 * target's: an image's, a device's, a RADOS object's) and the word's offset
 * alone, splitmix64(key ^ (off / 8)), so any read of any block can be
 * checked and a test can recompute what a target must hold. Offsets are
 * multiples of 8; a tail of fewer than 8 bytes is neither made nor checked. */
#ifndef CB_PATTERN_H
#define CB_PATTERN_H

#include "rng.h"

#include <stdbool.h>
#include <stdint.h>

static inline void cb_pattern_fill(void *buf, uint64_t key, uint64_t off, uint64_t len)
{
	uint64_t *w = buf;
	for (uint64_t k = 0; k < len / 8; k++)
		w[k] = cb_splitmix64(key ^ ((off >> 3) + k));
}

static inline bool cb_pattern_ok(const void *buf, uint64_t key, uint64_t off, uint64_t len)
{
	const uint64_t *w = buf;
	for (uint64_t k = 0; k < len / 8; k++)
		if (w[k] != cb_splitmix64(key ^ ((off >> 3) + k)))
			return false;
	return true;
}

#endif
