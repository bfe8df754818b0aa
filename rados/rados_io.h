/* The RADOS layer's per-phase state and its I/O path (rados_io.c). */
#ifndef CB_RADOS_IO_H
#define CB_RADOS_IO_H

#include "rados_priv.h"

#include <stdatomic.h>

/* rados_ops (rados_engine.c) names them in this order */
enum rados_op {
	RADOS_WRITE,
	RADOS_SEQ,
	RADOS_RAND,
	RADOS_DELETE,
	/* the object ops (object_op in rados_io.c) */
	RADOS_STAT,
	RADOS_OMAP,
	RADOS_XATTR,
	RADOS_MIX
};

struct rados_state {
	rados_ioctx_t io;
	enum rados_op op;
	const char *run;
	unsigned client;
	uint64_t bs;
	uint64_t object_size;
	uint64_t blocks_per_obj;
	/* Objects of sizes that vary (rados_meta's sizes): one block each, of
	 * its own size (bs and object_size are the largest) */
	bool varied;
	struct cb_sizes osizes;
	uint64_t size_align, size_seed;
	/* the objects hold the verify pattern (a mix's writes keep it), and
	 * reads check it */
	bool pattern, verify;
	uint64_t limit_blocks; /* write: max_objects worth, 0 none; reads: what exists */
	uint64_t next;	       /* next block for write and seq */
	uint64_t end;	       /* seq: the end of this client's share of the blocks */
	/* Reads: the blocks of every client that wrote, one after the other;
	 * writer w's are first[w] .. first[w + 1] - 1 (first[writers] is all). */
	unsigned writers;
	uint64_t *first;
	/* Objects this client wrote earlier in the run (its record's started):
	 * a write over them is a guarded overwrite first, an exclusive create
	 * past them; the other is tried when the guess was wrong. */
	uint64_t rewrite_below;
	bool rewrite;		 /* this client wrote earlier in the run */
	size_t run_len;		 /* strlen(run): the mark's value */
	bool meta_written;	 /* setup recorded the run, so teardown updates it */
	struct rados_live live;	 /* client 0's hold on the run's record */
	atomic_ullong failed;	 /* ops that completed with an error (callback thread) */
	atomic_ullong timed_out; /* of them, those past the op timeout */
	uint64_t rng;
	/* rand: the object (or with coverage the block) a read picks */
	struct cb_dist dist;
	/* the object ops (stat, omap, xattr) and a mix's draw */
	const struct rados_opts *o;
	uint64_t mix_at[RK_N]; /* cumulative percents */
	uint64_t sets;	       /* omap and xattr ops so far: the keys' names */
	/* omap: one op's keys (their names, and the pointers librados takes),
	 * made at setup; librados copies them into the request */
	char (*key)[96];
	const char *wl; /* the workload's name: the keys' */
	const char **keys, **vals;
	size_t *lens;
};

int cb_rados_submit(void *state, struct cb_op *op);
void cb_rados_describe(void *state, const struct cb_op *op, char *buf, size_t n);

#endif
