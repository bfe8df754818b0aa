/* The runner (run*.c, phase.c) through the noop layer, with no cluster:
 * each test writes a profile, loads it with cb_profile_load and runs it with
 * cb_run_profile, then reads the JSON record it wrote, as a user's run
 * would. The noop layer makes the counts exact (ops: 1000 is 1000 measured
 * ops), so the assertions are equalities; none is about time. */
#include "cli.h"
#include "profile.h"
#include "run.h"
#include "unit_run.h"

#include <check.h>
#include <jansson.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

static char dir[64];
static int sigfd = -1;

/* Run the profile text yaml; the record's JSON in *out (NULL when the run
 * wrote none). Returns the run's exit code. */
static int run_yaml(const char *yaml, json_t **out)
{
	char path[128], jpath[128];
	snprintf(path, sizeof(path), "%s/p.yaml", dir);
	snprintf(jpath, sizeof(jpath), "%s/r.json", dir);
	unlink(jpath);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(yaml, f);
	fclose(f);
	struct cb_profile *p = NULL;
	struct cb_err e = {0};
	ck_assert_msg(cb_profile_load(path, NULL, 0, &p, &e) == 0, "%s", e.msg);
	/* quiet: only the verdict lines on stdout; the record goes to the file */
	struct cb_run_opts o = {
	    .format = CB_FORMAT_TEXT, .json_path = jpath, .quiet = true, .sigfd = sigfd};
	int rc = cb_run_profile(p, &o, &e);
	cb_profile_free(p);
	json_error_t je;
	*out = json_load_file(jpath, 0, &je);
	return rc;
}

static json_t *phase(json_t *rec, size_t i)
{
	json_t *ph = json_array_get(json_object_get(rec, "phases"), i);
	ck_assert_ptr_nonnull(ph);
	return ph;
}

static json_int_t num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	ck_assert_msg(json_is_integer(v), "no integer %s", key);
	return json_integer_value(v);
}

/* What every row must hold whatever the limits: the histogram counts every
 * measured op, and the per-second samples add up to the row's ops and
 * bytes. */
static void check_row_sums(json_t *ph)
{
	json_int_t ops = 0, bytes = 0;
	size_t i;
	json_t *s;
	json_array_foreach(json_object_get(ph, "samples"), i, s)
	{
		ops += num(s, "ops");
		bytes += num(s, "bytes");
	}
	ck_assert_int_eq(ops, num(ph, "ops"));
	ck_assert_int_eq(bytes, num(ph, "bytes"));
	ck_assert_int_eq(num(json_object_get(ph, "histogram"), "count"), num(ph, "ops"));
	json_int_t hsum = 0;
	json_t *b;
	json_array_foreach(json_object_get(json_object_get(ph, "histogram"), "buckets"), i, b)
	    hsum += json_integer_value(json_array_get(b, 1));
	ck_assert_int_eq(hsum, num(ph, "ops"));
}

START_TEST(ops_limit_exact)
{
	json_t *r;
	/* inline, from a thread, and one at a time: every completion path */
	ck_assert_int_eq(
	    run_yaml("name: u\n"
		     "workloads:\n"
		     "  - {name: a, layer: noop, op: read, ops: 1000, concurrency: 16}\n"
		     "  - {name: b, layer: noop, op: write, ops: 1000, concurrency: 16,\n"
		     "     completion: thread}\n"
		     "  - {name: c, layer: noop, op: write, ops: 1000, concurrency: 16,\n"
		     "     synchronous: true}\n"
		     "  - {name: d, layer: noop, op: read, ops: 1000, concurrency: 8,\n"
		     "     delay: 10us, jitter: 5us}\n",
		     &r),
	    CB_EXIT_OK);
	ck_assert_ptr_nonnull(r);
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(r, "cluster"), "fsid")),
			 "");
	for (size_t i = 0; i < 4; i++) {
		json_t *ph = phase(r, i);
		ck_assert_int_eq(num(ph, "ops"), 1000);
		ck_assert_int_eq(num(ph, "bytes"), 1000 * 4096);
		ck_assert_int_eq(num(ph, "block_size"), 4096);
		ck_assert_int_eq(num(ph, "errors"), 0);
		check_row_sums(ph);
	}
	ck_assert_int_eq(num(phase(r, 0), "read_ops"), 1000);
	ck_assert_int_eq(num(phase(r, 1), "write_ops"), 1000);
	/* synchronous: one op in flight, as the row says */
	ck_assert_int_eq(num(phase(r, 2), "concurrency"), 1);
	ck_assert_int_eq(num(phase(r, 0), "concurrency"), 16);
	json_decref(r);
}
END_TEST

