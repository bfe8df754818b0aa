/* The runner's marks for telemetry (phase.h): START once every client has
 * set up, WINDOW when the measured window opens, END once every loop has
 * ended, each once and in that order, with one client or several, with a
 * ramp or without. At END no op of the phase is in flight: the row's counts
 * are already final (noop's completion thread would deliver a late one). */
#include "clock.h"
#include "phase.h"
#include "cq.h"
#include "profile.h"
#include "unit_run.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXC 4

struct seen {
	enum cb_mark m[8];
	size_t n;
	uint64_t t[8];
};

static void record(void *arg, enum cb_mark m)
{
	struct seen *s = arg;
	if (s->n < 8) {
		s->t[s->n] = cb_now_ns();
		s->m[s->n++] = m;
	}
}

/* Run the profile's one workload as a phase through cb_run_phase with the
 * marks recorded; returns cb_run_phase's result. */
static int run(const char *yaml, struct seen *s, struct cb_phase_result *res)
{
	struct cb_profile *prof = NULL;
	struct cb_err e = {0};
	ck_assert_msg(cb_profile_parse("marks.yaml", yaml, strlen(yaml), NULL, 0, &prof, &e) == 0,
		      "%s", e.msg);
	struct cb_cq *cqs[MAXC];
	for (unsigned k = 0; k < MAXC; k++)
		ck_assert_ptr_nonnull(cqs[k] = cb_cq_new());
	struct cb_runner_opts ro = {
	    .sigfd = -1, .cqs = cqs, .ncqs = MAXC, .mark = record, .mark_arg = s};
	struct cb_phase_out out = {0};
	struct cb_phase ph = {.wl = &prof->items[0].wl,
			      .lopts = prof->items[0].lopts,
			      .run_name = "unit",
			      .run_id = "0",
			      .clients = (unsigned)prof->items[0].wl.clients,
			      .err = &e,
			      .out = &out};
	ck_assert_int_eq(cb_phase_init(res), 0);
	int r = cb_run_phase(&ph, prof->items[0].engine, &ro, res);
	for (unsigned k = 0; k < MAXC; k++)
		cb_cq_free(cqs[k]);
	cb_profile_free(prof);
	return r;
}

static void expect_marks(const struct seen *s, const char *what)
{
	ck_assert_msg(s->n == 3, "%s: %zu marks, expected START WINDOW END", what, s->n);
	ck_assert_msg(
	    s->m[0] == CB_MARK_START && s->m[1] == CB_MARK_WINDOW && s->m[2] == CB_MARK_END,
	    "%s: marks %d %d %d, expected START WINDOW END", what, s->m[0], s->m[1], s->m[2]);
}

START_TEST(one_client)
{
	struct seen s = {0};
	struct cb_phase_result res;
	ck_assert_int_eq(
	    run("workloads:\n  - {name: w, layer: noop, op: read, ops: 2000}\n", &s, &res), 0);
	expect_marks(&s, "one client");
	cb_phase_release(&res);
}
END_TEST

START_TEST(clients_with_ramp)
{
	struct seen s = {0};
	struct cb_phase_result res;
	ck_assert_int_eq(run("workloads:\n  - {name: w, layer: noop, op: write, clients: 4, "
			     "ramp: 200ms, duration: 300ms, delay: 50us, completion: thread}\n",
			     &s, &res),
			 0);
	expect_marks(&s, "4 clients, ramp");
	/* the ops measured all started after WINDOW: the window holds them */
	ck_assert_uint_gt(res.ops, 0);
	cb_phase_release(&res);
}
END_TEST

/* The phase's every op completed before END: the row's figures at the end
 * are what they were at END (a later completion would add to them; noop's
 * completion thread would deliver it after the loop). */
static struct cb_phase_result *end_row;
static uint64_t ops_at_end;
static void record_end(void *arg, enum cb_mark m)
{
	(void)arg;
	if (m == CB_MARK_END)
		ops_at_end = end_row->ops + end_row->errors;
}

START_TEST(nothing_in_flight_at_end)
{
	struct cb_profile *prof = NULL;
	struct cb_err e = {0};
	static const char yaml[] = "workloads:\n  - {name: w, layer: noop, op: read, ops: 5000, "
				   "concurrency: 32, delay: 20us, completion: thread}\n";
	ck_assert_int_eq(cb_profile_parse("m.yaml", yaml, sizeof(yaml) - 1, NULL, 0, &prof, &e), 0);
	struct cb_cq *cq = cb_cq_new();
	struct cb_phase_result res;
	ck_assert_int_eq(cb_phase_init(&res), 0);
	end_row = &res;
	struct cb_runner_opts ro = {.sigfd = -1, .cqs = &cq, .ncqs = 1, .mark = record_end};
	struct cb_phase_out out = {0};
	struct cb_phase ph = {.wl = &prof->items[0].wl,
			      .lopts = prof->items[0].lopts,
			      .run_name = "unit",
			      .run_id = "0",
			      .clients = 1,
			      .err = &e,
			      .out = &out};
	ck_assert_msg(cb_run_phase(&ph, prof->items[0].engine, &ro, &res) == 0, "%s", e.msg);
	ck_assert_uint_eq(res.ops, 5000);
	ck_assert_uint_eq(ops_at_end, res.ops + res.errors);
	cb_phase_release(&res);
	cb_cq_free(cq);
	cb_profile_free(prof);
}
END_TEST

START_TEST(clients_without_ramp)
{
	struct seen s = {0};
	struct cb_phase_result res;
	ck_assert_int_eq(run("workloads:\n  - {name: w, layer: noop, op: read, clients: 3, "
			     "ops: 3000}\n",
			     &s, &res),
			 0);
	expect_marks(&s, "3 clients");
	ck_assert_uint_eq(res.ops, 9000);
	cb_phase_release(&res);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("marks");
	TCase *tc = tcase_create("marks");
	tcase_add_test(tc, one_client);
	tcase_add_test(tc, clients_with_ramp);
	tcase_add_test(tc, clients_without_ramp);
	tcase_add_test(tc, nothing_in_flight_at_end);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
