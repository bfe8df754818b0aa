/* Ranks over MPI (see ranks.h). The clients are threads of their own,
 * which never call MPI; the main thread and the watch of the ranks
 * (watch_main) do, one at a time under rk->mpi (MPI_THREAD_SERIALIZED).
 * Figures travel as raw bytes: the ranks run one build of cephbench on one
 * architecture. */
#include "ranks.h"
#include "clock.h"

#include <errno.h>
#include <mpi.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define HOST_LEN 64

/* The watch's messages, on a communicator of its own (rk->wc), so that
 * none is ever taken for a collective's or a phase's stop. */
enum { TAG_BEAT = 1, TAG_LOST, TAG_DONE };
/* Until the run says its --timeout (cb_ranks_set_bound): the default's */
#define BOUND_DEFAULT_NS 30000000000ULL
/* A bound below this would take a busy host's scheduling for a loss. */
#define BOUND_MIN_NS 3000000000ULL

struct cb_ranks {
	int rank, size;
	char (*hosts)[HOST_LEN]; /* every rank's, by rank */
	/* The phase's stop (cb_ranks_watch): a message of the phase's own tag
	 * (each phase's next, the same on every rank), so that a stop sent
	 * late in one phase, and never received, cannot stop a later one. */
	int tag, tag_ub;
	MPI_Request stop_rq;
	int stop_in, stop_out;
	bool told;
	/* The watch of the ranks (watch_main): a thread that every ~bound/8
	 * tells rank 0 this rank lives (rank 0: tells every rank), and finds a
	 * rank lost once nothing came from it for bound_ns. Rank 0 watches
	 * every rank and says a loss to the others; the others watch rank 0
	 * only. Its state but lost, root_gone and done is its thread's. */
	pthread_mutex_t mpi; /* one thread in MPI at a time */
	bool watching;
	pthread_t watcher;
	MPI_Comm wc;
	atomic_bool quit;
	atomic_uint_fast64_t bound_ns;
	atomic_int lost;       /* the first rank found lost, or -1 */
	atomic_bool root_gone; /* rank 0 is (this rank's view) */
	atomic_bool have_done; /* rank 0 said how the run ends ... */
	atomic_int done_rc;    /* ... with this code (cb_ranks_end) */
	uint64_t *heard;       /* when each rank was last heard from */
	bool *gone;	       /* lost, by rank (written under mpi) */
	int *ids;	       /* 0..size-1: what a LOST message carries */
	int in, done_out;
	MPI_Request in_rq;
	/* The main thread's: a collective was given up on (a rank lost), so
	 * MPI_COMM_WORLD holds requests that never complete: no collective
	 * is started again, and MPI_Finalize, which would wait for the lost
	 * rank, is never called. */
	bool broken;
	bool said; /* the loss, on a run stopped by a signal */
};

static void mpi_lock(struct cb_ranks *rk)
{
	if (rk)
		pthread_mutex_lock(&rk->mpi);
}

static void mpi_unlock(struct cb_ranks *rk)
{
	if (rk)
		pthread_mutex_unlock(&rk->mpi);
}

/* Waits for a collective, sleeping between looks. A blocking one spins a
 * core for as long as the slowest rank takes to arrive, and the others wait
 * out rank 0's setup, report and cleanup: on a client host that core is
 * the benchmark's (and on an oversubscribed one, rank 0's). The naps grow
 * from max_ns / 64 to max_ns: MPI moves a collective on only inside a
 * look, one step a look, and a reduction of 352 KB histograms over TCP
 * takes dozens of steps once every rank is there (the merge's first
 * collective waits out their arrival). With 1 ms naps throughout, a
 * phase's merge over three hosts took 12 ms more than the gather it
 * replaced. It waits as long as the ranks live, and no longer: once the
 * watch finds a rank lost the collective is given up on (rk->broken), and
 * its buffers are the caller's to leak, since MPI may still write them.
 * 0, or -EHOSTUNREACH when given up on. */
static int settle_every(struct cb_ranks *rk, MPI_Request *rq, long max_ns)
{
	int done = 0;
	struct timespec nap = {0, max_ns / 64};
	for (;;) {
		mpi_lock(rk);
		int r = MPI_Test(rq, &done, MPI_STATUS_IGNORE);
		mpi_unlock(rk);
		if (r != MPI_SUCCESS || done)
			return 0;
		if (rk && atomic_load(&rk->lost) >= 0) {
			rk->broken = true;
			return -EHOSTUNREACH;
		}
		nanosleep(&nap, NULL);
		nap.tv_nsec = nap.tv_nsec * 2 < max_ns ? nap.tv_nsec * 2 : max_ns;
	}
}

static int settle(struct cb_ranks *rk, MPI_Request *rq)
{
	return settle_every(rk, rq, 1000000);
}

/* Whether a collective may start: not once a rank is known lost, which
 * would never come to it. */
static bool usable(struct cb_ranks *rk)
{
	if (atomic_load(&rk->lost) >= 0)
		rk->broken = true;
	return !rk->broken;
}

