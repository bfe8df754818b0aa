/* The noop layer: ops that touch nothing, the smallest layer there is and
 * the one to copy when adding a layer (as fio's engines/null.c and IOR's
 * DUMMY backend). It is also the runner's test target: every path of the
 * runner can be driven through it without a cluster.
 *
 * By default an op completes inside submit, as fio's null engine does. The
 * options make it behave like a real target where a test needs one:
 *   delay/jitter  each op takes that long (uniform in delay +- jitter)
 *   delay_rise    the delay grows by that much each second of the client's
 *                 run (a target getting slower: never steady)
 *   capacity      a single server of N ops/s: ops queue behind each other,
 *                 so latency rises with load
 *   fail_every    every Nth op of a client fails with -EIO
 *   stall         ops started stall_at into the client's run, for that
 *                 long, complete only when it ends (a paused OSD)
 *   completion    thread: completions come from another thread, as
 *                 librados's callbacks do
 *   synchronous   submit finishes the op before returning (libcephfs)
 *   iterations    the workload's step list runs that many times
 *   rw_mix_read   op rw: the percent of ops that read, the rest write
 *   sync_every    a sync (op->is_sync) after every N writes of a client,
 *                 counted as durable.h counts the layers' fsync: N
 *   end_sync      one last sync once the phase ends as planned (end_fsync)
 * Delayed ops wait in a small heap (noop_queue.c) until they are due. */
#include "durable.h"
#include "noop_queue.h"
#include "rng.h"
#include "units.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The layer's own keys, filled by the profile loader through offsetof. */
struct noop_opts {
	uint64_t delay_ns, jitter_ns;
	uint64_t rise_ns;    /* added to delay per second since the first op */
	uint64_t capacity;   /* ops/s of the single server; 0: unlimited */
	uint64_t fail_every; /* 0: no op fails */
	uint64_t stall_ns, stall_at_ns;
	int completion; /* index into completions[] */
	bool synchronous;
	uint64_t iterations;
	uint64_t rw_mix_read, sync_every;
	bool end_sync;
};

enum { COMPLETION_INLINE, COMPLETION_THREAD };
static const char *const completions[] = {"inline", "thread", NULL};
static const char *const noop_ops[] = {"read", "write", "rw", NULL};
static const char *const noop_write_ops[] = {"write", "rw", NULL};

static const struct cb_option noop_options[] = {
    {"delay", CB_OPT_DURATION, offsetof(struct noop_opts, delay_ns), "0", 0, 0, NULL,
     "how long each op takes (0: it completes at once)"},
    {"jitter", CB_OPT_DURATION, offsetof(struct noop_opts, jitter_ns), "0", 0, 0, NULL,
     "each op's delay is uniform in delay +- jitter"},
    {"delay_rise", CB_OPT_DURATION, offsetof(struct noop_opts, rise_ns), "0", 0, 0, NULL,
     "each second of the client's run adds this to delay"},
    {"capacity", CB_OPT_UINT, offsetof(struct noop_opts, capacity), "0", 0, 1000000000, NULL,
     "ops/s of a single server the ops queue for (0: no limit)"},
    {"fail_every", CB_OPT_UINT, offsetof(struct noop_opts, fail_every), "0", 0, 0, NULL,
     "every Nth op of a client fails with an I/O error (0: none)"},
    {"stall", CB_OPT_DURATION, offsetof(struct noop_opts, stall_ns), "0", 0, 0, NULL,
     "ops started during a stall of this long complete when it ends (0: none)"},
    {"stall_at", CB_OPT_DURATION, offsetof(struct noop_opts, stall_at_ns), "0", 0, 0, NULL,
     "when the stall starts, from the client's first op"},
    {"completion", CB_OPT_ENUM, offsetof(struct noop_opts, completion), "inline", 0, 0, completions,
     "inline (in submit or the runner's poll) or thread (as librados's callbacks)"},
    {"synchronous", CB_OPT_BOOL, offsetof(struct noop_opts, synchronous), "false", 0, 0, NULL,
     "submit finishes each op before returning: one op in flight per client (libcephfs)"},
    {"iterations", CB_OPT_UINT, offsetof(struct noop_opts, iterations), "1", 1, 1000000, NULL,
     "runs of the workload's step list, merged into its row"},
    {"rw_mix_read", CB_OPT_UINT, offsetof(struct noop_opts, rw_mix_read), "50", 0, 100, NULL,
     "op rw: percent of ops that read"},
    {"sync_every", CB_OPT_UINT, offsetof(struct noop_opts, sync_every), "0", 0, 0, NULL,
     "a sync after every N writes of a client, counted apart (0: none)"},
    {"end_sync", CB_OPT_BOOL, offsetof(struct noop_opts, end_sync), "false", 0, 0, NULL,
     "a sync once the phase's writes are done (the layers' end_fsync)"},
    {NULL, 0, 0, NULL, 0, 0, NULL, NULL},
};

