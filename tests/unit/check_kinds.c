/* A row's figures per kind of op (kinds.c, phase.c): through the noop
 * layer's rw mix and its syncs, the kinds add up to the row, syncs stay
 * out of every other figure, clients merge by name, and the record's
 * by_op reads back (cb_phase_rebuild) into the same JSON and text. */
#include "report.h"
#include "result_rebuild.h"
#include "unit_profile.h"
#include "unit_run.h"

#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_int_t num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	ck_assert_msg(json_is_integer(v), "no integer %s", key);
	return json_integer_value(v);
}

static json_t *phase(json_t *r, size_t i)
{
	ck_assert_ptr_nonnull(r);
	json_t *p = json_array_get(json_object_get(r, "phases"), i);
	ck_assert_ptr_nonnull(p);
	return p;
}

static json_t *kind(json_t *p, const char *name)
{
	json_t *k = json_object_get(json_object_get(p, "by_op"), name);
	ck_assert_msg(json_is_object(k), "%s: no by_op.%s",
		      json_string_value(json_object_get(p, "name")), name);
	return k;
}

START_TEST(mix_adds_up)
{
	json_t *r;
	ck_assert_int_eq(unit_run_yaml("name: u\nworkloads:\n"
				       "  - {name: m, layer: noop, op: rw, rw_mix_read: 70, "
				       "ops: 5000, clients: 2}\n",
				       &r),
			 0);
	json_t *p = phase(r, 0), *rd = kind(p, "read"), *wr = kind(p, "write");
	ck_assert_int_eq(json_object_size(json_object_get(p, "by_op")), 2);
	ck_assert_int_eq(num(rd, "ops") + num(wr, "ops"), num(p, "ops"));
	ck_assert_int_eq(num(rd, "ops"), num(p, "read_ops"));
	ck_assert_int_eq(num(wr, "ops"), num(p, "write_ops"));
	ck_assert_int_eq(num(rd, "bytes") + num(wr, "bytes"), num(p, "bytes"));
	ck_assert_int_eq(num(json_object_get(rd, "histogram"), "count"), num(rd, "ops"));
	ck_assert_int_eq(num(json_object_get(wr, "histogram"), "count"), num(wr, "ops"));
	/* 10000 draws at 70 %: a standard deviation of 46 */
	ck_assert_msg(num(rd, "ops") > 6700 && num(rd, "ops") < 7300, "%lld reads",
		      (long long)num(rd, "ops"));
	json_decref(r);
}
END_TEST

START_TEST(syncs_apart)
{
	json_t *r;
	/* a sync after writes 4, 8, ... 4000: the 4001st write ends the phase */
	ck_assert_int_eq(unit_run_yaml("name: u\nworkloads:\n"
				       "  - {name: s, layer: noop, op: write, sync_every: 4, "
				       "ops: 4001, concurrency: 8}\n"
				       "  - {name: w, layer: noop, op: write, ops: 100}\n",
				       &r),
			 0);
	json_t *p = phase(r, 0), *sy = kind(p, "sync");
	ck_assert_int_eq(num(sy, "ops"), 1000);
	ck_assert_int_eq(num(sy, "bytes"), 0);
	ck_assert_int_eq(num(kind(p, "write"), "ops"), 4001);
	ck_assert_int_eq(num(p, "ops"), 4001);
	ck_assert_int_eq(num(json_object_get(p, "histogram"), "count"), 4001);
	json_int_t in_samples = 0;
	size_t i;
	json_t *s;
	json_array_foreach(json_object_get(p, "samples"), i, s)
	{
		in_samples += num(s, "ops");
	}
	ck_assert_int_eq(in_samples, 4001);
	/* one kind, no syncs: the row is its own figures */
	ck_assert_ptr_null(json_object_get(phase(r, 1), "by_op"));
	json_decref(r);
}
END_TEST

/* A limit of ops does not cut the sync the last write owes (fio issues it
 * with the Nth write); end_sync adds one, timed as the others, in a phase
 * ended as planned, by its ops or its duration, and none in one stopped
 * by a signal. */
START_TEST(sync_owed_at_limit)
{
	json_t *r;
	ck_assert_int_eq(
	    unit_run_yaml("name: u\nworkloads:\n"
			  "  - {name: s, layer: noop, op: write, sync_every: 4, "
			  "ops: 4000, concurrency: 8}\n"
			  "  - {name: e, layer: noop, op: write, sync_every: 4, "
			  "end_sync: true, ops: 4000, concurrency: 8}\n"
			  "  - {name: d, layer: noop, op: write, end_sync: true, "
			  "duration: 1s, delay: 1ms, synchronous: true}\n"
			  "  - {name: r, layer: noop, op: read, end_sync: true, ops: 10}\n",
			  &r),
	    0);
	ck_assert_int_eq(num(kind(phase(r, 0), "sync"), "ops"), 1000);
	ck_assert_int_eq(num(phase(r, 0), "ops"), 4000);
	ck_assert_int_eq(num(kind(phase(r, 1), "sync"), "ops"), 1001);
	json_t *d = kind(phase(r, 2), "sync");
	ck_assert_int_eq(num(d, "ops"), 1);
	ck_assert_int_eq(num(json_object_get(d, "histogram"), "count"), 1);
	/* nothing written, nothing to sync */
	ck_assert_ptr_null(json_object_get(phase(r, 3), "by_op"));
	json_decref(r);
	ck_assert_int_eq(unit_run_yaml_interrupted("name: u\nworkloads:\n"
						   "  - {name: i, layer: noop, op: write, "
						   "end_sync: true, duration: 30s, delay: 100us}\n",
						   &r),
			 CB_EXIT_INTERRUPTED);
	ck_assert_ptr_null(json_object_get(phase(r, 0), "by_op"));
	json_decref(r);
}
END_TEST