/* The collectives' buffers are the heap's: one given up on is leaked, as
 * MPI may write into it later. *out is written only once it completed. */
static int allreduce_int(struct cb_ranks *rk, int in, int *out, MPI_Op op)
{
	if (rk && !usable(rk))
		return -EHOSTUNREACH;
	int *b = malloc(2 * sizeof(int));
	if (!b) {
		fprintf(stderr, "cephbench: out of memory in a collective over the ranks\n");
		MPI_Abort(MPI_COMM_WORLD, CB_EXIT_USAGE);
	}
	b[0] = in;
	MPI_Request rq;
	mpi_lock(rk);
	MPI_Iallreduce(&b[0], &b[1], 1, MPI_INT, op, MPI_COMM_WORLD, &rq);
	mpi_unlock(rk);
	if (settle(rk, &rq) < 0)
		return -EHOSTUNREACH;
	*out = b[1];
	free(b);
	return 0;
}

/* mine's n bytes from every rank into all (size * n bytes). */
static int allgather(struct cb_ranks *rk, const void *mine, void *all, int n, int size)
{
	if (rk && !usable(rk))
		return -EHOSTUNREACH;
	char *b = malloc((size_t)n * (size_t)(size + 1));
	if (!b) {
		fprintf(stderr, "cephbench: out of memory in a collective over the ranks\n");
		MPI_Abort(MPI_COMM_WORLD, CB_EXIT_USAGE);
	}
	memcpy(b, mine, (size_t)n);
	MPI_Request rq;
	mpi_lock(rk);
	MPI_Iallgather(b, n, MPI_BYTE, b + n, n, MPI_BYTE, MPI_COMM_WORLD, &rq);
	mpi_unlock(rk);
	if (settle(rk, &rq) < 0)
		return -EHOSTUNREACH;
	memcpy(all, b + n, (size_t)n * (size_t)size);
	free(b);
	return 0;
}

/* Under rk->mpi: rank k is lost. Rank 0 tells every other rank it still
 * hears (a few bytes each, sent eagerly and freed: they complete on their
 * own, from rk->ids). */
static void lose(struct cb_ranks *rk, int k)
{
	if (rk->gone[k])
		return;
	rk->gone[k] = true;
	int none = -1;
	atomic_compare_exchange_strong(&rk->lost, &none, k);
	if (k == 0)
		atomic_store(&rk->root_gone, true);
	for (int j = 1; rk->rank == 0 && j < rk->size; j++) {
		MPI_Request rq;
		if (!rk->gone[j] &&
		    MPI_Isend(&rk->ids[k], 1, MPI_INT, j, TAG_LOST, rk->wc, &rq) == MPI_SUCCESS)
			MPI_Request_free(&rq);
	}
}

/* Under rk->mpi: every message that came, then this rank's beats. */
static void hear_and_beat(struct cb_ranks *rk)
{
	int got = 0;
	MPI_Status st;
	while (MPI_Test(&rk->in_rq, &got, &st) == MPI_SUCCESS && got) {
		int from = st.MPI_SOURCE, v = rk->in;
		if (from >= 0 && from < rk->size)
			rk->heard[from] = cb_now_ns();
		if (st.MPI_TAG == TAG_LOST && v >= 0 && v < rk->size && v != rk->rank)
			lose(rk, v);
		if (st.MPI_TAG == TAG_DONE) {
			atomic_store(&rk->done_rc, v);
			atomic_store(&rk->have_done, true);
		}
		if (MPI_Irecv(&rk->in, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, rk->wc,
			      &rk->in_rq) != MPI_SUCCESS) {
			rk->in_rq = MPI_REQUEST_NULL;
			break;
		}
	}
	for (int k = 0; k < rk->size; k++) {
		MPI_Request rq;
		if (k != rk->rank && (rk->rank == 0 || k == 0) && !rk->gone[k] &&
		    MPI_Isend(&rk->ids[rk->rank], 1, MPI_INT, k, TAG_BEAT, rk->wc, &rq) ==
			MPI_SUCCESS)
			MPI_Request_free(&rq);
	}
}

/* The watch of the ranks: a thread, so that a rank busy outside MPI (rank
 * 0 cleaning up, a client's long teardown) still answers, and a rank is
 * found lost only when its process, or its host's network, is gone. */
static void *watch_main(void *arg)
{
	struct cb_ranks *rk = arg;
	uint64_t now = cb_now_ns();
	for (int k = 0; k < rk->size; k++)
		rk->heard[k] = now;
	while (!atomic_load(&rk->quit)) {
		uint64_t bound = atomic_load(&rk->bound_ns);
		mpi_lock(rk);
		hear_and_beat(rk);
		now = cb_now_ns();
		for (int k = 0; k < rk->size; k++)
			if (k != rk->rank && (rk->rank == 0 || k == 0) && !rk->gone[k] &&
			    now - rk->heard[k] > bound)
				lose(rk, k);
		mpi_unlock(rk);
		/* a beat every bound / 8 (at most 250 ms), in naps of 10 ms so
		 * that the run's end does not wait for one */
		uint64_t until = now + (bound / 8 < 250000000ULL ? bound / 8 : 250000000ULL);
		struct timespec nap = {0, 10000000};
		while (!atomic_load(&rk->quit) && cb_now_ns() < until)
			nanosleep(&nap, NULL);
	}
	return NULL;
}