START_TEST(bytes_limit_exact)
{
	json_t *r;
	ck_assert_int_eq(
	    run_yaml("name: u\n"
		     "workloads:\n"
		     "  - {name: a, layer: noop, op: write, bytes: 400K, block_size: 4K}\n",
		     &r),
	    CB_EXIT_OK);
	ck_assert_int_eq(num(phase(r, 0), "ops"), 100);
	ck_assert_int_eq(num(phase(r, 0), "bytes"), 409600);
	check_row_sums(phase(r, 0));
	json_decref(r);
}
END_TEST

START_TEST(duration_limit_ends)
{
	json_t *r;
	/* ends by time alone: no op or byte limit */
	ck_assert_int_eq(
	    run_yaml("name: u\n"
		     "workloads:\n"
		     "  - {name: a, layer: noop, op: read, duration: 300ms, delay: 1ms,\n"
		     "     concurrency: 4}\n",
		     &r),
	    CB_EXIT_OK);
	ck_assert_int_gt(num(phase(r, 0), "ops"), 0);
	ck_assert(!json_is_true(json_object_get(phase(r, 0), "interrupted")));
	check_row_sums(phase(r, 0));
	json_decref(r);
}
END_TEST

START_TEST(ramp_not_counted)
{
	json_t *r;
	/* the ramp's instant ops are many; none of them is in the row */
	ck_assert_int_eq(run_yaml("name: u\n"
				  "workloads:\n"
				  "  - {name: a, layer: noop, op: read, ramp: 200ms, ops: 500}\n",
				  &r),
			 CB_EXIT_OK);
	ck_assert_int_eq(num(phase(r, 0), "ops"), 500);
	check_row_sums(phase(r, 0));
	json_decref(r);
}
END_TEST

START_TEST(clients_merged_exactly)
{
	json_t *r;
	/* each client has its own op limit: 4 x 1000, some from a thread */
	ck_assert_int_eq(run_yaml("name: u\n"
				  "workloads:\n"
				  "  - {name: a, layer: noop, op: write, ops: 1000, clients: 4}\n"
				  "  - {name: b, layer: noop, op: read, ops: 1000, clients: 3,\n"
				  "     completion: thread, delay: 20us}\n",
				  &r),
			 CB_EXIT_OK);
	const json_int_t want[] = {4, 3};
	for (size_t i = 0; i < 2; i++) {
		json_t *ph = phase(r, i), *c;
		size_t k;
		json_int_t ops = 0, bytes = 0;
		ck_assert_int_eq(num(ph, "clients"), want[i]);
		ck_assert_int_eq(num(ph, "ops"), want[i] * 1000);
		ck_assert_int_eq(num(ph, "block_size"), 4096);
		check_row_sums(ph);
		ck_assert_uint_eq(json_array_size(json_object_get(ph, "per_client")), want[i]);
		json_array_foreach(json_object_get(ph, "per_client"), k, c)
		{
			ck_assert_int_eq(num(c, "ops"), 1000);
			ops += num(c, "ops");
			bytes += num(c, "bytes");
		}
		ck_assert_int_eq(ops, num(ph, "ops"));
		ck_assert_int_eq(bytes, num(ph, "bytes"));
	}
	json_decref(r);
}
END_TEST

