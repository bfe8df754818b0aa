/* The phase loop. Completions arrive through the lock-free queue of cq.c;
 * all accounting happens on the runner's thread. Signals are read from a
 * signalfd every SIGNAL_CHECK_NS, off the per-op path. */
#include "op_trace.h"
#include "phase.h"
#include "cq.h"
#include "clock.h"
#include "group.h"
#include "rate.h"
#include "steady.h"
#include "ranks.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>
#if defined(__SANITIZE_ADDRESS__)
#define CB_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CB_LSAN 1
#endif
#endif
#ifdef CB_LSAN
#include <sanitizer/lsan_interface.h>
#endif

#define SIGNAL_CHECK_NS 50000000ULL

bool cb_signal_pending(int sigfd)
{
	struct signalfd_siginfo si;
	/* the signalfd is non-blocking: EAGAIN means none pending */
	return sigfd >= 0 && read(sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si);
}

/* What the clients of one phase share: a start line (every client mounts or
 * connects first, then all start together, as mdtest's ranks do at a
 * barrier), and the reasons for all of them to stop. A client that failed
 * to set up still arrives, so no client waits forever. */
struct sync {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	unsigned arrived, n;
	bool setup_failed;
	bool first_done; /* client 0 has set up */
	/* Over ranks the start line is every rank's: the clients wait there
	 * until the main thread, once the ranks agree, opens the gate. */
	bool gated, gate_open;
	/* Telemetry's marks (cb_runner_opts.mark): START when the last client
	 * arrives or the gate opens, END when the last loop ended; the clients
	 * wait for END before their teardown. */
	const struct cb_runner_opts *ro;
	bool started;
	unsigned ended;
	atomic_bool interrupted; /* a client read the signal */
	atomic_bool failed;	 /* the clients together passed max_errors */
	atomic_bool done;	 /* client 0 ended the phase for all (steady), or
				  * another rank failed (cb_ranks_watch) */
	atomic_uint_fast64_t errors;
	/* The main thread's watch (watch_clients): when they started, how
	 * many clients' threads have returned, how many it gave up on, and
	 * which clients are past their loop (sync_end). */
	uint64_t start_ns;
	unsigned exited, gone;
	bool end_marked;
	/* The run's client 0's phase, when it is this process's: a cold
	 * step's OSD caches are dropped at the start line (cold_start). */
	struct cb_phase *cold_ph;
	atomic_bool abandon; /* the clients still running were given up on */
	bool past[];
};

/* A cold step: once every client set up (a remount flushed what it held)
 * and before any starts, the OSDs holding its pools drop their caches;
 * the run's client 0 asks, once. */
static void cold_start(struct cb_phase *ph)
{
	struct cb_phase_out *o = ph->out;
	if (ph->client == 0 && o->cold && o->ncold_pools)
		cb_cold_drop(ph->conn, o->cold_pools, o->ncold_pools, &o->cold_osds);
}

/* Under sy->mu. */
static void mark_start(struct sync *sy)
{
	if (sy->cold_ph)
		cold_start(sy->cold_ph);
	sy->started = true;
	sy->start_ns = cb_now_ns();
	if (sy->ro->mark)
		sy->ro->mark(sy->ro->mark_arg, CB_MARK_START);
}

static void sync_arrive(struct sync *sy, bool setup_failed, unsigned count)
{
	pthread_mutex_lock(&sy->mu);
	sy->setup_failed |= setup_failed;
	sy->arrived += count;
	if (sy->arrived >= sy->n && !sy->gated && !sy->setup_failed && !sy->started)
		mark_start(sy);
	if (sy->arrived >= sy->n)
		pthread_cond_broadcast(&sy->cv);
	pthread_mutex_unlock(&sy->mu);
}

/* Wait until client 0 has set up (first) or every client has arrived;
 * true when none failed. */
static bool sync_wait(struct sync *sy, bool first)
{
	pthread_mutex_lock(&sy->mu);
	while (first ? !sy->first_done : sy->arrived < sy->n || (sy->gated && !sy->gate_open))
		pthread_cond_wait(&sy->cv, &sy->mu);
	bool ok = !sy->setup_failed;
	pthread_mutex_unlock(&sy->mu);
	return ok;
}

/* Client 0 sets up alone before the others: it makes what they share (a
 * run directory). */
static void sync_first_done(struct sync *sy, bool failed)
{
	pthread_mutex_lock(&sy->mu);
	sy->first_done = true;
	sy->setup_failed |= failed;
	pthread_cond_broadcast(&sy->cv);
	pthread_mutex_unlock(&sy->mu);
}

/* The main thread, over ranks: wait until this rank's clients are all at
 * the start line; true when one failed to set up. The START mark is taken
 * here, before the ranks agree: at the gate it would hold this rank's
 * clients back by its length (rank 0 snapshots the OSDs' counters, some
 * milliseconds) while the other ranks' run, and no rank's clients start
 * before the gate. */
static bool sync_all_arrived(struct sync *sy)
{
	pthread_mutex_lock(&sy->mu);
	while (sy->arrived < sy->n)
		pthread_cond_wait(&sy->cv, &sy->mu);
	bool failed = sy->setup_failed;
	if (!failed && !sy->started)
		mark_start(sy);
	pthread_mutex_unlock(&sy->mu);
	return failed;
}

/* ... then let them go, failed when a client of any rank failed to set up. */
static void sync_open_gate(struct sync *sy, bool failed)
{
	pthread_mutex_lock(&sy->mu);
	sy->gate_open = true;
	sy->setup_failed |= failed;
	if (!sy->setup_failed && !sy->started)
		mark_start(sy);
	pthread_cond_broadcast(&sy->cv);
	pthread_mutex_unlock(&sy->mu);
}

/* Arrive, wait for the others; true when every client set up. */
static bool sync_start(struct sync *sy, bool setup_failed)
{
	sync_arrive(sy, setup_failed, 1);
	return sync_wait(sy, false);
}

/* count clients are past their loop (or never ran one, or never started);
 * with wait, wait until every client is, so the END mark sees no op of this phase in flight and
 * none of its teardown's. */
/* Under sy->mu: the END mark once every client is past its loop or given
 * up on (the telemetry sampler stops there), and the waiters woken. */
