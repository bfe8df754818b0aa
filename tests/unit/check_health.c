/* The health pieces without a cluster: the regression rule's arithmetic and
 * verdicts, the textfile's escaping, the SQLite history's round trip, its
 * baseline selection and its refusal of files that are not histories. */
#include "health.h"
#include "history_db.h"
#include "prom.h"
#include "regression.h"

#include <check.h>
#include <errno.h>
#include <jansson.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
/* The out-of-memory tests ask for more than any allocator gives: ASan must
 * answer NULL, as malloc does, rather than abort. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "allocator_may_return_null=1";
}
#endif

/* More doubles than fit in memory: an allocation for them fails. */
#define TOO_MANY (SIZE_MAX / sizeof(double) / 2)

static json_t *phase(const char *name, const char *pool, double iops, double bw, int p99)
{
	return json_pack("{s:s, s:s, s:s, s:s, s:i, s:i, s:i, s:f, s:i, s:i, s:f, s:f, s:i, s:b, "
			 "s:b, s:{s:i, s:f, s:i, s:i, s:i, s:i, s:i}, s:{}, s:[]}",
			 "name", name, "layer", "rados", "op", "write", "pool", pool, "block_size",
			 4096, "concurrency", 16, "clients", 1, "duration_s", 2.0, "ops",
			 (int)(iops * 2), "bytes", (int)(bw * 2), "iops", iops, "bw_bytes_per_s",
			 bw, "errors", 0, "interrupted", 0, "failed", 0, "latency_us", "min", 100,
			 "mean", 900.5, "p50", 800, "p90", 1500, "p99", p99, "p99.9", p99 + 100,
			 "max", p99 + 200, "histogram", "samples");
}

static json_t *record(const char *started, bool interrupted, json_t *ph)
{
	return json_pack("{s:s, s:{s:s, s:s}, s:{s:s, s:s}, s:s, s:s, s:s, s:{s:s, s:s}, s:b, "
			 "s:[o]}",
			 "schema", "cephbench-result/1", "tool", "name", "cephbench", "version",
			 "0.1.0", "cluster", "fsid", "f-1", "ceph_version", "16.2.15", "host", "h",
			 "started", started, "run_name", "nightly", "profile", "name", "health",
			 "sha256", "ab", "interrupted", interrupted, "phases", ph);
}

START_TEST(median_and_mad)
{
	double a[] = {5, 1, 3}, b[] = {4, 1, 3, 2}, c[] = {1, 2, 3, 4, 100};
	ck_assert_double_eq(cb_median(a, 3), 3);
	ck_assert_double_eq(cb_median(b, 4), 2.5);
	double mad = -1;
	ck_assert_int_eq(cb_mad(c, 5, 3, &mad), 0);
	ck_assert_double_eq(mad, 1); /* the outlier does not move it */
	ck_assert_double_eq(cb_median(NULL, 0), 0);
	/* out of memory is an error, not a MAD (a spread) of 0 */
	mad = -1;
	ck_assert_int_eq(cb_mad(c, TOO_MANY, 3, &mad), -ENOMEM);
	ck_assert_double_eq(mad, -1);
}
END_TEST

START_TEST(judge_out_of_memory)
{
	/* the scratch for the medians cannot be had: NULL, nothing leaked (the
	 * rows are never read: the allocation fails first) */
	double rows[CB_REG_NMETRICS] = {0};
	json_t *ph = phase("w", "bench", 800, 3.2e6, 2000);
	ck_assert_ptr_null(cb_regression_judge(ph, rows, TOO_MANY, 10, NULL));
	json_decref(ph);
}
END_TEST

/* seven runs around 1000 IOPS (±1 %), 4 MB/s, p99 2000 µs */
static void quiet_baseline(double *rows)
{
	static const double noise[] = {1.0, 1.01, 0.99, 1.005, 0.995, 1.0, 1.01};
	for (int i = 0; i < 7; i++) {
		rows[i * CB_REG_NMETRICS + CB_REG_IOPS] = 1000 * noise[i];
		rows[i * CB_REG_NMETRICS + CB_REG_BW] = 4e6 * noise[i];
		rows[i * CB_REG_NMETRICS + CB_REG_P99] = 2000 * noise[i];
	}
}

static const char *verdict(const json_t *a)
{
	return json_string_value(json_object_get(a, "verdict"));
}

static bool flagged(const json_t *a, const char *m)
{
	return json_is_true(
	    json_object_get(json_object_get(json_object_get(a, "metrics"), m), "regression"));
}