/* The record's row read back and written again: the same by_op, and the
 * text says each kind. */
START_TEST(read_back)
{
	json_t *r;
	ck_assert_int_eq(
	    unit_run_yaml("name: u\nworkloads:\n"
			  "  - {name: m, layer: noop, op: rw, ops: 2000, sync_every: 10}\n",
			  &r),
	    0);
	json_t *p = phase(r, 0);
	struct cb_phase_result pr;
	struct cb_err e = {0};
	ck_assert_int_eq(cb_phase_init(&pr), 0);
	ck_assert_msg(cb_phase_rebuild(&pr, p, "r.json: phases[0]", &e) == 0, "%s", e.msg);
	json_t *again = json_object();
	ck_assert_int_eq(cb_phase_figures_json(again, &pr), 0);
	const char *k;
	json_t *v;
	json_object_foreach(json_object_get(p, "by_op"), k, v)
	{
		json_t *w = json_object_get(json_object_get(again, "by_op"), k);
		ck_assert_msg(w, "by_op.%s lost", k);
		ck_assert_int_eq(num(w, "ops"), num(v, "ops"));
		ck_assert(
		    json_equal(json_object_get(w, "histogram"), json_object_get(v, "histogram")));
	}
	ck_assert_int_eq(json_object_size(json_object_get(again, "by_op")), 3);
	/* a second host's file of the same run: kind by kind, added */
	struct cb_phase_result other;
	ck_assert_int_eq(cb_phase_init(&other), 0);
	ck_assert_int_eq(cb_phase_rebuild(&other, p, "r2.json: phases[0]", &e), 0);
	ck_assert_int_eq(cb_phase_merge_host(&pr, &other, 0), 0);
	json_t *both = json_object();
	ck_assert_int_eq(cb_phase_figures_json(both, &pr), 0);
	json_object_foreach(json_object_get(p, "by_op"), k, v)
	{
		json_t *w = json_object_get(json_object_get(both, "by_op"), k);
		ck_assert_int_eq(num(w, "ops"), 2 * num(v, "ops"));
		ck_assert_int_eq(num(json_object_get(w, "histogram"), "count"), 2 * num(v, "ops"));
	}
	json_decref(both);
	cb_phase_release(&other);
	char *text = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&text, &n);
	cb_report_text(f, r, false);
	fclose(f);
	ck_assert_msg(strstr(text, "m: read ") && strstr(text, "m: write ") &&
			  strstr(text, "m: sync ") && strstr(text, "(not in the row's ops)"),
		      "%s", text);
	free(text);
	json_decref(again);
	cb_phase_release(&pr);
	json_decref(r);
}
END_TEST

START_TEST(seed_recorded)
{
	json_t *r;
	ck_assert_int_eq(unit_run_yaml("name: u\nworkloads:\n"
				       "  - {name: a, layer: noop, op: write, ops: 10}\n"
				       "  - {name: b, layer: noop, op: write, ops: 10, seed: 42}\n",
				       &r),
			 0);
	json_int_t drawn = num(json_object_get(phase(r, 0), "params"), "seed");
	ck_assert_int_gt(drawn, 0);
	ck_assert_int_eq(num(json_object_get(phase(r, 1), "params"), "seed"), 42);
	json_decref(r);
	unit_load_fails("name: u\nworkloads:\n  - {name: a, layer: noop, op: write, seed: 0}\n",
			"seed must be between 1 and");
	unit_load_fails("name: u\nworkloads:\n  - {name: a, layer: noop, op: write, seed: -3}\n",
			"seed");
}
END_TEST

int main(void)
{
	if (unit_profile_open("check_kinds") < 0)
		return 1;
	Suite *s = suite_create("kinds");
	TCase *tc = tcase_create("noop");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, mix_adds_up);
	tcase_add_test(tc, syncs_apart);
	tcase_add_test(tc, sync_owed_at_limit);
	tcase_add_test(tc, read_back);
	tcase_add_test(tc, seed_recorded);
	suite_add_tcase(s, tc);
	int rc = unit_run(s);
	unit_profile_close(NULL);
	return rc;
}
