/* Groups (together:, run_group.c) through the noop layer: the members
 * start at one line and their measured windows overlap (first and last
 * seconds within 1 s of each other), the load stops once the measured
 * member is done (long before its own minute), a load member is neither
 * judged by its expect nor in the breakdown, the member with alone: is set
 * beside the row that ran alone, a group's repeat merges into one row
 * per member, a signal stops every member, and load beside nothing
 * measured does not run. */
#include "unit_profile.h"
#include "unit_run.h"

#include <check.h>
#include <jansson.h>
#include <math.h>
#include <string.h>

static const char *const mix =
    "name: u\n"
    "workloads:\n"
    "  - {name: solo, layer: noop, op: read, delay: 1ms, duration: 2s}\n"
    "  - {name: probe, layer: noop, op: read, delay: 1ms, duration: 2s, "
    "together: mix, alone: solo}\n"
    "  - {name: writers, layer: noop, op: write, delay: 2ms, clients: 3, "
    "duration: 1m, together: mix, role: load, "
    "expect: {min_iops: 1000000000}}\n";

START_TEST(members_overlap)
{
	json_t *r;
	/* the load's impossible expect is not judged: exit 0 */
	ck_assert_int_eq(unit_run_yaml(mix, &r), 0);
	json_t *p = unit_phase(r, 1), *w = unit_phase(r, 2);
	ck_assert_str_eq(unit_str(p, "name"), "probe");
	ck_assert_str_eq(unit_str(w, "name"), "writers");
	ck_assert_str_eq(unit_str(p, "group"), "mix");
	ck_assert_str_eq(unit_str(w, "role"), "load");
	ck_assert_str_eq(unit_str(p, "role"), "measure");
	double p0 = unit_real(p, "window_start_unix_s"), w0 = unit_real(w, "window_start_unix_s");
	double p1 = p0 + unit_real(p, "duration_s"), w1 = w0 + unit_real(w, "duration_s");
	ck_assert_msg(fabs(p0 - w0) < 1 && fabs(p1 - w1) < 1,
		      "probe %.3f..%.3f, writers %.3f..%.3f", p0, p1, w0, w1);
	/* the members' per-second samples cover the same seconds */
	size_t np = json_array_size(json_object_get(p, "samples"));
	size_t nw = json_array_size(json_object_get(w, "samples"));
	ck_assert_msg(np >= 2 && (np > nw ? np - nw : nw - np) <= 1, "%zu and %zu samples", np, nw);
	/* solo ran before the group, alone */
	json_t *s = unit_phase(r, 0);
	ck_assert_ptr_null(json_object_get(s, "group"));
	ck_assert(unit_real(s, "window_start_unix_s") + unit_real(s, "duration_s") <= p0 + 0.1);
	/* judged: none of the load's */
	json_t *v;
	size_t i;
	json_array_foreach(json_object_get(w, "expect"), i, v) ck_abort_msg("load judged");
	json_t *in = json_object_get(r, "interference");
	ck_assert_int_eq(json_array_size(in), 1);
	json_t *x = json_array_get(in, 0);
	ck_assert_str_eq(unit_str(x, "row"), "probe");
	ck_assert_str_eq(unit_str(x, "alone"), "solo");
	double slow = unit_real(json_object_get(x, "slowdown"), "mean");
	double want = unit_real(json_object_get(x, "together_us"), "mean") /
		      unit_real(json_object_get(x, "alone_us"), "mean");
	ck_assert_double_eq_tol(slow, want, 1e-9);
	json_decref(r);
}
END_TEST

START_TEST(repeat_merges_per_member)
{
	json_t *r;
	ck_assert_int_eq(
	    unit_run_yaml("name: u\n"
			  "workloads:\n"
			  "  - {name: a, layer: noop, op: read, delay: 1ms, duration: 1s, "
			  "repeat: 2, together: g}\n"
			  "  - {name: b, layer: noop, op: write, delay: 1ms, duration: 1s, "
			  "repeat: 2, together: g}\n",
			  &r),
	    0);
	ck_assert_int_eq(json_array_size(json_object_get(r, "phases")), 2);
	for (size_t i = 0; i < 2; i++) {
		json_t *ph = unit_phase(r, i);
		ck_assert_int_eq(unit_num(json_object_get(ph, "iterations"), "count"), 2);
	}
	json_decref(r);
}
END_TEST

/* SIGINT a second in: whichever member's loop reads it, every member
 * stops, each row partial; a missed signal would run the 30 s phases out. */
START_TEST(signal_stops_every_member)
{
	json_t *r;
	int rc = unit_run_yaml_interrupted(
	    "name: u\n"
	    "workloads:\n"
	    "  - {name: a, layer: noop, op: read, delay: 1ms, duration: 30s, "
	    "together: g}\n"
	    "  - {name: b, layer: noop, op: write, delay: 1ms, duration: 30s, "
	    "clients: 2, together: g}\n"
	    "  - {name: w, layer: noop, op: write, delay: 1ms, duration: 30s, "
	    "together: g, role: load}\n",
	    &r);
	ck_assert_int_eq(rc, CB_EXIT_INTERRUPTED);
	ck_assert_int_eq(json_array_size(json_object_get(r, "phases")), 3);
	for (size_t i = 0; i < 3; i++) {
		json_t *ph = unit_phase(r, i);
		ck_assert(json_is_true(json_object_get(ph, "interrupted")));
		ck_assert_msg(unit_real(ph, "duration_s") < 20, "%s ran %.1f s",
			      unit_str(ph, "name"), unit_real(ph, "duration_s"));
	}
	json_decref(r);
}
END_TEST

/* Load beside nothing measured measures nothing: no row, exit 0. */
START_TEST(load_alone_does_not_run)
{
	json_t *r;
	ck_assert_int_eq(unit_run_yaml("name: u\n"
				       "workloads:\n"
				       "  - {name: w, layer: noop, op: write, duration: 1m, "
				       "together: g, role: load}\n",
				       &r),
			 0);
	ck_assert_int_eq(json_array_size(json_object_get(r, "phases")), 0);
	json_decref(r);
}
END_TEST

int main(void)
{
	if (unit_profile_open("check_group") < 0)
		return 1;
	Suite *s = suite_create("group");
	TCase *tc = tcase_create("noop");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, members_overlap);
	tcase_add_test(tc, repeat_merges_per_member);
	tcase_add_test(tc, signal_stops_every_member);
	tcase_add_test(tc, load_alone_does_not_run);
	suite_add_tcase(s, tc);
	int rc = unit_run(s);
	unit_profile_close(NULL);
	return rc;
}