START_TEST(verdicts)
{
	double rows[7 * CB_REG_NMETRICS];
	quiet_baseline(rows);
	json_t *slow = phase("w", "bench", 800, 3.2e6, 2000);
	json_t *a = cb_regression_judge(slow, rows, 7, 10, NULL);
	ck_assert_str_eq(verdict(a), "regression");
	ck_assert(flagged(a, "iops") && flagged(a, "bw_bytes_per_s") && !flagged(a, "p99_us"));
	json_t *m = json_object_get(json_object_get(a, "metrics"), "iops");
	ck_assert_double_eq_tol(json_real_value(json_object_get(m, "change_pct")), -20, 1e-9);
	ck_assert_double_eq(json_real_value(json_object_get(m, "baseline_median")), 1000);
	json_decref(a);

	json_t *near = phase("w", "bench", 990, 3.96e6, 2010);
	a = cb_regression_judge(near, rows, 7, 10, NULL);
	ck_assert_str_eq(verdict(a), "ok");
	json_decref(a);

	json_t *late = phase("w", "bench", 1000, 4e6, 3000);
	a = cb_regression_judge(late, rows, 7, 10, NULL);
	ck_assert_str_eq(verdict(a), "regression");
	ck_assert(flagged(a, "p99_us") && !flagged(a, "iops"));
	json_decref(a);

	/* one earlier run was as slow: past the limit and the MAD spread (the
	 * other six agree closely), yet no worse than that run: not flagged */
	double once[7 * CB_REG_NMETRICS];
	quiet_baseline(once);
	once[3 * CB_REG_NMETRICS + CB_REG_IOPS] = 780;
	a = cb_regression_judge(slow, once, 7, 10, NULL);
	ck_assert(!flagged(a, "iops") && flagged(a, "bw_bytes_per_s"));
	m = json_object_get(json_object_get(a, "metrics"), "iops");
	ck_assert_double_eq(json_real_value(json_object_get(m, "baseline_worst")), 780);
	ck_assert_double_lt(json_real_value(json_object_get(m, "spread_pct")), 20);
	json_decref(a);

	/* too few earlier runs, or a run that was cut: no verdict, said why */
	a = cb_regression_judge(slow, rows, 2, 10, NULL);
	ck_assert_str_eq(verdict(a), "none");
	ck_assert(!json_is_true(json_object_get(a, "compared")));
	ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(a, "reason")), "2 earlier"));
	json_decref(a);
	/* a rate over a few milliseconds is noise */
	json_object_set_new(slow, "duration_s", json_real(0.02));
	a = cb_regression_judge(slow, rows, 7, 10, NULL);
	ck_assert_str_eq(verdict(a), "none");
	ck_assert_ptr_nonnull(
	    strstr(json_string_value(json_object_get(a, "reason")), "less than 1 s"));
	json_decref(a);
	a = cb_regression_judge(slow, rows, 7, 10, "the run was interrupted");
	ck_assert_str_eq(verdict(a), "none");
	json_decref(a);
	json_decref(slow);
	json_decref(near);
	json_decref(late);
}
END_TEST

START_TEST(noisy_baseline_and_zero_figures)
{
	/* a baseline that swings ±40 %: a 20 % drop is within its spread */
	double rows[5 * CB_REG_NMETRICS] = {0};
	const double iops[] = {600, 1400, 1000, 700, 1300};
	for (int i = 0; i < 5; i++)
		rows[i * CB_REG_NMETRICS + CB_REG_IOPS] = iops[i];
	json_t *ph = phase("w", "bench", 800, 0, 0);
	json_t *a = cb_regression_judge(ph, rows, 5, 10, NULL);
	ck_assert_str_eq(verdict(a), "ok");
	json_t *m = json_object_get(json_object_get(a, "metrics"), "iops");
	ck_assert(json_real_value(json_object_get(m, "spread_pct")) > 20);
	/* nothing to compare a bandwidth or p99 of 0 with */
	ck_assert_ptr_null(json_object_get(json_object_get(a, "metrics"), "bw_bytes_per_s"));
	ck_assert_ptr_null(json_object_get(json_object_get(a, "metrics"), "p99_us"));
	json_decref(a);
	json_decref(ph);
	/* nor a p99 taken over a few ops: it is their maximum */
	double rows7[7 * CB_REG_NMETRICS];
	quiet_baseline(rows7);
	ph = phase("w", "bench", 100, 4e6, 9000); /* 200 ops */
	a = cb_regression_judge(ph, rows7, 7, 10, NULL);
	ck_assert_ptr_null(json_object_get(json_object_get(a, "metrics"), "p99_us"));
	ck_assert_ptr_nonnull(json_object_get(json_object_get(a, "metrics"), "iops"));
	json_decref(a);
	json_decref(ph);
}
END_TEST

START_TEST(prom_escapes_labels)
{
	json_t *rec = record("2026-01-02T03:04:05Z", false, phase("w", "a\"b\\c\nd", 10, 20, 30));
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ck_assert_int_eq(cb_prom_render(f, rec), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "pool=\"a\\\"b\\\\c\\nd\""));
	ck_assert_ptr_nonnull(strstr(buf, "# TYPE cephbench_latency_seconds summary\n"));
	ck_assert_ptr_nonnull(strstr(buf, ",quantile=\"0.99\"} 3e-05\n"));
	ck_assert_ptr_nonnull(
	    strstr(buf, "cephbench_last_run_timestamp_seconds{profile=\"health\"} 1767323045\n"));
	free(buf);
	json_decref(rec);
}
END_TEST

static char dir[] = "/tmp/check_health.XXXXXX";

static void path_in_dir(char *out, size_t n, const char *name)
{
	snprintf(out, n, "%s/%s", dir, name);
}

