/* steady: (steady.c) through the noop layer. At a fixed rate and a fixed
 * delay every second completes the same ops, so the phase ends after its
 * first full window; with a delay that grows 20 ms a second, each
 * second's p99 is 20 ms above the last, far outside 5 % of the window's
 * mean until well past max, so the phase runs to max and says so. */
#include "unit_profile.h"
#include "unit_run.h"

#include <check.h>
#include <jansson.h>

static json_t *steady(json_t *ph)
{
	json_t *s = json_object_get(ph, "steady");
	ck_assert_msg(json_is_object(s), "no steady in %s",
		      json_string_value(json_object_get(ph, "name")));
	return s;
}

START_TEST(flat_stops_after_first_window)
{
	json_t *r;
	ck_assert_int_eq(
	    unit_run_yaml("name: u\n"
			  "workloads:\n"
			  "  - {name: a, layer: noop, op: write, rate: 200, delay: 1ms, "
			  "concurrency: 8, steady: {metric: iops, window: 2s, within: "
			  "5%, max: 20s}}\n",
			  &r),
	    0);
	json_t *ph = unit_phase(r, 0), *s = steady(ph);
	ck_assert(json_is_true(json_object_get(s, "reached")));
	ck_assert_double_eq(unit_real(s, "after_s"), 2);
	ck_assert_str_eq(json_string_value(json_object_get(s, "metric")), "iops");
	/* stopped there: two seconds of 200 ops, not twenty */
	json_int_t ops = unit_num(ph, "ops");
	ck_assert_msg(ops >= 390 && ops <= 410, "%lld ops", (long long)ops);
	ck_assert_int_eq(json_array_size(json_object_get(ph, "samples")), 2);
	json_decref(r);
}
END_TEST

START_TEST(rising_runs_to_max)
{
	json_t *r;
	ck_assert_int_eq(
	    unit_run_yaml("name: u\n"
			  "workloads:\n"
			  "  - {name: a, layer: noop, op: write, rate: 200, delay: 1ms, "
			  "delay_rise: 20ms, concurrency: 64, steady: {metric: p99, "
			  "window: 2s, within: 5%, max: 6s}}\n",
			  &r),
	    0);
	json_t *ph = unit_phase(r, 0), *s = steady(ph);
	ck_assert(json_is_false(json_object_get(s, "reached")));
	ck_assert_double_eq(unit_real(s, "after_s"), 6);
	ck_assert_double_eq(unit_real(s, "max_s"), 6);
	/* it ran the whole six seconds at the rate */
	json_int_t ops = unit_num(ph, "ops");
	ck_assert_msg(ops >= 1150 && ops <= 1210, "%lld ops", (long long)ops);
	json_decref(r);
}
END_TEST

int main(void)
{
	if (unit_profile_open("check_steady") < 0)
		return 1;
	Suite *s = suite_create("steady");
	TCase *tc = tcase_create("noop");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, flat_stops_after_first_window);
	tcase_add_test(tc, rising_runs_to_max);
	suite_add_tcase(s, tc);
	int rc = unit_run(s);
	unit_profile_close(NULL);
	return rc;
}