static void mark_end(struct sync *sy)
{
	if (sy->ended + sy->gone < sy->n || sy->end_marked)
		return;
	sy->end_marked = true;
	if (sy->started && sy->ro->mark)
		sy->ro->mark(sy->ro->mark_arg, CB_MARK_END);
	pthread_cond_broadcast(&sy->cv);
}

static void sync_end(struct sync *sy, unsigned count, bool wait, unsigned who)
{
	pthread_mutex_lock(&sy->mu);
	sy->ended += count;
	sy->past[who] = true;
	mark_end(sy);
	while (wait && sy->ended + sy->gone < sy->n)
		pthread_cond_wait(&sy->cv, &sy->mu);
	pthread_mutex_unlock(&sy->mu);
}

/* A client given up on (watch_clients) that comes back from the cluster
 * touches nothing of the run's again: its thread waits here until the
 * process ends (the stop signals are blocked in it). */
/* What an abandoned client's thread may still use is kept for good, on
 * purpose: LeakSanitizer is told so, and everything reachable from it is
 * then not a leak either, while the run's real leaks are still reported. */
static void keep_abandoned(const void *p)
{
#ifdef CB_LSAN
	if (p)
		__lsan_ignore_object(p);
#else
	(void)p;
#endif
}

static void park_if_abandoned(const struct sync *sy)
{
	if (!sy || !atomic_load(&sy->abandon))
		return;
	for (;;)
		pause();
}

struct loop {
	struct cb_phase *ph;
	struct sync *sy; /* NULL with one client */
	struct cb_cq *cq;
	const struct cb_engine *eng;
	void *st;
	struct cb_phase_result *res;
	struct cb_op *slots;
	struct cb_op **free_slots;
	size_t nfree;
	uint64_t t0, ramp_end;
	bool window_pending; /* this client marks the window's start */
	bool first;	     /* client 0 of this process: it judges the steady rule */
	struct cb_steady_state steady;
	bool steady_on, steady_ops;
	uint64_t steady_sec; /* measured seconds it has judged */
	/* Open loop: the schedule ops are taken from, and a copy of it that
	 * runs ahead to now, counting the ops due (the backlog is the gap). */
	bool rated;
	struct cb_sched sched, due;
	uint64_t inflight, started, finished;
	uint64_t last_end;
	uint64_t all_lat_sum, last_lat;
	/* Each kind's figures in res->kinds, found on its first op: by the
	 * op's kind (or is_write when the phase names none), syncs last. */
	struct cb_kind *kind[CB_MAX_KINDS + 1];
	char first_error[512];
	struct cb_op_trace trace;  /* the tests' hook */
	struct cb_data data;	   /* the buffers' contents */
	struct cb_live_slot *live; /* this client's progress counts; NULL: none */
	bool refill;		   /* made anew before every op */
	uint64_t bs;		   /* each buffer's size */
};

/* Second sec's sample, grown to; NULL on ENOMEM. */
static struct cb_sample *sample_at(struct cb_phase_result *res, uint64_t sec)
{
	/* doubling: a long phase grows its samples a few times, not every second */
	if (sec >= res->nsamples &&
	    cb_phase_samples_grow(res, sec + 1 > res->nsamples * 2 ? sec + 1 : res->nsamples * 2) <
		0)
		return NULL;
	return &res->samples[sec];
}

static int sample_add(struct cb_phase_result *res, uint64_t sec, uint64_t bytes, uint64_t lat)
{
	struct cb_sample *s = sample_at(res, sec);
	if (!s)
		return -ENOMEM;
	s->ops++;
	s->bytes += bytes;
	s->lat_sum_ns += lat;
	if (lat > s->lat_max_ns)
		s->lat_max_ns = lat;
	return 0;
}

static void note_error(struct loop *l, struct cb_op *op, int64_t r)
{
	char what[256] = "op";
	l->res->errors++;
	if (l->live)
		cb_live_add(&l->live->errors, 1);
	if (l->sy)
		atomic_fetch_add(&l->sy->errors, 1);
	if (l->first_error[0])
		return;
	if (l->eng->describe)
		l->eng->describe(l->st, op, what, sizeof(what));
	if (r == -ENODATA && !op->is_write)
		snprintf(l->first_error, sizeof(l->first_error), "%s: short read", what);
	else if (r == CB_EVERIFY)
		snprintf(l->first_error, sizeof(l->first_error),
			 "%s: verify failed: the data read is not what was written", what);
	else if (r == CB_ESTATUS) /* what was expected is the engine's to say */
		snprintf(l->first_error, sizeof(l->first_error), "%s", what);
	else /* an op that moves no bytes is a metadata op: named by its phase */
		snprintf(l->first_error, sizeof(l->first_error), "%s %s failed: %s", what,
			 op->is_sync	? "sync"
			 : op->len == 0 ? l->ph->wl->op
			 : op->is_write ? "write"
					: "read",
			 strerror((int)-r));
}

/* The figures of op's kind; NULL when out of memory. */
static struct cb_kind *kind_of(struct loop *l, const struct cb_op *op)
{
	const struct cb_phase_out *out = l->ph->out;
	unsigned i = op->is_sync	      ? CB_MAX_KINDS
		     : out->nkinds == 0	      ? op->is_write
		     : op->kind < out->nkinds ? op->kind
					      : 0;
	if (!l->kind[i])
		l->kind[i] = cb_kinds_get(&l->res->kinds, op->is_sync ? "sync"
							  : out->nkinds == 0
							      ? (op->is_write ? "write" : "read")
							      : out->kinds[i]);
	return l->kind[i];
}

