/* Whole-run orchestration shared by `run` and the ad-hoc layer commands. */
#include "run.h"
#include "lock.h"
#include "outfile.h"
#include "report.h"
#include "runner.h"
#include "shquote.h"

#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

static int render_json(FILE *f, const void *rec)
{
	return cb_report_json_dump(f, rec);
}

/* --json FILE, checked and held before the run connects (outfile.h). */
static int open_json_file(const char *path, struct cb_out **out, struct cb_err *e)
{
	char what[4200];
	*out = NULL;
	if (!path)
		return 0;
	snprintf(what, sizeof(what), "--json %s", path);
	return cb_out_open(what, path, CB_OUT_REPORT, out, e);
}

/* What each workload left, and the command that removes it by hand. */
struct left {
	bool created;
	bool kept;
	char cmd[CB_SH_CMD_MAX];
};

/* "cephbench cleanup --pool P --run-name R [--conf ...]": the same target and
 * cluster flags as the run, so the printed command works as it stands. A
 * target that fills the phase's field may have been cut there (a pool name
 * fits; a krbd device path may not): a command naming it would clean
 * another pool, so none is printed. */
static void cleanup_cmd(const struct cb_engine *eng, const struct cb_phase *ph, const char *run,
			const struct cb_cluster_opts *co, char *buf, size_t n)
{
	const char *w[13] = {"cephbench", "cleanup",	eng->cleanup_flag,
			     ph->target,  "--run-name", run};
	size_t k = 6;
	if (strlen(ph->target) + 1 >= sizeof(ph->target)) {
		snprintf(buf, n, "%s", CB_SH_TOO_LONG);
		return;
	}
	if (co->conf) {
		w[k++] = "--conf";
		w[k++] = co->conf;
	}
	if (co->client) {
		w[k++] = "--client";
		w[k++] = co->client;
	}
	if (co->keyring) {
		w[k++] = "--keyring";
		w[k++] = co->keyring;
	}
	cb_sh_join(buf, n, w);
}

/* Remove what each phase created; every phase is tried even if one fails.
 * A cleanup failure after an earlier error still gets its own line: the
 * operator must learn that something was left behind. */
static void cleanup_run(const struct cb_profile *p, const struct left *left, const char *run,
			const char *run_id, struct cb_conn *conn, bool quiet, struct cb_err *e)
{
	for (size_t i = 0; i < p->n; i++) {
		/* A second phase on the same target simply finds nothing left. */
		if (!left[i].created)
			continue;
		struct cb_err ce = {0};
		struct cb_cleanup_req req = {.conn = conn,
					     .lopts = p->items[i].lopts,
					     .run_name = run,
					     .run_id = run_id,
					     .err = &ce};
		int r = p->items[i].engine->cleanup(&req);
		if (req.note[0] && !quiet)
			fprintf(stderr, "cleanup: %s\n", req.note);
		if (r == 0 && !quiet && req.removed)
			fprintf(stderr, "cleanup: removed %llu %s %s of run '%s'\n",
				(unsigned long long)req.removed, p->items[i].engine->name,
				p->items[i].engine->removes, run);
		if (r == 0)
			continue;
		if (cb_err_isset(e))
			fprintf(
			    stderr,
			    "cephbench: cleanup failed too: %s; remove the leftovers later with: "
			    "%s\n",
			    ce.msg, left[i].cmd);
		else
			cb_err_set(e, ce.exit, ce.code,
				   "cleanup: %s; remove the leftovers later with: %s", ce.msg,
				   left[i].cmd);
	}
}

/* A stop signal at the end of a run, after the phases' last look (when is
 * what it came during): that step is not cut, a cleanup least of all (it is
 * what keeps the cluster clean), but the run still ends as interrupted and
 * says so. True when one came. */
static bool late_signal(int sigfd, const char *when)
{
	if (!cb_signal_pending(sigfd))
		return false;
	fprintf(stderr, "cephbench: a stop signal came %s, which was completed first\n", when);
	return true;
}

