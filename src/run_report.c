/* The end of a run's measuring, rank 0's: the record as JSON, judged by
 * the thresholds and the history, printed, and written to --json. */
#include "conn_debug.h"
#include "context.h"
#include "telemetry.h"
#include "expect.h"
#include "outfile.h"
#include "report.h"
#include "html.h"
#include "run_priv.h"
#include "term_esc.h"

#include <jansson.h>
#include <malloc.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

_Static_assert(sizeof(((struct cb_result *)0)->debug_kept) == CB_DEBUG_KEPT_MAX,
	       "the result holds every kept level");

static int render_json(FILE *f, const void *rec)
{
	return cb_report_json_dump(f, rec);
}

/* The page is a report: it never fails the run, one note says why. */
static void write_html_file(struct run *rn, const json_t *rec)
{
	struct cb_err he = {0};
	if (rn->html && cb_html_run_page(rn->html, rec, rn->name, &he) < 0)
		fprintf(stderr, "--html: not written: %s\n", he.msg);
}

/* The report on stdout as --format and --quiet ask. */
static void print_report(struct run *rn, const json_t *rec, struct cb_err *e)
{
	const struct cb_run_opts *o = rn->o;
	int wr = 0;
	/* what the cluster and the host named (a health message's pool, a
	 * disk, an interface) reaches the terminal as text, as `cephbench
	 * report` shows it, not as its commands */
	json_t *shown = json_deep_copy(rec);
	if (!shown || cb_esc_json(shown) < 0) {
		json_decref(shown);
		if (!cb_err_isset(e))
			cb_err_usage(e, "cannot print the report: out of memory");
		return;
	}
	if (o->format == CB_FORMAT_JSON)
		wr = cb_report_json_dump(stdout, rec);
	else if (o->quiet) /* cron mails what it prints: only what failed */
		cb_report_verdicts(stdout, shown, true);
	else
		cb_report_text(stdout, shown, o->detail);
	cb_health_print(shown, o->format == CB_FORMAT_JSON ? stderr : stdout, !o->quiet);
	json_decref(shown);
	if ((fflush(stdout) != 0 || wr < 0 || ferror(stdout)) && !cb_err_isset(e))
		cb_err_usage(e, "cannot write the report to standard output");
}

/* cron must notice a missing result file: it is an error of its own,
 * printed now if another one will be reported. */
static void write_json_file(struct run *rn, const json_t *rec, struct cb_err *e)
{
	struct cb_err je = {0};
	if (!rn->json || cb_out_write(rn->json, render_json, rec, &je) == 0)
		return;
	if (cb_err_isset(e))
		fprintf(stderr, "cephbench: %s\n", je.msg);
	else
		*e = je;
}

void cb_run_report_refused(struct run *rn, struct cb_err *e)
{
	struct cb_result *res = &rn->res;
	if (rn->conn)
		snprintf(res->ceph_version, sizeof(res->ceph_version), "%s",
			 cb_conn_version(rn->conn));
	json_t *rec = cb_result_json(res);
	if (!rec)
		return;
	cb_health_record(rn->health, rec, e);
	write_json_file(rn, rec, e);
	json_decref(rec);
}

void cb_run_report(struct run *rn, struct cb_err *e)
{
	struct cb_result *res = &rn->res;
	size_t passed = 0, failed = 0;
	/* asked after the phases: it opens a second session */
	if (rn->conn) {
		snprintf(res->ceph_version, sizeof(res->ceph_version), "%s",
			 cb_conn_version(rn->conn));
		/* how the Ceph client ran: its debug levels cost CPU per op */
		snprintf(res->client_debug, sizeof(res->client_debug), "%s",
			 cb_conn_options(rn->conn)->ceph_debug ? "library" : "quiet");
		snprintf(res->debug_kept, sizeof(res->debug_kept), "%s",
			 cb_conn_debug_kept(rn->conn));
	}
	/* after the phases, before the cleanup: the run's images are there.
	 * Not when the monitors did not answer for the version, or are in
	 * telemetry's backoff (each command would wait out the timeout
	 * again); no notes beside a
	 * failed run's one error line. */
	if (rn->conn && res->nphases && strcmp(res->ceph_version, "unknown") != 0 &&
	    !cb_tm_mons_away(rn->tm) &&
	    cb_context_record(rn->conn, res, rn->name, rn->o->quiet || cb_err_isset(e)) < 0 &&
	    !rn->o->quiet)
		fprintf(stderr, "context: not recorded: out of memory\n");
	/* the record annotated with the regression verdicts before anything
	 * prints or stores it */
	json_t *rec = res->nphases ? cb_result_json(res) : NULL;
	if (res->nphases && !rec)
		cb_err_usage(e, "out of memory");
	cb_expect_count(res, &passed, &failed);
	if (failed)
		rn->verdict = CB_EXIT_FAILED;
	if (!rec)
		return;
	if (cb_health_record(rn->health, rec, e) > 0)
		rn->verdict = CB_EXIT_FAILED;
	print_report(rn, rec, e);
	write_json_file(rn, rec, e);
	write_html_file(rn, rec);
	json_decref(rec);
	malloc_trim(0); /* as after the phases, before the cleanup */
}
