/* A run spread over client hosts by an MPI launcher (mpirun, srun): one
 * process per rank, each a client host running every phase's clients, as
 * mdtest's and IOR's ranks do. Every rank takes part in each collective
 * below at the same points of the run, also after an error of its own, so
 * no rank waits at a barrier for one that gave up. A rank that does not
 * answer (its host cut off, its process stopped) for the run's --timeout
 * is lost (cb_ranks_lost): no collective waits for it past that; the
 * others end the run without it. A run not started by a
 * launcher has no ranks (NULL): one process, and every call below is a
 * no-op on it. Built with MPI only under WITH_MPI (ranks_mpi.c); without,
 * ranks_single.c refuses a launcher's environment. */
#ifndef CB_RANKS_H
#define CB_RANKS_H

#include "err.h"
#include "result.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

struct cb_ranks;

/* What a launcher sets in each process it starts: Open MPI's mpirun, a PMI
 * (MPICH, Slurm's srun --mpi=pmi2) or PMIx (srun --mpi=pmix). */
static inline bool cb_ranks_launched(void)
{
	return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMI_SIZE") || getenv("PMIX_RANK");
}

/* MPI_Init when the environment says a launcher started this process, with
 * *out its ranks; else *out = NULL. 0 or -errno with e set. */
int cb_ranks_init(struct cb_ranks **out, struct cb_err *e);
/* MPI_Finalize; NULL: nothing. After a rank was lost, MPI_Finalize would
 * wait for it: the process then ends without (the launcher ends the job),
 * leaving what MPI may still use. */
void cb_ranks_finalize(struct cb_ranks *rk);

/* How long a rank may go unheard before it is lost: the run's --timeout
 * (not below 3 s; 30 s until set). Each rank's watch, a thread of its own,
 * tells rank 0 every bound / 8 (at most 250 ms) that it lives, and rank 0
 * tells every rank; rank 0 finds the others lost and tells the rest,
 * the others find rank 0 lost. */
void cb_ranks_set_bound(struct cb_ranks *rk, uint64_t bound_ns);
/* True once this rank knows a rank is lost; any thread may ask. */
bool cb_ranks_lost(struct cb_ranks *rk);
/* True once this rank (not rank 0) found rank 0 lost: it then says the
 * run's end itself, which rank 0 cannot. */
bool cb_ranks_root_lost(struct cb_ranks *rk);

unsigned cb_ranks_rank(const struct cb_ranks *rk); /* 0 without ranks */
unsigned cb_ranks_size(const struct cb_ranks *rk); /* 1 without ranks */
const char *cb_ranks_host(const struct cb_ranks *rk, unsigned rank);

/* Every rank says how it stands: r is 0 or -errno with e set. All return
 * 0 when every rank stood, else the first failing rank's code, with e set
 * on every rank to its error, prefixed "rank R (host H): ". A barrier.
 * With a rank lost: r when it is -EINTR or this rank's own failure, else
 * -EHOSTUNREACH with e naming the lost rank and its host (exit 3). */
int cb_ranks_agree(struct cb_ranks *rk, int r, struct cb_err *e);

/* True on every rank when any rank says so (a barrier); with a rank
 * lost, mine. */
bool cb_ranks_any(struct cb_ranks *rk, bool mine);

/* A barrier that every rank leaves within a fraction of a millisecond of
 * the others: called right after another collective, so that its wait is
 * short, it looks every 50 us where the others look every millisecond (a
 * collective of several steps takes a look a step: the ranks learned the
 * start line's outcome up to 2 ms apart). */
void cb_ranks_line(struct cb_ranks *rk);

/* Rank 0's n bytes at buf, to every rank. 0 or -errno (-EHOSTUNREACH: a
 * rank lost, buf as it was). */
int cb_ranks_bcast(struct cb_ranks *rk, void *buf, size_t n);

/* The run's last collective: rank 0's exit code rc, which every rank
 * returns. With a rank lost, rank 0 (its report and cleanup done) sends
 * it to the ranks it still hears, and each of those waits for it as long
 * as rank 0 lives: no rank ends first, for the launcher would then end
 * rank 0 in its cleanup. */
int cb_ranks_end(struct cb_ranks *rk, int rc);

/* A phase's stop over ranks. Within a process, clients past max_errors stop
 * the others at once; between ranks only the main threads speak MPI, so
 * each watches while its clients run: between begin and end,
 * cb_ranks_watch(rk, failed) tells every other rank once when this rank's
 * clients failed, and is true once another rank told this one. Without it
 * the others would run out the phase's duration on a run already lost.
 * Not a collective: each rank's main thread calls it on its own. */
void cb_ranks_watch_begin(struct cb_ranks *rk);
bool cb_ranks_watch(struct cb_ranks *rk, bool failed);
void cb_ranks_watch_end(struct cb_ranks *rk);

/* A phase every rank ran (r: its outcome, e its error): rank 0 merges every
 * other rank's figures into res, as cb_phase_merge_client does its
 * clients', and keeps each rank's own in res->ranks; then as
 * cb_ranks_agree. 0, -EINTR when a rank was interrupted, or -errno. With a
 * rank lost before every rank's figures arrived, res stays this rank's
 * own, marked interrupted, and the outcome is as cb_ranks_agree's. */
int cb_ranks_merge_phase(struct cb_ranks *rk, struct cb_phase_result *res, int r, struct cb_err *e);

#endif