/* The watch started, once MPI_COMM_WORLD works: without a thread MPI may
 * call from (an MPI without MPI_THREAD_SERIALIZED), the run has none and
 * waits as it did before (Open MPI's keepalive). */
static void watch_start(struct cb_ranks *rk, int provided)
{
	rk->in_rq = MPI_REQUEST_NULL;
	atomic_store(&rk->bound_ns, BOUND_DEFAULT_NS);
	atomic_store(&rk->lost, -1);
	rk->heard = calloc((size_t)rk->size, sizeof(*rk->heard));
	rk->gone = calloc((size_t)rk->size, sizeof(*rk->gone));
	rk->ids = calloc((size_t)rk->size, sizeof(*rk->ids));
	/* a collective: every rank makes the communicator, watch or not */
	if (MPI_Comm_dup(MPI_COMM_WORLD, &rk->wc) != MPI_SUCCESS) {
		rk->wc = MPI_COMM_NULL;
		return;
	}
	/* all or none: a rank without a watch would be found lost */
	int can = provided >= MPI_THREAD_SERIALIZED && rk->heard && rk->gone && rk->ids, all = 0;
	if (allreduce_int(NULL, can, &all, MPI_MIN) < 0 || !all)
		return;
	for (int k = 0; k < rk->size; k++)
		rk->ids[k] = k;
	if (MPI_Irecv(&rk->in, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, rk->wc, &rk->in_rq) !=
	    MPI_SUCCESS)
		return;
	rk->watching = pthread_create(&rk->watcher, NULL, watch_main, rk) == 0;
}

static void watch_stop(struct cb_ranks *rk)
{
	if (!rk->watching)
		return;
	atomic_store(&rk->quit, true);
	pthread_join(rk->watcher, NULL);
	rk->watching = false;
}

int cb_ranks_init(struct cb_ranks **out, struct cb_err *e)
{
	*out = NULL;
	if (!cb_ranks_launched())
		return 0;
	int provided = 0;
	if (MPI_Init_thread(NULL, NULL, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS)
		return cb_err_cluster(e, -EIO,
				      "MPI_Init failed: started by a launcher this "
				      "build's MPI does not speak to?");
	struct cb_ranks *rk = calloc(1, sizeof(*rk));
	if (rk) {
		MPI_Comm_rank(MPI_COMM_WORLD, &rk->rank);
		MPI_Comm_size(MPI_COMM_WORLD, &rk->size);
		rk->hosts = calloc((size_t)rk->size, HOST_LEN);
		int *ub = NULL, flag = 0;
		MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag);
		rk->tag_ub = flag && ub ? *ub : 32767; /* MPI's least */
		rk->stop_rq = MPI_REQUEST_NULL;
		pthread_mutex_init(&rk->mpi, NULL);
		atomic_store(&rk->lost, -1);
	}
	/* every rank takes part in the gather, even one short of memory */
	char me[HOST_LEN] = "";
	gethostname(me, sizeof(me) - 1);
	int size = 0;
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int ok = rk && rk->hosts, all_ok = 0;
	allreduce_int(NULL, ok, &all_ok, MPI_MIN);
	if (!all_ok) {
		if (rk)
			free(rk->hosts);
		free(rk);
		MPI_Finalize();
		return cb_err_usage(e, "out of memory");
	}
	allgather(NULL, me, rk->hosts, HOST_LEN, size);
	watch_start(rk, provided);
	*out = rk;
	return 0;
}

void cb_ranks_set_bound(struct cb_ranks *rk, uint64_t bound_ns)
{
	if (rk)
		atomic_store(&rk->bound_ns, bound_ns > BOUND_MIN_NS ? bound_ns : BOUND_MIN_NS);
}

bool cb_ranks_lost(struct cb_ranks *rk)
{
	return rk && atomic_load(&rk->lost) >= 0;
}

bool cb_ranks_root_lost(struct cb_ranks *rk)
{
	return rk && atomic_load(&rk->root_gone);
}

/* An MCA parameter mpirun passed to its ranks, else def. */
static long mca_long(const char *name, long def)
{
	const char *v = getenv(name);
	char *end;
	long n = v ? strtol(v, &end, 10) : def;
	return v && end != v && n >= 0 ? n : def;
}

/* With a host lost, under Open MPI's mpirun: a rank that ends begins the
 * job's end, which mpirun 4.1 never finishes while a host is unreachable
 * (measured: it waited until killed). A rank that waits instead is ended
 * by mpirun once its TCP keepalive gives the host up, and mpirun ends. So
 * the process waits that long, and 30 s more, before it ends on its own
 * (a rank that was stopped rather than cut off: mpirun ends it then). */
