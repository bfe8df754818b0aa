/* The cron health workflow around a run: --history (SQLite), --regression
 * against the stored baseline, --prom (node_exporter textfile). It works on
 * the JSON record (cb_result_json), so a live run and an imported result
 * file (`cephbench history FILE --add`) go through the same code. */
#ifndef CB_HEALTH_H
#define CB_HEALTH_H

#include "err.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

/* Long option ids of the health flags: a range of their own, apart from
 * cli.h's, so the flag lists of other features do not collide with them. */
enum {
	CB_OPT_HISTORY = 1050,
	CB_OPT_REGRESSION,
	CB_OPT_BASELINE,
	CB_OPT_PROM,
};

#define CB_BASELINE_DEFAULT 7

/* Part of CB_CLI_RUN_OPTIONS. */
#define CB_CLI_HEALTH_OPTIONS                                                                      \
	{"history", required_argument, NULL, CB_OPT_HISTORY},                                      \
	    {"regression", required_argument, NULL, CB_OPT_REGRESSION},                            \
	    {"baseline", required_argument, NULL, CB_OPT_BASELINE},                                \
	{                                                                                          \
		"prom", required_argument, NULL, CB_OPT_PROM                                       \
	}

struct cb_health_opts {
	const char *history;	   /* SQLite file, NULL: none */
	const char *prom;	   /* textfile to write, NULL: none */
	double regression_pct;	   /* 0: no regression check */
	unsigned baseline;	   /* 0: not given (CB_BASELINE_DEFAULT) */
	const char *history_label; /* names the file in messages; NULL: "--history FILE" */
};

/* Handle one health flag. 1 when handled, 0 when opt is not one, -EINVAL
 * with e set for a bad value. */
int cb_health_flag(int opt, const char *arg, struct cb_health_opts *o, struct cb_err *e);

/* The flags' help paragraph (part of cb_cli_run_help). */
#define CB_HEALTH_HELP                                                                             \
	"Health (cron; see docs/health.md):\n"                                                     \
	"      --history FILE   store the run in the SQLite history FILE (made by the first\n"     \
	"                       run stored; its directory must exist)\n"                           \
	"      --regression PCT compare each phase with the median of its earlier runs in\n"       \
	"                       the history; a drop in IOPS or MiB/s, or a rise in p99, past\n"    \
	"                       PCT % and past the baseline's spread exits 1\n"                    \
	"      --baseline N     earlier runs the median is taken over (3-1000, default 7)\n"       \
	"      --prom FILE      write the figures as a Prometheus textfile (node_exporter)\n"

struct cb_health;

/* The flags together, without looking at any file (what --dry-run checks;
 * cb_health_open does it too). 0 or -EINVAL with e set. */
int cb_health_check(const struct cb_health_opts *o, struct cb_err *e);

/* Check the flags together and open the history, before the run connects:
 * a bad combination or an unusable file (not a history, not writable) is an
 * input error before any benchmark ran. A missing history is created by
 * cb_health_record, not here. *out is NULL when no health flag was given.
 * 0 or -errno with e set. */
int cb_health_open(const struct cb_health_opts *o, struct cb_health **out, struct cb_err *e);

/* Annotate rec's phases with their regression verdict (--regression), store
 * the run (--history, one transaction) and write the textfile (--prom).
 * rec must pass cb_result_check (result_check.h). Returns the number of phases
 * that regressed. A failure to store or write is an error (exit 2) of its
 * own: recorded in e, or printed on a line of its own when e already holds
 * one (as --json does). h may be NULL: nothing to do. */
int cb_health_record(struct cb_health *h, json_t *rec, struct cb_err *e);

/* Print one line per phase that regressed; with verbose also the phases
 * that had too few earlier runs for a verdict. */
void cb_health_print(const json_t *rec, FILE *out, bool verbose);

void cb_health_close(struct cb_health *h);

#endif
