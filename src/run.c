/* A whole run, as a sequence of steps (run_priv.h): open what the run
 * needs, run the workloads' rounds, settle what the ranks saw, report,
 * clean up, close. A step that later work needs to extend (a pre-flight
 * check, telemetry around phases) goes between these. */
#include "lock.h"
#include "outfile.h"
#include "preflight.h"
#include "cq.h"
#include "run_priv.h"
#include "telemetry.h"

#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

/* A random id telling this run's things from those of a crashed run that
 * had the same name. */
static void make_run_id(char *id, size_t n)
{
	uint64_t x = 0;
	if (getrandom(&x, sizeof(x), 0) != sizeof(x))
		x = ((uint64_t)time(NULL) << 20) ^ (uint64_t)getpid();
	snprintf(id, n, "%016llx", (unsigned long long)x);
}

/* Whether a workload's layer talks to the cluster: a run of noop workloads
 * needs no conf, no connection, no lock and no cleanup. */
static bool needs_cluster(const struct cb_profile *p)
{
	for (size_t i = 0; i < p->n; i++)
		if (!p->items[i].engine->no_cluster)
			return true;
	return false;
}

/* The run's state before anything outside the process is touched: its
 * name and id, the cluster options (flags first, then the profile's), and
 * its memory. -ENOMEM with e set. */
static int run_init(struct run *rn, const struct cb_profile *p, const struct cb_run_opts *o,
		    struct cb_err *e)
{
	*rn = (struct run){.p = p, .o = o, .co = o->cluster, .lock = -1};
	rn->root = cb_ranks_rank(o->ranks) == 0;
	rn->cluster = needs_cluster(p);
	rn->ncqs = cb_run_queues(p);
	rn->cqs = calloc(rn->ncqs, sizeof(*rn->cqs));
	for (size_t k = 0; rn->cqs && k < rn->ncqs; k++)
		if (!(rn->cqs[k] = cb_cq_new()))
			return cb_err_usage(e, "out of memory");
	rn->left = calloc(p->n, sizeof(*rn->left));
	rn->wls = calloc(p->n, sizeof(*rn->wls));
	if (!rn->left || !rn->wls || !rn->cqs)
		return cb_err_usage(e, "out of memory");
	struct cb_cluster_opts *co = &rn->co;
	co->conf = co->conf ? co->conf : p->conf;
	co->client = co->client ? co->client : p->client;
	co->keyring = co->keyring ? co->keyring : p->keyring;
	co->timeout_ns = co->timeout_ns ? co->timeout_ns : p->timeout_ns;
	/* a rank silent for as long as the cluster may be is lost */
	cb_ranks_set_bound(o->ranks, co->timeout_ns ? co->timeout_ns : 30000000000ULL);
	/* both validated: --run-name by the CLI, the profile name at load */
	rn->name = o->run_name ? o->run_name : p->name;
	make_run_id(rn->id, sizeof(rn->id));
	/* over ranks, one run: its things all carry rank 0's id */
	cb_ranks_bcast(o->ranks, rn->id, sizeof(rn->id));
	return 0;
}

/* The result's header, once the run is connected and holds its lock. */
static int start_result(struct run *rn, struct cb_err *e)
{
	struct cb_result *res = &rn->res;
	const struct cb_run_opts *o = rn->o;
	res->run_name = strdup(rn->name);
	res->profile_name = strdup(rn->p->name);
	if (!res->run_name || !res->profile_name)
		return cb_err_usage(e, "out of memory");
	snprintf(res->profile_sha256, sizeof(res->profile_sha256), "%s", rn->p->sha256);
	if (rn->conn)
		snprintf(res->fsid, sizeof(res->fsid), "%s", cb_conn_fsid(rn->conn));
	gethostname(res->host, sizeof(res->host) - 1);
	res->started = time(NULL);
	/* rank 0's alone: one line a phase, not one a rank */
	bool progress = rn->root && cb_progress_out_init(&rn->po, o->progress, o->quiet, stderr);
	rn->ro = (struct cb_runner_opts){.sigfd = o->sigfd,
					 .stuck_ns =
					     rn->co.timeout_ns ? rn->co.timeout_ns : 30000000000ULL,
					 .progress = progress ? &rn->po : NULL,
					 .cqs = rn->cqs,
					 .ncqs = rn->ncqs,
					 .ranks = o->ranks};
	return 0;
}

/* A client whose caps withhold the OSD map (no mon 'allow r') would wait
 * for ever at its first pool lookup, inside librados where no stop signal
 * reaches it: said now, after the monitor op timeout, before the lock. */
static int osdmap_arrives(struct run *rn, struct cb_err *e)
{
	int r = cb_conn_osdmap(rn->conn, e);
	if (r != -ETIMEDOUT)
		return r;
	uint64_t t = rn->co.timeout_ns ? rn->co.timeout_ns : 30000000000ULL;
	return cb_err_cluster(e, r,
			      "the monitors sent no OSD map within %llu s: the client's caps must "
			      "allow it (mon 'allow r'; cephbench doctor checks a client's caps)",
			      (unsigned long long)((t + 999999999ULL) / 1000000000ULL));
}

/* What a run holds from its first step outside the process: the --history
 * database, the --json file (a bad one is an input error before anything
 * runs), the connection, and the cluster's run lock (a second run on the
 * cluster would skew both; over ranks rank 0 holds it for all). 0, -EINTR
 * when a signal ended the wait for the lock, or -errno with e set. */
