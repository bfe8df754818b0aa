/* Op and object sizes as a distribution (fio's bssplit and bsrange, warp's
 * object size distributions): one size, weights ("4K:60,64K:30,1M:10") or
 * a range ("4K-64K") cut into multiples of an alignment. A draw takes one
 * random number, so a client's sizes follow from its seed; a fixed size
 * takes none, so a workload of one size keeps the op sequence it had. */
#ifndef CB_SIZES_H
#define CB_SIZES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CB_SIZES_MAX 16

enum cb_sizes_kind { CB_SIZES_FIXED, CB_SIZES_WEIGHTS, CB_SIZES_RANGE };

/* A profile's block_size or object_size (the option type CB_OPT_SIZES). */
struct cb_sizes {
	int kind;		       /* enum cb_sizes_kind */
	unsigned n;		       /* weights: how many sizes */
	uint64_t size[CB_SIZES_MAX];   /* fixed: size[0] (0: not given); range: size[0]-size[1] */
	unsigned weight[CB_SIZES_MAX]; /* weights: percent each, summing to 100 */
};

/* Parse "4K", "4K-64K" or "4K:60,64K:30,1M:10" (a YAML mapping of sizes
 * to weights arrives written so), every size within [min, max]. 0, or
 * -EINVAL/-ERANGE with the reason in why (the caller names the key). */
int cb_sizes_parse(const char *s, uint64_t min, uint64_t max, struct cb_sizes *z, char *why,
		   size_t n);

/* As written back: "4K", "4K-64K", "4K:60,64K:30,1M:10". */
void cb_sizes_format(const struct cb_sizes *z, char *buf, size_t n);

static inline bool cb_sizes_varies(const struct cb_sizes *z)
{
	return z->kind != CB_SIZES_FIXED;
}

uint64_t cb_sizes_min(const struct cb_sizes *z);
uint64_t cb_sizes_max(const struct cb_sizes *z);

/* The mean a draw gives (align: a range's step). */
double cb_sizes_mean(const struct cb_sizes *z, uint64_t align);

/* Every size a multiple of align (a range's ends, each weighted size), as
 * offsets aligned to it need; else -EINVAL with the first that is not. */
int cb_sizes_check_align(const struct cb_sizes *z, uint64_t align, char *why, size_t n);

/* The size a random number x gives: fixed, the weighted size x falls on,
 * or a multiple of align within the range. */
uint64_t cb_sizes_pick(const struct cb_sizes *z, uint64_t align, uint64_t x);

/* The next size of a client: draws from rng unless the size is fixed. */
uint64_t cb_sizes_next(const struct cb_sizes *z, uint64_t align, uint64_t *rng);

/* Where an op of len bytes starts over an area of size bytes cut into
 * grains of align: at grain g (a random op's pick), pulled back so that it
 * ends inside the area (len <= size). */
static inline uint64_t cb_sizes_at(uint64_t g, uint64_t align, uint64_t len, uint64_t size)
{
	uint64_t off = g * align;
	return off + len <= size ? off : (size - len) / align * align;
}

/* A sequential op of len bytes: at grain *cursor, back at 0 where it would
 * pass the area's end (rbd bench wraps around); *cursor moves past it. */
static inline uint64_t cb_sizes_seq(uint64_t *cursor, uint64_t align, uint64_t len, uint64_t size)
{
	uint64_t off = *cursor * align;
	if (off + len > size)
		off = 0;
	*cursor = (off + len) / align;
	return off;
}

#endif
