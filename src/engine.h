/* The contract between the common runner and a layer module (rados, rbd,
 * cephfs, krbd, noop). A layer exports one const struct cb_engine; the runner owns
 * the clock, the in-flight window, limits and stats; the engine only decides
 * what each op does and starts it. Engines never print and never exit. */
#ifndef CB_ENGINE_H
#define CB_ENGINE_H

#include "cold.h"
#include "data.h"
#include "dist.h"
#include "err.h"
#include "load_opts.h"
#include "options.h"
#include "rng.h"
#include "sizes.h"
#include "thresholds.h"

#include <errno.h>

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

struct cb_conn;
struct cb_cq;

/* Options every workload has, whatever its layer. */
/* One varied key of a matrix row and its value, as written. */
struct cb_mvar {
	char *key, *val;
};

struct cb_workload {
	char *name;
	char *layer;
	char *op;
	/* Bytes per op, the layer's default when none is given (settled when
	 * the plan is built, then by the layer's resolve: a CephFS tree's is
	 * the larger of its byte keys); 0 for an op that reads in the size its
	 * data was written with (engine->bs_as_written), which setup finds, and
	 * for a tree that moves no data. */
	uint64_t block_size;
	/* block_size as given: one size (then block_size is it and sizes'
	 * size[0] 0 when none was given), or a distribution, of which
	 * block_size is the largest (the buffers'); a distribution's sizes
	 * and offsets are multiples of block_align (settled only then: 4K
	 * unless given). */
	struct cb_sizes sizes;
	uint64_t block_align;
	uint64_t concurrency; /* ops in flight per client; 1 on a synchronous engine */
	uint64_t duration_ns; /* 0: no time limit */
	uint64_t ramp_ns;     /* run but not counted */
	uint64_t ops;	      /* 0: no op limit */
	uint64_t bytes;	      /* 0: no byte limit */
	uint64_t max_errors;  /* op errors tolerated before the phase fails */
	uint64_t clients;     /* clients running it together (>= 1), each with its own session */
	uint64_t repeat;      /* runs of its whole step list, merged into one row each */
	/* Where every random choice of its ops starts (offsets, objects, mixes,
	 * data): the profile's, or one drawn when the run starts
	 * (cb_profile_seed), so the record always says it; a client's own
	 * generator comes from it and its number (cb_rng_client). */
	uint64_t seed;
	/* Which target a random op picks (fio's random_distribution), and
	 * coverage: every target once a pass (fio's random map). */
	struct cb_dist_spec distribution;
	bool coverage;
	/* What written buffers hold (data.h), and whether they are made anew
	 * before every op (dedupe always is). */
	struct cb_data_spec data;
	bool refill;
	bool optional; /* skipped with a note when its layer is unavailable here */
	/* An op stuck this long fails with an error; 0: the cluster timeout. */
	uint64_t op_timeout_ns;
	struct cb_expect expect;
	/* cached: ok (1): its expect: judges it also when the client's cache
	 * served it (served.h); no (0): such a row fails its expectations. */
	int cached;
	/* cold (enum cb_cold): a read step drops what could answer it before
	 * it starts, the client's caches and the OSDs' (cold.h); auto: the
	 * layer's default (the tree test's stat and read phases run cold). */
	int cold;
	/* How the load is applied (load_opts.h): closed loop unless rate.ops;
	 * the arrival process of a rate; the group it runs together with
	 * (NULL: alone), its role there, and the workload run alone it is set
	 * beside in the report (NULL: none); the stop rule and the search. */
	struct cb_rate rate;
	int arrival; /* enum cb_arrival */
	char *together;
	int role; /* enum cb_role */
	char *alone;
	struct cb_steady steady;
	struct cb_search search;
	/* A matrix row: the workload's name as written (name is the row's) and
	 * the values of the keys given as lists. Owned by the profile. */
	char *base;
	struct cb_mvar *matrix;
	size_t nmatrix;
};

/* Kinds of op one phase may mix (struct cb_phase_out): a replayed
 * loadfile's are dbench's 18 operations. */
#define CB_MAX_KINDS 24

/* What setup and teardown report about a phase, apart from what they are
 * given: the runner hands each client its own and merges them. */