/* One run of a whole profile. */
struct run {
	const struct cb_profile *p;
	const struct cb_run_opts *o;
	struct cb_cluster_opts co;
	const char *name;
	char id[17];
	struct cb_conn *conn;
	struct cb_result res;
	struct cb_runner_opts ro;
	struct left *left;
};

/* Run one step of workload i as a phase into pr, through conn. Returns 0,
 * -EINTR on a signal, or -errno with e set. */
static int run_step(struct run *rn, size_t i, const struct cb_step *st, struct cb_conn *conn,
		    void **sessions, struct cb_phase_result *pr, struct cb_err *e)
{
	const struct cb_plan_item *it = &rn->p->items[i];
	struct cb_workload w = it->wl;
	char name[96];
	struct cb_phase ph = {.wl = &w,
			      .lopts = it->lopts,
			      .conn = conn,
			      .run_name = rn->name,
			      .run_id = rn->id,
			      .clients = (unsigned)it->wl.clients,
			      .step = st->id,
			      .session = sessions,
			      .allow_destructive = rn->o->allow_destructive,
			      .err = e};
	if (st->suffix) {
		snprintf(name, sizeof(name), "%s.%s", it->wl.name, st->suffix);
		w.name = name;
	}
	if (st->op)
		w.op = (char *)st->op;
	if (st->own_limits) {
		/* the engine ends it when its work is done, or the time limit */
		w.ramp_ns = w.ops = w.bytes = 0;
		w.duration_ns = st->duration_ns;
	}
	int r = cb_run_phase(&ph, it->engine, &rn->ro, pr);
	rn->left[i].created |= ph.created;
	rn->left[i].kept |= ph.kept;
	/* a namesake's leftovers removed, or old data read: never silently */
	if (ph.note[0] && !rn->o->quiet && cb_ranks_rank(rn->o->ranks) == 0)
		fprintf(stderr, "workload '%s': %s\n", w.name, ph.note);
	if (ph.target[0]) /* a step that failed before its setup names no target */
		cleanup_cmd(it->engine, &ph, rn->name, &rn->co, rn->left[i].cmd,
			    sizeof(rn->left[i].cmd));
	return r;
}

/* A workload across the run's rounds: its steps, the rows they fill (by
 * index: adding a row moves them), its clients' sessions, and its own
 * connection when it has an op_timeout (librados reads the OSD-op timeout
 * once, at connect), else NULL: the run's. */
struct wl_run {
	struct cb_step steps[CB_MAX_STEPS];
	size_t nsteps, row[CB_MAX_STEPS];
	unsigned iters;
	void **sessions;
	struct cb_conn *conn;
};

static int wl_start(struct run *rn, size_t i, struct wl_run *w, struct cb_err *e)
{
	const struct cb_plan_item *it = &rn->p->items[i];
	w->nsteps = 1;
	w->iters = 1;
	if (it->engine->steps)
		w->nsteps = it->engine->steps(&it->wl, it->lopts, w->steps, &w->iters);
	for (size_t s = 0; s < w->nsteps; s++)
		w->row[s] = SIZE_MAX;
	w->sessions = calloc(it->wl.clients, sizeof(*w->sessions));
	if (!w->sessions)
		return cb_err_usage(e, "out of memory");
	if (!it->wl.op_timeout_ns)
		return 0;
	struct cb_cluster_opts co = rn->co;
	co.op_timeout_ns = it->wl.op_timeout_ns;
	return cb_ranks_agree(rn->o->ranks, cb_conn_open(&co, &w->conn, e), e);
}

static void wl_end(struct run *rn, size_t i, struct wl_run *w)
{
	const struct cb_plan_item *it = &rn->p->items[i];
	for (uint64_t c = 0; w->sessions && c < it->wl.clients; c++)
		if (w->sessions[c] && it->engine->release)
			it->engine->release(w->sessions[c]);
	free(w->sessions);
	w->sessions = NULL;
	/* after the sessions: a CephFS mount lives on its connection */
	cb_conn_close(w->conn);
	w->conn = NULL;
}

/* One round of workload i: its steps in order, the list repeated for the
 * engine's iterations; one report row per step, later runs merged into it.
 * A prefill runs only the first time: the data is there after it. */
