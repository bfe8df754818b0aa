/* Open-loop rate mode (rate.c, phase.c) through the noop layer: the
 * schedule's counts, a stall seen from the scheduled start (coordinated
 * omission) beside the same stall in a closed loop, saturation, and the
 * profile's refusals. The counts are exact; the latency bounds come from
 * the stall's size, which the noop layer makes exact too. */
#include "unit_profile.h"
#include "unit_run.h"

#include <check.h>
#include <jansson.h>
#include <math.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static double lat(json_t *ph, const char *pct)
{
	return json_number_value(json_object_get(json_object_get(ph, "latency_us"), pct));
}

static json_t *open_loop(json_t *ph)
{
	json_t *o = json_object_get(ph, "open_loop");
	ck_assert_msg(json_is_object(o), "no open_loop in %s",
		      json_string_value(json_object_get(ph, "name")));
	return o;
}

START_TEST(uniform_rate_exact)
{
	json_t *r;
	ck_assert_int_eq(
	    unit_run_yaml("name: u\n"
			  "workloads:\n"
			  "  - {name: a, layer: noop, op: write, rate: 2000, duration: 2s, "
			  "concurrency: 8, delay: 1ms}\n",
			  &r),
	    0);
	json_t *ph = unit_phase(r, 0), *o = open_loop(ph);
	/* ops due at t0 + n * 0.5 ms before the end: exactly 4000, issued or
	 * said not to be (a loaded host may leave a few in the backlog) */
	json_int_t ops = unit_num(ph, "ops");
	ck_assert_int_eq(ops + unit_num(o, "unissued_ops"), 4000);
	double got = json_number_value(json_object_get(o, "achieved_ops_per_s"));
	ck_assert_msg(fabs(got * 2 - (double)ops) <= ops / 100.0, "achieved %.1f for %lld ops", got,
		      (long long)ops);
	ck_assert(json_is_true(json_object_get(o, "saturated")) == (got < 0.97 * 2000));
	json_int_t due = 0;
	json_t *s;
	size_t i;
	json_array_foreach(json_object_get(ph, "samples"), i, s) due += unit_num(s, "due");
	ck_assert_int_eq(due, 4000);
	/* the service time is the noop layer's delay, never less */
	ck_assert(json_number_value(
		      json_object_get(json_object_get(o, "service_latency_us"), "min")) >= 1000);
	json_decref(r);
}
END_TEST

START_TEST(poisson_rate_near)
{
	json_t *r;
	ck_assert_int_eq(
	    unit_run_yaml("name: u\n"
			  "workloads:\n"
			  "  - {name: a, layer: noop, op: write, rate: 2000, arrival: poisson, "
			  "clients: 2, duration: 2s}\n",
			  &r),
	    0);
	json_t *ph = unit_phase(r, 0);
	json_int_t ops = unit_num(ph, "ops");
	/* a Poisson count of mean 4000 has a standard deviation of 63 */
	ck_assert_msg(ops > 3600 && ops < 4400, "%lld ops", (long long)ops);
	ck_assert_str_eq(json_string_value(json_object_get(open_loop(ph), "arrival")), "poisson");
	json_decref(r);
}
END_TEST

/* 500 ms of stall at 2000 ops/s: 1000 ops due while nothing completes (late; more
 * may be, on a loaded machine), the
 * 16 in flight held, the rest waiting; their latency from the schedule
 * falls from 500 ms to 0, so 600 of the 6000 ops (p90) are >= 200 ms.
 * Closed, the same stall holds only the 16 ops in flight. */
START_TEST(stall_seen_from_schedule)
{
	json_t *r;
	ck_assert_int_eq(
	    unit_run_yaml("name: u\n"
			  "workloads:\n"
			  "  - {name: open, layer: noop, op: write, rate: 2000, duration: 3s, "
			  "concurrency: 16, stall: 500ms, stall_at: 1s}\n"
			  "  - {name: closed, layer: noop, op: write, delay: 8ms, duration: 3s, "
			  "concurrency: 16, stall: 500ms, stall_at: 1s}\n",
			  &r),
	    0);
	json_t *o = unit_phase(r, 0), *c = unit_phase(r, 1);
	/* the schedule's 6000, less what a loaded host had not issued by the end */
	ck_assert_int_eq(unit_num(o, "ops") + unit_num(open_loop(o), "unissued_ops"), 6000);
	ck_assert_msg(lat(o, "p90") >= 150000 && lat(o, "p90") <= 250000, "p90 %.0f us",
		      lat(o, "p90"));
	ck_assert_msg(lat(o, "p99.9") >= 450000, "p99.9 %.0f us", lat(o, "p99.9"));
	json_int_t late = unit_num(open_loop(o), "late_ops");
	ck_assert_msg(late >= 900, "%lld late", (long long)late);
	ck_assert_int_ge(unit_num(open_loop(o), "backlog_max"), 900);
	/* closed: the stall is 16 ops of ~5000, under 1 % */
	ck_assert_msg(lat(c, "p99") < 50000, "closed p99 %.0f us", lat(c, "p99"));
	ck_assert_msg(lat(c, "max") >= 450000, "closed max %.0f us", lat(c, "max"));
	ck_assert_ptr_null(json_object_get(c, "open_loop"));
	json_decref(r);
}
END_TEST

START_TEST(saturated_said)
{
	json_t *r;
	ck_assert_int_eq(
	    unit_run_yaml("name: u\n"
			  "workloads:\n"
			  "  - {name: a, layer: noop, op: write, rate: 3000, capacity: 1000, "
			  "concurrency: 4, duration: 2s}\n",
			  &r),
	    0);
	json_t *o = open_loop(unit_phase(r, 0));
	ck_assert(json_is_true(json_object_get(o, "saturated")));
	ck_assert_int_ge(unit_num(o, "backlog_max"), 1000);
	json_decref(r);
}
END_TEST

START_TEST(bad_rates_refused)
{
	unit_load_fails("name: u\nworkloads:\n  - {name: a, layer: noop, op: write, rate: 200M}\n",
			"rate expects ops per second");
	unit_load_fails("name: u\nworkloads:\n  - {name: a, layer: noop, op: write, rate: 0}\n",
			"rate must be more than 0");
	unit_load_fails(
	    "name: u\nworkloads:\n  - {name: a, layer: noop, op: write, arrival: poisson}\n",
	    "give rate too");
	unit_load_fails(
	    "name: u\nworkloads:\n  - {name: a, layer: noop, op: write, rate: 2, clients: 4}\n",
	    "less than one op per second");
}
END_TEST

int main(void)
{
	if (unit_profile_open("check_rate") < 0)
		return 1;
	Suite *s = suite_create("rate");
	TCase *tc = tcase_create("noop");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, uniform_rate_exact);
	tcase_add_test(tc, poisson_rate_near);
	tcase_add_test(tc, stall_seen_from_schedule);
	tcase_add_test(tc, saturated_said);
	tcase_add_test(tc, bad_rates_refused);
	suite_add_tcase(s, tc);
	int rc = unit_run(s);
	unit_profile_close(NULL);
	return rc;
}