struct cb_phase_out {
	/* A step's own block size where it is not the plan's wl->block_size (a
	 * fill pass's, a read's as written); 0: the plan's. */
	uint64_t block_size;
	/* The sizes its ops draw from when they vary, as written ("4K-64K"):
	 * set by a step whose sizes are not the workload's block_size (RADOS
	 * objects of an object_size distribution, or read as written); the
	 * runner fills in the workload's otherwise. "-": one size, whatever
	 * the workload's block_size says (a fill pass). */
	char sizes[128];
	char target[256]; /* what the phase ran against, e.g. the pool (hints name it) */
	bool created;	  /* the run made something cleanup must remove */
	bool kept;	  /* ... or something it keeps on purpose (reuse) */
	/* This phase's completions come by callback from a thread of the
	 * engine's even though the engine has a poll (noop's completion:
	 * thread): the runner waits on its completion queue, as for librados. */
	bool callbacks;
	/* What setup took over (removed) or reuses of an earlier run of the
	 * same name, as a sentence; run.c prints it on stderr. */
	char note[512];
	/* The kinds of op the phase mixes, by name ("write", "read", "stat"),
	 * static strings, for the row's per-kind figures (by_op): an op's kind
	 * indexes them. None named (nkinds 0): "read" and "write", told apart
	 * by is_write. */
	const char *kinds[CB_MAX_KINDS];
	unsigned nkinds;
	/* A cold step (cold.h): how it kept the client's caches from answering
	 * ("remount", "stride", "reopen": image handles opened anew, "none": the
	 * library keeps no cache), a static string, NULL when it runs warm;
	 * and the pools whose OSDs' caches the runner drops at the start line,
	 * once every client has set up (the run's client 0's list). */
	const char *cold;
	int64_t cold_pools[CB_COLD_MAX_POOLS];
	unsigned ncold_pools;
	/* What the runner's drop did (filled in by the runner). */
	struct cb_cold_osds cold_osds;
};

/* One phase as handed to an engine's setup: what to do (the plan's
 * workload, settled) and where the results go (out). */
struct cb_phase {
	const struct cb_workload *wl;
	const void *lopts; /* the layer's own option struct */
	struct cb_conn *conn;
	const char *run_name;
	const char *run_id; /* unique per run: tells this run's things from a crashed namesake's */
	unsigned client;    /* client index within this process */
	unsigned clients;   /* how many run this phase together (>= 1) */
	int step;	    /* the engine's id of this step (struct cb_step); 0 for wl itself */
	void **session;	    /* this client's slot, kept across the workload's steps and
			       iterations; engine->release frees what it holds */
	bool allow_destructive; /* --allow-destructive: writes to things the run did not make */
	struct cb_err *err;
	struct cb_phase_out *out; /* filled in by setup and teardown */
};

/* One op slot. The runner stamps t_start before submit and hands the op back
 * to the engine for its next use only after the completion was reaped. */
struct cb_op {
	void *buf;     /* block_size bytes (64 at least), owned by the runner */
	uint64_t len;  /* bytes this op moves; set by the engine in submit */
	bool is_write; /* set by the engine in submit */
	/* Which of the phase's kinds (cb_phase_out.kinds) it is, set in
	 * submit; ignored when the phase names none. */
	uint8_t kind;
	/* A sync (fsync, fdatasync, a flush), set in submit: it has figures of
	 * its own (by_op's "sync") and is not counted in the row's ops, bytes
	 * or latency, as fio keeps its sync latencies apart. */
	bool is_sync;
	/* Set in submit when the op is not a plain success or failure
	 * (enum cb_outcome): a replay's line the workload expected to fail, and
	 * did, or one it has no call for. */
	uint8_t outcome;
	/* Set in submit after a write that owes a sync (fsync every N writes):
	 * a limit of ops or bytes lets the next op, that sync, start. */
	bool sync_next;
	uint64_t t_start; /* ns, monotonic */
	uint64_t t_sched; /* when it was due: its scheduled start (open loop), else t_start */
	uint64_t t_end;
	int64_t result; /* bytes or -errno, set by cb_op_done */
	uint64_t where; /* engine's record of the target (object, offset) */
	void *priv;	/* engine's per-slot handle (e.g. a completion) */
	struct cb_op *next;
	struct cb_cq *cq;
};