/* Account one finished op and give its slot back. */
static int account(struct loop *l, struct cb_op *op)
{
	int64_t r = op->result;
	/* open loop: from when it was due, which a stall cannot hide */
	uint64_t lat = op->t_end - op->t_sched;

	l->inflight--;
	l->finished++;
	l->free_slots[l->nfree++] = op;
	l->last_lat = lat;
	l->all_lat_sum += lat;
	if (r >= 0 && !op->is_write && (uint64_t)r != op->len)
		r = -ENODATA;
	if (r < 0) {
		note_error(l, op, r);
		return 0;
	}
	bool measured = op->t_sched >= l->ramp_end;
	if (op->outcome == CB_OUTCOME_UNMAPPED) { /* not run: counted by its kind alone */
		struct cb_kind *k = measured ? kind_of(l, op) : NULL;
		if (measured && !k)
			return -ENOMEM;
		if (k)
			k->unmapped++;
		return 0;
	}
	if (measured) {
		struct cb_kind *k = kind_of(l, op);
		if (!k)
			return -ENOMEM;
		k->ops++;
		k->bytes += op->len;
		k->expected_failures += op->outcome == CB_OUTCOME_EXPECTED_FAIL;
		cb_hist_record(k->hist, lat);
	}
	if (op->is_sync) /* its own figures only, as fio keeps them */
		return 0;
	if (l->live)
		cb_live_op(l->live, op->len, lat, measured);
	l->res->all_ops++;
	l->res->all_bytes += op->len;
	l->res->all_lat_ns += lat;
	if (!measured)
		return 0;
	if (l->rated)
		cb_hist_record(l->res->service_hist, op->t_end - op->t_start);
	l->res->ops++;
	l->res->bytes += op->len;
	if (op->is_write) {
		l->res->write_ops++;
		l->res->write_bytes += op->len;
	}
	cb_hist_record(l->res->hist, lat);
	if (l->steady_ops)
		cb_steady_op(&l->steady, lat);
	if (op->t_end > l->last_end)
		l->last_end = op->t_end;
	return sample_add(l->res, (op->t_end - l->ramp_end) / 1000000000ULL, op->len, lat);
}

static int slots_alloc(struct loop *l, struct cb_cq *cq, uint64_t n, uint64_t bs)
{
	l->slots = calloc(n, sizeof(*l->slots));
	l->free_slots = calloc(n, sizeof(*l->free_slots));
	if (!l->slots || !l->free_slots)
		return -ENOMEM;
	/* the workload's data, made once a slot unless refilled before every
	 * op (dedupe decides block by block) */
	const struct cb_workload *wl = l->ph->wl;
	cb_data_init(&l->data, &wl->data, wl->seed, l->ph->client);
	l->refill = wl->refill || wl->data.kind == CB_DATA_DEDUPE;
	l->bs = bs;
	for (uint64_t i = 0; i < n; i++) {
		/* 64 bytes at least: an engine may keep an op's small answer
		 * there (a RADOS stat's size and time) */
		if (posix_memalign(&l->slots[i].buf, 4096, bs < 64 ? 64 : bs))
			return -ENOMEM;
		cb_data_fill(&l->data, l->slots[i].buf, bs);
		l->slots[i].cq = cq;
		l->free_slots[l->nfree++] = &l->slots[i];
	}
	return 0;
}

static void slots_free(struct loop *l, uint64_t n)
{
	for (uint64_t i = 0; l->slots && i < n; i++)
		free(l->slots[i].buf);
	free(l->slots);
	free(l->free_slots);
}

/* What slots_alloc takes for a slot: the op, its free-list entry, and the
 * buffer in whole pages (it is filled, so all of it is resident) with
 * malloc's header. Measured on noop runs (1 client, 4096 slots, max RSS
 * less a 1-slot run's): 4.0 KiB a slot of 512 bytes or 4K, 16.1 KiB of
 * 16K, 65.6 KiB of 64K, 1023 KiB of 1M. */
uint64_t cb_runner_slot_bytes(uint64_t bs)
{
	uint64_t len = bs < 64 ? 64 : bs;
	return sizeof(struct cb_op) + sizeof(struct cb_op *) + (len + 4095) / 4096 * 4096 + 16;
}

/* The ops the schedule had due up to now (before end): counted into their
 * seconds, and the backlog (due, not yet taken) into now's. 0 or -ENOMEM. */
static int rate_due(struct loop *l, uint64_t now, uint64_t end)
{
	while (l->due.next <= now && l->due.next < end) {
		if (l->due.next >= l->ramp_end) {
			struct cb_sample *s =
			    sample_at(l->res, (l->due.next - l->ramp_end) / 1000000000ULL);
			if (!s)
				return -ENOMEM;
			s->due++;
		}
		cb_sched_advance(&l->due);
	}
	uint64_t backlog = l->due.n - l->sched.n;
	if (now < l->ramp_end || backlog == 0)
		return 0;
	struct cb_sample *s = sample_at(l->res, (now - l->ramp_end) / 1000000000ULL);
	if (!s)
		return -ENOMEM;
	if (backlog > s->backlog)
		s->backlog = backlog;
	if (backlog > l->res->backlog_max)
		l->res->backlog_max = backlog;
	return 0;
}

/* op was taken off the schedule: a late one is counted in its submit's
 * second. 0 or -ENOMEM. */
static int rate_taken(struct loop *l, const struct cb_op *op)
{
	cb_sched_advance(&l->sched);
	if (op->t_sched < l->ramp_end || op->t_start - op->t_sched <= CB_LATE_NS)
		return 0;
	struct cb_sample *s = sample_at(l->res, (op->t_start - l->ramp_end) / 1000000000ULL);
	if (!s)
		return -ENOMEM;
	s->late++;
	l->res->late_ops++;
	return 0;
}

/* Whether the phase's errors just went past max_errors (the phase's,
 * whichever clients made them): it is marked failed, and the other
 * clients told. */
static bool over_errors(struct loop *l)
{
	uint64_t errors = l->sy ? atomic_load(&l->sy->errors) : l->res->errors;
	if (errors <= l->ph->wl->max_errors || l->res->failed || !l->res->errors)
		return false;
	l->res->failed = true;
	if (l->sy)
		atomic_store(&l->sy->failed, true);
	return true;
}

/* An op the engine could not start (submit or finish said -errno),
 * counted like a failed completion. */
static void start_failed(struct loop *l, struct cb_op *op, int r)
{
	op->t_end = op->t_start;
	op->result = r;
	account(l, op);
}

/* The engine's last op of a phase that ended as planned (end_fsync): 0
 * when it started (and is in flight), else nothing more is to come. */
static int finish(struct loop *l)
{
	struct cb_op *op = l->free_slots[--l->nfree];
	op->t_start = op->t_sched = cb_now_ns();
	op->is_sync = op->sync_next = false;
	int r = l->eng->finish(l->st, op);
	park_if_abandoned(l->sy);
	if (r == CB_EOF) {
		l->nfree++;
		return r;
	}
	l->inflight++;
	l->started++;
	if (r < 0)
		start_failed(l, op, r);
	return r;
}