static void linger(void)
{
	if (!getenv("OMPI_MCA_orte_hnp_uri"))
		return;
	long s = mca_long("OMPI_MCA_oob_tcp_keepalive_time", 300) +
		 mca_long("OMPI_MCA_oob_tcp_keepalive_intvl", 20) *
		     mca_long("OMPI_MCA_oob_tcp_keepalive_probes", 9) +
		 30;
	struct timespec nap = {1, 0};
	for (long k = 0; k < s; k++)
		nanosleep(&nap, NULL);
}

void cb_ranks_finalize(struct cb_ranks *rk)
{
	if (!rk)
		return;
	watch_stop(rk);
	/* MPI_Finalize would wait for the lost rank; what MPI may still
	 * touch stays (the launcher ends the job) */
	if (rk->broken || atomic_load(&rk->lost) >= 0) {
		fflush(stdout);
		fflush(stderr);
		linger();
		return;
	}
	if (rk->in_rq != MPI_REQUEST_NULL) {
		MPI_Cancel(&rk->in_rq);
		MPI_Wait(&rk->in_rq, MPI_STATUS_IGNORE);
	}
	if (rk->wc != MPI_COMM_NULL)
		MPI_Comm_free(&rk->wc);
	pthread_mutex_destroy(&rk->mpi);
	free(rk->heard);
	free(rk->gone);
	free(rk->ids);
	free(rk->hosts);
	free(rk);
	MPI_Finalize();
}

unsigned cb_ranks_rank(const struct cb_ranks *rk)
{
	return rk ? (unsigned)rk->rank : 0;
}

unsigned cb_ranks_size(const struct cb_ranks *rk)
{
	return rk ? (unsigned)rk->size : 1;
}

const char *cb_ranks_host(const struct cb_ranks *rk, unsigned rank)
{
	return rk && rank < (unsigned)rk->size ? rk->hosts[rank] : "";
}

/* One rank's standing, as every other rank receives it. */
struct standing {
	int32_t code, exit;
	char msg[sizeof(((struct cb_err *)0)->msg)];
};

/* The error that stands for the run: the first rank's real failure; a rank
 * stopped by a signal (-EINTR) or because another failed (-ECANCELED)
 * only when no rank failed otherwise. */
static int pick(const struct standing *all, int size)
{
	int intr = -1, cancel = -1;
	for (int k = 0; k < size; k++) {
		if (all[k].code == -EINTR && intr < 0)
			intr = k;
		else if (all[k].code == -ECANCELED && cancel < 0)
			cancel = k;
		else if (all[k].code < 0)
			return k;
	}
	return intr >= 0 ? intr : cancel;
}

/* The run's outcome once a rank is lost (rk->lost): a signal's stop, or
 * this rank's own failure, stands; else the loss, named. */
static int lost_error(struct cb_ranks *rk, int r, struct cb_err *e)
{
	int k = atomic_load(&rk->lost);
	unsigned long long s = (atomic_load(&rk->bound_ns) + 999999999ULL) / 1000000000ULL;
	if (r == -EINTR && rk->rank == 0 && !rk->said) {
		/* the signal's exit, but the lost rank named all the same */
		rk->said = true;
		fprintf(stderr,
			"cephbench run: rank %d (host %s) did not answer for %llu s (--timeout): "
			"lost\n",
			k, rk->hosts[k], s);
	}
	if (r == -EINTR || (r < 0 && r != -ECANCELED))
		return r;
	if (k == 0 || rk->rank != 0)
		return cb_err_cluster(e, -EHOSTUNREACH,
				      "rank %d (host %s) did not answer for %llu s (--timeout): "
				      "lost (its host cut off, or its process stopped?)",
				      k, rk->hosts[k], s);
	return cb_err_cluster(e, -EHOSTUNREACH,
			      "rank %d (host %s) did not answer for %llu s (--timeout): lost (its "
			      "host cut off, or its process stopped?); the run ends with what the "
			      "others measured, its last phase with this host's figures alone",
			      k, rk->hosts[k], s);
}

int cb_ranks_agree(struct cb_ranks *rk, int r, struct cb_err *e)
{
	if (!rk)
		return r;
	struct standing me = {.code = r < 0 ? r : 0, .exit = r < 0 ? (int32_t)e->exit : 0};
	if (r < 0)
		snprintf(me.msg, sizeof(me.msg), "%s", e->msg);
	struct standing *all = malloc((size_t)rk->size * sizeof(*all));
	int ok = all != NULL, all_ok = 0;
	if (allreduce_int(rk, ok, &all_ok, MPI_MIN) < 0) {
		free(all);
		return lost_error(rk, r, e);
	}
	if (!all_ok) {
		free(all);
		return cb_err_usage(e, "out of memory");
	}
	if (allgather(rk, &me, all, (int)sizeof(me), rk->size) < 0) {
		free(all);
		return lost_error(rk, r, e);
	}
	int k = pick(all, rk->size);
	int code = k < 0 ? 0 : all[k].code;
	if (k >= 0 && k != rk->rank && code != -EINTR) {
		struct cb_err other = {0};
		cb_err_set(&other, (enum cb_exit)all[k].exit, code, "rank %d (host %s): %s", k,
			   rk->hosts[k], all[k].msg);
		*e = other;
	}
	free(all);
	return code;
}

