/* Private to the RADOS layer: its options, its naming, its metadata object. */
#ifndef CB_RADOS_PRIV_H
#define CB_RADOS_PRIV_H

#include "engine.h"
#include "rng.h"

#include <rados/librados.h>
#include <stddef.h>
#include <stdint.h>

/* Every object the layer writes lives in this namespace of the target pool,
 * so nothing else in the pool can ever be touched. */
#define CB_RADOS_NS "cephbench"

/* The rados bench default op size. */
#define CB_RADOS_DEFAULT_BS (4ULL << 20)

/* The kinds of op a mix draws from, in the order of a phase's kinds. */
enum rados_kind { RK_WRITE, RK_READ, RK_STAT, RK_OMAP, RK_XATTR, RK_N };

/* A value of omap or of an xattr: at most this (OSDs refuse large ones). */
#define CB_RADOS_MAX_VALUE (64ULL << 10)

struct rados_opts {
	char *pool;
	/* one size (size[0] 0: block_size), or a distribution: each object's
	 * drawn, written whole in one op */
	struct cb_sizes object_size;
	uint64_t max_objects;	  /* write: stop after this many objects; 0: no limit */
	uint64_t omap_keys;	  /* omap: keys set per op */
	uint64_t omap_value_size; /* omap: bytes of each value */
	uint64_t xattr_size;	  /* xattr: bytes of the value */
	uint64_t mix[RK_N];	  /* mix: percent of ops of each kind */
	bool pattern;		  /* write: the verify pattern, not data */
	bool verify;		  /* seq, rand, mix: reads check the pattern */
};

/* What one client of a write left, so later reads (and humans) can find
 * it. Client 0's record is the run's, "<run>.meta", and says how many
 * clients wrote; client k's is "<run>.meta.c<k>": each writes only its own,
 * so no record is shared between threads or read-modified-written. Like the
 * data, a record carries the run's mark (marked.h). */
struct rados_meta {
	char state[16]; /* "writing" until the write phase ends, then "complete" or
			   "incomplete" (a write failed or timed out) */
	uint64_t object_size;
	uint64_t block_size;
	/* Whole objects written (each block's write started; in a complete
	 * record all succeeded), named <run>.c<client>.<0..objects-1>. */
	uint64_t objects;
	/* Objects whose writing began: <run>.c<client>.<0..started-1> may exist
	 * (a write that timed out may still land on the OSDs). */
	uint64_t started;
	uint64_t failed;  /* writes that failed or timed out */
	uint64_t clients; /* client 0's record: the clients that wrote (1 when absent) */
	char run_id[24];  /* the writing run's id: an older file without it is no run's */
	/* Objects of sizes that vary, each written whole (block_size is the
	 * largest, object_size too): the distribution as written ("" when
	 * they do not vary), its step, and the seed object sizes follow from
	 * (cb_rados_object_len). */
	char sizes[128];
	uint64_t size_align, size_seed;
	/* The objects hold the verify pattern (cb_rados_pattern_key): the
	 * write's pattern: true, kept by a mix's writes over them. */
	bool pattern;
};

/* The key of the verify pattern (blk_pattern.h's cb_pattern_fill) of
 * object idx of writer client: its bytes follow from it and the offset. */
static inline uint64_t cb_rados_pattern_key(unsigned client, uint64_t idx)
{
	return cb_splitmix64(((uint64_t)client << 40) ^ idx ^ 0x7261646f73ULL);
}

/* The size of object idx of writer client, of sizes that vary: the same
 * for every reader, from the spec, its step and the writer's seed alone. */
uint64_t cb_rados_object_len(const struct cb_sizes *z, uint64_t align, uint64_t seed,
			     unsigned client, uint64_t idx);

/* "<run>.c<client>.<idx>" into buf. */
void cb_rados_obj_name(char *buf, size_t n, const char *run, unsigned client, uint64_t idx);

/* "<run>.meta" (client 0) or "<run>.meta.c<client>" into buf. */
void cb_rados_meta_name(char *buf, size_t n, const char *run, unsigned client);

/* What a name in the namespace is: one of the names above, parsed exactly
 * as they are printed (a run name of cb_name_valid, decimal numbers without
 * leading zeros, no client 0 record but "<run>.meta"), or none. */
enum rados_name { RADOS_NAME_NONE, RADOS_NAME_DATA, RADOS_NAME_META_CLIENT, RADOS_NAME_META };

/* The kind of name, and its run name into run (65 bytes) unless NONE. */
enum rados_name cb_rados_name_parse(const char *name, char run[65]);

/* Read / write client's record (with run_id). read returns -ENOENT when
 * absent, -EEXIST when an object of that name exists without the run's mark
 * (not cephbench's: write refuses it too, and leaves it), -EINVAL when
 * unreadable. exists: the record is likely there (this client's earlier
 * write in the run), which spares a round trip. */
int cb_rados_meta_read(rados_ioctx_t io, const char *run, unsigned client, struct rados_meta *m);
int cb_rados_meta_write(rados_ioctx_t io, const char *run, unsigned client, const char *run_id,
			const struct rados_meta *m, bool exists);

/* Whether RBD uses the layer's namespace of io's pool: it is in the pool's
 * RBD namespace registry, or holds RBD's own objects (rbd_directory,
 * rbd_header.ID...: the namespace is listed). 0 when not, else a usage
 * error in e (the layer writes and removes nothing there), or -errno. */
int cb_rados_ns_check(rados_ioctx_t io, struct cb_err *e);

/* A phase's hold on its run's record (rados_live.c): a watch on
 * <run>.meta that answers a notify with who holds it, so that cleanup and
 * namesake runs, on any host, leave a live run's objects alone. */
struct rados_live {
	rados_ioctx_t io;
	uint64_t cookie;
	bool held;
	char name[128];
	char who[192]; /* the answer: "cephbench live run: pid N on host H" */
};

/* Hold the record of run (which must exist). 0 or -errno; without a hold
 * the run goes on unprotected. */
int cb_rados_live_hold(rados_ioctx_t io, const char *run, struct rados_live *l);
/* Let go of a hold (none held: nothing); no callback runs on l after. */
void cb_rados_live_drop(struct rados_live *l);
/* 1 when a live run holds run's record (who: "pid N on host H"), 0 when
 * none does (no record, or only a killed run's watch, which does not
 * answer: this waits a few seconds then), or -errno. */
int cb_rados_live_ask(rados_ioctx_t io, const char *run, char *who, size_t n);

/* What cb_rados_remove did. */
struct rados_removal {
	uint64_t removed;
	/* Objects left in the namespace that cephbench did not make: named like
	 * the run's (or any run's) but without the mark, and with all, names
	 * no run makes. */
	uint64_t foreign;
};

/* Remove the objects of run (or of every run when run is NULL) in the
 * layer's namespace that carry its mark, the metadata object last. Refuses
 * (cb_rados_ns_check) a namespace that RBD uses, and keeps a live run's
 * objects (cb_rados_live_ask): -EBUSY naming it, after the others went.
 * Adds to *out. */
int cb_rados_remove(rados_ioctx_t io, const char *run, struct rados_removal *out, struct cb_err *e);

/* rados_probe.c: engine->probe (probe.h). */
struct cb_probe_req;
void cb_rados_probe(struct cb_probe_req *req);

#endif