START_TEST(history_round_trip)
{
	char db_path[256];
	struct cb_err e = {0};
	struct cb_hdb *db;
	path_in_dir(db_path, sizeof(db_path), "h.db");
	ck_assert_int_eq(cb_hdb_open(db_path, true, "--history h.db", &db, &e), 0);
	const double iops[] = {1000, 1010, 990, 5};
	for (int i = 0; i < 4; i++) {
		char ts[32];
		snprintf(ts, sizeof(ts), "2026-01-0%dT00:00:00Z", i + 1);
		/* the fourth run was interrupted: stored, never a baseline */
		json_t *rec = record(ts, i == 3, phase("w", "bench", iops[i], iops[i] * 4096, 900));
		ck_assert_int_eq(cb_hdb_begin(db, &e), 0);
		ck_assert_int_eq(cb_hdb_store(db, rec, &e), 0);
		ck_assert_int_eq(cb_hdb_commit(db, &e), 0);
		json_decref(rec);
	}
	json_t *later = record("2026-02-01T00:00:00Z", false, phase("w", "bench", 1, 1, 1));
	double *rows;
	size_t n;
	ck_assert_int_eq(cb_hdb_baseline(db, later, "w", 7, &rows, &n, &e), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_double_eq(rows[0 * CB_REG_NMETRICS + CB_REG_IOPS], 990); /* newest first */
	ck_assert_double_eq(rows[2 * CB_REG_NMETRICS + CB_REG_IOPS], 1000);
	ck_assert_double_eq(rows[0 * CB_REG_NMETRICS + CB_REG_P99], 900);
	free(rows);
	ck_assert_int_eq(cb_hdb_baseline(db, later, "w", 2, &rows, &n, &e), 0);
	ck_assert_uint_eq(n, 2);
	free(rows);
	ck_assert_int_eq(cb_hdb_baseline(db, later, "other", 7, &rows, &n, &e), 0);
	ck_assert_uint_eq(n, 0);
	free(rows);
	json_decref(later);
	cb_hdb_close(db);

	ck_assert_int_eq(cb_hdb_open(db_path, false, "h.db", &db, &e), 0);
	json_t *t;
	struct cb_hdb_filter f = {.last = 2};
	ck_assert_int_eq(cb_hdb_trend(db, &f, &t, &e), 0);
	ck_assert_uint_eq(json_array_size(t), 2);
	const json_t *r0 = json_array_get(t, 0);
	ck_assert_str_eq(json_string_value(json_object_get(r0, "started")), "2026-01-03T00:00:00Z");
	ck_assert_double_eq(json_number_value(json_object_get(r0, "iops")), 990);
	ck_assert_int_eq(json_integer_value(json_object_get(r0, "ops")), 1980);
	ck_assert(json_is_true(json_object_get(json_array_get(t, 1), "interrupted")));
	json_decref(t);
	f = (struct cb_hdb_filter){.workload = "nope"};
	ck_assert_int_eq(cb_hdb_trend(db, &f, &t, &e), 0);
	ck_assert_uint_eq(json_array_size(t), 0);
	json_decref(t);
	cb_hdb_close(db);
	ck_assert(!cb_err_isset(&e));
}
END_TEST

/* One run stored into the history at path, as cb_health_record does. */
static void store_one(const char *path, const char *started)
{
	struct cb_err e = {0};
	struct cb_hdb *db;
	json_t *rec = record(started, false, phase("w", "bench", 1000, 4e6, 900));
	ck_assert_int_eq(cb_hdb_open(path, true, "--history", &db, &e), 0);
	ck_assert_int_eq(cb_hdb_begin(db, &e), 0);
	ck_assert_int_eq(cb_hdb_store(db, rec, &e), 0);
	ck_assert_int_eq(cb_hdb_commit(db, &e), 0);
	cb_hdb_close(db);
	json_decref(rec);
}

START_TEST(history_made_by_the_first_store)
{
	char p[256];
	struct cb_err e = {0};
	struct cb_hdb *db;
	struct cb_health *h;
	/* a run that fails before storing leaves no file (nor an empty one) */
	path_in_dir(p, sizeof(p), "later.db");
	struct cb_health_opts o = {.history = p, .regression_pct = 10};
	ck_assert_int_eq(cb_health_open(&o, &h, &e), 0);
	ck_assert_int_ne(access(p, F_OK), 0);
	cb_health_close(h);
	ck_assert_int_ne(access(p, F_OK), 0);
	/* the first store makes it, schema and run in one */
	json_t *rec = record("2026-01-01T00:00:00Z", false, phase("w", "bench", 1000, 4e6, 900));
	ck_assert_int_eq(cb_health_open(&o, &h, &e), 0);
	ck_assert_int_eq(cb_health_record(h, rec, &e), 0);
	cb_health_close(h);
	json_decref(rec);
	ck_assert(!cb_err_isset(&e));
	ck_assert_int_eq(cb_hdb_open(p, false, "later.db", &db, &e), 0);
	json_t *t;
	struct cb_hdb_filter f = {0};
	ck_assert_int_eq(cb_hdb_trend(db, &f, &t, &e), 0);
	ck_assert_uint_eq(json_array_size(t), 1);
	json_decref(t);
	cb_hdb_close(db);
	/* an empty file (a store that failed in its first transaction) is a
	 * history yet to be made, not an error */
	path_in_dir(p, sizeof(p), "empty.db");
	fclose(fopen(p, "w"));
	store_one(p, "2026-01-01T00:00:00Z");
	/* still checked before the run: a missing directory, or a file in the
	 * way of one */
	path_in_dir(p, sizeof(p), "no-such-dir/h.db");
	ck_assert_int_lt(cb_hdb_open(p, true, "--history x", &db, &e), 0);
	ck_assert_ptr_nonnull(strstr(e.msg, "--history x: cannot open: No such file"));
	e = (struct cb_err){0};
	path_in_dir(p, sizeof(p), "empty.db/h.db");
	ck_assert_int_lt(cb_hdb_open(p, true, "--history y", &db, &e), 0);
	ck_assert_ptr_nonnull(strstr(e.msg, "--history y: cannot open: Not a directory"));
}
END_TEST

/* What a user who may not write gets, before any run: -1 on the first
 * check that fails (it says which on stderr), 0 when all hold. */
static int read_only_checks(const char *ro_file, const char *ro_dir)
{
	char p[300];
	struct cb_err e = {0};
	struct cb_hdb *db;
	struct stat before, after;
	stat(ro_file, &before);
	if (cb_hdb_open(ro_file, true, "--history ro", &db, &e) == 0 ||
	    !strstr(e.msg, "--history ro: cannot write: the file is read-only")) {
		fprintf(stderr, "a 0444 history: '%s'\n", e.msg);
		return -1;
	}
	stat(ro_file, &after);
	if (after.st_mtime != before.st_mtime || after.st_size != before.st_size)
		return fprintf(stderr, "a 0444 history changed\n"), -1;
	/* a writable file, but the journal has nowhere to go */
	snprintf(p, sizeof(p), "%s/h.db", ro_dir);
	e = (struct cb_err){0};
	if (cb_hdb_open(p, true, "--history h", &db, &e) == 0 ||
	    !strstr(e.msg, "cannot write in ")) {
		fprintf(stderr, "a history in a read-only directory: '%s'\n", e.msg);
		return -1;
	}
	snprintf(p, sizeof(p), "%s/new.db", ro_dir);
	e = (struct cb_err){0};
	if (cb_hdb_open(p, true, "--history new", &db, &e) == 0 ||
	    !strstr(e.msg, "cannot write in ") || access(p, F_OK) == 0) {
		fprintf(stderr, "a new history in a read-only directory: '%s'\n", e.msg);
		return -1;
	}
	return 0;
}

START_TEST(history_read_only)
{
	char rw[256], ro[300], rodir[256], p[300];
	/* the read-only file in a directory its user may write (root writes
	 * whatever the mode bits say: the checks run as nobody, whose the
	 * directory then is) */
	path_in_dir(rw, sizeof(rw), "rw");
	ck_assert_int_eq(mkdir(rw, 0755), 0);
	snprintf(ro, sizeof(ro), "%s/ro.db", rw);
	path_in_dir(rodir, sizeof(rodir), "rodir");
	store_one(ro, "2026-01-01T00:00:00Z");
	ck_assert_int_eq(chmod(ro, 0444), 0);
	ck_assert_int_eq(mkdir(rodir, 0777), 0);
	snprintf(p, sizeof(p), "%s/h.db", rodir);
	store_one(p, "2026-01-01T00:00:00Z");
	ck_assert_int_eq(chmod(p, 0666), 0);
	ck_assert_int_eq(chmod(rodir, 0555), 0);
	if (geteuid() != 0) {
		ck_assert_int_eq(read_only_checks(ro, rodir), 0);
		return;
	}
	ck_assert_int_eq(chown(rw, 65534, 65534), 0);
	ck_assert_int_eq(chmod(dir, 0755), 0);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		if (setgroups(0, NULL) != 0 || setgid(65534) != 0 || setuid(65534) != 0)
			_exit(77);
		_exit(read_only_checks(ro, rodir) == 0 ? 0 : 1);
	}
	int status;
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	if (WEXITSTATUS(status) == 77)
		fprintf(stderr, "history_read_only: cannot become nobody; not tested\n");
	else
		ck_assert_int_eq(WEXITSTATUS(status), 0);
	chmod(dir, 0700);
}
END_TEST

