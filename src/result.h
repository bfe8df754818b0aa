/* The normalized result record every layer's phases end up in; reporters
 * render it, they never look at engines. Units are in the field names. */
#ifndef CB_RESULT_H
#define CB_RESULT_H

#include "cold.h"
#include "hist.h"
#include "kinds.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* One second of a phase, by completion time from the end of the ramp. */
struct cb_sample {
	uint64_t ops;
	uint64_t bytes;
	uint64_t lat_sum_ns; /* open loop: from each op's scheduled start */
	uint64_t lat_max_ns;
	/* Open loop (rate.h; 0 in a closed loop): ops the schedule had due in
	 * this second, ops submitted late in it, and the most ops due but not
	 * yet submitted (the backlog) seen in it. */
	uint64_t due, late, backlog;
};

struct cb_workload;
struct cb_phase_tm;
struct cb_search_result;
struct cb_tm;
struct cb_engine;
struct json_t;

/* One rank's own figures of a phase, in a run over MPI (see ranks.h). */
struct cb_rank_figures {
	unsigned rank;
	char host[64];
	uint64_t ops, bytes, errors;
	uint64_t elapsed_ns;	/* its slowest client's time */
	uint64_t start_unix_ns; /* its measured window's wall-clock start; 0: unknown */
};

/* One client's own figures in a phase it ran with others (per_client). */
struct cb_client_row {
	uint64_t ops, bytes, errors;
	uint64_t elapsed_ns; /* its own time: end of ramp to its last measured completion */
	uint64_t lat_sum_ns; /* of its measured ops: mean = lat_sum_ns / ops */
};

struct cb_phase_result {
	char *name;
	/* The workload the row came from, borrowed from the profile (which
	 * outlives the result), and its step suffix ("prefill"); NULL in
	 * results built elsewhere, and on a workload's main step. */
	const struct cb_workload *wl;
	const char *step;
	/* The workload's layer and its options, borrowed likewise (the
	 * record's params); NULL where wl is. */
	const struct cb_engine *engine;
	const void *lopts;
	/* What it ran on, by name into the record's context (context.c):
	 * {"pools": [...], "image": ..., "filesystem": ...}; owned, or NULL. */
	struct json_t *uses;
	char *layer;
	char *op;
	char target[128];
	uint64_t block_size;
	/* The sizes its ops drew from when they varied, as written
	 * ("4K:60,64K:40", "4K-64K"; block_size is the largest); "": one. */
	char sizes[128];
	uint64_t concurrency;
	uint64_t clients;
	uint64_t ops; /* successful ops in the measured window */
	uint64_t bytes;
	uint64_t write_ops; /* of which writes (the rest are reads) */
	uint64_t write_bytes;
	uint64_t errors;
	uint64_t elapsed_ns; /* end of ramp to the last measured completion */
	/* The measured window's start on the wall clock, ns since the epoch
	 * (its earliest client's; a repeat's row keeps its first): where rows
	 * that ran side by side meet. 0: not measured. */
	uint64_t window_unix_ns;
	/* Every successful op of the loop, its ramp's too, and their latency:
	 * what the cluster saw between telemetry's START and END marks. */
	uint64_t all_ops, all_bytes, all_lat_ns;
	struct cb_hist *hist;
	/* The same ops by kind, and the syncs, which are in no figure above
	 * (kinds.h). */
	struct cb_kinds kinds;
	struct cb_sample *samples;
	size_t nsamples;
	bool interrupted;   /* ended early by a signal: partial */
	bool failed;	    /* ended early by an error */
	bool ran;	    /* setup succeeded and the loop started */
	double *iter_rates; /* ops/s of each iteration, when the workload had several */
	size_t niters;
	/* Each rank's own figures, by rank, under the aggregate above (a run
	 * over MPI; rank 0's result only). */
	struct cb_rank_figures *ranks;
	size_t nranks;
	/* Each client's own figures, in client order, when several ran it
	 * (cb_phase_merge_client adds one); NULL with one client. */
	struct cb_client_row *per_client;
	size_t nper_client;
	/* What telemetry saw of it (telemetry.h), owned; NULL: none. */
	struct cb_phase_tm *tm;
	/* Open loop (rate.h): the schedule's rate in ops/s (0: closed loop,
	 * and the rest of this block unset), its arrival process; hist then
	 * holds latency from each op's scheduled start, service_hist from its
	 * submit (owned); ops submitted late, the largest backlog; saturated:
	 * the phase could not keep the rate; unissued_ops: due before the
	 * phase's end but never submitted (the backlog its time ran out on). */
	double rate_ops;
	int arrival; /* enum cb_arrival */
	struct cb_hist *service_hist;
	uint64_t late_ops, backlog_max, unissued_ops;
	bool saturated;
	/* Steady state (steady.h): 0 no rule, 1 reached, 2 not reached by
	 * max; the measured time it took to get there. */
	int steady;
	uint64_t steady_ns;
	/* A capacity search (search.h), owned; NULL: none. */
	struct cb_search_result *search;
	/* A group member (group.h): the group's name, owned (NULL: ran
	 * alone); load: role load, neither judged nor in the breakdown; the
	 * row it is set beside (its workload run alone), owned, or NULL. */
	char *group;
	bool load;
	char *alone;
	/* A cold step (cold.h): how the client's caches were left out (a
	 * static string; NULL: it ran warm) and what the OSDs' drop did. */
	const char *cold;
	struct cb_cold_osds cold_osds;
};