static int run_loop(struct loop *l, const struct cb_runner_opts *ro)
{
	const struct cb_workload *wl = l->ph->wl;
	uint64_t end = wl->duration_ns ? l->ramp_end + wl->duration_ns : UINT64_MAX;
	uint64_t next_sig = l->t0 + SIGNAL_CHECK_NS;
	uint64_t measured_ops = 0, measured_bytes = 0;
	bool stopping = false, interrupted = false;
	bool sync_owed = false, finished = false;
	uint64_t due = 0; /* the engine's next op's time (engine->due), 0: now */
	int ret = 0;

	for (;;) {
		uint64_t now = cb_now_ns();
		if (l->window_pending && now >= l->ramp_end) {
			l->window_pending = false;
			if (ro->mark)
				ro->mark(ro->mark_arg, CB_MARK_WINDOW);
		}
		if (now >= end || (l->rated && l->sched.next >= end))
			stopping = true;
		if (l->rated && rate_due(l, now, end) < 0 && ret == 0) {
			ret = cb_err_cluster(l->ph->err, -ENOMEM, "out of memory for samples");
			stopping = true;
		}
		while (!stopping && l->nfree > 0) {
			if (((wl->ops && measured_ops >= wl->ops) ||
			     (wl->bytes && measured_bytes >= wl->bytes)) &&
			    !sync_owed) {
				stopping = true;
				break;
			}
			if (l->rated && (l->sched.next > now || l->sched.next >= end))
				break; /* not due yet: the loop waits for it below */
			due = l->eng->due ? l->eng->due(l->st) : 0;
			if (due > now)
				break; /* likewise */
			struct cb_op *op = l->free_slots[--l->nfree];
			/* made before the clock starts, as fio refills: its cost is
			 * the client's CPU, not the op's latency */
			if (l->refill)
				cb_data_fill(&l->data, op->buf, l->bs);
			op->t_start = cb_now_ns();
			op->t_sched = l->rated ? l->sched.next : due ? due : op->t_start;
			op->is_sync = op->sync_next = false;
			op->outcome = CB_OUTCOME_DONE;
			int r = l->eng->submit(l->st, op);
			park_if_abandoned(l->sy);
			if (r == CB_EOF) {
				l->nfree++;
				stopping = true;
				break;
			}
			if (l->rated && rate_taken(l, op) < 0 && ret == 0) {
				ret = cb_err_cluster(l->ph->err, -ENOMEM,
						     "out of memory for samples");
				stopping = true;
			}
			l->inflight++;
			l->started++;
			sync_owed = r == 0 && op->sync_next;
			if (r == 0 && !op->is_sync)
				cb_op_trace_add(&l->trace, op->where, op->len);
			if (r < 0) {
				/* stop filling the window so the error limit is
				 * checked before the next attempt */
				start_failed(l, op, r);
				break;
			} else if (op->t_sched >= l->ramp_end && !op->is_sync) {
				measured_ops++;
				measured_bytes += op->len;
			}
		}
		/* also when nothing was submitted: an engine may have requeued the
		 * rest of a short transfer */
		if (l->eng->commit) {
			int r = l->eng->commit(l->st);
			park_if_abandoned(l->sy);
			if (r < 0 && ret == 0) {
				ret = cb_err_cluster(l->ph->err, r, "submitting ops: %s",
						     strerror(-r));
				stopping = true;
			}
		}
		if (stopping && l->inflight == 0) {
			/* not after a signal or a failure, this client's or another's */
			if (finished || interrupted || ret < 0 || l->res->failed ||
			    (l->sy && atomic_load(&l->sy->failed)) || !l->eng->finish)
				break;
			finished = true;
			int fr = finish(l);
			if (fr < 0) /* counted as an op's error: judged now */
				over_errors(l);
			if (fr != 0)
				break;
		}
		now = cb_now_ns();
		uint64_t wake = next_sig;
		if (l->rated && !stopping && l->nfree > 0 && l->sched.next < wake)
			wake = l->sched.next;
		if (due > now && !stopping && l->nfree > 0 && due < wake)
			wake = due;
		uint64_t timeout = wake > now ? wake - now : 0;
		bool sig = false;
		struct cb_op *done;
		if (l->eng->poll && !l->ph->out->callbacks && l->inflight) {
			/* a poll waits in whole ms: an op due sooner is not kept
			 * waiting by it (the reaping of one may then lag by as
			 * much as the sleep) */
			int ms = (int)(timeout / 1000000ULL) + (l->rated ? 0 : 1);
			int r = l->eng->poll(l->st, ms ? 1 : 0, ms);
			park_if_abandoned(l->sy);
			if (l->rated && ms == 0 && timeout && cb_cq_empty(l->cq)) {
				struct timespec ts = {0, (long)timeout};
				nanosleep(&ts, NULL);
			}
			if (r < 0 && r != -EINTR && ret == 0) {
				ret = cb_err_cluster(l->ph->err, r, "reaping completions: %s",
						     strerror(-r));
				stopping = true;
			}
			done = cb_cq_take(l->cq);
		} else {
			done = cb_cq_wait(l->cq, timeout);
		}
		while (done) {
			struct cb_op *n = done->next;
			int ar = account(l, done);
			if (ar < 0 && ret == 0) {
				/* Keep draining: buffers may not be freed under ops in flight. */
				ret = cb_err_cluster(l->ph->err, ar, "out of memory for samples");
				stopping = true;
			}
			done = n;
		}
		if (over_errors(l))
			stopping = true;
		now = cb_now_ns();
		if (now >= next_sig) {
			sig = cb_signal_pending(ro->sigfd);
			next_sig = now + SIGNAL_CHECK_NS;
			if (l->sy) {
				/* one client reads the signal; all of them stop */
				if (sig)
					atomic_store(&l->sy->interrupted, true);
				sig = atomic_load(&l->sy->interrupted);
				if (atomic_load(&l->sy->failed) || atomic_load(&l->sy->done))
					stopping = true;
			}
			/* a signal any member read stops every member; the group's
			 * stop ends its load once the measured members are done */
			if (ro->group && cb_group_poll(ro->group, &sig))
				stopping = true;
		}
		if (sig && !interrupted) {
			interrupted = true;
			stopping = true;
		}
		if (l->steady_on && now >= l->ramp_end &&
		    (now - l->ramp_end) / 1000000000ULL > l->steady_sec) {
			l->steady_sec = (now - l->ramp_end) / 1000000000ULL;
			if (cb_steady_tick(&l->steady, l->res, l->steady_sec)) {
				stopping = true;
				if (l->sy)
					atomic_store(&l->sy->done, true);
			}
		}
	}
	l->res->interrupted = interrupted;
	/* said, so that ops + unissued_ops is what the schedule asked for */
	if (l->rated)
		l->res->unissued_ops += l->due.n - l->sched.n;
	if (ret < 0)
		return ret;
	/* The target too: a full pool or a sick file system is what the
	 * operator has to fix, not the one op named after it. */
	char where[192] = "";
	if (l->eng->target && !l->eng->describe_names_target && l->ph->out->target[0])
		snprintf(where, sizeof(where), "%s '%.127s': ", l->eng->target->noun,
			 l->ph->out->target);
	if (l->res->failed)
		return cb_err_cluster(
		    l->ph->err, -EIO, "workload '%s': %s%s (%llu errors, max_errors %llu)",
		    wl->name, where, l->first_error,
		    (unsigned long long)(l->sy ? atomic_load(&l->sy->errors) : l->res->errors),
		    (unsigned long long)wl->max_errors);
	return interrupted ? -EINTR : 0;
}