START_TEST(history_refuses_a_run_twice)
{
	char p[256], prom[256];
	struct cb_err e = {0};
	struct cb_hdb *db;
	struct cb_health *h;
	path_in_dir(p, sizeof(p), "twice.db");
	path_in_dir(prom, sizeof(prom), "twice.prom");
	store_one(p, "2026-01-01T00:00:00Z");
	struct cb_health_opts o = {.history = p, .prom = prom, .regression_pct = 10};
	json_t *rec = record("2026-01-01T00:00:00Z", false, phase("w", "bench", 1000, 4e6, 900));
	ck_assert_int_eq(cb_health_open(&o, &h, &e), 0);
	ck_assert_int_eq(cb_health_record(h, rec, &e), 0);
	cb_health_close(h);
	ck_assert_int_eq(e.exit, CB_EXIT_USAGE);
	ck_assert_ptr_nonnull(strstr(e.msg, "run 'nightly' of profile 'health' started "
					    "2026-01-01T00:00:00Z on host 'h' is already stored"));
	ck_assert_int_ne(access(prom, F_OK), 0); /* nothing written */
	/* another run in the same second (a short run, then the next one):
	 * other figures, another run */
	json_t *next = record("2026-01-01T00:00:00Z", false, phase("w", "bench", 1001, 4e6, 900));
	e = (struct cb_err){0};
	ck_assert_int_eq(cb_health_open(&o, &h, &e), 0);
	ck_assert_int_eq(cb_health_record(h, next, &e), 0);
	cb_health_close(h);
	ck_assert(!cb_err_isset(&e));
	json_decref(next);
	ck_assert_int_eq(unlink(prom), 0);
	/* the same run elsewhere (another host) is another run */
	json_object_set_new(rec, "host", json_string("h2"));
	e = (struct cb_err){0};
	ck_assert_int_eq(cb_health_open(&o, &h, &e), 0);
	ck_assert_int_eq(cb_health_record(h, rec, &e), 0);
	cb_health_close(h);
	ck_assert(!cb_err_isset(&e));
	ck_assert_int_eq(access(prom, F_OK), 0);
	json_decref(rec);
	json_t *t;
	struct cb_hdb_filter f = {0};
	ck_assert_int_eq(cb_hdb_open(p, false, "twice.db", &db, &e), 0);
	ck_assert_int_eq(cb_hdb_trend(db, &f, &t, &e), 0);
	ck_assert_uint_eq(json_array_size(t), 3);
	json_decref(t);
	cb_hdb_close(db);
}
END_TEST