static int wl_round(struct run *rn, size_t i, struct wl_run *w, unsigned round, struct cb_err *e)
{
	const struct cb_plan_item *it = &rn->p->items[i];
	int r = 0;
	for (unsigned k = 0; k < w->iters && r == 0; k++) {
		for (size_t s = 0; s < w->nsteps && r == 0; s++) {
			struct cb_phase_result one, *pr;
			bool first = w->row[s] == SIZE_MAX;
			if ((round > 0 || k > 0) && cb_step_is_prefill(&w->steps[s]))
				continue;
			pr = first ? cb_result_add_phase(&rn->res)
				   : (cb_phase_init(&one) == 0 ? &one : NULL);
			if (!pr) {
				r = cb_err_usage(e, "out of memory");
				break;
			}
			r = run_step(rn, i, &w->steps[s], w->conn ? w->conn : rn->conn, w->sessions,
				     pr, e);
			pr->wl = &it->wl;
			pr->step = w->steps[s].suffix;
			if (first && pr->ran)
				w->row[s] = rn->res.nphases - 1;
			else if (first)
				cb_result_drop_last(&rn->res);
			else if (pr->ran &&
				 cb_phase_merge_iteration(&rn->res.phases[w->row[s]], pr) < 0 &&
				 r == 0)
				r = cb_err_usage(e, "out of memory");
			else if (!pr->ran) { /* the row still says its last iteration was cut */
				rn->res.phases[w->row[s]].interrupted |= pr->interrupted;
				rn->res.phases[w->row[s]].failed |= pr->failed;
			}
			if (!first)
				cb_phase_release(&one);
		}
	}
	return r;
}

/* An optional workload whose layer this host lacks is skipped, with a note
 * and a record in the result. Returns 1 when skipped, 0 to run it, or
 * -ENOMEM with e set. */
static int skip_unavailable(struct run *rn, size_t i, struct cb_err *e)
{
	const struct cb_plan_item *it = &rn->p->items[i];
	char why[256] = "";
	bool skip = it->wl.optional && it->engine->available &&
		    it->engine->available(&it->wl, it->lopts, why, sizeof(why)) != 0;
	/* over ranks: skipped everywhere when a host lacks the layer, or the
	 * ranks would part ways */
	if (!cb_ranks_any(rn->o->ranks, skip))
		return 0;
	if (!why[0])
		snprintf(why, sizeof(why), "unavailable on another rank's host");
	if (cb_result_add_skip(&rn->res, it->wl.name, why) < 0)
		return cb_err_usage(e, "out of memory");
	if (!rn->o->quiet && cb_ranks_rank(rn->o->ranks) == 0)
		fprintf(stderr, "skipped workload '%s' (optional): %s\n", it->wl.name, why);
	return 1;
}

/* A random id telling this run's things from those of a crashed run that
 * had the same name. */
static void make_run_id(char *id, size_t n)
{
	uint64_t x = 0;
	if (getrandom(&x, sizeof(x), 0) != sizeof(x))
		x = ((uint64_t)time(NULL) << 20) ^ (uint64_t)getpid();
	snprintf(id, n, "%016llx", (unsigned long long)x);
}