/* One client's phase: setup, the start line, the loop, teardown. */
static int run_client(struct cb_phase *ph, const struct cb_engine *eng,
		      const struct cb_runner_opts *ro, struct cb_cq *cq, struct sync *sy,
		      unsigned local, struct cb_live_slot *live, struct cb_phase_result *res)
{
	const struct cb_workload *wl = ph->wl;
	uint64_t depth = wl->concurrency, bs;
	struct loop l = {.ph = ph, .sy = sy, .cq = cq, .eng = eng, .res = res};
	bool first = local == 0;
	int r, tr;

	if (sy && ph->client != 0 && !sync_wait(sy, true)) {
		sync_start(sy, true); /* client 0 failed and says why */
		if (ro->group)
			cb_group_arrive(ro->group, false);
		sync_end(sy, 1, true, local);
		return -ECANCELED;
	}
	r = eng->setup(ph, &l.st);
	park_if_abandoned(sy);
	if (sy && ph->client == 0)
		sync_first_done(sy, r < 0);
	snprintf(res->target, sizeof(res->target), "%.127s", ph->out->target);
	/* the plan's, unless this step has its own (a fill's, a read's as written) */
	bs = ph->out->block_size ? ph->out->block_size : wl->block_size;
	res->block_size = bs;
	if (ph->out->sizes[0])
		snprintf(res->sizes, sizeof(res->sizes), "%s", ph->out->sizes);
	else if (!ph->out->block_size && cb_sizes_varies(&wl->sizes))
		cb_sizes_format(&wl->sizes, res->sizes, sizeof(res->sizes));
	bool others_ok = !sy || sync_start(sy, r < 0);
	/* every member's clients, each arriving whatever happened */
	if (ro->group && !cb_group_arrive(ro->group, r >= 0 && others_ok))
		others_ok = false;
	if (!others_ok && r >= 0) {
		/* another client (or member) failed to set up and says why */
		r = -ECANCELED;
		goto teardown;
	}
	if (r == CB_EOF) {
		r = 0; /* nothing to do: res->ran stays false */
		goto teardown;
	}
	if (r < 0)
		goto teardown;
	bool sig = cb_signal_pending(ro->sigfd);
	if (ro->group) /* told to the other members, or heard from them */
		cb_group_poll(ro->group, &sig);
	if (sig || (sy && atomic_load(&sy->interrupted))) {
		if (sy)
			atomic_store(&sy->interrupted, true);
		res->interrupted = true;
		r = -EINTR;
		goto teardown;
	}
	r = slots_alloc(&l, cq, depth, bs);
	if (r < 0) {
		cb_err_cluster(ph->err, r, "cannot allocate %llu buffers of %llu bytes",
			       (unsigned long long)depth, (unsigned long long)bs);
		goto free_slots;
	}
	res->ran = true;
	if (!sy)
		cold_start(ph);
	if (!sy && ro->mark)
		ro->mark(ro->mark_arg, CB_MARK_START);
	l.window_pending = l.first = first;
	if (first && wl->steady.metric != CB_STEADY_OFF) {
		if (cb_steady_begin(&l.steady, wl) < 0) {
			r = cb_err_cluster(ph->err, -ENOMEM, "out of memory for the steady rule");
			goto free_slots;
		}
		l.steady_on = true;
		l.steady_ops = cb_steady_wants_ops(&l.steady);
	}
	if (wl->rate.ops && !(res->service_hist = cb_hist_new())) {
		r = cb_err_cluster(ph->err, -ENOMEM, "out of memory for a histogram");
		goto free_slots;
	}
	l.t0 = cb_now_ns();
	l.ramp_end = l.t0 + wl->ramp_ns;
	if ((l.live = live)) {
		atomic_store_explicit(&live->ramp_end, l.ramp_end, memory_order_relaxed);
		atomic_store_explicit(&live->t0, l.t0, memory_order_relaxed);
	}
	struct timespec wall;
	clock_gettime(CLOCK_REALTIME, &wall);
	res->window_unix_ns =
	    (uint64_t)wall.tv_sec * 1000000000ULL + (uint64_t)wall.tv_nsec + wl->ramp_ns;
	if (wl->rate.ops) { /* each client its share, interleaved with the others' */
		l.rated = true;
		cb_sched_init(&l.sched, l.t0, (double)wl->rate.ops, wl->arrival, ph->client,
			      ph->clients ? ph->clients : 1);
		l.due = l.sched;
	}
	cb_op_trace_begin(&l.trace);
	r = run_loop(&l, ro);
	cb_op_trace_end(&l.trace, ph);
	if (l.steady_on)
		cb_steady_end(&l.steady, res);
	if (!sy && ro->mark)
		ro->mark(ro->mark_arg, CB_MARK_END);
	res->elapsed_ns = l.last_end > l.ramp_end ? l.last_end - l.ramp_end : 0;
	/* Samples beyond the last completion are the slack of the doubling array. */
	if (res->nsamples && l.last_end > l.ramp_end)
		res->nsamples = (l.last_end - l.ramp_end) / 1000000000ULL + 1;
	else
		res->nsamples = 0;
free_slots:
	slots_free(&l, depth);
teardown:
	if (sy)
		sync_end(sy, 1, true, local);
	tr = eng->teardown(ph, l.st);
	park_if_abandoned(sy);
	if (r == 0 && tr < 0)
		r = tr;
	return r;
}

