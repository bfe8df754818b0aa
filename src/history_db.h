/* The run history: one SQLite file, schema in docs/health.md. Runs go in
 * as the JSON record (cb_result_json, or a --json file), so what is stored
 * is what was reported. */
#ifndef CB_HISTORY_DB_H
#define CB_HISTORY_DB_H

#include "err.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* PRAGMA user_version of the schema this code writes; application_id
 * marks the file as a cephbench history ("cbhs"). */
#define CB_HDB_VERSION 3
#define CB_HDB_APP_ID  0x63626873

struct cb_hdb;

/* Open path. writable: the history will be stored into, so it must be
 * writable now (the file, and its directory for SQLite's journal); a
 * missing file is not created here but by the first cb_hdb_begin, in the
 * store's own transaction, so a run that fails before storing leaves
 * nothing behind. Otherwise the file must exist. A file that is not a
 * cephbench history, or one of a newer schema, is an input error. flag
 * names the file in messages ("--history FILE", "FILE"). 0 or -errno with
 * e set. */
int cb_hdb_open(const char *path, bool writable, const char *flag, struct cb_hdb **out,
		struct cb_err *e);
void cb_hdb_close(struct cb_hdb *db);

/* One run is one transaction: its baseline read and its insert, so two cron
 * jobs storing at once each see the other's run whole or not at all.
 * BEGIN IMMEDIATE waits for the busy timeout rather than failing. The
 * first begin on a new history creates the file and, in the transaction,
 * its schema. */
int cb_hdb_begin(struct cb_hdb *db, struct cb_err *e);
int cb_hdb_commit(struct cb_hdb *db, struct cb_err *e);
void cb_hdb_rollback(struct cb_hdb *db);

/* The figures (iops, bw, p99 µs: regression.h's row order) of phase in the
 * last `last` stored runs of rec's profile name on rec's cluster fsid that
 * started no later than rec, newest first, skipping interrupted runs and
 * phases that were interrupted or failed. rec must pass cb_result_check
 * (result_check.h).
 * *rows is malloc'd (free it). 0 or -errno with e set. */
int cb_hdb_baseline(struct cb_hdb *db, const json_t *rec, const char *phase, unsigned last,
		    double **rows, size_t *n, struct cb_err *e);

/* Insert a checked record (cb_result_check) and its phases. A run stored
 * already (same started, fsid, run_name, host and profile sha256, and the
 * same phase names, ops and durations) is an input error: -EEXIST, nothing
 * inserted. 0 or -errno with e set. */
int cb_hdb_store(struct cb_hdb *db, const json_t *rec, struct cb_err *e);

/* The trend: one object per run x phase, oldest first. profile and
 * workload (a phase name, or the workload of NAME.prefill / NAME.PHASE and
 * of the matrix rows NAME_KEY-VALUE...) filter when set; last > 0 keeps the
 * last runs only. */
struct cb_hdb_filter {
	const char *profile;
	const char *workload;
	unsigned last;
};
int cb_hdb_trend(struct cb_hdb *db, const struct cb_hdb_filter *f, json_t **rows, struct cb_err *e);

/* The runs the pre-flight gate refused (stored with no phases), oldest
 * first: {started, run_name, profile, reason} each. f's profile and last
 * filter (its workload does not: they ran none). 0 or -errno with e set. */
int cb_hdb_skipped(struct cb_hdb *db, const struct cb_hdb_filter *f, json_t **rows,
		   struct cb_err *e);

#endif
