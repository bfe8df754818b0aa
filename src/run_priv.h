/* What the steps of a whole run share (src/run*.c): the run's state from
 * its start to its end. Private to those files. */
#ifndef CB_RUN_PRIV_H
#define CB_RUN_PRIV_H

#include "result.h"
#include "run.h"
#include "phase.h"
#include "shquote.h"

#include <stdbool.h>
#include <stddef.h>

struct cb_out;

/* What a workload left, and the command that removes it by hand. */
struct left {
	bool created;
	bool kept;
	char cmd[CB_SH_CMD_MAX];
};

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

/* One run of a whole profile. */
struct run {
	const struct cb_profile *p;
	const struct cb_run_opts *o;
	struct cb_cluster_opts co;
	const char *name;
	char id[17];
	bool root;	      /* rank 0 (or no ranks): reports, writes, cleans up */
	bool cluster;	      /* a workload's layer needs the cluster */
	struct cb_conn *conn; /* NULL when no layer needs the cluster */
	int lock;
	struct cb_health *health;
	struct cb_tm *tm;  /* telemetry; NULL until the run is open */
	json_t *preflight; /* the gate's verdict (rank 0's), owned */
	struct cb_out *json;
	struct cb_out *html;
	struct cb_cq **cqs; /* one completion queue per client of the widest workload */
	size_t ncqs;
	struct cb_runner_opts ro;
	struct cb_progress_out po; /* where ro.progress points */
	struct cb_result res;
	struct left *left;  /* per workload */
	struct wl_run *wls; /* per workload */
	bool interrupted;
	int verdict; /* CB_EXIT_OK or CB_EXIT_FAILED */
};

/* run_rounds.c: every workload's rounds. 0, -EINTR, or -errno with e set. */
int cb_run_rounds(struct run *rn, struct cb_err *e);

/* Which steps a round runs: all, or for a group's member its prefills
 * (alone, before the start line) or the rest (beside the other members). */
enum cb_steps_which { CB_STEPS_ALL, CB_STEPS_PREFILL, CB_STEPS_MAIN };

/* How a round runs its phases: the result its new rows go to (the indices
 * in wl_run.row are into it), the runner's options (a group's start line,
 * its member's queues), whether telemetry follows them. */
struct cb_round {
	struct cb_result *res;
	struct cb_runner_opts ro;
	bool tm;
	enum cb_steps_which which;
	/* A group member's round into a result of its own: the run's rows of
	 * its steps (SIZE_MAX: none yet), so that a later round's step that
	 * never started is kept to mark the run's row cut; NULL otherwise. */
	const size_t *outer_row;
};

/* Round k of workload i begins: its first round starts it. 0 to run it, 1
 * when it has no round k (skipped, or its repeats done), -errno with e set. */
int cb_run_wl_begin(struct run *rn, size_t i, unsigned k, struct cb_err *e);
/* One round of workload i's steps. 0, -EINTR, or -errno with e set. */
int cb_run_wl_round(struct run *rn, size_t i, unsigned round, const struct cb_round *c,
		    struct cb_err *e);
/* Round k of workload i ended: its last ends its sessions. */
void cb_run_wl_finish(struct run *rn, size_t i, unsigned k);
/* A later run of a step merged into its row pr came from (pr's telemetry
 * taken); one that did not start still marks the row cut or failed. 0 or
 * -ENOMEM. */
int cb_run_merge_row(struct cb_phase_result *row, struct cb_phase_result *pr);

/* run_group.c: round k of the group whose first member is workload i, its
 * members side by side. 0, -EINTR, or -errno with e set. */
int cb_run_group(struct run *rn, size_t i, unsigned k, struct cb_err *e);
/* The queues a run needs: its widest workload's clients, or a group's
 * members' together. */
size_t cb_run_queues(const struct cb_profile *p);
/* ... and the end of each workload's sessions and connection. */
void cb_run_end_workloads(struct run *rn);

/* run_report.c: the record judged, printed and stored (rank 0). */
void cb_run_report(struct run *rn, struct cb_err *e);

/* ... or, for a run the pre-flight gate refused, the record of a skipped
 * run stored (--history, --prom) and written (--json); nothing printed but
 * the refusal's line. */
void cb_run_report_refused(struct run *rn, struct cb_err *e);

/* run_cleanup.c: what the phases made removed (unless --no-cleanup), what
 * is kept said (rank 0). */
void cb_run_cleanup(struct run *rn, struct cb_err *e);
/* The command that removes what a phase left by hand, into rn->left[i]. */
void cb_run_note_target(struct run *rn, size_t i, const struct cb_engine *eng,
			const struct cb_phase *ph);

/* A stop signal at the end of a run, after the phases' last look (when is
 * what it came during): that step is not cut, but the run still ends as
 * interrupted and says so. True when one came. */
bool cb_run_late_signal(const struct run *rn, const char *when);

#endif