struct client {
	pthread_t tid;
	bool started;
	unsigned local; /* its index in this process (ph.client is the run's) */
	struct cb_phase ph;
	struct cb_phase_out out;
	struct cb_err err;
	struct cb_phase_result res;
	const struct cb_engine *eng;
	const struct cb_runner_opts *ro;
	struct sync *sy;
	int r;
	bool exited;	/* its thread returned (under sy->mu) */
	bool aborted;	/* stuck past the stop: its session aborted (engine->abort) */
	bool abandoned; /* and still stuck: left running, never touched again */
};

/* What a client takes beside its histograms: the stack its thread dirties
 * (run_client's frames, struct loop, the engine's and libc's calls) and
 * its share of the allocator's arenas. Measured on noop runs (256 clients
 * of one slot, max RSS less a 1-client run's, by client): 585 KiB for an
 * op of one kind (two histograms, 544 KiB), 869 KiB for rw (three). */
#define CLIENT_OTHER_BYTES (48u * 1024)

uint64_t cb_runner_client_bytes(const struct cb_workload *wl)
{
	/* the row's histogram and a kind's each for reads and writes (syncs
	 * and a layer's own kinds add more), the service time's in open loop;
	 * counted whole, as cb_hist_new writes all of it */
	uint64_t hists = 3 + (wl->rate.ops ? 1 : 0);
	/* a sample a second, in an array that doubles */
	uint64_t secs = (wl->duration_ns + wl->ramp_ns) / 1000000000ULL + 1;
	return sizeof(struct client) + cb_cq_bytes() + hists * sizeof(struct cb_hist) +
	       2 * secs * sizeof(struct cb_sample) + CLIENT_OTHER_BYTES;
}

static void *client_main(void *arg)
{
	struct client *c = arg;
	c->r = run_client(&c->ph, c->eng, c->ro, c->ro->cqs[c->local], c->sy, c->local,
			  cb_live_slot(c->ro->live, c->local), &c->res);
	pthread_mutex_lock(&c->sy->mu);
	c->exited = true;
	c->sy->exited++;
	pthread_cond_broadcast(&c->sy->cv);
	pthread_mutex_unlock(&c->sy->mu);
	return NULL;
}

/* The phase's figures and outcome from its clients': all the work over the
 * slowest client's time; the first real error (not a client stopped because
 * another failed) is the phase's. */
static int merge_clients(struct cb_phase *ph, struct client *c, unsigned n,
			 struct cb_phase_result *res)
{
	int r = 0;
	for (unsigned k = 0; k < n; k++) {
		if (c[k].abandoned) /* its figures are its thread's still */
			continue;
		/* a client that never set up has no target of its own */
		if (!res->target[0] && c[k].res.target[0]) {
			snprintf(res->target, sizeof(res->target), "%s", c[k].res.target);
			res->block_size = c[k].res.block_size;
			snprintf(res->sizes, sizeof(res->sizes), "%s", c[k].res.sizes);
		}
		struct cb_phase_out *o = ph->out, *co = &c[k].out;
		if (!o->target[0] && co->target[0])
			snprintf(o->target, sizeof(o->target), "%s", co->target);
		o->created |= co->created;
		o->kept |= co->kept;
		if (!o->note[0] && co->note[0])
			snprintf(o->note, sizeof(o->note), "%s", co->note);
		if (k == 0) { /* client 0 judged the steady rule, and dropped caches */
			res->steady = c[0].res.steady;
			res->steady_ns = c[0].res.steady_ns;
			o->cold = co->cold;
			o->cold_osds = co->cold_osds;
		}
		if (c[k].res.hist && cb_phase_merge_client(res, &c[k].res) < 0 && r == 0)
			r = cb_err_cluster(ph->err, -ENOMEM, "out of memory for samples");
		if (c[k].r < 0 && c[k].r != -ECANCELED && c[k].r != -EINTR && r == 0) {
			r = c[k].r;
			*ph->err = c[k].err;
		}
	}
	for (unsigned k = 0; k < n && r == 0; k++)
		if (c[k].r == -EINTR && !c[k].abandoned)
			r = -EINTR;
	return r;
}

/* The main thread's part of the ranks' start: rank 0's client 0 sets up
 * alone first (it makes what all share, as within one process), then every
 * rank's clients; all start once every rank's are at the line. The same
 * collectives on every rank, whatever failed, so none waits for ever. */
static void start_ranks(struct cb_ranks *rk, struct sync *sy)
{
	int first_ok = 1;
	if (cb_ranks_rank(rk) == 0)
		first_ok = sync_wait(sy, true);
	if (cb_ranks_bcast(rk, &first_ok, sizeof(first_ok)) < 0)
		first_ok = 0;
	if (cb_ranks_rank(rk) != 0)
		sync_first_done(sy, !first_ok);
	bool failed = cb_ranks_any(rk, sync_all_arrived(sy));
	cb_ranks_line(rk);
	/* a rank lost: the others would run without it, and not merge */
	sync_open_gate(sy, failed || cb_ranks_lost(rk));
}

/* Why the main thread stopped waiting for a phase's clients to end. */
enum stop_cause { STOP_NONE, STOP_SIGNAL, STOP_DEADLINE };

#define WATCH_NS 50000000ULL
/* over ranks: another rank's failure stops this rank's clients within it */
#define WATCH_RANKS_NS 10000000ULL
/* after engine->abort, and again after the start and end lines were
 * opened to the clients still stuck, before those are abandoned */
#define ABORT_WAIT_NS 3000000000ULL

struct abort_job {
	const struct cb_engine *eng;
	void *session;
};

/* On a thread of its own, detached: an abort may itself wait on the
 * cluster, and the run does not wait for it. */
static void *abort_main(void *arg)
{
	struct abort_job *j = arg;
	j->eng->abort(j->session);
	free(j);
	return NULL;
}

/* engine->abort on the sessions of the clients not yet past their loop.
 * Their slots were written in their setup, before they arrived at the
 * start line (sy->started, read under sy->mu). */