START_TEST(repeat_and_iterations)
{
	json_t *r;
	/* repeat runs the workload again after the others (A B A B); iterations
	 * runs its step list again at once; both merge into one row */
	ck_assert_int_eq(run_yaml("name: u\n"
				  "workloads:\n"
				  "  - {name: a, layer: noop, op: read, ops: 100, repeat: 3}\n"
				  "  - {name: b, layer: noop, op: read, ops: 100, iterations: 2,\n"
				  "     repeat: 2}\n",
				  &r),
			 CB_EXIT_OK);
	ck_assert_uint_eq(json_array_size(json_object_get(r, "phases")), 2);
	ck_assert_int_eq(num(phase(r, 0), "ops"), 300);
	ck_assert_int_eq(num(phase(r, 1), "ops"), 400);
	ck_assert_int_eq(num(json_object_get(phase(r, 0), "iterations"), "count"), 3);
	ck_assert_int_eq(num(json_object_get(phase(r, 1), "iterations"), "count"), 4);
	check_row_sums(phase(r, 0));
	check_row_sums(phase(r, 1));
	json_decref(r);
}
END_TEST

START_TEST(fail_every_within_max_errors)
{
	json_t *r;
	/* 1000 ops started, every 10th fails: 100 errors, 900 counted */
	ck_assert_int_eq(
	    run_yaml("name: u\n"
		     "workloads:\n"
		     "  - {name: a, layer: noop, op: read, ops: 1000, fail_every: 10,\n"
		     "     max_errors: 100}\n",
		     &r),
	    CB_EXIT_OK);
	ck_assert_int_eq(num(phase(r, 0), "errors"), 100);
	ck_assert_int_eq(num(phase(r, 0), "ops"), 900);
	ck_assert(!json_is_true(json_object_get(phase(r, 0), "failed")));
	check_row_sums(phase(r, 0));
	json_decref(r);
}
END_TEST

START_TEST(max_errors_fails_the_run)
{
	json_t *r;
	ck_assert_int_eq(
	    run_yaml("name: u\n"
		     "workloads:\n"
		     "  - {name: a, layer: noop, op: read, ops: 100000, fail_every: 10,\n"
		     "     max_errors: 5, completion: thread}\n"
		     "  - {name: b, layer: noop, op: read, ops: 10}\n",
		     &r),
	    CB_EXIT_CLUSTER);
	/* the record of what ran is still written: the failed row, not b */
	ck_assert_ptr_nonnull(r);
	ck_assert_uint_eq(json_array_size(json_object_get(r, "phases")), 1);
	ck_assert(json_is_true(json_object_get(phase(r, 0), "failed")));
	ck_assert_int_gt(num(phase(r, 0), "errors"), 5);
	ck_assert_int_lt(num(phase(r, 0), "ops"), 100000);
	check_row_sums(phase(r, 0));
	json_decref(r);
}
END_TEST

/* The stop signal comes from another thread once the run is under way (a
 * 30 s phase: a runner that missed the signal ends it with exit 0 instead
 * of hanging the test); SIGINT is blocked in every thread, so it waits on
 * the run's signalfd as in the binary. A second is long for the profile's
 * load, even in a sanitizer build on a loaded machine. */
static void *interrupter(void *arg)
{
	(void)arg;
	usleep(1000000);
	kill(getpid(), SIGINT);
	return NULL;
}

START_TEST(sigint_partial_row)
{
	json_t *r;
	pthread_t t;
	ck_assert_int_eq(pthread_create(&t, NULL, interrupter, NULL), 0);
	int rc = run_yaml("name: u\n"
			  "workloads:\n"
			  "  - {name: a, layer: noop, op: read, duration: 30s, delay: 100us}\n"
			  "  - {name: b, layer: noop, op: read, ops: 10}\n",
			  &r);
	pthread_join(t, NULL);
	ck_assert_int_eq(rc, CB_EXIT_INTERRUPTED);
	ck_assert_ptr_nonnull(r);
	ck_assert(json_is_true(json_object_get(r, "interrupted")));
	/* the partial row, marked; the next workload never started */
	ck_assert_uint_eq(json_array_size(json_object_get(r, "phases")), 1);
	ck_assert(json_is_true(json_object_get(phase(r, 0), "interrupted")));
	ck_assert_int_gt(num(phase(r, 0), "ops"), 0);
	check_row_sums(phase(r, 0));
	json_decref(r);
}
END_TEST