START_TEST(history_workload_filter)
{
	/* what --workload w keeps: w, its steps, its matrix rows and their
	 * steps; not another workload whose name starts with w */
	static const char *const names[] = {
	    "w",	"w.prefill", "w_bs-4K",	       "w_bs-4K.prefill", "w_block_size-64K_qd-16",
	    "wx",	"w_x",	     "w_x.dir-create", "W_bs-4K",	  "other",
	    "other_w-1"};
	static const bool kept[] = {true,  true,  true,	 true,	true, false,
				    false, false, false, false, false};
	char p[256];
	struct cb_err e = {0};
	struct cb_hdb *db;
	json_t *rec = record("2026-01-01T00:00:00Z", false, phase("w", "bench", 1, 1, 1));
	json_t *phases = json_object_get(rec, "phases");
	for (size_t i = 1; i < sizeof(names) / sizeof(names[0]); i++)
		json_array_append_new(phases, phase(names[i], "bench", 1, 1, 1));
	path_in_dir(p, sizeof(p), "wl.db");
	ck_assert_int_eq(cb_hdb_open(p, true, "wl.db", &db, &e), 0);
	ck_assert_int_eq(cb_hdb_begin(db, &e), 0);
	ck_assert_int_eq(cb_hdb_store(db, rec, &e), 0);
	ck_assert_int_eq(cb_hdb_commit(db, &e), 0);
	json_decref(rec);
	json_t *t;
	struct cb_hdb_filter f = {.workload = "w", .last = 1};
	ck_assert_int_eq(cb_hdb_trend(db, &f, &t, &e), 0);
	size_t k = 0;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!kept[i])
			continue;
		const char *got =
		    json_string_value(json_object_get(json_array_get(t, k++), "phase"));
		ck_assert_str_eq(got ? got : "(none)", names[i]);
	}
	ck_assert_uint_eq(json_array_size(t), k);
	json_decref(t);
	/* a workload name with an '_' of its own: no wildcard */
	f.workload = "w_x";
	ck_assert_int_eq(cb_hdb_trend(db, &f, &t, &e), 0);
	ck_assert_uint_eq(json_array_size(t), 2); /* w_x, w_x.dir-create */
	json_decref(t);
	cb_hdb_close(db);
}
END_TEST

