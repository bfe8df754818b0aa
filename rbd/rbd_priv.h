/* Private to the RBD layer: its options, its image naming and marks, and
 * the per-phase state shared by setup (rbd_engine.c), the images
 * (rbd_images.c) and the I/O path (rbd_io.c). */
#ifndef CB_RBD_PRIV_H
#define CB_RBD_PRIV_H

#include "blk_ops.h"
#include "durable.h"
#include "engine.h"
#include "blk_image.h"

#include <rados/librados.h>
#include <rbd/librbd.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* rbd bench's default io size */
#define CB_RBD_DEFAULT_BS 4096ULL
/* An op carries its image index and offset in one word (rbd_io.c). */
#define CB_RBD_MAX_SIZE (1ULL << 48) /* offsets stay below 2^48 */

/* Image metadata keys the layer keeps on its images. */
#define CB_RBD_KEY_RUN	    "cephbench.run"
#define CB_RBD_KEY_INSTANCE "cephbench.instance" /* the run id that created it */
#define CB_RBD_KEY_OWNER    "cephbench.owner"	 /* "<host> <pid> <client id>" of the opener */
/* What every byte holds: "pattern" (the prefill pattern, verifiable) or
 * "data" (written in full, since overwritten); absent: never filled. */
#define CB_RBD_KEY_CONTENT "cephbench.content"

struct rbd_opts {
	char *pool;
	char *image; /* an existing image to run on; NULL: the run creates its own */
	uint64_t image_size;
	uint64_t images;
	char *features;
	uint64_t object_size;
	uint64_t order;
	uint64_t stripe_unit;
	uint64_t stripe_count;
	char *data_pool;
	bool prefill;
	bool reuse;
	uint64_t rw_mix_read;
	bool verify;
	int cache;	  /* enum rbd_cache */
	uint64_t flush;	  /* an rbd_aio_flush after every N writes; 0: none */
	bool create_only; /* the prefill row alone (fio's create_only) */
};

/* librbd's client cache: off measures the cluster (fio's direct=1);
 * writeback is what rbd bench and fio's rbd engine get by default (both
 * flush once, which turns librbd's writethrough-until-flush into writeback). */
enum rbd_cache { RBD_CACHE_OFF, RBD_CACHE_WRITETHROUGH, RBD_CACHE_WRITEBACK };

/* The fill pass's step id (struct cb_step). */
#define RBD_STEP_FILL 1

struct rbd_state {
	struct cb_conn *conn; /* the client's (cb_conn_for_client) */
	rados_ioctx_t io;
	rbd_image_t *img;
	unsigned first;	 /* the run's index of img[0]: client k has k * images on */
	unsigned nimg;	 /* opened so far */
	unsigned reused; /* of them, with reuse, made by an earlier run */
	const char *run; /* names the images when user_image is NULL */
	const char *user_image;
	enum cb_blk_op op;
	uint64_t size; /* of each image */
	uint64_t bs;
	uint64_t blocks; /* per image: whole blocks, or for prefill every block */
	uint64_t next;	 /* sequential ops: next block over all images, interleaved */
	/* block_size a distribution (not on the fill pass): each op draws its
	 * size, blocks counts grains of block_align, and a sequential op goes
	 * on where its image's last ended (cur, in grains, an image each) */
	const struct cb_workload *sized;
	uint64_t *cur;
	unsigned mix; /* percent of reads */
	bool verify;  /* reads check the prefill pattern */
	bool fill;    /* writes carry it: the prefill's, and a verifying rw's */
	bool writes;  /* the phase may write */
	atomic_ullong failed;
	uint64_t rng;
	/* flush: N, counted as durable.h counts fsync (the workload's
	 * writes, not a prefill's) */
	struct cb_durable dur;
	struct cb_durable_count dc;
	unsigned last_img; /* the image of the last write: the one flushed */
	/* random ops: the block over all images, image-interleaved */
	struct cb_dist dist;
};

/* "cephbench.<run>.<idx>" into buf. */
void cb_rbd_image_name(char *buf, size_t n, const char *run, uint64_t idx);

/* Name of image i of the phase (of the client's), for messages. */
void cb_rbd_state_image_name(const struct rbd_state *s, unsigned i, char *buf, size_t n);

/* Open (creating when needed) the images of the phase into s->img. Errors
 * set ph->err. */
int cb_rbd_open_images(struct cb_phase *ph, struct rbd_state *s, const struct rbd_opts *o);

/* Open image name read-only: *ours when its run mark is run's; *live, how
 * many clients watch it (have it open) apart from a killed owner's, whose
 * watch is blocklisted when the owner mark names a process of this boot
 * that is gone. 0, -ENOENT, or -errno. */
int cb_rbd_inspect(struct cb_conn *conn, rados_ioctx_t io, const char *name, const char *run,
		   bool *ours, unsigned *live);

/* Record this process as the image's owner (see rbd_owner.c). */
int cb_rbd_mark_owner(struct cb_conn *conn, rbd_image_t img);

/* Remove the images of run (or of every run when run is NULL) from the pool
 * of io, clearing watches left by killed runs of this host first. Adds to
 * *removed. */
int cb_rbd_remove(struct cb_conn *conn, rados_ioctx_t io, const char *run, uint64_t *removed,
		  struct cb_err *e);

/* rbd_probe.c: engine->probe (probe.h). */
struct cb_probe_req;
void cb_rbd_probe(struct cb_probe_req *req);

/* I/O path. */
/* The row's image in the record's context (rbd_context.c). */
void cb_rbd_context(struct cb_context_req *req);

int cb_rbd_submit(void *state, struct cb_op *op);
void cb_rbd_describe(void *state, const struct cb_op *op, char *buf, size_t n);

#endif