bool cb_ranks_any(struct cb_ranks *rk, bool mine)
{
	if (!rk)
		return mine;
	int any = 0;
	/* with a rank lost, this rank's own say */
	if (allreduce_int(rk, mine, &any, MPI_MAX) < 0)
		return mine;
	return any != 0;
}

void cb_ranks_line(struct cb_ranks *rk)
{
	if (!rk || !usable(rk))
		return;
	MPI_Request rq;
	mpi_lock(rk);
	int r = MPI_Ibarrier(MPI_COMM_WORLD, &rq);
	mpi_unlock(rk);
	if (r == MPI_SUCCESS)
		settle_every(rk, &rq, 50000); /* naps of 0.8 to 50 us */
}

int cb_ranks_bcast(struct cb_ranks *rk, void *buf, size_t n)
{
	if (!rk)
		return 0;
	if (!usable(rk))
		return -EHOSTUNREACH;
	char *b = malloc(n ? n : 1); /* leaked if given up on */
	if (!b)
		return -ENOMEM;
	memcpy(b, buf, n);
	MPI_Request rq;
	mpi_lock(rk);
	int r = MPI_Ibcast(b, (int)n, MPI_BYTE, 0, MPI_COMM_WORLD, &rq);
	mpi_unlock(rk);
	if (r != MPI_SUCCESS) {
		free(b);
		return -EIO;
	}
	if (settle(rk, &rq) < 0)
		return -EHOSTUNREACH;
	memcpy(buf, b, n);
	free(b);
	return 0;
}

int cb_ranks_end(struct cb_ranks *rk, int rc)
{
	if (!rk)
		return rc;
	int v = rc;
	if (cb_ranks_bcast(rk, &v, sizeof(v)) == 0)
		return v;
	/* a rank lost: rank 0 says the code to the ranks it still hears, once
	 * its report is out (a rank that ends makes the launcher end the
	 * job); the others wait for it as long as rank 0 lives */
	fflush(stdout);
	fflush(stderr);
	if (rk->rank == 0) {
		rk->done_out = rc;
		mpi_lock(rk);
		for (int k = 1; k < rk->size; k++) {
			MPI_Request rq;
			if (rk->gone && !rk->gone[k] &&
			    MPI_Isend(&rk->done_out, 1, MPI_INT, k, TAG_DONE, rk->wc, &rq) ==
				MPI_SUCCESS)
				MPI_Request_free(&rq);
		}
		mpi_unlock(rk);
		return rc;
	}
	struct timespec nap = {0, 10000000};
	while (rk->watching && !atomic_load(&rk->have_done) && !atomic_load(&rk->root_gone))
		nanosleep(&nap, NULL);
	return atomic_load(&rk->have_done) ? atomic_load(&rk->done_rc) : rc;
}

void cb_ranks_watch_begin(struct cb_ranks *rk)
{
	if (!rk || !usable(rk))
		return;
	rk->tag = rk->tag % rk->tag_ub + 1;
	rk->told = false;
	mpi_lock(rk);
	MPI_Irecv(&rk->stop_in, 1, MPI_INT, MPI_ANY_SOURCE, rk->tag, MPI_COMM_WORLD, &rk->stop_rq);
	mpi_unlock(rk);
}

bool cb_ranks_watch(struct cb_ranks *rk, bool failed)
{
	if (!rk || rk->stop_rq == MPI_REQUEST_NULL)
		return false;
	mpi_lock(rk);
	if (failed && !rk->told) {
		/* a few bytes a rank, sent eagerly: freed at once, they
		 * complete on their own (stop_out lives as long as rk) */
		rk->told = true;
		rk->stop_out = rk->rank;
		for (int k = 0; k < rk->size; k++) {
			MPI_Request rq;
			if (k != rk->rank && MPI_Isend(&rk->stop_out, 1, MPI_INT, k, rk->tag,
						       MPI_COMM_WORLD, &rq) == MPI_SUCCESS)
				MPI_Request_free(&rq);
		}
	}
	int got = 0;
	bool stop = MPI_Test(&rk->stop_rq, &got, MPI_STATUS_IGNORE) == MPI_SUCCESS && got;
	mpi_unlock(rk);
	return stop;
}

void cb_ranks_watch_end(struct cb_ranks *rk)
{
	if (!rk || rk->stop_rq == MPI_REQUEST_NULL)
		return;
	/* no stop came: the receive is withdrawn (MPI_Test left a received
	 * one MPI_REQUEST_NULL) */
	mpi_lock(rk);
	MPI_Cancel(&rk->stop_rq);
	MPI_Wait(&rk->stop_rq, MPI_STATUS_IGNORE);
	mpi_unlock(rk);
}