#define NOOP_DEFAULT_BS 4096

static int noop_check(const struct cb_workload *wl, const void *lopts, char *why, size_t n)
{
	const struct noop_opts *o = lopts;
	char a[32], b[32];
	if (o->jitter_ns > o->delay_ns) {
		snprintf(why, n, "workload '%s': jitter %s is more than delay %s", wl->name,
			 cb_format_duration(o->jitter_ns, a, sizeof(a)),
			 cb_format_duration(o->delay_ns, b, sizeof(b)));
		return -EINVAL;
	}
	/* no rate meets a target below what every op takes */
	uint64_t least =
	    o->delay_ns - o->jitter_ns + (o->capacity ? 1000000000ULL / o->capacity : 0);
	uint64_t target = cb_search_target_ns(&wl->search);
	if (target && target < least) {
		snprintf(why, n,
			 "workload '%s': search target %s is below the %s every noop op takes "
			 "(delay, jitter, capacity): no rate can meet it; raise the target",
			 wl->name, cb_format_duration(target, a, sizeof(a)),
			 cb_format_duration(least, b, sizeof(b)));
		return -EINVAL;
	}
	if (o->synchronous && o->completion == COMPLETION_THREAD) {
		snprintf(why, n,
			 "workload '%s': synchronous ops complete in submit, not on a thread",
			 wl->name);
		return -EINVAL;
	}
	return 0;
}

/* One op in flight per client, as the plan gives a synchronous layer
 * (settle_defaults): here the workload, not the table, chooses it. */
static void noop_resolve(struct cb_workload *wl, const void *lopts)
{
	const struct noop_opts *o = lopts;
	if (o->synchronous)
		wl->concurrency = 1;
}

/* One step, the workload itself, repeated `iterations` times. */
static size_t noop_steps(const struct cb_workload *wl, const void *lopts, struct cb_step *out,
			 unsigned *iterations)
{
	const struct noop_opts *o = lopts;
	(void)wl;
	out[0] = (struct cb_step){.suffix = NULL};
	*iterations = (unsigned)o->iterations;
	return 1;
}

/* One client's state: no handles, only the op counter, the server's queue
 * and, when delayed, the ops waiting to complete. */
struct noop_state {
	const struct noop_opts *o;
	bool write, mix;
	struct cb_durable dur; /* sync_every and end_sync as fsync and end_fsync */
	struct cb_durable_count dc;
	bool instant; /* no delay, no server, inline: an op completes in submit */
	uint64_t block_size;
	uint64_t submitted;   /* ops so far: fail_every counts them */
	uint64_t server_free; /* ns: when the single server takes the next op */
	uint64_t first;	      /* ns: the client's first op started (0: none yet) */
	uint64_t rng;
	struct noop_queue q;
};

static int noop_setup(struct cb_phase *ph, void **state)
{
	const struct noop_opts *o = ph->lopts;
	struct noop_state *s = calloc(1, sizeof(*s));
	*state = s;
	if (!s)
		return cb_err_cluster(ph->err, -ENOMEM, "out of memory");
	s->o = o;
	s->write = strcmp(ph->wl->op, "write") == 0;
	s->mix = strcmp(ph->wl->op, "rw") == 0;
	s->block_size = ph->wl->block_size; /* the plan's: default_block_size when none given */
	s->rng = cb_rng_client(ph->wl->seed, ph->client, 0);
	s->dur = (struct cb_durable){.fsync = o->sync_every, .end_fsync = o->end_sync};
	/* rows name what they ran against; result readers want a name there */
	snprintf(ph->out->target, sizeof(ph->out->target), "noop");
	s->instant = !o->delay_ns && !o->rise_ns && !o->capacity && !o->stall_ns &&
		     o->completion != COMPLETION_THREAD;
	/* a queue only when ops wait outside submit: the default path is submit
	 * alone, and a synchronous op waits in submit */
	if (!s->instant && !o->synchronous) {
		int r =
		    noop_queue_init(&s->q, ph->wl->concurrency, o->completion == COMPLETION_THREAD);
		if (r < 0)
			return cb_err_cluster(ph->err, r, "noop: cannot start: %s", strerror(-r));
	}
	ph->out->callbacks = o->completion == COMPLETION_THREAD;
	return 0;
}