static void abort_stuck(const struct cb_engine *eng, struct client *c, unsigned n, struct sync *sy)
{
	pthread_mutex_lock(&sy->mu);
	bool set_up = sy->started;
	pthread_mutex_unlock(&sy->mu);
	for (unsigned k = 0; eng->abort && set_up && k < n; k++) {
		pthread_mutex_lock(&sy->mu);
		bool stuck = !sy->past[k] && !c[k].exited;
		pthread_mutex_unlock(&sy->mu);
		void *session = c[k].ph.session ? *c[k].ph.session : NULL;
		struct abort_job *j = stuck && session ? malloc(sizeof(*j)) : NULL;
		pthread_t t;
		c[k].aborted |= stuck;
		if (!j)
			continue;
		*j = (struct abort_job){eng, session};
		if (pthread_create(&t, NULL, abort_main, j) == 0)
			pthread_detach(t);
		else
			free(j);
	}
}

/* The main thread while this process's clients run: it reads the stop
 * signals too, so that clients stuck inside the cluster cannot leave them
 * unread, and keeps the phase's deadline. Over ranks it also tells the
 * other ranks once this rank's clients failed (cb_ranks_watch), and stops
 * them once another rank failed or was lost. Once told to stop (a
 * signal; or the planned end, ramp + duration, reached) the clients get
 * ro->stuck_ns (--timeout) to end; then the engine aborts the sessions of
 * those still inside their loop; ABORT_WAIT_NS later the start and end
 * lines no longer wait for them, and ABORT_WAIT_NS after that the clients
 * whose thread has not returned are abandoned: marked, never joined, their
 * session slot emptied (never released). How many were. */
static unsigned watch_clients(const struct cb_phase *ph, const struct cb_engine *eng,
			      const struct cb_runner_opts *ro, struct client *c, unsigned n,
			      struct sync *sy, enum stop_cause *cause)
{
	const struct cb_workload *wl = ph->wl;
	struct cb_ranks *rk = ro->ranks;
	uint64_t stop = 0, aborted = 0, opened = 0;
	for (;;) {
		struct timespec until;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += (long)(rk ? WATCH_RANKS_NS : WATCH_NS);
		if (until.tv_nsec >= 1000000000) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000;
		}
		pthread_mutex_lock(&sy->mu);
		if (sy->exited < n)
			pthread_cond_timedwait(&sy->cv, &sy->mu, &until);
		bool all = sy->exited >= n;
		uint64_t start = sy->started ? sy->start_ns : 0;
		pthread_mutex_unlock(&sy->mu);
		/* looked at once more after the end: clients that failed at
		 * once may have ended within one wait */
		if (rk && (cb_ranks_watch(rk, atomic_load(&sy->failed)) || cb_ranks_lost(rk)))
			atomic_store(&sy->done, true);
		if (all)
			return 0;
		uint64_t now = cb_now_ns();
		if (!stop) {
			if (cb_signal_pending(ro->sigfd))
				atomic_store(&sy->interrupted, true);
			if (atomic_load(&sy->interrupted)) {
				stop = now;
				*cause = STOP_SIGNAL;
			} else if (start && wl->duration_ns &&
				   now >= start + wl->ramp_ns + wl->duration_ns + ro->stuck_ns) {
				stop = start + wl->ramp_ns + wl->duration_ns;
				*cause = STOP_DEADLINE;
				atomic_store(&sy->done, true);
			}
		}
		if (stop && !aborted && now >= stop + ro->stuck_ns) {
			abort_stuck(eng, c, n, sy);
			aborted = now;
		}
		if (aborted && !opened && now >= aborted + ABORT_WAIT_NS) {
			/* the clients past their loop wait for the stuck ones at
			 * the end line: they go on to their teardown */
			pthread_mutex_lock(&sy->mu);
			for (unsigned k = 0; k < n; k++)
				sy->gone += !sy->past[k] && !c[k].exited;
			mark_end(sy);
			pthread_cond_broadcast(&sy->cv);
			pthread_mutex_unlock(&sy->mu);
			opened = now;
		}
		if (opened && now >= opened + ABORT_WAIT_NS)
			break;
	}
	unsigned left = 0;
	pthread_mutex_lock(&sy->mu);
	atomic_store(&sy->abandon, true);
	for (unsigned k = 0; k < n; k++)
		if (c[k].started && !c[k].exited) {
			c[k].abandoned = c[k].aborted = true;
			if (c[k].ph.session) { /* never released: its thread may be in it */
				keep_abandoned(*c[k].ph.session);
				*c[k].ph.session = NULL;
			}
			/* its queue too (an op it completes on its way back
			 * lands there); the run's later phases get a new one */
			struct cb_cq *q = cb_cq_new();
			if (q)
				ro->cqs[c[k].local] = q;
			left++;
		}
	pthread_mutex_unlock(&sy->mu);
	return left;
}

/* The phase's outcome once clients were abandoned: a signal's stop
 * (-EINTR, the phase interrupted) or the deadline's (-ETIMEDOUT, said). */
static int abandoned(struct cb_phase *ph, const struct client *c, unsigned n, enum stop_cause cause,
		     uint64_t stuck_ns, struct cb_phase_result *res)
{
	unsigned left = 0, stuck = 0, first = n;
	for (unsigned k = 0; k < n; k++) {
		left += c[k].abandoned;
		if (c[k].aborted) {
			stuck++;
			first = first < n ? first : k;
		}
	}
	res->interrupted = true;
	unsigned long long s = (stuck_ns + 999999999ULL) / 1000000000ULL;
	/* after a signal the note says it (exit 130, no error line); after
	 * the deadline the error does, once */
	if (cause == STOP_SIGNAL && !ph->out->note[0]) {
		char back[64] = "every one came back once aborted";
		if (left)
			snprintf(back, sizeof(back), "%u never came back, their figures lost",
				 left);
		snprintf(ph->out->note, sizeof(ph->out->note),
			 "%u of %u clients (the first client %u) still inside a cluster call %llu "
			 "s (--timeout) after the stop signal: aborted and abandoned (%s)",
			 stuck, n, c[first].ph.client, s, back);
	}
	if (cause == STOP_SIGNAL)
		return -EINTR;
	return cb_err_cluster(ph->err, -ETIMEDOUT,
			      "workload '%s': %u of %u clients still inside a cluster call %llu s "
			      "(--timeout) after the planned end: aborted and abandoned (a stuck "
			      "MDS or OSD? ceph -s; ceph health detail)",
			      ph->wl->name, stuck, n, s);
}

