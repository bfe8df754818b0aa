/* What the write buffers hold (fio's buffer_compress_percentage,
 * dedupe_percentage, zero_buffers, refill_buffers): random bytes, zeros, a
 * share that compresses, or a share of blocks that repeat one another, so
 * a pool's compression or a deduplication trial sees the data it is meant
 * to. Made once per op slot, or before every op with refill. */
#ifndef CB_DATA_H
#define CB_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum cb_data_kind { CB_DATA_RANDOM, CB_DATA_ZERO, CB_DATA_COMPRESSIBLE, CB_DATA_DEDUPE };

/* A profile's `data:` value (the option type CB_OPT_DATA). */
struct cb_data_spec {
	int kind;     /* enum cb_data_kind */
	unsigned pct; /* compressible: the percent of each chunk that compresses away;
			 dedupe: the percent of blocks that repeat an earlier one */
};

/* Parse "random", "zero", "compressible:60" or "dedupe:30" (a trailing %
 * allowed). 0, or -EINVAL with the reason in why. */
int cb_data_parse(const char *s, struct cb_data_spec *d, char *why, size_t n);

void cb_data_format(const struct cb_data_spec *d, char *buf, size_t n);

/* The part of each compressible chunk that is random comes first, the rest
 * is zeros: fio's buffer_compress_chunk, 512 bytes. */
#define CB_DATA_CHUNK 512

/* One client's maker of buffer contents. */
struct cb_data {
	struct cb_data_spec spec;
	uint64_t rng; /* the client's: fresh contents */
	uint64_t dup; /* the workload's: the block that dedupe's repeats hold */
};

/* From the workload's seed and the client's number: the same contents run
 * after run for the same seed; every client's repeats are the same block. */
void cb_data_init(struct cb_data *d, const struct cb_data_spec *spec, uint64_t seed,
		  unsigned client);

/* Fill len bytes of buf with the next block's contents. */
void cb_data_fill(struct cb_data *d, void *buf, uint64_t len);

#endif
