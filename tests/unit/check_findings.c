/* The findings (src/findings.c) of synthetic records: each kind found and
 * in order of importance, what is explained or served by the cluster left
 * out, a clean record with none (the negative control), the text block cut
 * at ten lines, and the report's telemetry lines only with detail. */
#include "findings.h"
#include "report.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

/* A record of phases given as a JSON array's text. */
static json_t *record(const char *phases)
{
	json_error_t je;
	json_t *p = json_loads(phases, 0, &je);
	ck_assert_msg(p, "%s", je.text);
	json_t *rec = json_pack("{s:s, s:{s:s}, s:s, s:o}", "schema", "cephbench-result/2", "tool",
				"version", "0.1.0", "run_name", "unit", "phases", p);
	ck_assert_ptr_nonnull(rec);
	return rec;
}

static char *text_of(const json_t *rec, bool all)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	cb_findings_text(f, rec, all);
	fclose(f);
	return buf;
}

static const char *at(const json_t *a, size_t i)
{
	const char *s = json_string_value(json_array_get(a, i));
	ck_assert_ptr_nonnull(s);
	return s;
}

/* A phase of every finding's kind, and its healthy counterparts. */
static const char every[] =
    "[{\"name\": \"ok\", \"ops\": 10, \"telemetry\": {\"client\": {\"bound\": false},"
    "  \"cluster\": {\"agree\": true, \"slow_osds\": []}}, \"disturbed\": [],"
    "  \"served\": {\"by\": \"cluster\"}, \"expect\": [{\"threshold\": \"min_iops\","
    "  \"pass\": true, \"measured\": 10, \"expected\": 1}]},"
    " {\"name\": \"cached\", \"served\": {\"by\": \"client cache\", \"judged\": \"stats\"}},"
    " {\"name\": \"warmish\", \"cold\": {\"client\": \"none\", \"osds\": 1, \"osds_dropped\": 0,"
    "  \"note\": \"1 of 1 OSDs kept their caches\"}},"
    " {\"name\": \"bound\", \"telemetry\": {\"client\": {\"bound\": true,"
    "  \"bound_reason\": \"cephbench's threads used 95 % of a core\"}}},"
    " {\"name\": \"apart\", \"telemetry\": {\"cluster\": {\"agree\": false, \"agree_note\":"
    "  \"the cluster counted +5.0 % ops\", \"compared\": \"ops\"}}},"
    " {\"name\": \"flushed\", \"telemetry\": {\"cluster\": {\"agree\": false, \"agree_note\":"
    "  \"the cluster counted -40.0 % bytes\", \"mismatch_why\": \"a client cache's\"}}},"
    " {\"name\": \"slow\", \"telemetry\": {\"cluster\": {\"agree\": true, \"slow_osds\":"
    "  [{\"osd\": 4, \"host\": \"node3\", \"op\": \"replica write\", \"mean_ms\": 14.2,"
    "  \"ratio\": 5.1, \"peers\": 11}]}}},"
    " {\"name\": \"scrubbed\", \"disturbed\": [\"scrub of 1.0 at +1.0 s\", \"osd.1 down\"]},"
    " {\"name\": \"late\", \"open_loop\": {\"rate_ops_per_s\": 1000, \"achieved_ops_per_s\":"
    "  600, \"saturated\": true, \"unissued_ops\": 0}},"
    " {\"name\": \"ontime\", \"open_loop\": {\"rate_ops_per_s\": 1000, \"achieved_ops_per_s\":"
    "  1000, \"saturated\": false, \"unissued_ops\": 0}},"
    " {\"name\": \"missed\", \"expect\": [{\"threshold\": \"max_errors\", \"pass\": false,"
    "  \"measured\": 3, \"expected\": 0}]},"
    " {\"name\": \"cut\", \"interrupted\": true},"
    " {\"name\": \"broke\", \"failed\": true, \"errors\": 7}]";

START_TEST(every_kind_in_order)
{
	json_t *rec = record(every);
	json_t *f = cb_findings_json(rec);
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(json_array_size(f), 10);
	/* failed and partial rows first, then verdicts, rates, the cluster's
	 * state, slow OSDs, counts, the client */
	ck_assert_str_eq(at(f, 0),
			 "cut: partial: a signal ended it early, its figures are partial");
	ck_assert_str_eq(at(f, 1), "broke: failed: ended early by an error (7 errors counted)");
	ck_assert_str_eq(
	    at(f, 2),
	    "missed: expectation failed: max_errors measured 3 errors, expected <= 0 errors");
	ck_assert_str_eq(at(f, 3), "late: rate target missed: achieved 600 of 1,000 ops/s");
	ck_assert_str_eq(at(f, 4), "scrubbed: disturbed: scrub of 1.0 at +1.0 s (and 1 more)");
	ck_assert_str_eq(at(f, 5), "slow: slow OSD: osd.4 on host node3, replica write 14.2 ms "
				   "mean, 5.1x its peers' median");
	ck_assert_str_eq(at(f, 6), "apart: counts differ: the cluster counted +5.0 % ops against "
				   "cephbench's; other clients of these OSDs count too: rerun with "
				   "the cluster otherwise idle");
	ck_assert_str_eq(at(f, 7), "cached: served by the client cache: most of its stats never "
				   "reached the cluster, its figures are not the cluster's speed");
	ck_assert_str_eq(at(f, 8), "warmish: not cold: 1 of 1 OSDs kept their caches");
	ck_assert_str_eq(at(f, 9), "bound: client-bound: cephbench's threads used 95 % of a core");
	/* the record's own findings, once set, are what the text shows */
	ck_assert_int_eq(cb_findings_record(rec), 0);
	ck_assert(json_equal(json_object_get(rec, "findings"), f));
	char *t = text_of(rec, false);
	ck_assert_msg(strncmp(t, "\nfindings:\n  cut: partial: ", 27) == 0, "%s", t);
	ck_assert_msg(strstr(t, "\n  bound: client-bound: "), "%s", t);
	ck_assert_msg(!strstr(t, "more (--detail"), "%s", t);
	free(t);
	json_decref(f);
	json_decref(rec);
}
END_TEST