/* Whether an open-loop phase kept its rate. */
static void rate_verdict(struct cb_phase_result *res)
{
	if (res->rate_ops > 0 && res->ops)
		res->saturated = cb_phase_iops(res) < CB_SATURATED_SHARE * res->rate_ops;
}

static int run_clients(struct cb_phase *ph, const struct cb_engine *eng,
		       const struct cb_runner_opts *ro, struct cb_phase_result *res);

int cb_run_phase(struct cb_phase *ph, const struct cb_engine *eng, const struct cb_runner_opts *ro,
		 struct cb_phase_result *res)
{
	const struct cb_workload *wl = ph->wl;
	unsigned n = ph->clients, nranks = cb_ranks_size(ro->ranks);

	res->name = strdup(wl->name);
	res->layer = strdup(eng->name);
	res->op = strdup(wl->op);
	res->concurrency = wl->concurrency;
	res->clients = (uint64_t)n * nranks;
	if (!res->name || !res->layer || !res->op || n > ro->ncqs) {
		if (ro->group) /* none of its clients will come to the line */
			cb_group_leave(ro->group, n, false);
		if (n > ro->ncqs)
			return cb_err_cluster(ph->err, -EINVAL,
					      "internal error: %u clients, %zu queues", n,
					      ro->ncqs);
		return cb_err_cluster(ph->err, -ENOMEM, "out of memory");
	}
	res->rate_ops = (double)wl->rate.ops;
	res->arrival = wl->arrival;
	struct cb_runner_opts cro = *ro;
	if (ro->progress) {
		struct cb_live_info li = {.name = wl->name,
					  .layer = eng->name,
					  .op = wl->op,
					  .clients = n,
					  .duration_ns = wl->duration_ns,
					  .ops = wl->ops,
					  .bytes = wl->bytes};
		cro.live = cb_live_start(ro->progress, &li);
	}
	int r = run_clients(ph, eng, &cro, res);
	cb_live_stop(cro.live);
	return r;
}

/* The phase's clients: this thread alone for one, else a thread each. */
static int run_clients(struct cb_phase *ph, const struct cb_engine *eng,
		       const struct cb_runner_opts *ro, struct cb_phase_result *res)
{
	unsigned n = ph->clients;
	unsigned rank = cb_ranks_rank(ro->ranks), nranks = cb_ranks_size(ro->ranks);
	/* an engine that can be aborted gets a thread even for one client: the
	 * main thread watches it (watch_clients) */
	if (n == 1 && nranks == 1 && !eng->abort) {
		ph->client = 0;
		int r1 =
		    run_client(ph, eng, ro, ro->cqs[0], NULL, 0, cb_live_slot(ro->live, 0), res);
		rate_verdict(res);
		return r1;
	}

	struct client *c = calloc(n, sizeof(*c));
	/* on the heap: a client abandoned in the cluster keeps it */
	struct sync *syp = calloc(1, sizeof(*syp) + n * sizeof(bool));
	if (!c || !syp) {
		free(c);
		free(syp);
		if (ro->group)
			cb_group_leave(ro->group, n, false);
		return cb_err_cluster(ph->err, -ENOMEM, "out of memory");
	}
	struct sync *const sy = syp;
	sy->n = n;
	sy->gated = nranks > 1;
	sy->ro = ro;
	pthread_mutex_init(&sy->mu, NULL);
	pthread_cond_init(&sy->cv, NULL);
	int r = 0;
	for (unsigned k = 0; k < n && r == 0; k++)
		if (cb_phase_init(&c[k].res) < 0)
			r = cb_err_cluster(ph->err, -ENOMEM, "out of memory");
	for (unsigned k = 0; k < n; k++) {
		c[k].ph = *ph;
		/* the run's client numbers: names stay apart across ranks, and
		 * the run's client 0 (rank 0's first) sets up first */
		c[k].ph.client = rank * n + k;
		c[k].ph.clients = nranks * n;
		c[k].local = k;
		c[k].ph.session = ph->session ? ph->session + k : NULL;
		c[k].ph.err = &c[k].err;
		c[k].ph.out = &c[k].out;
		c[k].eng = eng;
		c[k].ro = ro;
		c[k].sy = sy;
		if (c[k].ph.client == 0)
			sy->cold_ph = &c[k].ph;
		if (r == 0 && pthread_create(&c[k].tid, NULL, client_main, &c[k]) == 0) {
			c[k].started = true;
			continue;
		}
		/* the clients already started must not wait for this one */
		if (r == 0)
			r = cb_err_cluster(ph->err, -EAGAIN, "cannot start client %u of %u", k, n);
		if (k == 0)
			sync_first_done(sy, true);
		sync_arrive(sy, true, 1);
		if (ro->group)
			cb_group_leave(ro->group, 1, false);
		pthread_mutex_lock(&sy->mu);
		sy->exited++; /* its thread never was */
		pthread_mutex_unlock(&sy->mu);
		sync_end(sy, 1, false, k); /* never starts */
	}
	unsigned left = 0;
	enum stop_cause cause = STOP_NONE;
	if (nranks > 1)
		start_ranks(ro->ranks, sy);
	cb_ranks_watch_begin(ro->ranks);
	left = watch_clients(ph, eng, ro, c, n, sy, &cause);
	cb_ranks_watch_end(ro->ranks);
	for (unsigned k = 0; k < n; k++)
		if (c[k].started && !c[k].abandoned)
			pthread_join(c[k].tid, NULL);
		else if (c[k].started)
			pthread_detach(c[k].tid);
	bool aborted = false;
	for (unsigned k = 0; k < n; k++)
		if (c[k].aborted) {
			aborted = true;
			/* what its calls failed with once aborted is the stop's */
			if (!c[k].abandoned)
				c[k].r = -EINTR;
		}
	int mr = merge_clients(ph, c, n, res);
	if (r == 0)
		r = mr;
	if (aborted && (r == 0 || r == -EINTR))
		r = abandoned(ph, c, n, cause, ro->stuck_ns, res);
	r = cb_ranks_merge_phase(ro->ranks, res, r, ph->err);
	rate_verdict(res);
	if (left) { /* their threads may still use c, sy and the results */
		keep_abandoned(c);
		keep_abandoned(sy);
		return r;
	}
	for (unsigned k = 0; k < n; k++)
		cb_phase_release(&c[k].res);
	free(c);
	pthread_cond_destroy(&sy->cv);
	pthread_mutex_destroy(&sy->mu);
	free(sy);
	return r;
}