START_TEST(history_refuses_other_files)
{
	char p[256];
	struct cb_err e = {0};
	struct cb_hdb *db;
	path_in_dir(p, sizeof(p), "missing.db");
	ck_assert_int_lt(cb_hdb_open(p, false, "missing.db", &db, &e), 0);
	ck_assert_int_eq(e.exit, CB_EXIT_USAGE);
	ck_assert_ptr_nonnull(strstr(e.msg, "missing.db: cannot open"));
	ck_assert_int_ne(access(p, F_OK), 0); /* reading creates nothing */

	path_in_dir(p, sizeof(p), "text");
	FILE *f = fopen(p, "w");
	fputs("not a database, just some words that are long enough to fill a header", f);
	fclose(f);
	e = (struct cb_err){0};
	ck_assert_int_lt(cb_hdb_open(p, true, "--history text", &db, &e), 0);
	ck_assert_ptr_nonnull(strstr(e.msg, "not a cephbench history"));

	path_in_dir(p, sizeof(p), "other.db");
	sqlite3 *s;
	ck_assert_int_eq(sqlite3_open(p, &s), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(s, "CREATE TABLE t (x)", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(s);
	e = (struct cb_err){0};
	ck_assert_int_lt(cb_hdb_open(p, false, "other.db", &db, &e), 0);
	ck_assert_ptr_nonnull(strstr(e.msg, "other.db: not a cephbench history"));

	/* a history from a newer cephbench */
	path_in_dir(p, sizeof(p), "new.db");
	e = (struct cb_err){0};
	store_one(p, "2026-01-01T00:00:00Z");
	ck_assert_int_eq(sqlite3_open(p, &s), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(s, "PRAGMA user_version = 99", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(s);
	ck_assert_int_lt(cb_hdb_open(p, true, "new.db", &db, &e), 0);
	ck_assert_ptr_nonnull(strstr(e.msg, "newer"));
}
END_TEST

/* The tables of a history made by cephbench 0.1.0 (schema 1), as it made
 * them: a fixture, not this code's own text. */
static const char schema_v1_fixture[] =
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
    "CREATE INDEX phases_by_name ON phases(name);"
    "PRAGMA application_id = 1667393651; PRAGMA user_version = 1;"
    "INSERT INTO runs VALUES (1, 1767225600, 'health', 'ab', 'nightly', 'f-1', '16.2.15', 'h',"
    " '0.1.0', 0, 1767225600);"
    "INSERT INTO phases VALUES (1, 0, 'w', 'rados', 'write', 'bench', 4096, 16, 1, 2000, 8192000,"
    " 2.0, 1000, 4096000, 100, 900.5, 800, 1500, 900, 1000, 1100, 0, 0, 0, NULL, NULL, '{}',"
    " '[]');";

static void store_rec(const char *path, json_t *rec)
{
	struct cb_err e = {0};
	struct cb_hdb *db;
	ck_assert_int_eq(cb_hdb_open(path, true, "--history", &db, &e), 0);
	ck_assert_int_eq(cb_hdb_begin(db, &e), 0);
	ck_assert_int_eq(cb_hdb_store(db, rec, &e), 0);
	ck_assert_int_eq(cb_hdb_commit(db, &e), 0);
	cb_hdb_close(db);
	json_decref(rec);
}

/* Schema 1 listed as it is (the new figures null), brought to 2 by its
 * first store; a disturbed phase and a skipped run stored, marked, and
 * left out of the baseline; the telemetry figures read from the record. */
START_TEST(history_schema_2)
{
	char p[256];
	struct cb_err e = {0};
	struct cb_hdb *db;
	sqlite3 *raw;
	path_in_dir(p, sizeof(p), "v1.db");
	ck_assert_int_eq(sqlite3_open(p, &raw), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(raw, schema_v1_fixture, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(raw);

	json_t *t;
	struct cb_hdb_filter f = {0};
	ck_assert_int_eq(cb_hdb_open(p, false, "v1.db", &db, &e), 0);
	ck_assert_int_eq(cb_hdb_trend(db, &f, &t, &e), 0);
	ck_assert_uint_eq(json_array_size(t), 1);
	ck_assert(json_is_null(json_object_get(json_array_get(t, 0), "client_cpu_us_per_op")));
	ck_assert(json_is_false(json_object_get(json_array_get(t, 0), "disturbed")));
	json_decref(t);
	cb_hdb_close(db);

	/* a disturbed phase with the other parts' figures */
	json_t *ph = phase("w", "bench", 10, 40960, 90000);
	json_object_set_new(ph, "disturbed", json_pack("[s]", "osd.1 down at +3.2 s"));
	json_object_set_new(ph, "telemetry",
			    json_pack("{s:{s:f}, s:{s:f, s:[{}, {}]}}", "client", "cpu_us_per_op",
				      41.5, "cluster", "lat_mean_us", 812.0, "slow_osds"));
	store_rec(p, record("2026-01-02T00:00:00Z", false, ph));
	/* a run the gate refused: no phases */
	json_t *sk = record("2026-01-03T00:00:00Z", false, phase("x", "bench", 1, 1, 1));
	json_array_clear(json_object_get(sk, "phases"));
	json_object_set_new(sk, "preflight",
			    json_pack("{s:s, s:[s, s]}", "verdict", "refused", "reasons",
				      "12 pgs backfilling", "1 osd down"));
	store_rec(p, sk);
	store_one(p, "2026-01-04T00:00:00Z");

	ck_assert_int_eq(sqlite3_open(p, &raw), SQLITE_OK);
	sqlite3_stmt *st;
	ck_assert_int_eq(sqlite3_prepare_v2(raw,
					    "SELECT (SELECT user_version FROM pragma_user_version),"
					    " skipped, skip_reason FROM runs WHERE id = 3",
					    -1, &st, NULL),
			 SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	ck_assert_int_eq(sqlite3_column_int(st, 0), CB_HDB_VERSION);
	ck_assert_int_eq(sqlite3_column_int(st, 1), 1);
	ck_assert_str_eq((const char *)sqlite3_column_text(st, 2),
			 "12 pgs backfilling, 1 osd down");
	sqlite3_finalize(st);
	sqlite3_close(raw);

	json_t *later = record("2026-02-01T00:00:00Z", false, phase("w", "bench", 1, 1, 1));
	double *rows;
	size_t n;
	ck_assert_int_eq(cb_hdb_open(p, true, "--history", &db, &e), 0);
	ck_assert_int_eq(cb_hdb_baseline(db, later, "w", 7, &rows, &n, &e), 0);
	ck_assert_uint_eq(n, 2); /* the 0.1.0 run and the last: not the disturbed one */
	ck_assert_double_eq(rows[0 * CB_REG_NMETRICS + CB_REG_IOPS], 1000);
	ck_assert_double_eq(rows[1 * CB_REG_NMETRICS + CB_REG_IOPS], 1000);
	free(rows);
	json_decref(later);
	cb_hdb_close(db);

	ck_assert_int_eq(cb_hdb_open(p, false, "v1.db", &db, &e), 0);
	ck_assert_int_eq(cb_hdb_trend(db, &f, &t, &e), 0);
	ck_assert_uint_eq(json_array_size(t), 3);
	const json_t *d = json_array_get(t, 1);
	ck_assert(json_is_true(json_object_get(d, "disturbed")));
	ck_assert_double_eq(json_number_value(json_object_get(d, "client_cpu_us_per_op")), 41.5);
	ck_assert_double_eq(json_number_value(json_object_get(d, "cluster_lat_mean_us")), 812.0);
	ck_assert_int_eq(json_integer_value(json_object_get(d, "slow_osds")), 2);
	ck_assert_str_eq(
	    json_string_value(json_array_get(json_object_get(d, "disturbed_reasons"), 0)),
	    "osd.1 down at +3.2 s");
	ck_assert(json_is_null(json_object_get(json_array_get(t, 2), "slow_osds")));
	json_decref(t);
	cb_hdb_close(db);
	ck_assert(!cb_err_isset(&e));
}
END_TEST

/* A row 99 % below the history at path, its member key set to v (stolen),
 * gets no regression verdict, for reason. */
static void not_judged(const char *path, const char *key, json_t *v, const char *reason)
{
	struct cb_err e = {0};
	struct cb_health *h;
	struct cb_health_opts o = {.history = path, .regression_pct = 10};
	ck_assert_int_eq(cb_health_open(&o, &h, &e), 0);
	json_t *ph = phase("w", "bench", 10, 40960, 90000);
	json_object_set_new(ph, key, v);
	json_t *rec = record("2026-01-05T00:00:00Z", false, ph);
	ck_assert_int_eq(cb_health_record(h, rec, &e), 0);
	const json_t *a =
	    json_object_get(json_array_get(json_object_get(rec, "phases"), 0), "regression");
	ck_assert_str_eq(json_string_value(json_object_get(a, "verdict")), "none");
	ck_assert_str_eq(json_string_value(json_object_get(a, "reason")), reason);
	json_decref(rec);
	cb_health_close(h);
	ck_assert(!cb_err_isset(&e));
}

/* A row the client's cache served (served.h) is stored as such, listed
 * marked, never a baseline, and gets no verdict; the same rows served by
 * the cluster (the negative control) are the baseline. */
START_TEST(cached_not_judged)
{
	char p[256];
	struct cb_err e = {0};
	struct cb_hdb *db;
	path_in_dir(p, sizeof(p), "cached.db");
	for (int i = 1; i <= 4; i++) {
		char ts[32];
		snprintf(ts, sizeof(ts), "2026-01-0%dT00:00:00Z", i);
		json_t *ph = phase("w", "bench", i == 4 ? 99000 : 1000, 4e6, 900);
		json_object_set_new(ph, "served",
				    json_pack("{s:s, s:s}", "by",
					      i == 4 ? "client cache" : "cluster", "judged",
					      "reads"));
		store_rec(p, record(ts, false, ph));
	}
	json_t *later = record("2026-02-01T00:00:00Z", false, phase("w", "bench", 1, 1, 1));
	double *rows;
	size_t n;
	ck_assert_int_eq(cb_hdb_open(p, true, "--history", &db, &e), 0);
	ck_assert_int_eq(cb_hdb_baseline(db, later, "w", 7, &rows, &n, &e), 0);
	ck_assert_uint_eq(n, 3); /* not the cached run */
	for (size_t i = 0; i < n; i++)
		ck_assert_double_eq(rows[i * CB_REG_NMETRICS + CB_REG_IOPS], 1000);
	free(rows);
	json_decref(later);
	json_t *t;
	struct cb_hdb_filter f = {0};
	ck_assert_int_eq(cb_hdb_trend(db, &f, &t, &e), 0);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(t, 3), "served_by")),
			 "client cache");
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(t, 0), "served_by")),
			 "cluster");
	json_decref(t);
	cb_hdb_close(db);

	ck_assert(!cb_err_isset(&e));
	not_judged(p, "served", json_pack("{s:s, s:s}", "by", "client cache", "judged", "stats"),
		   "served by the client's cache");
}
END_TEST

/* A disturbed phase gets no verdict whatever its figures. */
START_TEST(disturbed_not_judged)
{
	char p[256];
	path_in_dir(p, sizeof(p), "dist.db");
	for (int i = 1; i <= 3; i++) {
		char ts[32];
		snprintf(ts, sizeof(ts), "2026-01-0%dT00:00:00Z", i);
		store_one(p, ts);
	}
	not_judged(p, "disturbed", json_pack("[s]", "2 pgs degraded at +1.0 s"),
		   "the phase was disturbed");
}
END_TEST

/* One integer from an SQL query on the file at path. */
static long long sql_int(const char *path, const char *sql)
{
	sqlite3 *s;
	sqlite3_stmt *st;
	long long v = -1;
	ck_assert_int_eq(sqlite3_open(path, &s), SQLITE_OK);
	ck_assert_int_eq(sqlite3_prepare_v2(s, sql, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(s);
	return v;
}

/* A version 1 history (no run_context) is still read, and its next store
 * brings it to version 2 with the run's context and params kept. */
START_TEST(history_migrates_v1)
{
	char p[256];
	struct cb_err e = {0};
	struct cb_hdb *db;
	sqlite3 *s;
	path_in_dir(p, sizeof(p), "v1ctx.db");
	ck_assert_int_eq(sqlite3_open(p, &s), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(s, schema_v1_fixture, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(s);
	ck_assert_int_eq(cb_hdb_open(p, false, "v1ctx.db", &db, &e), 0);
	cb_hdb_close(db);
	ck_assert_int_eq(sql_int(p, "PRAGMA user_version"), 1);

	json_t *ph = phase("w", "bench", 1000, 4e6, 900);
	json_object_set_new(ph, "params",
			    json_pack("{s:i, s:s}", "concurrency", 16, "op", "write"));
	json_object_set_new(ph, "uses", json_pack("{s:[s]}", "pools", "bench"));
	json_t *rec = record("2026-01-02T00:00:00Z", false, ph);
	json_object_set_new(rec, "context",
			    json_pack("{s:{s:{s:i}}}", "pools", "bench", "size", 3));
	ck_assert_int_eq(cb_hdb_open(p, true, "--history v1ctx.db", &db, &e), 0);
	ck_assert_int_eq(cb_hdb_begin(db, &e), 0);
	ck_assert_int_eq(cb_hdb_store(db, rec, &e), 0);
	ck_assert_int_eq(cb_hdb_commit(db, &e), 0);
	cb_hdb_close(db);
	json_decref(rec);
	ck_assert_int_eq(sql_int(p, "PRAGMA user_version"), CB_HDB_VERSION);
	ck_assert_int_eq(sql_int(p, "SELECT count(*) FROM runs"), 2);
	ck_assert_int_eq(sql_int(p, "SELECT json_extract(context, '$.pools.bench.size') FROM "
				    "run_context"),
			 3);
	ck_assert_int_eq(sql_int(p, "SELECT json_extract(phases, '$[0].params.concurrency') FROM "
				    "run_context"),
			 16);
	/* and it opens as a history of this version */
	ck_assert_int_eq(cb_hdb_open(p, true, "--history v1ctx.db", &db, &e), 0);
	cb_hdb_close(db);
}
END_TEST

START_TEST(flags)
{
	struct cb_health_opts o = {0};
	struct cb_err e = {0};
	struct cb_health *h;
	ck_assert_int_eq(cb_health_flag(CB_OPT_REGRESSION, "12.5%", &o, &e), 1);
	ck_assert_double_eq(o.regression_pct, 12.5);
	ck_assert_int_lt(cb_health_flag(CB_OPT_BASELINE, "0", &o, &e), 0);
	ck_assert_ptr_nonnull(strstr(e.msg, "--baseline '0'"));
	e = (struct cb_err){0};
	ck_assert_int_lt(cb_health_flag(CB_OPT_BASELINE, "2", &o, &e), 0); /* never a verdict */
	e = (struct cb_err){0};
	ck_assert_int_eq(cb_health_flag(CB_OPT_BASELINE, "3", &o, &e), 1);
	ck_assert_int_lt(cb_health_flag(CB_OPT_REGRESSION, "-5", &o, &e), 0);
	e = (struct cb_err){0};
	/* --regression needs a history to compare with; --dry-run checks it
	 * too (cb_health_check) */
	ck_assert_int_lt(cb_health_check(&o, &e), 0);
	ck_assert_ptr_nonnull(strstr(e.msg, "--regression needs --history"));
	e = (struct cb_err){0};
	ck_assert_int_lt(cb_health_open(&o, &h, &e), 0);
	ck_assert_ptr_nonnull(strstr(e.msg, "--regression needs --history"));
	e = (struct cb_err){0};
	struct cb_health_opts b = {.history = "/no/such/dir/h.db", .baseline = 5};
	ck_assert_int_lt(cb_health_check(&b, &e), 0);
	ck_assert_ptr_nonnull(strstr(e.msg, "--baseline needs --regression"));
	e = (struct cb_err){0};
	b.regression_pct = 5; /* the file is the real run's to check */
	ck_assert_int_eq(cb_health_check(&b, &e), 0);
	ck_assert_int_eq(cb_health_flag(0, "x", &o, &e), 0);
}
END_TEST

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	Suite *s = suite_create("health");
	TCase *tc = tcase_create("health");
	tcase_add_test(tc, median_and_mad);
	tcase_add_test(tc, judge_out_of_memory);
	tcase_add_test(tc, verdicts);
	tcase_add_test(tc, noisy_baseline_and_zero_figures);
	tcase_add_test(tc, prom_escapes_labels);
	tcase_add_test(tc, history_round_trip);
	tcase_add_test(tc, history_made_by_the_first_store);
	tcase_add_test(tc, history_read_only);
	tcase_add_test(tc, history_refuses_a_run_twice);
	tcase_add_test(tc, history_workload_filter);
	tcase_add_test(tc, history_refuses_other_files);
	tcase_add_test(tc, history_schema_2);
	tcase_add_test(tc, disturbed_not_judged);
	tcase_add_test(tc, cached_not_judged);
	tcase_add_test(tc, history_migrates_v1);
	tcase_add_test(tc, flags);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	char cmd[400];
	snprintf(cmd, sizeof(cmd), "chmod -R u+w %s; rm -rf %s", dir, dir);
	if (system(cmd) != 0)
		failed++;
	return failed ? 1 : 0;
}
