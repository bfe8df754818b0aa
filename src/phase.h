/* The phase loop: keeps the in-flight window full, times every op, applies
 * ramp/duration/op/byte limits, reaps completions without a lock per op,
 * and stops cleanly on a stop signal: SIGINT, SIGTERM, SIGUSR2 (drain, then partial result). */
#ifndef CB_PHASE_H
#define CB_PHASE_H

#include "engine.h"
#include "progress.h"
#include "result.h"

#include <stdbool.h>
#include <stdio.h>

struct cb_ranks;

/* The moments of a phase telemetry measures between (telemetry.h): every
 * client set up and none started; the measured window opens (client 0's
 * ramp ends); every client's loop ended, before any teardown. START comes
 * before the others; a phase cut during its ramp has no WINDOW; END comes
 * after START whatever happened. Marks come from one thread at a time. */
enum cb_mark { CB_MARK_START, CB_MARK_WINDOW, CB_MARK_END };

struct cb_runner_opts {
	int sigfd; /* signalfd for the stop signals, or -1 */
	/* How long clients get to end once told to stop (a signal, or a
	 * phase's planned end) before the runner aborts and abandons the
	 * ones still inside a cluster call (engine->abort): --timeout. */
	uint64_t stuck_ns;
	const struct cb_progress_out *progress; /* the live lines; NULL: none */
	struct cb_live *live;			/* the phase's, set by cb_run_phase itself */
	struct cb_cq **cqs;			/* one per client, from cb_cq_new (cq.h) */
	size_t ncqs;
	struct cb_ranks *ranks; /* a run over MPI: every phase is every rank's; NULL: none */
	/* Called at the phase's marks, never per op; NULL: none. */
	void (*mark)(void *arg, enum cb_mark m);
	void *mark_arg;
	/* A member of a group (group.h): its clients meet every member's at
	 * one start line, and stop with them; NULL: the phase runs alone.
	 * Whatever happens, each of the phase's clients arrives at the line
	 * or leaves it once. */
	struct cb_group *group;
};

/* Run one phase: engine setup, the measured loop, teardown; with
 * ph->clients > 1, in that many threads that start together, each with its
 * own setup (connection) and window, their figures merged into res. res must
 * come from cb_result_add_phase; it is filled even when the phase ends early,
 * and ph->out with what setup and teardown reported (of every client).
 * Returns 0, -EINTR when a signal stopped it (res->interrupted), or -errno
 * with ph->err set. */
int cb_run_phase(struct cb_phase *ph, const struct cb_engine *eng, const struct cb_runner_opts *ro,
		 struct cb_phase_result *res);

/* What the runner allocates for one op slot of a bs-byte block, and for
 * one client beside its slots (its record, histograms, samples, queue and
 * the stack it dirties): the loader's estimate of a run's memory (cost.h). */
uint64_t cb_runner_slot_bytes(uint64_t bs);
uint64_t cb_runner_client_bytes(const struct cb_workload *wl);

/* True (and consumes it) when a stop signal is pending on sigfd. */
bool cb_signal_pending(int sigfd);

#endif
