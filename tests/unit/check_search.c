/* search: (search.c) through the noop layer against the queue model. A
 * noop server of capacity C ops/s serves each op in 1/C; fed at a uniform
 * rate λ > C for T seconds its queue grows by λ − C ops a second, so the op
 * due at t waits t (λ − C) / C and the p99 over the phase is about
 * 0.99 T (λ − C) / C. Under a p99 target L the highest rate is then
 * λ* = C (1 + L / (0.99 T)): 1025 ops/s for C = 1000, L = 50 ms, T = 2 s.
 * The search states its bracket: the capacity it found and an error
 * within which the real one lies above it; λ* must lie there. The refusals
 * are in tests/data/bad (108-117), through the binary. */
#include "unit_profile.h"
#include "unit_run.h"

#include <check.h>
#include <jansson.h>

#define C 1000.0
#define L 0.050
#define T 2.0

START_TEST(capacity_of_the_queue_model)
{
	json_t *r;
	ck_assert_int_eq(unit_run_yaml("name: u\n"
				       "workloads:\n"
				       "  - {name: a, layer: noop, op: write, capacity: 1000, "
				       "concurrency: 64, rate: 100, duration: 2s, "
				       "search: {p99: 50ms}, expect: {min_capacity: 900}}\n",
				       &r),
			 0);
	json_t *ph = unit_phase(r, 0), *s = json_object_get(ph, "search");
	ck_assert(json_is_object(s));
	ck_assert_str_eq(json_string_value(json_object_get(s, "status")), "found");
	double cap = unit_real(s, "capacity_ops_per_s"), err = unit_real(s, "error_pct") / 100;
	double model = C * (1 + L / (0.99 * T));
	ck_assert_msg(err <= unit_real(s, "error_asked_pct") / 100, "error %.1f %%", err * 100);
	/* 1 % for the model's own approximations (the ops' own service
	 * time, the last second's partial queue) */
	ck_assert_msg(cap <= model * 1.01 && model <= cap * (1 + err) * 1.01,
		      "capacity %.0f (+%.1f %%), model %.0f", cap, err * 100, model);
	/* every step is there, and the verdicts follow from the figures */
	json_t *st;
	size_t i;
	bool seen = false;
	json_array_foreach(json_object_get(s, "steps"), i, st)
	{
		bool pass = !json_is_true(json_object_get(st, "saturated")) &&
			    unit_real(st, "value_us") <= L * 1e6;
		ck_assert(pass == json_is_true(json_object_get(st, "passed")));
		seen |= unit_real(st, "rate_ops_per_s") == cap && pass;
	}
	ck_assert(seen);
	ck_assert_int_le(json_array_size(json_object_get(s, "steps")), 12);
	json_decref(r);
}
END_TEST

int main(void)
{
	if (unit_profile_open("check_search") < 0)
		return 1;
	Suite *s = suite_create("search");
	TCase *tc = tcase_create("noop");
	tcase_set_timeout(tc, 90);
	tcase_add_test(tc, capacity_of_the_queue_model);
	suite_add_tcase(s, tc);
	int rc = unit_run(s);
	unit_profile_close(NULL);
	return rc;
}