/* A workload not run because this host lacks its layer (optional: true). */
struct cb_skip {
	char *workload, *reason;
};

struct cb_result {
	char *run_name;
	char *profile_name;
	char profile_sha256[65];
	char fsid[64];
	char ceph_version[64];
	/* the client's debug levels: "quiet" (0/0 but debug_kept) or
	 * "library" (--ceph-debug-defaults); debug_kept as cb_conn_debug_kept */
	char client_debug[16];
	char debug_kept[2640]; /* CB_DEBUG_KEPT_MAX (conn_debug.h) */
	char host[256];
	time_t started;
	struct cb_phase_result *phases;
	size_t nphases;
	struct cb_skip *skipped;
	size_t nskipped;
	bool interrupted;
	/* The run's telemetry, borrowed (its notes); NULL in a loaded record. */
	const struct cb_tm *tm;
	/* The cluster the run ran on (context.c), owned; NULL without one. */
	struct json_t *context;
	/* The pre-flight gate's verdict (preflight.h), borrowed; NULL: none. */
	const json_t *preflight;
};

/* Record that workload was skipped, and why. 0 or -ENOMEM. */
int cb_result_add_skip(struct cb_result *r, const char *workload, const char *reason);

/* Append an empty phase result; returns it or NULL on ENOMEM. Owned by r. */
struct cb_phase_result *cb_result_add_phase(struct cb_result *r);

/* A phase result of its own (one client's, one iteration's), to be merged
 * into a record's. 0 or -ENOMEM; release with cb_phase_release. */
int cb_phase_init(struct cb_phase_result *p);
void cb_phase_release(struct cb_phase_result *p);

/* Grow p's samples to at least n seconds, the new ones zero. 0 or -ENOMEM. */
int cb_phase_samples_grow(struct cb_phase_result *p, size_t n);

/* dst += src, a client that ran the same phase at the same time: counts add,
 * histograms merge, samples add by second, the time is the slowest client's
 * (mdtest's rate: all the work over the slowest's time); src's own figures
 * become dst's next per_client row. 0 or -ENOMEM (dst unchanged). */
int cb_phase_merge_client(struct cb_phase_result *dst, const struct cb_phase_result *src);

/* dst += src, another host's row of the same phase run at the same time
 * (an MPI rank's, another result file's): as cb_phase_merge_client, but
 * src's second t adds into dst's second t + offset_s (negative: dst's
 * samples move later), and src's clients' rows follow dst's (a side with
 * one client, and so no rows, becomes one row). The clients count and the
 * hosts' rows (cb_phase_add_host) are the caller's. 0 or -ENOMEM. */
int cb_phase_merge_host(struct cb_phase_result *dst, const struct cb_phase_result *src,
			int64_t offset_s);

/* Where src's measured window starts in dst's, in whole seconds on the
 * wall clock (window_unix_ns, rounded); 0 when either is unknown. */
int64_t cb_phase_offset_s(const struct cb_phase_result *dst, const struct cb_phase_result *src);

/* Append a host's row to p's ranks: rank, host and of's own figures (ops,
 * bytes, errors, time). 0 or -ENOMEM. */
int cb_phase_add_host(struct cb_phase_result *p, unsigned rank, const char *host,
		      const struct cb_phase_result *of);

/* dst += src, a later iteration of the same step: counts add, src's samples
 * follow dst's, times add, per_client rows add by client; each iteration's
 * rate is kept. 0 or -ENOMEM. */
int cb_phase_merge_iteration(struct cb_phase_result *dst, const struct cb_phase_result *src);

/* The spread of a phase's rate over its iterations (mdtest's SUMMARY;
 * stddev is the population's). False when it had fewer than two. */
struct cb_rate_stats {
	double max, min, mean, stddev;
};
bool cb_phase_rate_stats(const struct cb_phase_result *p, struct cb_rate_stats *st);

/* Forget the last phase (one that failed before it measured anything). */
void cb_result_drop_last(struct cb_result *r);

/* Whether row p is a fill step's (by its step, or its op for rows built
 * elsewhere): it prepares data, so it is neither judged nor compared. */
bool cb_phase_is_prefill(const struct cb_phase_result *p);

/* Over ranks: the ranks that finished first and last (their own slowest
 * client's time), which shows a straggler. False without ranks. */
bool cb_phase_rank_span(const struct cb_phase_result *p, const struct cb_rank_figures **first,
			const struct cb_rank_figures **last);
/* Derived figures (0 when the phase measured nothing). */
double cb_phase_iops(const struct cb_phase_result *p);
double cb_phase_bw(const struct cb_phase_result *p); /* bytes per second */

/* Free everything r owns (not r itself). */
void cb_result_release(struct cb_result *r);

#endif
