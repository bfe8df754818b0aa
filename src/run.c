/* Whole-run orchestration shared by `run` and the ad-hoc layer commands. */
#include "run.h"
#include "report.h"
#include "runner.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int write_json_file(const char *path, const struct cb_result *res, struct cb_err *e)
{
	char tmp[4096];
	snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid());
	FILE *f = fopen(tmp, "w");
	if (!f)
		return cb_err_usage(e, "--json %s: cannot write: %s", path, strerror(errno));
	int r = cb_report_json(f, res);
	if (fclose(f) != 0 && r == 0)
		r = -EIO;
	/* rename: a reader never sees half a file */
	if (r == 0 && rename(tmp, path) != 0)
		r = -errno;
	if (r < 0) {
		unlink(tmp);
		return cb_err_usage(e, "--json %s: cannot write: %s", path, strerror(-r));
	}
	return 0;
}

/* What each workload left, and the command that removes it by hand. */
struct left {
	bool created;
	char cmd[1536];
};

/* "cephbench cleanup --pool P --run-name R [--conf ...]": the same target and
 * cluster flags as the run, so the printed command works as it stands. */
static void cleanup_cmd(const struct cb_engine *eng, const char *target, const char *run,
			const struct cb_cluster_opts *co, char *buf, size_t n)
{
	snprintf(buf, n, "cephbench cleanup %s %s --run-name %s%s%s%s%s%s%s", eng->cleanup_flag,
		 target, run, co->conf ? " --conf " : "", co->conf ? co->conf : "",
		 co->client ? " --client " : "", co->client ? co->client : "",
		 co->keyring ? " --keyring " : "", co->keyring ? co->keyring : "");
}

/* Remove what each phase created; every phase is tried even if one fails.
 * A cleanup failure after an earlier error still gets its own line: the
 * operator must learn that something was left behind. */
static void cleanup_run(const struct cb_profile *p, const struct left *left, const char *run,
			struct cb_conn *conn, bool quiet, struct cb_err *e)
{
	for (size_t i = 0; i < p->n; i++) {
		/* A second phase on the same target simply finds nothing left. */
		if (!left[i].created)
			continue;
		struct cb_err ce = {0};
		struct cb_cleanup_req req = {
		    .conn = conn, .lopts = p->items[i].lopts, .run_name = run, .err = &ce};
		int r = p->items[i].engine->cleanup(&req);
		if (r == 0 && !quiet && req.removed)
			fprintf(stderr, "cleanup: removed %llu %s objects of run '%s'\n",
				(unsigned long long)req.removed, p->items[i].engine->name, run);
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

int cb_run_profile(const struct cb_profile *p, const struct cb_run_opts *o, struct cb_err *e)
{
	struct cb_cluster_opts co = o->cluster;
	struct cb_result res = {0};
	struct cb_conn *conn = NULL;
	struct cb_cq *cq = cb_cq_new();
	struct left *left = calloc(p->n, sizeof(*left));
	bool interrupted = false;
	int r = 0;

	if (!left || !cq) {
		free(left);
		cb_cq_free(cq);
		return cb_err_usage(e, "out of memory"), CB_EXIT_USAGE;
	}
	co.conf = co.conf ? co.conf : p->conf;
	co.client = co.client ? co.client : p->client;
	co.keyring = co.keyring ? co.keyring : p->keyring;
	co.timeout_ns = co.timeout_ns ? co.timeout_ns : p->timeout_ns;
	/* both validated: --run-name by the CLI, the profile name at load */
	const char *run = o->run_name ? o->run_name : p->name;
	r = cb_conn_open(&co, &conn, e);
	if (r < 0)
		goto out;
	res.run_name = strdup(run);
	res.profile_name = strdup(p->name);
	snprintf(res.profile_sha256, sizeof(res.profile_sha256), "%s", p->sha256);
	snprintf(res.fsid, sizeof(res.fsid), "%s", cb_conn_fsid(conn));
	snprintf(res.ceph_version, sizeof(res.ceph_version), "%s", cb_conn_version(conn));
	gethostname(res.host, sizeof(res.host) - 1);
	res.started = time(NULL);

	bool progress = !o->quiet && o->format == CB_FORMAT_TEXT && isatty(STDOUT_FILENO);
	struct cb_runner_opts ro = {
	    .sigfd = o->sigfd, .progress = progress ? stdout : NULL, .cq = cq};
	for (size_t i = 0; i < p->n && !interrupted; i++) {
		struct cb_phase ph = {.wl = &p->items[i].wl,
				      .lopts = p->items[i].lopts,
				      .conn = conn,
				      .run_name = run,
				      .client = 0,
				      .err = e};
		struct cb_phase_result *pr = cb_result_add_phase(&res);
		if (!pr) {
			r = cb_err_usage(e, "out of memory");
			break;
		}
		r = cb_run_phase(&ph, p->items[i].engine, &ro, pr);
		left[i].created = ph.created;
		cleanup_cmd(p->items[i].engine, ph.target, run, &co, left[i].cmd,
			    sizeof(left[i].cmd));
		if (!pr->ran)
			cb_result_drop_last(&res);
		if (r == -EINTR)
			interrupted = true;
		else if (r < 0)
			break;
	}
	/* a signal during the last teardown or between phases still counts */
	if (!interrupted && cb_signal_pending(o->sigfd))
		interrupted = true;
	res.interrupted = interrupted;
	if (res.nphases) {
		int wr = 0;
		if (o->format == CB_FORMAT_JSON)
			wr = cb_report_json(stdout, &res);
		else
			cb_report_text(stdout, &res);
		if ((fflush(stdout) != 0 || wr < 0 || ferror(stdout)) && !cb_err_isset(e))
			cb_err_usage(e, "cannot write the report to standard output");
		if (o->json_path) {
			/* cron must notice a missing result file: it is an error of
			 * its own, printed now if another one will be reported */
			struct cb_err je = {0};
			if (write_json_file(o->json_path, &res, &je) < 0) {
				if (cb_err_isset(e))
					fprintf(stderr, "cephbench: %s\n", je.msg);
				else
					*e = je;
			}
		}
	}
	if (!o->no_cleanup) {
		cleanup_run(p, left, run, conn, o->quiet, e);
	} else {
		for (size_t i = 0; i < p->n; i++)
			if (left[i].created && !o->quiet)
				fprintf(stderr,
					"kept what workload '%s' wrote (--no-cleanup); remove it "
					"with: %s\n",
					p->items[i].wl.name, left[i].cmd);
	}
out:
	cb_conn_close(conn); /* joins librados' threads: no cb_op_done after this */
	cb_cq_free(cq);
	cb_result_release(&res);
	free(left);
	if (cb_err_isset(e))
		return (int)e->exit;
	return interrupted ? CB_EXIT_INTERRUPTED : CB_EXIT_OK;
}
