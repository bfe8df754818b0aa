/* Private to the krbd layer: its options, the devices a client runs on
 * (given, or images the run maps), and the libaio state of a phase, shared
 * by krbd_engine.c (options, steps, setup), krbd_dev.c (opening devices,
 * safety), krbd_map.c (images, rbd device map/unmap, cleanup) and
 * krbd_aio.c (the I/O path). */
#ifndef CB_KRBD_PRIV_H
#define CB_KRBD_PRIV_H

#include "blk_ops.h"
#include "durable.h"
#include "engine.h"

#include <libaio.h>
#include <rados/librados.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* fio's default bs */
#define KRBD_DEFAULT_BS 4096ULL
/* Devices per client: op->where carries the index above the offset. */
#define KRBD_MAX_DEVICES 64
#define KRBD_MAX_SIZE	 (1ULL << 48)
/* The prefill pass writes whole RBD objects (the default object size). */
#define KRBD_FILL_BS  (4ULL << 20)
#define KRBD_FILL_MEM (256ULL << 20) /* of buffers, over the window */

/* The fill pass's step id (struct cb_step). */
#define KRBD_STEP_FILL 1

/* The workload's own name for "%.*s", without a step's ".prefill". */
#define KRBD_WL(ph) (int)strcspn((ph)->wl->name, "."), (ph)->wl->name

/* Image metadata the layer keeps on the images it creates. */
#define KRBD_KEY_RUN	  "cephbench.run"
#define KRBD_KEY_INSTANCE "cephbench.instance" /* the run id that created it */
/* The owner mark (src/owner.h) of the process that maps it, written before
 * the map: cleanup unmaps the image of a killed run of this boot. */
#define KRBD_KEY_MAP "cephbench.map"

struct krbd_opts {
	char *device; /* path(s) to run on, ':'-separated (fio's filename=); NULL: map */
	char *pool;
	uint64_t image_size;
	uint64_t images;
	char *features;
	char *map_options;
	bool direct;
	bool prefill;
	bool verify;
	uint64_t rw_mix_read;
	uint64_t batch_submit;
	struct cb_durable dur; /* fsync, fdatasync, end_fsync, sync */
	bool create_only;      /* the prefill row alone (fio's create_only) */
};

struct krbd_dev {
	char path[256];
	char image[160]; /* the image the run mapped on it; "" for a given device */
	int fd;
	uint64_t size;
	bool mapped;
};

/* One client's devices, kept across a workload's steps (ph->session). */
struct krbd_session {
	struct cb_conn *conn;
	char pool[128];
	unsigned ndev;
	bool writes; /* opened for writing */
	struct krbd_dev dev[KRBD_MAX_DEVICES];
};

/* One op slot's iocb; op->priv points here once the slot was first used. */
struct krbd_slot {
	struct iocb cb;
	struct cb_op *op;
	uint64_t done;	/* bytes moved so far: a short transfer is resubmitted */
	unsigned again; /* completions with -EAGAIN so far */
	bool busy;	/* the kernel has it */
	int sync;	/* a sync op: CB_DURABLE_FSYNC or _FDATASYNC; 0: a read or write */
	bool sync_all;	/* end_fsync's: every device in turn */
};

struct krbd_state {
	struct krbd_session *ss;
	unsigned first; /* the pattern's index of device 0: client k's images follow k * images */
	enum cb_blk_op op;
	uint64_t bs;
	unsigned mix;
	bool verify; /* reads check the pattern */
	bool fill;   /* writes carry the pattern */
	uint64_t rng;
	uint64_t blocks[KRBD_MAX_DEVICES]; /* per device: whole blocks (prefill: every one) */
	uint64_t cursor[KRBD_MAX_DEVICES]; /* sequential ops: next block */
	/* block_size a distribution (not on the fill pass): each op draws its
	 * size, blocks and cursors count grains of block_align */
	const struct cb_workload *sized;
	unsigned rr; /* sequential ops: next device */
	io_context_t ctx;
	unsigned depth;
	struct krbd_slot *slots;
	unsigned nslots;
	struct iocb **pending; /* queued by submit, started by commit */
	unsigned npending;
	unsigned batch; /* start the queue once it holds this many */
	int failed;	/* libaio itself failed: -errno; every op was failed with it */
	struct io_event *events;
	/* the durability keys (the workload's writes, not a fill's) */
	const struct cb_durable *dur;
	struct cb_durable_count dc;
	int rwf;	   /* sync: RWF_SYNC or RWF_DSYNC on each write */
	unsigned last_dev; /* the device of the last write: the one a sync syncs */
	/* random ops: the block over all devices' blocks, device after device */
	struct cb_dist dist;
};

/* Open every device of the session (given ones, after the safety checks;
 * or images the run creates and maps). Errors set ph->err. */
int krbd_session_open(struct cb_phase *ph, struct krbd_session **out);
/* Close the devices and unmap what the run mapped. */
void krbd_session_close(struct krbd_session *ss);

/* Open path for the phase's I/O into d, refusing writes where they are not
 * allowed (see krbd_dev.c). */
int krbd_dev_open(struct cb_phase *ph, struct krbd_dev *d, bool writes, bool ours);

/* Create and map the session's images (krbd_map.c). */
int krbd_map_images(struct cb_phase *ph, struct krbd_session *ss);

/* Whether this kernel can map RBD images (its rbd module is loaded). */
bool krbd_kernel_rbd(void);
/* Unmap one image the run mapped: 0 or -errno with the CLI's reason in e. */
int krbd_unmap(struct cb_conn *conn, const char *pool, const char *image, struct cb_err *e);
/* The layer's cleanup: unmap and remove images of a run (or every run). */
int krbd_cleanup(struct cb_cleanup_req *req);

/* krbd_probe.c: engine->probe (probe.h). */
struct cb_probe_req;
void krbd_probe(struct cb_probe_req *req);

/* I/O path (krbd_aio.c). */
int krbd_aio_init(struct krbd_state *s, unsigned depth);
void krbd_aio_free(struct krbd_state *s);
int krbd_submit(void *state, struct cb_op *op);
int krbd_finish(void *state, struct cb_op *op);
int krbd_commit(void *state);
int krbd_poll(void *state, unsigned min, int timeout_ms);
void krbd_describe(void *state, const struct cb_op *op, char *buf, size_t n);

#endif