/* What became of an op apart from its result (cb_op.outcome). */
enum cb_outcome {
	CB_OUTCOME_DONE,
	/* failed as its workload said it would (a loadfile's status): an op
	 * of its kind like any other, counted apart as expected */
	CB_OUTCOME_EXPECTED_FAIL,
	/* not run: the layer has no call for it; counted in its kind, no
	 * latency, not in the row's ops */
	CB_OUTCOME_UNMAPPED,
};

/* Report an op's completion; callable from any thread, lock-free. */
void cb_op_done(struct cb_op *op, int64_t result);

/* A kind of place a layer works in and its cleanup is pointed at (a pool,
 * a file system). `cephbench cleanup` has one flag per kind the layers
 * name, so a layer with a new kind brings its flag along. */
struct cb_target_kind {
	const char *flag;    /* its long flag, "pool" for --pool */
	char short_flag;     /* 'p' for -p, or 0 */
	const char *metavar; /* "POOL" */
	const char *noun;    /* "pool", "file system": messages */
	/* What a valid value is (cb_ceph_name_rule): NULL if s is one, else
	 * the rule it breaks. */
	const char *(*rule)(const char *s);
	/* -ENOENT when there is no such place (nothing can be left in it),
	 * else 0. May be NULL: not asked. */
	int (*exists)(struct cb_conn *conn, const char *name);
};

/* The pool (target_pool.c), the target of every layer that works in one. */
extern const struct cb_target_kind cb_target_pool;

/* What a cleanup removes: everything of one run, or (all) every run's. */
struct cb_cleanup_req {
	struct cb_conn *conn;
	const void *lopts;    /* a run's layer options, or NULL for `cephbench cleanup` */
	const char *target;   /* from `cephbench cleanup`'s flag of the layer's kind, else NULL */
	const char *run_id;   /* a run cleaning up after itself: its own things are not a
				 live namesake's; NULL from `cephbench cleanup` */
	const char *run_name; /* NULL with all */
	bool all;
	struct cb_err *err;
	uint64_t removed; /* out: how many things were removed */
	/* out: what it left alone under its names and why (things not made by
	 * cephbench), a sentence; `cephbench cleanup` prints it on stdout, a
	 * run's cleanup on stderr, neither under --quiet */
	char note[512];
};

/* One phase of a workload. Most workloads run as one step, themselves; an
 * RBD prefill adds a fill pass before it, the CephFS tree test has mdtest's
 * ten phases. Each step is a report row of its own. */
struct cb_step {
	const char *suffix;   /* row name: "<workload>.<suffix>"; NULL: the workload's name */
	const char *op;	      /* the row's op; NULL: the workload's */
	int id;		      /* handed to the engine in ph->step */
	bool own_limits;      /* ends when the engine says so (CB_EOF) or after duration_ns;
				 the workload's ramp and limits do not apply */
	uint64_t duration_ns; /* with own_limits: a time limit (mdtest's stonewall), 0 none */
};

#define CB_MAX_STEPS 16

struct cb_ctx;
struct json_t;
struct cb_probe_req;

/* What a layer's context hook describes: one report row's workload and
 * target, after the phases (context.c; helpers in context.h). */
struct cb_context_req {
	struct cb_ctx *ctx; /* cb_ctx_mon, cb_ctx_section, cb_ctx_use_pool */
	struct cb_conn *conn;
	const struct cb_workload *wl;
	const void *lopts;
	const char *run_name;
	const char *target;  /* the row's target (ph->out->target) */
	struct json_t *uses; /* the row's "uses": "image", "filesystem" set here */
};

/* The fill step's suffix and op ("<workload>.prefill"): it only prepares
 * data, so a repeat skips it and thresholds do not judge it. */
#define CB_STEP_PREFILL "prefill"

static inline bool cb_step_is_prefill(const struct cb_step *st)
{
	return st->suffix && strcmp(st->suffix, CB_STEP_PREFILL) == 0;
}

/* submit: the engine has no more work in this phase; setup: nothing to do
 * (a prefill of images already filled), the phase is skipped. */
#define CB_EOF 1

/* An op's result when a read returned other bytes than were written. */
#define CB_EVERIFY (-EBADMSG)
/* ... when an op succeeded where its workload says it fails (a replayed
 * loadfile's status); describe() says what was expected. */
