/* Private to the RADOS layer: its options, its naming, its metadata object. */
#ifndef CB_RADOS_PRIV_H
#define CB_RADOS_PRIV_H

#include "engine.h"

#include <rados/librados.h>
#include <stddef.h>
#include <stdint.h>

/* Every object the layer writes lives in this namespace of the target pool,
 * so nothing else in the pool can ever be touched. */
#define CB_RADOS_NS "cephbench"

/* The rados bench default op size. */
#define CB_RADOS_DEFAULT_BS (4ULL << 20)

struct rados_opts {
	char *pool;
	uint64_t object_size; /* 0: block_size */
	uint64_t max_objects; /* write: stop after this many objects; 0: no limit */
};

/* What one client of a write left, so later reads (and humans) can find
 * it. Client 0's record is the run's, "<run>.meta", and says how many
 * clients wrote; client k's is "<run>.meta.c<k>": each writes only its own,
 * so no record is shared between threads or read-modified-written. */
struct rados_meta {
	char state[16]; /* "writing" until the write phase ends, then "complete" */
	uint64_t object_size;
	uint64_t block_size;
	uint64_t objects; /* complete objects, named <run>.c<client>.<0..objects-1> */
	uint64_t clients; /* client 0's record: the clients that wrote (1 when absent) */
	char run_id[24];  /* the writing run's id: an older file without it is no run's */
};

/* "<run>.c<client>.<idx>" into buf. */
void cb_rados_obj_name(char *buf, size_t n, const char *run, unsigned client, uint64_t idx);

/* Read / write client's record, "<run>.meta" or "<run>.meta.c<client>" (with
 * run_id). read returns -ENOENT when absent, -EINVAL when unreadable. */
int cb_rados_meta_read(rados_ioctx_t io, const char *run, unsigned client, struct rados_meta *m);
int cb_rados_meta_write(rados_ioctx_t io, const char *run, unsigned client, const char *run_id,
			const struct rados_meta *m);

/* Remove the objects of run (or of every run when run is NULL) in the
 * layer's namespace, the metadata object last. Adds to *removed. */
int cb_rados_remove(rados_ioctx_t io, const char *run, uint64_t *removed, struct cb_err *e);

#endif
