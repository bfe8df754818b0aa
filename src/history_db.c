/* SQLite storage of runs. Every statement is prepared with bound values
 * (names come from profiles and imported files). */
#include "history_db.h"
#include "outfile.h"
#include "preflight.h"
#include "result_check.h"
#include "term_esc.h"
#include "regression.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Long enough for a cron job to wait out another one's insert, short
 * enough that a stuck holder is reported rather than hanging cron. */
#define BUSY_TIMEOUT_MS 60000

struct cb_hdb {
	sqlite3 *db; /* NULL until the first store when the file did not exist */
	char *path;
	struct cb_out *out; /* opened for writing: the checked path (outfile.h) */
	/* no schema at open (a missing or empty file): the first store's
	 * transaction makes it, so a run that fails before storing leaves no
	 * file behind */
	bool fresh;
	int version;	 /* PRAGMA user_version as opened (1 to 3; 0: fresh) */
	char what[1100]; /* "--history FILE" or "FILE", for messages */
};

static const char schema_v1[] =
    "CREATE TABLE runs ("
    " id INTEGER PRIMARY KEY,"
    " started INTEGER NOT NULL,"
    " profile TEXT NOT NULL,"
    " profile_sha256 TEXT NOT NULL,"
    " run_name TEXT NOT NULL,"
    " fsid TEXT NOT NULL,"
    " ceph_version TEXT NOT NULL,"
    " host TEXT NOT NULL,"
    " tool_version TEXT NOT NULL,"
    " interrupted INTEGER NOT NULL,"
    " stored INTEGER NOT NULL);"
    "CREATE INDEX runs_by_profile ON runs(profile, fsid, started);"
    "CREATE TABLE phases ("
    " run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
    " seq INTEGER NOT NULL,"
    " name TEXT NOT NULL, layer TEXT NOT NULL, op TEXT NOT NULL, pool TEXT NOT NULL,"
    " block_size INTEGER NOT NULL, concurrency INTEGER NOT NULL, clients INTEGER NOT NULL,"
    " ops INTEGER NOT NULL, bytes INTEGER NOT NULL, duration_s REAL NOT NULL,"
    " iops REAL NOT NULL, bw_bytes_per_s REAL NOT NULL,"
    " lat_min_us NUMERIC NOT NULL, lat_mean_us NUMERIC NOT NULL, lat_p50_us NUMERIC NOT NULL,"
    " lat_p90_us NUMERIC NOT NULL, lat_p99_us NUMERIC NOT NULL, lat_p999_us NUMERIC NOT NULL,"
    " lat_max_us NUMERIC NOT NULL,"
    " errors INTEGER NOT NULL, interrupted INTEGER NOT NULL, failed INTEGER NOT NULL,"
    " regressed INTEGER, regression TEXT,"
    " histogram TEXT NOT NULL, samples TEXT NOT NULL,"
    " PRIMARY KEY (run_id, seq));"
    "CREATE INDEX phases_by_name ON phases(name);";

/* Version 2 adds each run's context and its phases' params and uses
 * (docs/result.md#context), as the record holds them: JSON text; what a
 * run's telemetry adds that trends (docs/health.md); and the runs the
 * pre-flight gate refused. Added to a version 1 history by its first store
 * (cb_hdb_begin); a new history is made as schema_v1 and then this, so
 * both have the same tables, column for column. */
static const char migrate_v2[] =
    "CREATE TABLE run_context ("
    " run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,"
    " context TEXT,"
    " phases TEXT NOT NULL);"
    "ALTER TABLE runs ADD COLUMN skipped INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE runs ADD COLUMN skip_reason TEXT;"
    "ALTER TABLE phases ADD COLUMN client_cpu_us_per_op REAL;"
    "ALTER TABLE phases ADD COLUMN cluster_lat_mean_us REAL;"
    "ALTER TABLE phases ADD COLUMN slow_osds INTEGER;"
    "ALTER TABLE phases ADD COLUMN disturbed INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE phases ADD COLUMN disturbed_reasons TEXT;";

/* Version 3 adds whether the cluster served a row's reads and stats
 * (served.h): a row the client's cache served is no baseline. */
static const char migrate_v3[] = "ALTER TABLE phases ADD COLUMN served_by TEXT;";

static int db_err(struct cb_hdb *h, const char *doing, struct cb_err *e)
{
	return cb_err_usage(e, "%s: %s: %s", h->what, doing, sqlite3_errmsg(h->db));
}

/* One integer from a PRAGMA or count query; -1 when the file cannot be
 * read as a database. */
static long long query_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	long long v = -1;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* The rows of sqlite_master about the history's tables (the tables, their
 * indexes and any trigger or view on them), one line each; NULL on error. */