#define CB_ESTATUS (-EILSEQ)

struct cb_engine {
	const char *name;
	const char *const *ops;		     /* valid values of `op`, NULL-terminated */
	const struct cb_option *options;     /* the layer's own keys */
	const struct cb_target_kind *target; /* what a phase's target (ph->out->target) is */
	const char *removes;		     /* what its cleanup counts: "objects", "images" */
	size_t options_size;		     /* size of the struct they fill */
	/* submit finishes each op before it returns (libcephfs): one op in flight
	 * per client (the plan sets concurrency 1); parallelism comes from clients. */
	bool synchronous;
	unsigned max_clients; /* clients a workload may ask for (at least 1) */
	/* Needs no cluster (noop): a run of only such workloads opens no
	 * connection and takes no cluster lock. */
	bool no_cluster;
	/* The block size of a workload that gives none; the plan holds it. */
	uint64_t default_block_size;
	/* Ops that read what an earlier phase wrote (rados seq, rand): given no
	 * block_size they read in the size it was written with, which only
	 * setup learns, so their wl.block_size stays 0. NULL: none. */
	const char *const *bs_as_written;
	/* Ops that pick their targets at random: distribution and coverage
	 * apply to them (and the profile refuses them elsewhere). */
	const char *const *random_ops;
	/* Ops that write data of the runner's buffers: data and refill apply
	 * to them (and are refused elsewhere). */
	const char *const *write_ops;
	/* Ops whose block_size may be a distribution (and the others' is
	 * refused): each op draws its size (cb_wl_next_size). */
	const char *const *sized_ops;
	/* Ops that read or stat what an earlier phase made: cold applies to
	 * them (and is refused elsewhere). NULL: none. */
	const char *const *cold_ops;
	/* describe() names the device an op went to (krbd), so a failure's
	 * message need not name the phase's target as well. */
	bool describe_names_target;
	/* Cross-key checks at profile load, before anything connects. Returns 0 or
	 * -EINVAL with a reason in why. May be NULL. */
	int (*check)(const struct cb_workload *wl, const void *lopts, char *why, size_t n);
	/* Settle what the layer's options decide about the common keys (noop's
	 * synchronous: one op in flight). May be NULL. */
	void (*resolve)(struct cb_workload *wl, const void *lopts);
	/* Whether this host can run wl at all (a kernel module, a device node),
	 * asked before a workload marked optional runs. 0, or -ENODEV with the
	 * reason in why. May be NULL: always available. */
	int (*available)(const struct cb_workload *wl, const void *lopts, char *why, size_t n);
	/* The steps wl runs as, in order (at most CB_MAX_STEPS), the whole list
	 * repeated *iterations times (preset to 1). NULL: one step, wl itself. */
	size_t (*steps)(const struct cb_workload *wl, const void *lopts, struct cb_step *out,
			unsigned *iterations);
	/* Connect handles and prepare the phase. Returns 0, CB_EOF (nothing to
	 * do: the phase is skipped), or -errno with ph->err set. */
	int (*setup)(struct cb_phase *ph, void **state);
	/* Start one op (fill op->len, op->is_write); its completion arrives through
	 * cb_op_done. Returns 0, CB_EOF, or -errno for an op that failed to start. */
	int (*submit)(void *state, struct cb_op *op);
	/* For engines that batch (libaio): submit may only queue, commit starts
	 * every op still queued in one call; it is called once per turn of the
	 * loop, also with nothing newly submitted. An op that fails to start
	 * completes through cb_op_done with its error. Returns 0 or -errno when
	 * the engine itself fails. NULL: submit starts each op. */
	int (*commit)(void *state);
	/* For engines without completion callbacks: reap at least min completions,
	 * waiting up to timeout_ms. NULL for callback-driven engines. The runner
	 * waits for every op in flight, also after an error: an engine whose
	 * commit or poll fails must still complete each of its ops (with the
	 * error), or the phase never ends. */
	int (*poll)(void *state, unsigned min, int timeout_ms);
	/* Called once a client's phase ended by its duration or limits (not
	 * on a signal or an error) with every op done: start one last op, a
	 * sync of what the phase wrote (end_fsync), as submit does, or return
	 * CB_EOF (nothing owed). NULL: nothing ever is. */
	int (*finish)(void *state, struct cb_op *op);
	/* When the next op is due, ns on cb_now_ns()'s clock, or 0: now (a
	 * replay honouring its loadfile's timestamps). The runner starts it no
	 * sooner and counts its latency from then, as a rate's. NULL: always
	 * now. */
	uint64_t (*due)(void *state);
	/* Describe an op for an error message ("object run.c0.17 offset 0"). */
	void (*describe)(void *state, const struct cb_op *op, char *buf, size_t n);
	/* Close handles once no op is in flight; records what the phase left
	 * (e.g. the run's metadata). Safe to call after a failed setup. */
	int (*teardown)(struct cb_phase *ph, void *state);
	/* Free a client's session (ph->session) after the workload's last step.
	 * May be NULL when the engine keeps none. */
	void (*release)(void *session);
	/* Make the calls a stuck client waits in return (an MDS that never
	 * answers): called from another thread than the client's, once the
	 * runner gave up waiting for it after a stop (--timeout past a signal
	 * or the planned end). The session is then abandoned: never released,
	 * as the client's thread may still be inside it. NULL: the engine's
	 * calls are bounded by their own timeouts (librados', librbd's). */
	void (*abort)(void *session);
	/* Remove what runs made (also crashed ones). Returns 0 or -errno. NULL
	 * for a layer that makes nothing (noop; target and removes NULL
	 * too): `cephbench cleanup` and a run's cleanup skip it. */
	int (*cleanup)(struct cb_cleanup_req *req);
	/* The block devices a client's session (a ph->session slot) runs on
	 * (krbd's), for the host's disk figures beside the phase: up to max
	 * paths into paths, borrowed from the session; how many. Called at
	 * telemetry's marks, between setup and teardown. NULL: none. */
	size_t (*block_devices)(const void *session, const char **paths, size_t max);
	/* How telemetry holds the OSDs' counts against the phase's: by bytes
	 * where a client cache or a block queue merges and splits ops (cephfs,
	 * krbd), else by ops; and, when they differ, the sentence why that may
	 * be (NULL: none to give). */
	bool osd_counts_bytes;
	const char *osd_mismatch_why;
	/* When the OSDs counted more ops than a phase that wrote sent, by at
	 * most one op per write (and a few), the sentence why (rbd: the
	 * object map updated at each object's first write). NULL: none. */
	const char *osd_more_why;
	/* Its phases go through an MDS: the file system a phase with the
	 * layer's options lopts uses, whose active ranks' counters telemetry
	 * reads (borrowed from lopts). NULL: a layer that uses no MDS. */
	const char *(*mds_fs)(const void *lopts);
	/* Describe what a row ran on for the record's context (an image's
	 * features and striping, a file system's ranks and pools), after the
	 * phases and before the cleanup; never fails: a command refused is
	 * one note and that part null. NULL: a layer of cb_target_pool has
	 * its target described as a pool, any other nothing. */
	void (*context)(struct cb_context_req *req);
	/* `cephbench doctor` (probe.h): check what a run of req->wl needs
	 * here (its pool or file system, an image it names, the client's caps
	 * tried on names of its own, each removed, the host's tools), one line
	 * per check. NULL: nothing beyond the connection. */
	void (*probe)(struct cb_probe_req *req);
};

/* Whether op is one of ops (a NULL-terminated list, or NULL: none). */
static inline bool cb_op_listed(const char *const *ops, const char *op)
{
	for (size_t i = 0; ops && ops[i]; i++)
		if (strcmp(ops[i], op) == 0)
			return true;
	return false;
}

/* Whether op reads in the size its data was written with when it is given
 * no block_size (eng->bs_as_written). */
static inline bool cb_engine_reads_as_written(const struct cb_engine *eng, const char *op)
{
	return cb_op_listed(eng->bs_as_written, op);
}

/* The size of a client's next op: block_size, or a draw from rng of a
 * distribution. */
static inline uint64_t cb_wl_next_size(const struct cb_workload *wl, uint64_t *rng)
{
	return cb_sizes_varies(&wl->sizes) ? cb_sizes_next(&wl->sizes, wl->block_align, rng)
					   : wl->block_size;
}

#endif