/* One kind of a rank's row (kinds.h), gathered apart like its samples:
 * only rows that have kinds send them. */
struct wire_kind {
	char name[CB_KIND_NAME];
	uint64_t ops, bytes, expected_failures, unmapped;
};

/* One rank's figures of a phase, fixed size (a few hundred bytes); its
 * samples, rows and kinds follow apart, and its histograms are summed on the
 * way to rank 0 (reduce_hists), never gathered. */
struct wire {
	uint64_t ops, bytes, write_ops, write_bytes, errors, elapsed_ns, block_size, nsamples;
	uint64_t nper_client, nkinds;
	uint64_t all_ops, all_bytes, all_lat_ns;
	/* open loop (rate.h): zero, and no service histogram, in a closed one */
	uint64_t late_ops, backlog_max, unissued_ops, window_unix_ns;
	uint8_t ran, interrupted, failed, has_hist, has_service;
	char target[128];
};

static void to_wire(const struct cb_phase_result *res, struct wire *w)
{
	memset(w, 0, sizeof(*w));
	w->ops = res->ops;
	w->bytes = res->bytes;
	w->write_ops = res->write_ops;
	w->write_bytes = res->write_bytes;
	w->errors = res->errors;
	w->elapsed_ns = res->elapsed_ns;
	w->block_size = res->block_size;
	w->nsamples = res->nsamples;
	w->nper_client = res->nper_client;
	w->nkinds = res->kinds.n;
	w->all_ops = res->all_ops;
	w->all_bytes = res->all_bytes;
	w->all_lat_ns = res->all_lat_ns;
	w->ran = res->ran;
	w->interrupted = res->interrupted;
	w->failed = res->failed;
	w->late_ops = res->late_ops;
	w->backlog_max = res->backlog_max;
	w->unissued_ops = res->unissued_ops;
	w->window_unix_ns = res->window_unix_ns;
	snprintf(w->target, sizeof(w->target), "%s", res->target);
	w->has_hist = res->hist != NULL;
	w->has_service = res->service_hist != NULL;
}

/* Rank 0: the others' figures into res, by the one merge of hosts a
 * result file's merge uses (result.h); rows: every rank's clients' rows,
 * in rank order. 0 or -ENOMEM. */