static int run_open(struct run *rn, struct cb_err *e)
{
	const struct cb_run_opts *o = rn->o;
	struct cb_ranks *rk = o->ranks;
	int r = rn->root ? cb_health_open(&o->health, &rn->health, e) : 0;
	if (r == 0 && rn->root && o->json_path) {
		char what[4200];
		snprintf(what, sizeof(what), "--json %s", o->json_path);
		r = cb_out_open(what, o->json_path, CB_OUT_REPORT, &rn->json, e);
	}
	if (r == 0 && rn->root && o->html_path) {
		char what[4200];
		snprintf(what, sizeof(what), "--html %s", o->html_path);
		r = cb_out_open(what, o->html_path, CB_OUT_REPORT, &rn->html, e);
	}
	if (r == 0 && rn->cluster)
		r = cb_conn_open(&rn->co, &rn->conn, e);
	if (r == 0 && rn->cluster)
		r = osdmap_arrives(rn, e);
	if ((r = cb_ranks_agree(rk, r, e)) < 0 || !rn->cluster)
		return r < 0 ? r : start_result(rn, e);
	struct cb_lock_opts lo = {cb_conn_fsid(rn->conn), rn->name, o->wait, o->quiet, o->sigfd};
	if (rn->root)
		rn->lock = cb_lock_take(&lo, e);
	r = cb_ranks_agree(rk, rn->root && rn->lock < 0 ? rn->lock : 0, e);
	rn->interrupted = r == -EINTR;
	return r < 0 ? r : start_result(rn, e);
}

/* Telemetry, once the run holds the cluster: the cluster's side on rank 0
 * only (the cluster is one), the host's and the client's on every rank.
 * Never the run's failure: without memory for it the run goes on without. */
static int run_telemetry(struct run *rn, struct cb_err *e)
{
	(void)e;
	struct cb_tm_opts to = {.host = rn->p->host_stats,
				.cluster = rn->p->telemetry && rn->root,
				.quiet = rn->o->quiet || !rn->root};
	if (cb_tm_open(&to, rn->conn, &rn->tm) < 0 && !to.quiet)
		fprintf(stderr, "telemetry: out of memory: the run goes on without it\n");
	rn->res.tm = rn->tm;
	return 0;
}

/* The pre-flight gate, once telemetry runs (its sampler holds the monitor
 * session open): rank 0 judges the cluster (the flag's level over the
 * profile's), every rank ends as it says. A refused run is stored as
 * skipped (--history) before it ends. */
static int run_preflight(struct run *rn, struct cb_err *e)
{
	struct cb_preflight_opts po = rn->p->preflight;
	int r = 0;
	if (rn->o->preflight)
		po.require = rn->o->preflight;
	if (rn->root) {
		r = cb_preflight_run(rn->conn, &po, rn->o->quiet, rn->o->sigfd, &rn->preflight, e);
		rn->res.preflight = rn->preflight;
		if (r == -EAGAIN)
			cb_run_report_refused(rn, e);
	}
	r = cb_ranks_agree(rn->o->ranks, r, e);
	rn->interrupted |= r == -EINTR;
	return r;
}

/* After the phases: the sessions ended, their memory given back (or the
 * record and the cleanup would add to it: a long run's peak RSS came after
 * its phases), and the ranks agreed on whether the run was cut and on what
 * any of them made (rank 0 removes it: the names are the run's). */
static void run_settle(struct run *rn)
{
	struct cb_ranks *rk = rn->o->ranks;
	cb_run_end_workloads(rn);
	malloc_trim(0);
	/* a signal during the last teardown or between phases still counts */
	if (!rn->interrupted && cb_signal_pending(rn->o->sigfd))
		rn->interrupted = true;
	rn->interrupted = cb_ranks_any(rk, rn->interrupted);
	rn->res.interrupted = rn->interrupted;
	for (size_t i = 0; i < rn->p->n; i++) {
		rn->left[i].created = cb_ranks_any(rk, rn->left[i].created);
		rn->left[i].kept = cb_ranks_any(rk, rn->left[i].kept);
	}
}

/* Release everything and say how the run ended: every rank ends as rank 0
 * does (its error was said there). */
static int run_close(struct run *rn, struct cb_err *e)
{
	cb_tm_close(rn->tm);	 /* before its connection */
	cb_conn_close(rn->conn); /* joins librados' threads: no cb_op_done after this */
	cb_lock_release(rn->lock);
	for (size_t k = 0; rn->cqs && k < rn->ncqs; k++)
		cb_cq_free(rn->cqs[k]);
	free(rn->cqs);
	rn->res.tm = NULL;
	rn->res.preflight = NULL;
	json_decref(rn->preflight);
	cb_result_release(&rn->res);
	free(rn->left);
	free(rn->wls);
	cb_health_close(rn->health);
	cb_out_close(rn->json);
	cb_out_close(rn->html);
	int rc = cb_err_isset(e)   ? (int)e->exit
		 : rn->interrupted ? CB_EXIT_INTERRUPTED
				   : rn->verdict;
	rc = cb_ranks_end(rn->o->ranks, rc);
	if (!rn->root)
		e->msg[0] = '\0';
	return rc;
}

int cb_run_profile(const struct cb_profile *p, const struct cb_run_opts *o, struct cb_err *e)
{
	struct run rn;
	int r = run_init(&rn, p, o, e);
	if (r == 0)
		r = run_open(&rn, e);
	if (r == 0)
		r = run_telemetry(&rn, e);
	if (r == 0)
		r = run_preflight(&rn, e);
	if (r == 0) {
		r = cb_run_rounds(&rn, e);
		rn.interrupted |= r == -EINTR;
		run_settle(&rn);
		if (rn.root) {
			cb_run_report(&rn, e);
			cb_run_cleanup(&rn, e);
			/* what telemetry could not measure, once, at the end; a
			 * failed run's one line is its error (they are in the JSON) */
			if (!o->quiet && !cb_err_isset(e))
				cb_tm_print_notes(rn.tm, stderr);
		}
	}
	return run_close(&rn, e);
}