static char *schema_text(sqlite3 *db)
{
	static const char sql[] =
	    "SELECT group_concat(x, char(10)) FROM (SELECT type || ' ' || name || ' ' ||"
	    " tbl_name || ' ' || coalesce(sql, '') AS x FROM sqlite_master"
	    " WHERE tbl_name IN ('runs', 'phases', 'run_context') ORDER BY type, name)";
	sqlite3_stmt *st;
	char *out = NULL;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return NULL;
	if (sqlite3_step(st) == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(st, 0);
		out = strdup(t ? t : "");
	}
	sqlite3_finalize(st);
	return out;
}

/* The history's tables as this code makes them (schema_v1, below, in a
 * database of its own in memory): a history whose phases table was
 * replaced, or given a trigger, would take the run's figures only to fail
 * after the run. 0, or -EINVAL with e set. */
static int check_schema(struct cb_hdb *h, long long version, struct cb_err *e)
{
	sqlite3 *ref = NULL;
	char *want = NULL, *got = schema_text(h->db);
	if (sqlite3_open(":memory:", &ref) == SQLITE_OK &&
	    sqlite3_exec(ref, schema_v1, NULL, NULL, NULL) == SQLITE_OK &&
	    (version < 2 || sqlite3_exec(ref, migrate_v2, NULL, NULL, NULL) == SQLITE_OK) &&
	    (version < 3 || sqlite3_exec(ref, migrate_v3, NULL, NULL, NULL) == SQLITE_OK))
		want = schema_text(ref);
	sqlite3_close(ref);
	int r = 0;
	if (!want || !got)
		r = got ? cb_err_usage(e, "out of memory") : db_err(h, "cannot read", e);
	else if (strcmp(want, got) != 0)
		r = cb_err_usage(e,
				 "%s: not a history this cephbench can use: its tables "
				 "runs and phases (or what is built on them) are not as "
				 "cephbench makes them",
				 h->what);
	free(want);
	free(got);
	return r;
}

/* What the file holds, read in one transaction: another process creating
 * the schema meanwhile must not be seen half (tables, but no
 * application_id yet). Inside a transaction already, it reads in that one.
 * 0, 1 when the file holds nothing yet (no schema, no application_id), or
 * -EINVAL with e set. */
static int check_kind(struct cb_hdb *h, struct cb_err *e)
{
	bool own = sqlite3_get_autocommit(h->db);
	if (own)
		sqlite3_exec(h->db, "BEGIN", NULL, NULL, NULL);
	long long app = query_int(h->db, "PRAGMA application_id");
	long long ver = query_int(h->db, "PRAGMA user_version");
	long long objs = query_int(h->db, "SELECT count(*) FROM sqlite_master");
	int r = 0;
	if ((app < 0 || ver < 0 || objs < 0) && sqlite3_errcode(h->db) == SQLITE_NOTADB)
		r = cb_err_usage(e, "%s: not a cephbench history (not an SQLite file)", h->what);
	else if (app < 0 || ver < 0 || objs < 0)
		r = db_err(h, "cannot read", e);
	else if (app == 0 && objs == 0 && ver == 0)
		r = 1;
	else if (app != CB_HDB_APP_ID)
		r = cb_err_usage(
		    e, "%s: not a cephbench history (an SQLite file of something else)", h->what);
	else if (ver > CB_HDB_VERSION)
		r = cb_err_usage(e,
				 "%s: history schema %lld is newer than this cephbench's (%d); "
				 "use a newer cephbench",
				 h->what, ver, CB_HDB_VERSION);
	else
		r = check_schema(h, ver, e);
	if (r == 0)
		h->version = (int)ver;
	if (own)
		sqlite3_exec(h->db, "COMMIT", NULL, NULL, NULL);
	return r;
}