static int merge_all(struct cb_ranks *rk, struct cb_phase_result *res, const struct wire *all,
		     const struct cb_sample *samples, const struct cb_client_row *rows,
		     struct wire_kind *kinds)
{
	/* the others' histograms come summed (reduce_hists): here an empty
	 * one stands for each, saying only that the rank ran */
	struct cb_hist none;
	cb_hist_reset(&none);
	if (cb_phase_add_host(res, 0, rk->hosts[0], res) < 0)
		return -ENOMEM;
	/* rank 0's own samples and rows come first in the gathered ones */
	const struct cb_sample *s = samples + all[0].nsamples;
	const struct cb_client_row *c = rows + all[0].nper_client;
	struct wire_kind *wk = kinds + all[0].nkinds;
	for (int k = 1; k < rk->size; k++) {
		struct cb_phase_result one = {
		    .ops = all[k].ops,
		    .bytes = all[k].bytes,
		    .write_ops = all[k].write_ops,
		    .write_bytes = all[k].write_bytes,
		    .errors = all[k].errors,
		    .all_ops = all[k].all_ops,
		    .all_bytes = all[k].all_bytes,
		    .all_lat_ns = all[k].all_lat_ns,
		    .elapsed_ns = all[k].elapsed_ns,
		    .hist = all[k].has_hist ? &none : NULL,
		    .service_hist = all[k].has_service ? &none : NULL,
		    .late_ops = all[k].late_ops,
		    .backlog_max = all[k].backlog_max,
		    .unissued_ops = all[k].unissued_ops,
		    .window_unix_ns = all[k].window_unix_ns,
		    .samples = (struct cb_sample *)s,
		    .nsamples = (size_t)all[k].nsamples,
		    .per_client = (struct cb_client_row *)c,
		    .nper_client = (size_t)all[k].nper_client,
		    .interrupted = all[k].interrupted,
		    .failed = all[k].failed,
		    .ran = all[k].ran,
		};
		/* borrowed from the gathered kinds: one is never released */
		for (uint64_t j = 0; j < all[k].nkinds && j < CB_KINDS; j++) {
			struct cb_kind *d = &one.kinds.k[one.kinds.n++];
			snprintf(d->name, sizeof(d->name), "%s", wk[j].name);
			d->ops = wk[j].ops;
			d->bytes = wk[j].bytes;
			d->expected_failures = wk[j].expected_failures;
			d->unmapped = wk[j].unmapped;
			d->hist = &none;
		}
		wk += all[k].nkinds;
		s += all[k].nsamples;
		c += all[k].nper_client;
		if (cb_phase_add_host(res, (unsigned)k, rk->hosts[k], &one) < 0)
			return -ENOMEM;
		if (!res->target[0] && all[k].target[0]) {
			snprintf(res->target, sizeof(res->target), "%s", all[k].target);
			res->block_size = all[k].block_size;
		}
		/* as merge_clients: a result without a histogram never ran; the
		 * ranks passed one start line, so their seconds are one another's */
		if (one.hist && res->hist && cb_phase_merge_host(res, &one, 0) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* Out of memory in the middle of a collective: the others cannot be told
 * in it, and must not wait; the launcher ends them all. */
static void abort_all(void)
{
	fprintf(stderr, "cephbench: out of memory while gathering the ranks' figures\n");
	MPI_Abort(MPI_COMM_WORLD, CB_EXIT_USAGE);
}

/* Every rank's array of elem-sized items (n of them here; field: where
 * struct wire counts them) end to end, in rank order, in *out on rank 0
 * (NULL elsewhere); *total their number. 0, or -EHOSTUNREACH with a rank
 * lost, the buffers then leaked (MPI may still read and write them). */
static int gather_arrays(struct cb_ranks *rk, const struct wire *all, size_t field,
			 const void *mine, size_t n, size_t elem, void **out, size_t *total)
{
	bool root = rk->rank == 0;
	int *counts = NULL, *displs = NULL;
	void *buf = NULL, *snd = malloc(n * elem > 0 ? n * elem : 1);
	*out = NULL;
	*total = 0;
	if (!usable(rk))
		return -EHOSTUNREACH;
	if (!snd || (root && (!(counts = calloc((size_t)rk->size, sizeof(int))) ||
			      !(displs = calloc((size_t)rk->size, sizeof(int))))))
		abort_all();
	if (n)
		memcpy(snd, mine, n * elem);
	for (int k = 0; root && k < rk->size; k++) {
		uint64_t nk = *(const uint64_t *)((const char *)&all[k] + field);
		counts[k] = (int)(nk * elem);
		displs[k] = (int)(*total * elem);
		*total += nk;
	}
	if (root && !(buf = malloc((*total ? *total : 1) * elem)))
		abort_all();
	MPI_Request rq;
	mpi_lock(rk);
	MPI_Igatherv(snd, (int)(n * elem), MPI_BYTE, buf, counts, displs, MPI_BYTE, 0,
		     MPI_COMM_WORLD, &rq);
	mpi_unlock(rk);
	if (settle(rk, &rq) < 0)
		return -EHOSTUNREACH;
	free(snd);
	free(counts);
	free(displs);
	*out = buf;
	return 0;
}

/* An MPI_Op: inout += in, histogram by histogram (cb_hist_merge: buckets,
 * count, min, max, mean and m2; their order does not matter). */
static void hist_sum(void *in, void *inout, int *len, MPI_Datatype *type)
{
	(void)type;
	const struct cb_hist *a = in;
	struct cb_hist *b = inout;
	for (int i = 0; i < *len; i++)
		cb_hist_merge(&b[i], &a[i]);
}

/* The kinds' names of every rank, in rank 0's order of first sight, sent
 * to all: the order of the kinds' histograms in the reduction. */
struct kind_names {
	uint32_t n;
	char name[CB_KINDS][CB_KIND_NAME];
};

static int kind_union(struct cb_ranks *rk, const struct wire *all, const struct wire_kind *kinds,
		      struct kind_names *u)
{
	memset(u, 0, sizeof(*u));
	for (int k = 0; rk->rank == 0 && k < rk->size; k++) {
		for (uint64_t j = 0; j < all[k].nkinds; j++) {
			uint32_t i = 0;
			while (i < u->n && strcmp(u->name[i], kinds[j].name) != 0)
				i++;
			if (i == u->n && u->n < CB_KINDS)
				snprintf(u->name[u->n++], CB_KIND_NAME, "%s", kinds[j].name);
		}
		kinds += all[k].nkinds;
	}
	return cb_ranks_bcast(rk, u, sizeof(*u)) == -EHOSTUNREACH ? -EHOSTUNREACH : 0;
}

/* Every rank's histograms summed on rank 0 along MPI's reduction tree: the
 * phase's, its open loop's service times', one a kind's, in that order.
 * Each rank sends its own set once and holds a few (MPI's partial sums), so what
 * moves and what is held per rank does not grow with the ranks (a gather
 * of them held ranks x 352 KB each on rank 0). The sums, on rank 0 (NULL
 * elsewhere), replace res's own after the merge (sums_apply). 0, or
 * -EHOSTUNREACH with a rank lost (the buffers leaked, as gather_arrays'). */
static int reduce_hists(struct cb_ranks *rk, struct cb_phase_result *res,
			const struct kind_names *u, struct cb_hist **out)
{
	*out = NULL;
	if (!usable(rk))
		return -EHOSTUNREACH;
	size_t n = 2 + u->n;
	struct cb_hist *mine = malloc(n * sizeof(*mine)), *sum = NULL;
	if (!mine || (rk->rank == 0 && !(sum = malloc(n * sizeof(*sum)))))
		abort_all();
	for (size_t i = 0; i < n; i++)
		cb_hist_reset(&mine[i]);
	if (res->hist)
		mine[0] = *res->hist;
	if (res->service_hist)
		mine[1] = *res->service_hist;
	for (uint32_t i = 0; i < u->n; i++) {
		const struct cb_kind *k = cb_kinds_find(&res->kinds, u->name[i]);
		if (k)
			mine[2 + i] = *k->hist;
	}
	MPI_Datatype type;
	MPI_Op op;
	MPI_Request rq;
	mpi_lock(rk);
	MPI_Type_contiguous((int)sizeof(struct cb_hist), MPI_BYTE, &type);
	MPI_Type_commit(&type);
	MPI_Op_create(hist_sum, 1, &op);
	MPI_Ireduce(mine, sum, (int)n, type, op, 0, MPI_COMM_WORLD, &rq);
	mpi_unlock(rk);
	if (settle(rk, &rq) < 0)
		return -EHOSTUNREACH;
	mpi_lock(rk);
	MPI_Op_free(&op);
	MPI_Type_free(&type);
	mpi_unlock(rk);
	free(mine);
	*out = sum;
	return 0;
}

static void sums_apply(struct cb_phase_result *res, const struct cb_hist *sum,
		       const struct kind_names *u)
{
	if (res->hist)
		*res->hist = sum[0];
	if (res->service_hist)
		*res->service_hist = sum[1];
	for (uint32_t i = 0; i < u->n; i++) {
		struct cb_kind *k = cb_kinds_find(&res->kinds, u->name[i]);
		if (k)
			*k->hist = sum[2 + i];
	}
}

int cb_ranks_merge_phase(struct cb_ranks *rk, struct cb_phase_result *res, int r, struct cb_err *e)
{
	if (!rk)
		return r;
	bool root = rk->rank == 0;
	/* on the heap, as every buffer of the collectives below: given up
	 * on, they are leaked, since MPI may still read or write them */
	struct wire *me = malloc(sizeof(*me)), *all = NULL;
	if (!me || (root && !(all = malloc((size_t)rk->size * sizeof(*all)))))
		abort_all();
	to_wire(res, me);
	if (!usable(rk))
		goto lost;
	MPI_Request rq;
	mpi_lock(rk);
	MPI_Igather(me, (int)sizeof(*me), MPI_BYTE, all, (int)sizeof(*me), MPI_BYTE, 0,
		    MPI_COMM_WORLD, &rq);
	mpi_unlock(rk);
	if (settle(rk, &rq) < 0)
		goto lost;
	size_t nsamples, nrows, nkinds;
	void *samples, *rows, *kinds;
	if (gather_arrays(rk, all, offsetof(struct wire, nsamples), res->samples, res->nsamples,
			  sizeof(struct cb_sample), &samples, &nsamples) < 0 ||
	    gather_arrays(rk, all, offsetof(struct wire, nper_client), res->per_client,
			  res->nper_client, sizeof(struct cb_client_row), &rows, &nrows) < 0)
		goto lost;
	struct wire_kind *mine = res->kinds.n ? calloc(res->kinds.n, sizeof(*mine)) : NULL;
	if (res->kinds.n && !mine)
		abort_all();
	for (unsigned j = 0; j < res->kinds.n; j++) {
		snprintf(mine[j].name, sizeof(mine[j].name), "%s", res->kinds.k[j].name);
		mine[j].ops = res->kinds.k[j].ops;
		mine[j].bytes = res->kinds.k[j].bytes;
		mine[j].expected_failures = res->kinds.k[j].expected_failures;
		mine[j].unmapped = res->kinds.k[j].unmapped;
	}
	if (gather_arrays(rk, all, offsetof(struct wire, nkinds), mine, res->kinds.n,
			  sizeof(struct wire_kind), &kinds, &nkinds) < 0)
		goto lost;
	free(mine);
	struct kind_names *u = malloc(sizeof(*u));
	struct cb_hist *sum;
	if (!u)
		abort_all();
	/* before the merge: rank 0's own histograms go in as they were */
	if (kind_union(rk, all, kinds, u) < 0 || reduce_hists(rk, res, u, &sum) < 0)
		goto lost;
	int mr = root ? merge_all(rk, res, all, samples, rows, kinds) : 0;
	if (sum && mr == 0)
		sums_apply(res, sum, u);
	free(u);
	free(sum);
	free(kinds);
	free(all);
	free(me);
	free(samples);
	free(rows);
	if (mr < 0 && r >= 0)
		r = cb_err_usage(e, "out of memory");
	return cb_ranks_agree(rk, r, e);
lost:
	/* rank 0's figures stay its own: the others' merge after all of
	 * theirs arrived, which they never all did */
	res->interrupted = true;
	return lost_error(rk, r, e);
}