/* Nothing to attend to: healthy rows, an explained difference, a cache
 * that did not serve, a rate kept. */
START_TEST(negative_control)
{
	json_t *rec =
	    record("[{\"name\": \"ok\", \"telemetry\": {\"client\": {\"bound\": false},"
		   " \"cluster\": {\"agree\": true, \"slow_osds\": []}},"
		   " \"served\": {\"by\": \"cluster\"}, \"disturbed\": []},"
		   " {\"name\": \"flushed\", \"telemetry\": {\"cluster\": {\"agree\":"
		   " false, \"mismatch_why\": \"a client cache's\"}}},"
		   " {\"name\": \"nothing\", \"telemetry\": {\"cluster\": {\"agree\":"
		   " null}}},"
		   " {\"name\": \"cold\", \"cold\": {\"client\": \"remount\", \"osds\": 1,"
		   " \"osds_dropped\": 0, \"osds_no_cache\": 1, \"note\": null}}]");
	json_t *f = cb_findings_json(rec);
	ck_assert_uint_eq(json_array_size(f), 0);
	char *t = text_of(rec, false);
	ck_assert_str_eq(t, "\nfindings: none, nothing needs attention\n");
	free(t);
	json_decref(f);
	json_decref(rec);
}
END_TEST

/* More than ten: the first nine and a line saying how many more; all of
 * them with detail. */
START_TEST(cut_at_ten)
{
	json_t *rec = record("[]");
	json_t *a = json_array();
	char line[32];
	for (int i = 0; i < 14; i++) {
		snprintf(line, sizeof(line), "p%d: client-bound: x", i);
		json_array_append_new(a, json_string(line));
	}
	json_array_append_new(a, json_integer(5)); /* a hand-made record's: shown empty */
	json_object_set_new(rec, "findings", a);
	char *t = text_of(rec, false);
	size_t lines = 0;
	for (const char *c = t; *c; c++)
		lines += *c == '\n';
	ck_assert_uint_eq(lines, 1 + 1 + 10); /* the blank line, the head, ten */
	ck_assert_msg(strstr(t, "  p8: client-bound: x\n  ... and 6 more (--detail shows them "
				"all)\n"),
		      "%s", t);
	ck_assert_msg(!strstr(t, "p9:"), "%s", t);
	free(t);
	t = text_of(rec, true);
	ck_assert_msg(strstr(t, "  p13: client-bound: x\n  \n"), "%s", t);
	ck_assert_msg(!strstr(t, "more"), "%s", t);
	free(t);
	json_decref(rec);
}
END_TEST

/* The report: telemetry's lines only with detail, the findings either way. */
START_TEST(report_detail)
{
	json_t *rec =
	    record("[{\"name\": \"w\", \"layer\": \"rados\", \"op\": \"write\", \"ops\": 10,"
		   " \"telemetry\": {\"client\": {\"bound\": true, \"bound_reason\": \"host CPU "
		   "idle 0 %\","
		   " \"cpu_user_s\": 1.0, \"cpu_sys_s\": 0.5, \"cpu_us_per_op\": 12.5}}}]");
	ck_assert_int_eq(cb_findings_record(rec), 0);
	for (int detail = 0; detail < 2; detail++) {
		char *buf = NULL;
		size_t n = 0;
		FILE *f = open_memstream(&buf, &n);
		cb_report_text(f, rec, detail);
		fclose(f);
		ck_assert_msg(strstr(buf, "\nfindings:\n  w: client-bound: host CPU idle 0 %\n"),
			      "%s", buf);
		ck_assert_msg(!strstr(buf, "\nw: client CPU 12.5 us/op") == !detail, "%d: %s",
			      detail, buf);
		ck_assert_msg(!strstr(buf, "\nw: client-bound: ") == !detail, "%d: %s", detail,
			      buf);
		free(buf);
	}
	json_decref(rec);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("findings");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, every_kind_in_order);
	tcase_add_test(tc, negative_control);
	tcase_add_test(tc, cut_at_ten);
	tcase_add_test(tc, report_detail);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