START_TEST(per_second_samples)
{
	json_t *r;
	/* a few seconds: several samples, summing to the totals */
	ck_assert_int_eq(run_yaml("name: u\n"
				  "workloads:\n"
				  "  - {name: a, layer: noop, op: write, duration: 2500ms,\n"
				  "     capacity: 20000}\n",
				  &r),
			 CB_EXIT_OK);
	ck_assert_uint_ge(json_array_size(json_object_get(phase(r, 0), "samples")), 2);
	check_row_sums(phase(r, 0));
	json_decref(r);
}
END_TEST

START_TEST(expect_verdicts)
{
	json_t *r;
	const char *pass = "name: u\n"
			   "workloads:\n"
			   "  - {name: a, layer: noop, op: read, ops: 200, fail_every: 50,\n"
			   "     max_errors: 10, expect: {max_errors: 4, min_iops: 1}}\n";
	ck_assert_int_eq(run_yaml(pass, &r), CB_EXIT_OK);
	json_t *v = json_object_get(phase(r, 0), "expect");
	ck_assert_uint_eq(json_array_size(v), 2);
	json_decref(r);
	/* 4 errors where at most 3 are expected: a failed verdict, exit 1 */
	const char *fail = "name: u\n"
			   "workloads:\n"
			   "  - {name: a, layer: noop, op: read, ops: 200, fail_every: 50,\n"
			   "     max_errors: 10, expect: {max_errors: 3}}\n";
	ck_assert_int_eq(run_yaml(fail, &r), CB_EXIT_FAILED);
	ck_assert_int_eq(num(phase(r, 0), "errors"), 4);
	json_decref(r);
}
END_TEST

START_TEST(matrix_rows)
{
	json_t *r;
	ck_assert_int_eq(
	    run_yaml("name: u\n"
		     "workloads:\n"
		     "  - {name: m, layer: noop, op: [read, write], block_size: [4K, 64K],\n"
		     "     ops: 100}\n",
		     &r),
	    CB_EXIT_OK);
	ck_assert_uint_eq(json_array_size(json_object_get(r, "phases")), 4);
	json_int_t bytes = 0;
	for (size_t i = 0; i < 4; i++) {
		json_t *ph = phase(r, i);
		ck_assert_int_eq(num(ph, "ops"), 100);
		ck_assert_int_eq(num(ph, "bytes"), 100 * num(ph, "block_size"));
		ck_assert_str_eq(json_string_value(json_object_get(ph, "workload")), "m");
		bytes += num(ph, "bytes");
		check_row_sums(ph);
	}
	ck_assert_int_eq(bytes, 2 * 100 * (4096 + 65536));
	json_decref(r);
}
END_TEST

int main(void)
{
	/* as the binary does (cb_cli_run): the stop signals blocked in every
	 * thread, read from a signalfd */
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	sigfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	snprintf(dir, sizeof(dir), "/tmp/check_runner.XXXXXX");
	if (sigfd < 0 || !mkdtemp(dir))
		return 1;
	Suite *s = suite_create("runner");
	TCase *tc = tcase_create("noop");
	tcase_add_test(tc, ops_limit_exact);
	tcase_add_test(tc, bytes_limit_exact);
	tcase_add_test(tc, duration_limit_ends);
	tcase_add_test(tc, ramp_not_counted);
	tcase_add_test(tc, clients_merged_exactly);
	tcase_add_test(tc, repeat_and_iterations);
	tcase_add_test(tc, fail_every_within_max_errors);
	tcase_add_test(tc, max_errors_fails_the_run);
	tcase_add_test(tc, sigint_partial_row);
	tcase_add_test(tc, per_second_samples);
	tcase_add_test(tc, expect_verdicts);
	tcase_add_test(tc, matrix_rows);
	suite_add_tcase(s, tc);
	int rc = unit_run(s);
	char f[128];
	snprintf(f, sizeof(f), "%s/p.yaml", dir);
	unlink(f);
	snprintf(f, sizeof(f), "%s/r.json", dir);
	unlink(f);
	rmdir(dir);
	close(sigfd);
	return rc;
}
