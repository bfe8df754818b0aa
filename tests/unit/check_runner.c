/* The runner (run*.c, phase.c) through the noop layer, with no cluster:
 * each test writes a profile, loads it with cb_profile_load and runs it with
 * cb_run_profile, then reads the JSON record it wrote, as a user's run
 * would. The noop layer makes the counts exact (ops: 1000 is 1000 measured
 * ops), so the assertions are equalities; none is about time. */
#include "unit_profile.h"
#include "unit_run.h"

#include <check.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
		ops += unit_num(s, "ops");
		bytes += unit_num(s, "bytes");
	}
	ck_assert_int_eq(ops, unit_num(ph, "ops"));
	ck_assert_int_eq(bytes, unit_num(ph, "bytes"));
	ck_assert_int_eq(unit_num(json_object_get(ph, "histogram"), "count"), unit_num(ph, "ops"));
	json_int_t hsum = 0;
	json_t *b;
	json_array_foreach(json_object_get(json_object_get(ph, "histogram"), "buckets"), i, b)
	    hsum += json_integer_value(json_array_get(b, 1));
	ck_assert_int_eq(hsum, unit_num(ph, "ops"));
}

START_TEST(ops_limit_exact)
{
	json_t *r;
	/* inline, from a thread, and one at a time: every completion path */
	ck_assert_int_eq(
	    unit_run_yaml("name: u\n"
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
		json_t *ph = unit_phase(r, i);
		ck_assert_int_eq(unit_num(ph, "ops"), 1000);
		ck_assert_int_eq(unit_num(ph, "bytes"), 1000 * 4096);
		ck_assert_int_eq(unit_num(ph, "block_size"), 4096);
		ck_assert_int_eq(unit_num(ph, "errors"), 0);
		check_row_sums(ph);
	}
	ck_assert_int_eq(unit_num(unit_phase(r, 0), "read_ops"), 1000);
	ck_assert_int_eq(unit_num(unit_phase(r, 1), "write_ops"), 1000);
	/* synchronous: one op in flight, as the row says */
	ck_assert_int_eq(unit_num(unit_phase(r, 2), "concurrency"), 1);
	ck_assert_int_eq(unit_num(unit_phase(r, 0), "concurrency"), 16);
	json_decref(r);
}
END_TEST

START_TEST(bytes_limit_exact)
{
	json_t *r;
	ck_assert_int_eq(
	    unit_run_yaml("name: u\n"
			  "workloads:\n"
			  "  - {name: a, layer: noop, op: write, bytes: 400K, block_size: 4K}\n",
			  &r),
	    CB_EXIT_OK);
	ck_assert_int_eq(unit_num(unit_phase(r, 0), "ops"), 100);
	ck_assert_int_eq(unit_num(unit_phase(r, 0), "bytes"), 409600);
	check_row_sums(unit_phase(r, 0));
	json_decref(r);
}
END_TEST

START_TEST(duration_limit_ends)
{
	json_t *r;
	/* ends by time alone: no op or byte limit */
	ck_assert_int_eq(
	    unit_run_yaml("name: u\n"
			  "workloads:\n"
			  "  - {name: a, layer: noop, op: read, duration: 300ms, delay: 1ms,\n"
			  "     concurrency: 4}\n",
			  &r),
	    CB_EXIT_OK);
	ck_assert_int_gt(unit_num(unit_phase(r, 0), "ops"), 0);
	ck_assert(!json_is_true(json_object_get(unit_phase(r, 0), "interrupted")));
	check_row_sums(unit_phase(r, 0));
	json_decref(r);
}
END_TEST

START_TEST(ramp_not_counted)
{
	json_t *r;
	/* the ramp's instant ops are many; none of them is in the row */
	ck_assert_int_eq(
	    unit_run_yaml("name: u\n"
			  "workloads:\n"
			  "  - {name: a, layer: noop, op: read, ramp: 200ms, ops: 500}\n",
			  &r),
	    CB_EXIT_OK);
	ck_assert_int_eq(unit_num(unit_phase(r, 0), "ops"), 500);
	check_row_sums(unit_phase(r, 0));
	json_decref(r);
}
END_TEST

START_TEST(clients_merged_exactly)
{
	json_t *r;
	/* each client has its own op limit: 4 x 1000, some from a thread */
	ck_assert_int_eq(
	    unit_run_yaml("name: u\n"
			  "workloads:\n"
			  "  - {name: a, layer: noop, op: write, ops: 1000, clients: 4}\n"
			  "  - {name: b, layer: noop, op: read, ops: 1000, clients: 3,\n"
			  "     completion: thread, delay: 20us}\n",
			  &r),
	    CB_EXIT_OK);
	const json_int_t want[] = {4, 3};
	for (size_t i = 0; i < 2; i++) {
		json_t *ph = unit_phase(r, i), *c;
		size_t k;
		json_int_t ops = 0, bytes = 0;
		ck_assert_int_eq(unit_num(ph, "clients"), want[i]);
		ck_assert_int_eq(unit_num(ph, "ops"), want[i] * 1000);
		ck_assert_int_eq(unit_num(ph, "block_size"), 4096);
		check_row_sums(ph);
		ck_assert_uint_eq(json_array_size(json_object_get(ph, "per_client")), want[i]);
		json_array_foreach(json_object_get(ph, "per_client"), k, c)
		{
			ck_assert_int_eq(unit_num(c, "ops"), 1000);
			ops += unit_num(c, "ops");
			bytes += unit_num(c, "bytes");
		}
		ck_assert_int_eq(ops, unit_num(ph, "ops"));
		ck_assert_int_eq(bytes, unit_num(ph, "bytes"));
	}
	json_decref(r);
}
END_TEST

START_TEST(repeat_and_iterations)
{
	json_t *r;
	/* repeat runs the workload again after the others (A B A B); iterations
	 * runs its step list again at once; both merge into one row */
	ck_assert_int_eq(
	    unit_run_yaml("name: u\n"
			  "workloads:\n"
			  "  - {name: a, layer: noop, op: read, ops: 100, repeat: 3}\n"
			  "  - {name: b, layer: noop, op: read, ops: 100, iterations: 2,\n"
			  "     repeat: 2}\n",
			  &r),
	    CB_EXIT_OK);
	ck_assert_uint_eq(json_array_size(json_object_get(r, "phases")), 2);
	ck_assert_int_eq(unit_num(unit_phase(r, 0), "ops"), 300);
	ck_assert_int_eq(unit_num(unit_phase(r, 1), "ops"), 400);
	ck_assert_int_eq(unit_num(json_object_get(unit_phase(r, 0), "iterations"), "count"), 3);
	ck_assert_int_eq(unit_num(json_object_get(unit_phase(r, 1), "iterations"), "count"), 4);
	check_row_sums(unit_phase(r, 0));
	check_row_sums(unit_phase(r, 1));
	json_decref(r);
}
END_TEST

START_TEST(fail_every_within_max_errors)
{
	json_t *r;
	/* 1000 ops started, every 10th fails: 100 errors, 900 counted */
	ck_assert_int_eq(
	    unit_run_yaml("name: u\n"
			  "workloads:\n"
			  "  - {name: a, layer: noop, op: read, ops: 1000, fail_every: 10,\n"
			  "     max_errors: 100}\n",
			  &r),
	    CB_EXIT_OK);
	ck_assert_int_eq(unit_num(unit_phase(r, 0), "errors"), 100);
	ck_assert_int_eq(unit_num(unit_phase(r, 0), "ops"), 900);
	ck_assert(!json_is_true(json_object_get(unit_phase(r, 0), "failed")));
	check_row_sums(unit_phase(r, 0));
	json_decref(r);
}
END_TEST

START_TEST(max_errors_fails_the_run)
{
	json_t *r;
	ck_assert_int_eq(
	    unit_run_yaml("name: u\n"
			  "workloads:\n"
			  "  - {name: a, layer: noop, op: read, ops: 100000, fail_every: 10,\n"
			  "     max_errors: 5, completion: thread}\n"
			  "  - {name: b, layer: noop, op: read, ops: 10}\n",
			  &r),
	    CB_EXIT_CLUSTER);
	/* the record of what ran is still written: the failed row, not b */
	ck_assert_ptr_nonnull(r);
	ck_assert_uint_eq(json_array_size(json_object_get(r, "phases")), 1);
	ck_assert(json_is_true(json_object_get(unit_phase(r, 0), "failed")));
	ck_assert_int_gt(unit_num(unit_phase(r, 0), "errors"), 5);
	ck_assert_int_lt(unit_num(unit_phase(r, 0), "ops"), 100000);
	check_row_sums(unit_phase(r, 0));
	json_decref(r);
}
END_TEST

/* The stop signal a second into a 30 s phase (unit_run_yaml_interrupted):
 * a second is long for the profile's load, even in a sanitizer build on a
 * loaded machine. */
START_TEST(sigint_partial_row)
{
	json_t *r;
	int rc = unit_run_yaml_interrupted(
	    "name: u\n"
	    "workloads:\n"
	    "  - {name: a, layer: noop, op: read, duration: 30s, delay: 100us}\n"
	    "  - {name: b, layer: noop, op: read, ops: 10}\n",
	    &r);
	ck_assert_int_eq(rc, CB_EXIT_INTERRUPTED);
	ck_assert_ptr_nonnull(r);
	ck_assert(json_is_true(json_object_get(r, "interrupted")));
	/* the partial row, marked; the next workload never started */
	ck_assert_uint_eq(json_array_size(json_object_get(r, "phases")), 1);
	ck_assert(json_is_true(json_object_get(unit_phase(r, 0), "interrupted")));
	ck_assert_int_gt(unit_num(unit_phase(r, 0), "ops"), 0);
	check_row_sums(unit_phase(r, 0));
	json_decref(r);
}
END_TEST

START_TEST(per_second_samples)
{
	json_t *r;
	/* a few seconds: several samples, summing to the totals */
	ck_assert_int_eq(unit_run_yaml("name: u\n"
				       "workloads:\n"
				       "  - {name: a, layer: noop, op: write, duration: 2500ms,\n"
				       "     capacity: 20000}\n",
				       &r),
			 CB_EXIT_OK);
	ck_assert_uint_ge(json_array_size(json_object_get(unit_phase(r, 0), "samples")), 2);
	check_row_sums(unit_phase(r, 0));
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
	ck_assert_int_eq(unit_run_yaml(pass, &r), CB_EXIT_OK);
	json_t *v = json_object_get(unit_phase(r, 0), "expect");
	ck_assert_uint_eq(json_array_size(v), 2);
	json_decref(r);
	/* 4 errors where at most 3 are expected: a failed verdict, exit 1 */
	const char *fail = "name: u\n"
			   "workloads:\n"
			   "  - {name: a, layer: noop, op: read, ops: 200, fail_every: 50,\n"
			   "     max_errors: 10, expect: {max_errors: 3}}\n";
	ck_assert_int_eq(unit_run_yaml(fail, &r), CB_EXIT_FAILED);
	ck_assert_int_eq(unit_num(unit_phase(r, 0), "errors"), 4);
	json_decref(r);
}
END_TEST

START_TEST(matrix_rows)
{
	json_t *r;
	ck_assert_int_eq(
	    unit_run_yaml("name: u\n"
			  "workloads:\n"
			  "  - {name: m, layer: noop, op: [read, write], block_size: [4K, 64K],\n"
			  "     ops: 100}\n",
			  &r),
	    CB_EXIT_OK);
	ck_assert_uint_eq(json_array_size(json_object_get(r, "phases")), 4);
	json_int_t bytes = 0;
	for (size_t i = 0; i < 4; i++) {
		json_t *ph = unit_phase(r, i);
		ck_assert_int_eq(unit_num(ph, "ops"), 100);
		ck_assert_int_eq(unit_num(ph, "bytes"), 100 * unit_num(ph, "block_size"));
		ck_assert_str_eq(json_string_value(json_object_get(ph, "workload")), "m");
		bytes += unit_num(ph, "bytes");
		check_row_sums(ph);
	}
	ck_assert_int_eq(bytes, 2 * 100 * (4096 + 65536));
	json_decref(r);
}
END_TEST

int main(void)
{
	if (unit_profile_open("check_runner") < 0)
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
	unit_profile_close(NULL);
	return rc;
}