/* When op, started now, is due: after the server is free and has served
 * it, plus its own delay. */
static uint64_t due_time(struct noop_state *s, uint64_t now)
{
	const struct noop_opts *o = s->o;
	uint64_t t = now;
	if (o->capacity) {
		uint64_t start = s->server_free > now ? s->server_free : now;
		s->server_free = start + 1000000000ULL / o->capacity;
		t = s->server_free;
	}
	uint64_t d = o->delay_ns;
	if (o->jitter_ns) {
		d = d - o->jitter_ns + cb_rng_next(&s->rng) % (2 * o->jitter_ns + 1);
	}
	if (!s->first)
		s->first = now;
	/* in whole nanoseconds per second: rise * elapsed / 1 s */
	d += (uint64_t)((double)o->rise_ns * (double)(now - s->first) / 1e9);
	t += d;
	uint64_t stall = s->first + o->stall_at_ns;
	if (o->stall_ns && now >= stall && now < stall + o->stall_ns && t < stall + o->stall_ns)
		t = stall + o->stall_ns;
	return t;
}

/* op, its kind settled, started: completed now, after its delay, or
 * when the server has served it. */
static int start(struct noop_state *s, struct cb_op *op)
{
	const struct noop_opts *o = s->o;
	op->where = s->submitted++;
	/* a read "returns" its length: the runner counts a short one as failed */
	int64_t result =
	    o->fail_every && s->submitted % o->fail_every == 0 ? -EIO : (int64_t)op->len;
	if (s->instant) {
		cb_op_done(op, result);
		return 0;
	}
	uint64_t due = due_time(s, op->t_start);
	if (o->synchronous) {
		noop_sleep_until(due);
		cb_op_done(op, result);
		return 0;
	}
	noop_queue_push(&s->q, op, due, result);
	return 0;
}

static int noop_submit(void *state, struct cb_op *op)
{
	struct noop_state *s = state;
	const struct noop_opts *o = s->o;
	if (!cb_durable_due(&s->dur, &s->dc, op)) {
		op->is_write = s->mix ? cb_rng_next(&s->rng) % 100 >= o->rw_mix_read : s->write;
		op->len = s->block_size;
		if (op->is_write)
			cb_durable_wrote(&s->dur, &s->dc, op);
	}
	return start(s, op);
}

static int noop_finish(void *state, struct cb_op *op)
{
	struct noop_state *s = state;
	return cb_durable_end(&s->dur, &s->dc, op) ? start(s, op) : CB_EOF;
}

/* Inline completion of delayed ops: the runner's poll delivers those due. */
static int noop_poll(void *state, unsigned min, int timeout_ms)
{
	struct noop_state *s = state;
	if (!s->q.ops)
		return 0;
	return noop_queue_reap(&s->q, min, timeout_ms);
}

static void noop_describe(void *state, const struct cb_op *op, char *buf, size_t n)
{
	(void)state;
	snprintf(buf, n, "noop op %llu", (unsigned long long)op->where + 1);
}

/* Called with no op in flight; also after a failed setup (state NULL or
 * without a queue). */
static int noop_teardown(struct cb_phase *ph, void *state)
{
	struct noop_state *s = state;
	(void)ph;
	if (s)
		noop_queue_release(&s->q);
	free(s);
	return 0;
}

/* No cleanup and no target: the layer makes nothing. */
const struct cb_engine cb_engine_noop = {
    .name = "noop",
    .ops = noop_ops,
    .options = noop_options,
    .default_block_size = NOOP_DEFAULT_BS,
    .options_size = sizeof(struct noop_opts),
    .no_cluster = true,
    .max_clients = 1024,
    .check = noop_check,
    .resolve = noop_resolve,
    .steps = noop_steps,
    .setup = noop_setup,
    .write_ops = noop_write_ops,
    .submit = noop_submit,
    .finish = noop_finish,
    .poll = noop_poll,
    .describe = noop_describe,
    .teardown = noop_teardown,
};