int cb_run_profile(const struct cb_profile *p, const struct cb_run_opts *o, struct cb_err *e)
{
	struct run rn = {.p = p, .o = o, .co = o->cluster};
	struct cb_ranks *rk = o->ranks;
	bool root = cb_ranks_rank(rk) == 0;
	int lock = -1;
	struct cb_health *health = NULL;
	struct cb_out *json = NULL;
	bool interrupted = false;
	int r = 0, verdict = CB_EXIT_OK;

	/* one completion queue per client of the widest workload */
	size_t ncq = 1;
	for (size_t i = 0; i < p->n; i++)
		if (p->items[i].wl.clients > ncq)
			ncq = p->items[i].wl.clients;
	struct cb_cq **cqs = calloc(ncq, sizeof(*cqs));
	for (size_t k = 0; cqs && k < ncq; k++)
		if (!(cqs[k] = cb_cq_new()))
			r = -ENOMEM;
	rn.left = calloc(p->n, sizeof(*rn.left));
	struct wl_run *wr = calloc(p->n, sizeof(*wr));
	if (!rn.left || !wr || !cqs || r < 0) {
		free(rn.left);
		free(wr);
		for (size_t k = 0; cqs && k < ncq; k++)
			cb_cq_free(cqs[k]);
		free(cqs);
		return cb_err_usage(e, "out of memory"), CB_EXIT_USAGE;
	}
	struct cb_cluster_opts *co = &rn.co;
	co->conf = co->conf ? co->conf : p->conf;
	co->client = co->client ? co->client : p->client;
	co->keyring = co->keyring ? co->keyring : p->keyring;
	co->timeout_ns = co->timeout_ns ? co->timeout_ns : p->timeout_ns;
	/* both validated: --run-name by the CLI, the profile name at load */
	rn.name = o->run_name ? o->run_name : p->name;
	make_run_id(rn.id, sizeof(rn.id));
	/* over ranks, one run: its things all carry rank 0's id */
	cb_ranks_bcast(rk, rn.id, sizeof(rn.id));
	/* a bad --history, --prom or --json is an input error before anything
	 * runs */
	r = root ? cb_health_open(&o->health, &health, e) : 0;
	if (r == 0 && root)
		r = open_json_file(o->json_path, &json, e);
	if (r == 0)
		r = cb_conn_open(co, &rn.conn, e);
	if ((r = cb_ranks_agree(rk, r, e)) < 0)
		goto out;
	/* before any phase: a second run on the cluster would skew both (over
	 * ranks the run is one: rank 0 holds the lock for all) */
	struct cb_lock_opts lo = {cb_conn_fsid(rn.conn), rn.name, o->wait, o->quiet, o->sigfd};
	if (root)
		lock = cb_lock_take(&lo, e);
	r = cb_ranks_agree(rk, root && lock < 0 ? lock : 0, e);
	interrupted = r == -EINTR;
	if (r < 0)
		goto out;
	struct cb_result *res = &rn.res;
	res->run_name = strdup(rn.name);
	res->profile_name = strdup(p->name);
	snprintf(res->profile_sha256, sizeof(res->profile_sha256), "%s", p->sha256);
	snprintf(res->fsid, sizeof(res->fsid), "%s", cb_conn_fsid(rn.conn));
	gethostname(res->host, sizeof(res->host) - 1);
	res->started = time(NULL);

	bool progress = !o->quiet && o->format == CB_FORMAT_TEXT && isatty(STDOUT_FILENO);
	rn.ro = (struct cb_runner_opts){.sigfd = o->sigfd,
					.progress = progress ? stdout : NULL,
					.cqs = cqs,
					.ncqs = ncq,
					.ranks = rk};
	/* Rounds: every workload once, in order, then again those with repeats
	 * left: the rows of a comparison alternate (A B A B), so a cluster's
	 * drift during the run spreads over both sides instead of one. */
	uint64_t rounds = 0;
	for (size_t i = 0; i < p->n; i++)
		rounds = p->items[i].wl.repeat > rounds ? p->items[i].wl.repeat : rounds;
	for (unsigned k = 0; k < rounds && !interrupted && r >= 0; k++) {
		for (size_t i = 0; i < p->n && !interrupted; i++) {
			if (k >= p->items[i].wl.repeat || (k > 0 && !wr[i].sessions))
				continue;
			if (k == 0 && (r = skip_unavailable(&rn, i, e)) > 0)
				continue;
			if (r < 0 || (k == 0 && (r = wl_start(&rn, i, &wr[i], e)) < 0))
				break;
			r = wl_round(&rn, i, &wr[i], k, e);
			if (k + 1 == p->items[i].wl.repeat)
				wl_end(&rn, i, &wr[i]);
			if (r == -EINTR)
				interrupted = true;
			else if (r < 0)
				break;
		}
	}
	for (size_t i = 0; i < p->n; i++)
		wl_end(&rn, i, &wr[i]);
	/* What the sessions freed goes back to the system, or the record and
	 * what the cleanup opens (a CephFS cleanup mounts anew) would add to
	 * it: the peak RSS of a long run came after its phases. */
	malloc_trim(0);
	/* a signal during the last teardown or between phases still counts */
	if (!interrupted && cb_signal_pending(o->sigfd))
		interrupted = true;
	interrupted = cb_ranks_any(rk, interrupted);
	res->interrupted = interrupted;
	/* what any rank made, rank 0 removes: the names are the run's */
	for (size_t i = 0; i < p->n; i++) {
		rn.left[i].created = cb_ranks_any(rk, rn.left[i].created);
		rn.left[i].kept = cb_ranks_any(rk, rn.left[i].kept);
	}
	if (!root)
		goto out;
	/* asked after the phases: it opens a second session */
	snprintf(res->ceph_version, sizeof(res->ceph_version), "%s", cb_conn_version(rn.conn));
	if (rn.conn) { /* how the Ceph client ran: its debug levels cost CPU per op */
		snprintf(res->client_debug, sizeof(res->client_debug), "%s",
			 cb_conn_options(rn.conn)->ceph_debug ? "library" : "quiet");
		snprintf(res->debug_kept, sizeof(res->debug_kept), "%s",
			 cb_conn_debug_kept(rn.conn));
	}
	/* the record as JSON, annotated with the regression verdicts before
	 * anything prints or stores it */
	json_t *rec = res->nphases ? cb_result_json(res) : NULL;
	if (res->nphases && !rec)
		cb_err_usage(e, "out of memory");
	size_t passed = 0, failed = 0;
	cb_expect_count(res, &passed, &failed);
	if (failed)
		verdict = CB_EXIT_FAILED;
	if (rec) {
		int wr = 0;
		if (cb_health_record(health, rec, e) > 0)
			verdict = CB_EXIT_FAILED;
		if (o->format == CB_FORMAT_JSON)
			wr = cb_report_json_dump(stdout, rec);
		else if (o->quiet) /* cron mails what it prints: only what failed */
			cb_report_verdicts(stdout, res, true);
		else
			cb_report_text(stdout, res);
		cb_health_print(rec, o->format == CB_FORMAT_JSON ? stderr : stdout, !o->quiet);
		if ((fflush(stdout) != 0 || wr < 0 || ferror(stdout)) && !cb_err_isset(e))
			cb_err_usage(e, "cannot write the report to standard output");
		if (json) {
			/* cron must notice a missing result file: it is an error of
			 * its own, printed now if another one will be reported */
			struct cb_err je = {0};
			if (cb_out_write(json, render_json, rec, &je) < 0) {
				if (cb_err_isset(e))
					fprintf(stderr, "cephbench: %s\n", je.msg);
				else
					*e = je;
			}
		}
		json_decref(rec);
		malloc_trim(0); /* as above, before the cleanup */
	}
	bool late = late_signal(o->sigfd, "while the result was written");
	if (!o->no_cleanup) {
		cleanup_run(p, rn.left, rn.name, rn.id, rn.conn, o->quiet, e);
		late |= late_signal(o->sigfd, "during the cleanup");
	}
	interrupted |= late;
	for (size_t i = 0; i < p->n && !o->quiet; i++) {
		if (rn.left[i].kept || (o->no_cleanup && rn.left[i].created))
			fprintf(stderr, "kept what workload '%s' wrote (%s); remove it with: %s\n",
				p->items[i].wl.name,
				rn.left[i].kept ? "reuse: true" : "--no-cleanup", rn.left[i].cmd);
	}
out:
	cb_conn_close(rn.conn); /* joins librados' threads: no cb_op_done after this */
	cb_lock_release(lock);
	for (size_t k = 0; k < ncq; k++)
		cb_cq_free(cqs[k]);
	free(cqs);
	cb_result_release(&rn.res);
	free(rn.left);
	free(wr);
	cb_health_close(health);
	cb_out_close(json);
	int rc = cb_err_isset(e) ? (int)e->exit : interrupted ? CB_EXIT_INTERRUPTED : verdict;
	/* every rank ends as rank 0 does; its error was said there */
	cb_ranks_bcast(rk, &rc, sizeof(rc));
	if (!root)
		e->msg[0] = '\0';
	return rc;
}