/* The schema, inside the caller's write transaction. */
static int create_schema(struct cb_hdb *h, struct cb_err *e)
{
	char sql[64];
	snprintf(sql, sizeof(sql), "PRAGMA application_id = %d; PRAGMA user_version = %d;",
		 CB_HDB_APP_ID, CB_HDB_VERSION);
	if (sqlite3_exec(h->db, schema_v1, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_exec(h->db, migrate_v2, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_exec(h->db, migrate_v3, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_exec(h->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return db_err(h, "cannot create the history", e);
	h->version = CB_HDB_VERSION;
	return 0;
}

/* An older history brought to this version, inside the caller's write
 * transaction (a failed store leaves it as it was). */
static int migrate(struct cb_hdb *h, struct cb_err *e)
{
	char sql[64];
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d;", CB_HDB_VERSION);
	if (h->version < CB_HDB_VERSION &&
	    ((h->version < 2 && sqlite3_exec(h->db, migrate_v2, NULL, NULL, NULL) != SQLITE_OK) ||
	     sqlite3_exec(h->db, migrate_v3, NULL, NULL, NULL) != SQLITE_OK ||
	     sqlite3_exec(h->db, sql, NULL, NULL, NULL) != SQLITE_OK))
		return db_err(h, "cannot bring the history to this cephbench's schema", e);
	h->version = CB_HDB_VERSION;
	return 0;
}

static int open_conn(struct cb_hdb *h, int flags, struct cb_err *e)
{
	/* a symlink is never opened: SQLite would follow it, and make its
	 * journal beside the target */
	if (h->out)
		flags |= SQLITE_OPEN_NOFOLLOW;
	int rc = sqlite3_open_v2(h->path, &h->db, flags, NULL);
	if (rc != SQLITE_OK) {
		int se = h->db ? sqlite3_system_errno(h->db) : 0;
		const char *why = se	  ? strerror(se)
				  : h->db ? sqlite3_errmsg(h->db)
					  : "out of memory";
		cb_err_usage(e, "%s: cannot open: %s%s", h->what, why,
			     flags & SQLITE_OPEN_READWRITE
				 ? " (its directory must exist and be writable)"
				 : "");
		sqlite3_close(h->db);
		h->db = NULL;
		return -EINVAL;
	}
	sqlite3_busy_timeout(h->db, BUSY_TIMEOUT_MS);
	/* outside any transaction: inside one it is a no-op */
	if (sqlite3_exec(h->db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL) != SQLITE_OK)
		return db_err(h, "cannot open", e);
	return 0;
}

int cb_hdb_open(const char *path, bool writable, const char *flag, struct cb_hdb **out,
		struct cb_err *e)
{
	struct stat sb;
	*out = NULL;
	struct cb_hdb *h = calloc(1, sizeof(*h));
	if (!h)
		return cb_err_usage(e, "out of memory");
	snprintf(h->what, sizeof(h->what), "%s", flag);
	/* to be written: the path's rules (outfile.h), checked now, before
	 * the run; SQLite gets the directory's own path */
	int r = writable ? cb_out_open(flag, path, CB_OUT_DB, &h->out, e) : 0;
	bool missing = false;
	if (r == 0 && writable) {
		missing = !cb_out_exists(h->out);
		path = cb_out_db_path(h->out);
	} else if (r == 0 && stat(path, &sb) != 0) {
		r = cb_err_usage(e, "%s: cannot open: %s (a history is made by run --history)",
				 flag, strerror(errno));
	} else if (r == 0 && !S_ISREG(sb.st_mode)) {
		/* SQLite would wait on a FIFO for a writer */
		r = cb_err_usage(e, "%s: not a regular file: a history is a regular file", flag);
	}
	if (r == 0 && !(h->path = strdup(path)))
		r = cb_err_usage(e, "out of memory");
	if (r == 0 && missing) {
		/* made by the first store (cb_hdb_begin), not now */
		h->fresh = true;
	} else if (r == 0) {
		r = open_conn(h, writable ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY, e);
		/* SQLite opens a file it may not write read-only, silently */
		if (r == 0 && writable && sqlite3_db_readonly(h->db, "main") == 1)
			r = cb_err_usage(e,
					 "%s: cannot write: the file is read-only (its mode, or a "
					 "read-only file system); make it writable or give another "
					 "file",
					 h->what);
		if (r == 0)
			r = check_kind(h, e);
		if (r == 1 && !writable)
			r = cb_err_usage(e, "%s: not a cephbench history (an empty file)", h->what);
		h->fresh = r == 1;
	}
	if (r < 0) {
		cb_hdb_close(h);
		return -EINVAL;
	}
	*out = h;
	return 0;
}

void cb_hdb_close(struct cb_hdb *h)
{
	if (!h)
		return;
	sqlite3_close(h->db);
	cb_out_close(h->out);
	free(h->path);
	free(h);
}

int cb_hdb_begin(struct cb_hdb *h, struct cb_err *e)
{
	/* a missing history is made here, by us: with the umask's mode, and
	 * removed again if this first store fails */
	if (!h->db &&
	    (cb_out_create(h->out, e) < 0 || open_conn(h, SQLITE_OPEN_READWRITE, e) < 0)) {
		cb_hdb_rollback(h);
		return -EINVAL;
	}
	if (sqlite3_exec(h->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		return db_err(h, "cannot write", e);
	if (!h->fresh) {
		/* looked at again under the write lock: another cephbench may
		 * have brought it to this version since open */
		int r = check_kind(h, e);
		if (r == 0 && h->version < CB_HDB_VERSION)
			r = migrate(h, e);
		if (r < 0)
			cb_hdb_rollback(h);
		return r < 0 ? r : 0;
	}
	/* Looked at again under the write lock: another first run may have
	 * made the schema since open (or something else the file). Made in
	 * this transaction, the schema is there exactly when the run is. */
	int r = check_kind(h, e);
	if (r == 1)
		r = create_schema(h, e);
	if (r < 0) {
		cb_hdb_rollback(h);
		return r;
	}
	return 0;
}

int cb_hdb_commit(struct cb_hdb *h, struct cb_err *e)
{
	if (sqlite3_exec(h->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		db_err(h, "cannot write", e);
		cb_hdb_rollback(h);
		return -EIO;
	}
	h->fresh = false;
	return 0;
}

void cb_hdb_rollback(struct cb_hdb *h)
{
	if (h->db)
		sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
	/* a history this store was to make is not left behind empty (a full
	 * file system); an existing one stays as it was */
	if (h->fresh && h->out) {
		sqlite3_close(h->db);
		h->db = NULL;
		cb_out_discard(h->out);
	}
}

/* A checked record's started (cb_result_time: never -1 then). */
static time_t parse_time(const char *s)
{
	time_t t;
	return s && cb_result_time(s, &t) == 0 ? t : (time_t)-1;
}

int cb_hdb_baseline(struct cb_hdb *h, const json_t *rec, const char *phase, unsigned last,
		    double **rows, size_t *n, struct cb_err *e)
{
	/* started <= the run's: an imported old result is judged by what came
	 * before it, not by later runs */
	static const char sql[] =
	    "SELECT p.iops, p.bw_bytes_per_s, p.lat_p99_us FROM phases p JOIN runs r"
	    " ON r.id = p.run_id WHERE r.profile = ?1 AND r.fsid = ?2 AND p.name = ?3"
	    " AND r.started <= ?5 AND r.interrupted = 0 AND p.interrupted = 0 AND p.failed = 0"
	    " AND r.skipped = 0 AND p.disturbed = 0 AND p.served_by IS NOT 'client cache'"
	    " ORDER BY r.started DESC, r.id DESC LIMIT ?4";
	sqlite3_stmt *st;
	*rows = NULL;
	*n = 0;
	double *v = calloc((size_t)last * CB_REG_NMETRICS, sizeof(*v));
	if (!v)
		return cb_err_usage(e, "out of memory");
	if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK) {
		free(v);
		return db_err(h, "cannot read", e);
	}
	const json_t *prof = json_object_get(rec, "profile"), *cl = json_object_get(rec, "cluster");
	sqlite3_bind_text(st, 1, json_string_value(json_object_get(prof, "name")), -1,
			  SQLITE_STATIC);
	sqlite3_bind_text(st, 2, json_string_value(json_object_get(cl, "fsid")), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, phase, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, last);
	sqlite3_bind_int64(st, 5, parse_time(json_string_value(json_object_get(rec, "started"))));
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && *n < last) {
		for (int m = 0; m < CB_REG_NMETRICS; m++)
			v[*n * CB_REG_NMETRICS + m] = sqlite3_column_double(st, m);
		(*n)++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free(v);
		*n = 0;
		return db_err(h, "cannot read", e);
	}
	*rows = v;
	return 0;
}

static void bind_num(sqlite3_stmt *st, int i, const json_t *v)
{
	/* integers stay exact; SQLite keeps REAL for the rest */
	if (json_is_integer(v))
		sqlite3_bind_int64(st, i, json_integer_value(v));
	else
		sqlite3_bind_double(st, i, json_number_value(v));
}

/* A figure that may be missing (a telemetry part off): NULL then. */
static void bind_opt_num(sqlite3_stmt *st, int i, const json_t *v)
{
	if (json_is_number(v))
		bind_num(st, i, v);
}

static void bind_str(sqlite3_stmt *st, int i, const json_t *o, const char *key)
{
	sqlite3_bind_text(st, i, json_string_value(json_object_get(o, key)), -1, SQLITE_STATIC);
}

/* JSON text into a column; the memory goes to SQLite, which frees it. */
static int bind_json(sqlite3_stmt *st, int i, const json_t *v)
{
	char *s = v ? json_dumps(v, JSON_COMPACT) : NULL;
	if (v && !s)
		return -ENOMEM;
	sqlite3_bind_text(st, i, s, -1, s ? free : SQLITE_STATIC);
	return 0;
}

static int store_phase(sqlite3_stmt *st, sqlite3_int64 run, int seq, const json_t *p)
{
	static const char *const nums[] = {"block_size", "concurrency",	  "clients",
					   "ops",	 "bytes",	  "duration_s",
					   "iops",	 "bw_bytes_per_s"};
	static const char *const lat[] = {"min", "mean", "p50", "p90", "p99", "p99.9", "max"};
	const json_t *l = json_object_get(p, "latency_us");
	const json_t *reg = json_object_get(p, "regression");
	const char *verdict = json_string_value(json_object_get(reg, "verdict"));
	int i = 1;
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	sqlite3_bind_int64(st, i++, run);
	sqlite3_bind_int(st, i++, seq);
	bind_str(st, i++, p, "name");
	bind_str(st, i++, p, "layer");
	bind_str(st, i++, p, "op");
	bind_str(st, i++, p, "pool");
	for (size_t k = 0; k < sizeof(nums) / sizeof(nums[0]); k++)
		bind_num(st, i++, json_object_get(p, nums[k]));
	for (size_t k = 0; k < sizeof(lat) / sizeof(lat[0]); k++)
		bind_num(st, i++, json_object_get(l, lat[k]));
	bind_num(st, i++, json_object_get(p, "errors"));
	sqlite3_bind_int(st, i++, json_is_true(json_object_get(p, "interrupted")));
	sqlite3_bind_int(st, i++, json_is_true(json_object_get(p, "failed")));
	if (verdict && strcmp(verdict, "none") != 0)
		sqlite3_bind_int(st, i, strcmp(verdict, "regression") == 0);
	i++; /* NULL: no verdict */
	if (bind_json(st, i++, reg) < 0 ||
	    bind_json(st, i++, json_object_get(p, "histogram")) < 0 ||
	    bind_json(st, i++, json_object_get(p, "samples")) < 0)
		return -ENOMEM;
	/* schema 2: telemetry's figures, NULL where a part measured nothing */
	const json_t *tm = json_object_get(p, "telemetry");
	const json_t *cl = json_object_get(tm, "cluster");
	const json_t *slow = json_object_get(cl, "slow_osds");
	const json_t *dist = json_object_get(p, "disturbed");
	bind_opt_num(st, i++, json_object_get(json_object_get(tm, "client"), "cpu_us_per_op"));
	bind_opt_num(st, i++, json_object_get(cl, "lat_mean_us"));
	if (json_is_array(slow))
		sqlite3_bind_int64(st, i, (sqlite3_int64)json_array_size(slow));
	i++;
	sqlite3_bind_int(st, i++, json_array_size(dist) > 0);
	if (bind_json(st, i++, json_array_size(dist) ? dist : NULL) < 0)
		return -ENOMEM;
	/* schema 3: NULL on a row that read and stat'ed nothing */
	const char *served = json_string_value(json_object_get(json_object_get(p, "served"), "by"));
	if (served)
		sqlite3_bind_text(st, i, served, -1, SQLITE_TRANSIENT);
	i++;
	return sqlite3_step(st) == SQLITE_DONE ? 0 : -EIO;
}

/* Each kind of a row that says them apart (by_op) as a phase row of its
 * own, "<row>:<kind>", after the record's phases (seq from *seq on), so
 * that a trend follows reads, writes and syncs apart. 0, -ENOMEM or -EIO. */
static int store_kinds(sqlite3_stmt *st, sqlite3_int64 run, int *seq, const json_t *p)
{
	const char *kind;
	json_t *k;
	int r = 0;
	json_object_foreach(json_object_get(p, "by_op"), kind, k)
	{
		char name[256];
		snprintf(name, sizeof(name), "%s:%s", json_string_value(json_object_get(p, "name")),
			 kind);
		json_t *row = json_deep_copy(p);
		if (!row)
			return -ENOMEM;
		json_object_set_new(row, "name", json_string(name));
		static const char *const own[] = {
		    "ops", "bytes", "iops", "bw_bytes_per_s", "latency_us", "histogram"};
		for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++)
			json_object_set(row, own[i], json_object_get(k, own[i]));
		/* the row's, not the kind's: no samples, no verdict, no telemetry */
		json_object_set_new(row, "samples", json_array());
		json_object_set_new(row, "errors", json_integer(0));
		json_object_del(row, "regression");
		json_object_del(row, "telemetry");
		r = store_phase(st, run, (*seq)++, row);
		json_decref(row);
		if (r < 0)
			return r;
	}
	return 0;
}

/* Whether the stored run id has rec's phases: the same names, ops and
 * measured durations, in order. 0, 1 or -EIO. */
static int same_phases(struct cb_hdb *h, sqlite3_int64 id, const json_t *rec)
{
	const json_t *phases = json_object_get(rec, "phases");
	sqlite3_stmt *st;
	size_t i = 0;
	int rc = SQLITE_DONE, same = 1;
	if (sqlite3_prepare_v2(h->db,
			       "SELECT name, ops, duration_s FROM phases WHERE run_id = ?"
			       " AND seq < ? ORDER BY seq",
			       -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_int64(st, 1, id);
	/* the kinds' rows (store_kinds) come after the record's phases */
	sqlite3_bind_int64(st, 2, (sqlite3_int64)json_array_size(phases));
	while (same && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		const json_t *p = json_array_get(phases, i++);
		const char *name = (const char *)sqlite3_column_text(st, 0);
		same =
		    p && name && strcmp(name, json_string_value(json_object_get(p, "name"))) == 0 &&
		    sqlite3_column_int64(st, 1) == json_integer_value(json_object_get(p, "ops")) &&
		    sqlite3_column_double(st, 2) ==
			json_number_value(json_object_get(p, "duration_s"));
	}
	sqlite3_finalize(st);
	if (same && rc != SQLITE_DONE)
		return -EIO;
	return same && i == json_array_size(phases);
}

/* 1 when the history holds rec's run already: an imported result added
 * twice would join its own baseline (a spread of 0). A run is known by
 * where, when and what ran (started, fsid, run_name, host, profile sha256)
 * and, since started has whole seconds and two short runs may share one
 * (one after the other, under the run lock), by its phases' measured ops
 * and durations. 0, 1 or -EIO. */
static int stored_already(struct cb_hdb *h, const json_t *rec)
{
	static const char sql[] = "SELECT id FROM runs WHERE started = ? AND fsid = ? AND"
				  " run_name = ? AND host = ? AND profile_sha256 = ?";
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_int64(st, 1, parse_time(json_string_value(json_object_get(rec, "started"))));
	bind_str(st, 2, json_object_get(rec, "cluster"), "fsid");
	bind_str(st, 3, rec, "run_name");
	bind_str(st, 4, rec, "host");
	bind_str(st, 5, json_object_get(rec, "profile"), "sha256");
	int rc = SQLITE_DONE, r = 0;
	while (r == 0 && (rc = sqlite3_step(st)) == SQLITE_ROW)
		r = same_phases(h, sqlite3_column_int64(st, 0), rec);
	sqlite3_finalize(st);
	return r == 0 && rc != SQLITE_DONE ? -EIO : r;
}

/* The record's context and each phase's params and uses, as JSON text
 * (an older record's: NULL and empty objects). 0, -ENOMEM or -EIO. */
static int store_context(struct cb_hdb *h, sqlite3_int64 run, const json_t *rec)
{
	const json_t *phases = json_object_get(rec, "phases"), *p;
	json_t *each = json_array();
	size_t i;
	json_array_foreach(phases, i, p)
	{
		json_t *o = json_object();
		const json_t *params = json_object_get(p, "params"),
			     *uses = json_object_get(p, "uses");
		if (o && params)
			json_object_set(o, "params", (json_t *)params);
		if (o && uses)
			json_object_set(o, "uses", (json_t *)uses);
		json_array_append_new(each, o);
	}
	const json_t *ctx = json_object_get(rec, "context");
	char *ph = each ? json_dumps(each, JSON_COMPACT) : NULL;
	char *cx = ctx ? json_dumps(ctx, JSON_COMPACT) : NULL;
	json_decref(each);
	sqlite3_stmt *st = NULL;
	int r = !ph || (ctx && !cx) ? -ENOMEM : -EIO;
	if (r == -EIO && sqlite3_prepare_v2(h->db, "INSERT INTO run_context VALUES (?,?,?)", -1,
					    &st, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, run);
		sqlite3_bind_text(st, 2, cx, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, ph, -1, SQLITE_STATIC);
		r = sqlite3_step(st) == SQLITE_DONE ? 0 : -EIO;
	}
	sqlite3_finalize(st);
	free(ph);
	free(cx);
	return r;
}

int cb_hdb_store(struct cb_hdb *h, const json_t *rec, struct cb_err *e)
{
	static const char run_sql[] =
	    "INSERT INTO runs (started, profile, profile_sha256, run_name, fsid, ceph_version,"
	    " host, tool_version, interrupted, stored, skipped, skip_reason)"
	    " VALUES (?,?,?,?,?,?,?,?,?,?,?,?)";
	static const char phase_sql[] = "INSERT INTO phases VALUES (?,?,?,?,?,?,?,"
					"?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,"
					"?,?,?,?,?,?)";
	const json_t *prof = json_object_get(rec, "profile"), *cl = json_object_get(rec, "cluster");
	sqlite3_stmt *rs = NULL, *ps = NULL;
	int r = -EIO, dup = stored_already(h, rec);
	char host[128];
	if (dup == 1)
		return cb_err_usage(
			   e,
			   "%s: run '%s' of profile '%s' started %s on host '%s' is already "
			   "stored; nothing added",
			   h->what, json_string_value(json_object_get(rec, "run_name")),
			   json_string_value(json_object_get(prof, "name")),
			   json_string_value(json_object_get(rec, "started")),
			   cb_esc_str(json_string_value(json_object_get(rec, "host")), host,
				      sizeof(host))),
		       -EEXIST;
	if (dup < 0 || sqlite3_prepare_v2(h->db, run_sql, -1, &rs, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(h->db, phase_sql, -1, &ps, NULL) != SQLITE_OK)
		goto out;
	sqlite3_bind_int64(rs, 1, parse_time(json_string_value(json_object_get(rec, "started"))));
	bind_str(rs, 2, prof, "name");
	bind_str(rs, 3, prof, "sha256");
	bind_str(rs, 4, rec, "run_name");
	bind_str(rs, 5, cl, "fsid");
	bind_str(rs, 6, cl, "ceph_version");
	bind_str(rs, 7, rec, "host");
	bind_str(rs, 8, json_object_get(rec, "tool"), "version");
	sqlite3_bind_int(rs, 9, json_is_true(json_object_get(rec, "interrupted")));
	sqlite3_bind_int64(rs, 10, time(NULL));
	char why[768];
	bool skipped = cb_preflight_refused(rec, why, sizeof(why));
	sqlite3_bind_int(rs, 11, skipped);
	if (skipped)
		sqlite3_bind_text(rs, 12, why, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(rs) != SQLITE_DONE)
		goto out;
	sqlite3_int64 run = sqlite3_last_insert_rowid(h->db);
	const json_t *phases = json_object_get(rec, "phases");
	r = 0;
	for (size_t i = 0; i < json_array_size(phases) && r == 0; i++)
		r = store_phase(ps, run, (int)i, json_array_get(phases, i));
	int seq = (int)json_array_size(phases);
	for (size_t i = 0; i < json_array_size(phases) && r == 0; i++)
		r = store_kinds(ps, run, &seq, json_array_get(phases, i));
	if (r == 0)
		r = store_context(h, run, rec);
out:
	if (r == -ENOMEM)
		cb_err_usage(e, "out of memory");
	else if (r < 0)
		db_err(h, "cannot store the run", e);
	sqlite3_finalize(rs);
	sqlite3_finalize(ps);
	return r;
}

/* A column as JSON: integers stay integers, so a figure reads back as it
 * was stored. */
static json_t *column_json(sqlite3_stmt *st, int i)
{
	switch (sqlite3_column_type(st, i)) {
	case SQLITE_INTEGER:
		return json_integer(sqlite3_column_int64(st, i));
	case SQLITE_FLOAT:
		return json_real(sqlite3_column_double(st, i));
	case SQLITE_NULL:
		return json_null();
	default:
		return json_string((const char *)sqlite3_column_text(st, i));
	}
}

static json_t *trend_row(sqlite3_stmt *st)
{
	/* SELECT order below; "" starts the latency_us object */
	static const char *const keys[] = {"started",
					   "run_name",
					   "profile",
					   "profile_sha256",
					   "fsid",
					   "ceph_version",
					   "host",
					   "phase",
					   "layer",
					   "op",
					   "pool",
					   "block_size",
					   "concurrency",
					   "clients",
					   "duration_s",
					   "ops",
					   "bytes",
					   "iops",
					   "bw_bytes_per_s",
					   "errors",
					   "",
					   "min",
					   "mean",
					   "p50",
					   "p90",
					   "p99",
					   "p99.9",
					   "max"};
	json_t *row = json_object(), *lat = json_object(), *into = row;
	int n = (int)(sizeof(keys) / sizeof(keys[0]));
	if (!row || !lat) {
		json_decref(row);
		json_decref(lat);
		return NULL;
	}
	for (int i = 0; i < n; i++) {
		if (!keys[i][0]) {
			into = lat;
			continue;
		}
		json_object_set_new(into, keys[i], column_json(st, i));
	}
	json_object_set_new(row, "latency_us", lat);
	json_object_set_new(row, "interrupted", json_boolean(sqlite3_column_int(st, n)));
	json_object_set_new(row, "failed", json_boolean(sqlite3_column_int(st, n + 1)));
	const char *reg = (const char *)sqlite3_column_text(st, n + 2);
	json_object_set_new(row, "regression", reg ? json_loads(reg, 0, NULL) : json_null());
	/* schema 2's figures: null where not measured */
	json_object_set_new(row, "client_cpu_us_per_op", column_json(st, n + 3));
	json_object_set_new(row, "cluster_lat_mean_us", column_json(st, n + 4));
	json_object_set_new(row, "slow_osds", column_json(st, n + 5));
	json_object_set_new(row, "disturbed", json_boolean(sqlite3_column_int(st, n + 6)));
	const char *dist = (const char *)sqlite3_column_text(st, n + 7);
	json_object_set_new(row, "disturbed_reasons",
			    dist ? json_loads(dist, 0, NULL) : json_array());
	/* schema 3's: null on a row that read nothing, or stored before */
	json_object_set_new(row, "served_by", column_json(st, n + 8));
	return row;
}

/* Each row of st (prepared and bound) through row() into rows, then *out
 * = rows; st finalized. 0, or -errno with e set (rows freed). */
static int collect_rows(struct cb_hdb *h, sqlite3_stmt *st, json_t *(*row)(sqlite3_stmt *),
			json_t *rows, json_t **out, struct cb_err *e)
{
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		json_t *r = row(st);
		if (!r || json_array_append_new(rows, r) < 0) {
			rc = SQLITE_NOMEM;
			break;
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		json_decref(rows);
		return rc == SQLITE_NOMEM ? cb_err_usage(e, "out of memory")
					  : db_err(h, "cannot read", e);
	}
	*out = rows;
	return 0;
}

/* A run the gate refused, as cb_hdb_skipped lists it. */
static json_t *skipped_row(sqlite3_stmt *st)
{
	return json_pack("{s:o, s:o, s:o, s:o}", "started", column_json(st, 0), "run_name",
			 column_json(st, 1), "profile", column_json(st, 2), "reason",
			 column_json(st, 3));
}

int cb_hdb_trend(struct cb_hdb *h, const struct cb_hdb_filter *f, json_t **out, struct cb_err *e)
{
	/* ?1 profile, ?2 workload (NULL: any), ?3 last runs (0: all) */
	/* W itself, its steps W.STEP, and the rows of a matrix workload:
	 * W_KEY-VALUE[_KEY-VALUE...][.STEP]. The phases table keeps no
	 * workload column, so a row is told by its name: W_, then a '-' before
	 * any '.' (names have no '.', steps start with one), so neither
	 * another workload W_x nor its steps (W_x.dir-create) match; and each
	 * one's kinds, NAME:KIND (store_kinds). Not LIKE:
	 * it ignores case, and W's own '_' would be a wildcard. */
#define REST(p) "substr(" p ".name, length(?2) + 2)"
#define WL(p)                                                                                      \
	"(?2 IS NULL OR " p ".name = ?2 OR substr(" p ".name, 1, length(?2) + 1) = ?2 || '.' OR"   \
	" substr(" p ".name, 1, length(?2) + 1) = ?2 || ':' OR"                                    \
	" (substr(" p ".name, 1, length(?2) + 1) = ?2 || '_' AND instr(" REST(                     \
	    p) ", '-') > 0 AND"                                                                    \
	       " (instr(" REST(p) ", '.') = 0 OR instr(" REST(p) ", '-') < instr(" REST(           \
		   p) ", '.'))))"
#define TREND_SQL(V2)                                                                              \
	"SELECT strftime('%Y-%m-%dT%H:%M:%SZ', r.started, 'unixepoch'), r.run_name, r.profile,"    \
	" r.profile_sha256, r.fsid, r.ceph_version, r.host, p.name, p.layer, p.op, p.pool,"        \
	" p.block_size, p.concurrency, p.clients, p.duration_s, p.ops, p.bytes, p.iops,"           \
	" p.bw_bytes_per_s, p.errors, NULL, p.lat_min_us, p.lat_mean_us, p.lat_p50_us,"            \
	" p.lat_p90_us, p.lat_p99_us, p.lat_p999_us, p.lat_max_us,"                                \
	" r.interrupted OR p.interrupted, p.failed, p.regression, " V2                             \
	" FROM phases p JOIN runs r ON r.id = p.run_id"                                            \
	" WHERE (?1 IS NULL OR r.profile = ?1) AND " WL(                                           \
	    "p") " AND (?3 = 0 OR r.id IN"                                                         \
		 " (SELECT r2.id FROM runs r2 WHERE (?1 IS NULL OR r2.profile = ?1) AND EXISTS"    \
		 " (SELECT 1 FROM phases p2 WHERE p2.run_id = r2.id AND " WL(                      \
		     "p2") ")"                                                                     \
			   " ORDER BY r2.started DESC, r2.id DESC LIMIT ?3))"                      \
			   " ORDER BY r.started, r.id, p.seq"
	/* a history of schema 1, read only, has none of version 2's columns */
	static const char sql_v3[] =
	    TREND_SQL("p.client_cpu_us_per_op, p.cluster_lat_mean_us, p.slow_osds, p.disturbed,"
		      " p.disturbed_reasons, p.served_by");
	static const char sql_v2[] =
	    TREND_SQL("p.client_cpu_us_per_op, p.cluster_lat_mean_us, p.slow_osds, p.disturbed,"
		      " p.disturbed_reasons, NULL");
	static const char sql_v1[] = TREND_SQL("NULL, NULL, NULL, 0, NULL, NULL");
	const char *sql = h->version >= 3 || h->fresh ? sql_v3 : h->version == 2 ? sql_v2 : sql_v1;
#undef TREND_SQL
#undef WL
#undef REST
	sqlite3_stmt *st;
	json_t *rows = json_array();
	*out = NULL;
	if (!rows)
		return cb_err_usage(e, "out of memory");
	if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK) {
		json_decref(rows);
		return db_err(h, "cannot read", e);
	}
	sqlite3_bind_text(st, 1, f->profile, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, f->workload, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, f->last);
	return collect_rows(h, st, trend_row, rows, out, e);
}

int cb_hdb_skipped(struct cb_hdb *h, const struct cb_hdb_filter *f, json_t **out, struct cb_err *e)
{
	static const char sql[] =
	    "SELECT * FROM (SELECT strftime('%Y-%m-%dT%H:%M:%SZ', started, 'unixepoch'), run_name,"
	    " profile, skip_reason, id FROM runs WHERE skipped = 1 AND (?1 IS NULL OR profile = ?1)"
	    " ORDER BY started DESC, id DESC LIMIT CASE WHEN ?2 = 0 THEN -1 ELSE ?2 END)"
	    " ORDER BY 1, 5";
	sqlite3_stmt *st;
	json_t *rows = json_array();
	*out = NULL;
	if (!rows)
		return cb_err_usage(e, "out of memory");
	/* schema 1 had no skipped runs */
	if (h->version < 2) {
		*out = rows;
		return 0;
	}
	if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK) {
		json_decref(rows);
		return db_err(h, "cannot read", e);
	}
	sqlite3_bind_text(st, 1, f->profile, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, f->last);
	return collect_rows(h, st, skipped_row, rows, out, e);
}
