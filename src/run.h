/* Running a whole profile: connect once, run each workload as a phase,
 * report, then clean up what the run created (also after a signal). */
#ifndef CB_RUN_H
#define CB_RUN_H

#include "conn.h"
#include "health.h"
#include "profile.h"
#include "progress.h"
#include "ranks.h"

#include <stdbool.h>

enum cb_format { CB_FORMAT_TEXT, CB_FORMAT_JSON };

struct cb_run_opts {
	struct cb_cluster_opts cluster; /* flags; profile values fill the gaps */
	const char *run_name;		/* NULL: the profile's name */
	enum cb_format format;
	const char *json_path; /* also write the JSON record here */
	const char *html_path; /* and the page (src/html.c) here */
	bool no_cleanup;
	bool allow_destructive; /* let writes reach things the run did not create */
	bool quiet;		/* print only errors, failures and regressions */
	bool detail;		/* --detail: the text report's telemetry lines, all findings */
	enum cb_progress_mode progress; /* --progress: the live lines on stderr */
	bool wait; /* for another run on the cluster to end, instead of refusing */
	/* --preflight REQUIRE / --no-preflight (CB_PF_OFF); UNSET: the profile's */
	enum cb_pf_require preflight;
	/* --history, --regression, --baseline, --prom */
	struct cb_health_opts health;
	int sigfd; /* the stop signals, blocked before any library thread exists */
	/* A run over MPI (ranks.h): every rank runs every phase; rank 0 alone
	 * takes the lock, reports, writes files and cleans up. NULL: none. */
	struct cb_ranks *ranks;
};

/* Run p and print its report. Returns the process exit code; an error's one
 * line is left in e for the caller to print. */
int cb_run_profile(const struct cb_profile *p, const struct cb_run_opts *o, struct cb_err *e);

#endif
