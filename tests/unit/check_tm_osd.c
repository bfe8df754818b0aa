/* Telemetry's osd part without a cluster: perf dumps saved from a Ceph
 * 16.2 OSD and MDS (tests/data/perf) parsed and differenced, the slow OSD
 * finder's median, floor and ratio, and a row's cluster lines and JSON. */
#include "result.h"
#include "telemetry.h"
#include "tm_osd.h"
#include "tm_osd_perf.h"
#include "tm_slow.h"

#include <check.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_t *load(const char *name)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/perf/%s", CB_TEST_DATA, name);
	json_error_t e;
	json_t *j = json_load_file(path, 0, &e);
	ck_assert_msg(j != NULL, "%s: %s", path, e.text);
	return j;
}

START_TEST(osd_delta_from_saved_dumps)
{
	json_t *a = load("osd-a.json"), *b = load("osd-b.json");
	struct cb_osd_perf pa, pb, d;
	ck_assert_int_eq(cb_osd_perf_parse(a, &pa), 0);
	ck_assert_int_eq(cb_osd_perf_parse(b, &pb), 0);
	ck_assert_uint_eq(pa.op, 7660);
	ck_assert_uint_eq(pa.in_bytes, 174009738);
	ck_assert_uint_eq(pa.lat[CB_OSD_LAT_W].count, 4961);
	ck_assert_int_eq(cb_osd_perf_delta(&pa, &pb, &d), 0);
	/* a second of 4K writes between them (rados bench) */
	ck_assert_uint_eq(d.op, 302);
	ck_assert_uint_eq(d.op_w, 302);
	ck_assert_uint_eq(d.op_r, 0);
	ck_assert_uint_eq(d.in_bytes, 174628234 - 174009738);
	ck_assert_uint_eq(d.lat[CB_OSD_LAT_W].count, 302);
	ck_assert_double_eq_tol(d.lat[CB_OSD_LAT_W].sum_s, 11.23122739 - 10.894614614, 1e-9);
	ck_assert_double_eq_tol(cb_perf_lat_ms(&d.lat[CB_OSD_LAT_W]),
				(11.23122739 - 10.894614614) * 1e3 / 302, 1e-9);
	ck_assert_double_eq(cb_perf_lat_ms(&d.lat[CB_OSD_LAT_R]), -1);
	ck_assert_uint_eq(d.lat[CB_OSD_LAT_SUBOP_W].count, 29685 - 27023);
	/* the other way round: counters went back (a restarted OSD) */
	ck_assert_int_eq(cb_osd_perf_delta(&pb, &pa, &d), -ERANGE);
	/* a missing counter is no snapshot */
	json_object_del(json_object_get(a, "osd"), "op_w_latency");
	ck_assert_int_eq(cb_osd_perf_parse(a, &pa), -EBADMSG);
	ck_assert_int_eq(cb_osd_perf_parse(json_object_get(b, "osd"), &pa), -EBADMSG);
	json_decref(a);
	json_decref(b);
}
END_TEST

START_TEST(mds_counters)
{
	json_t *m = load("mds.json");
	struct cb_mds_perf a, b, d;
	ck_assert_int_eq(cb_mds_perf_parse(m, &a), 0);
	ck_assert_uint_eq(a.request, (uint64_t)json_integer_value(
					 json_object_get(json_object_get(m, "mds"), "request")));
	b = a;
	b.request += 150;
	b.reply += 150;
	b.reply_latency.count += 150;
	b.reply_latency.sum_s += 0.015;
	ck_assert_int_eq(cb_mds_perf_delta(&a, &b, &d), 0);
	ck_assert_uint_eq(d.request, 150);
	ck_assert_double_eq_tol(cb_perf_lat_ms(&d.reply_latency), 0.1, 1e-9);
	ck_assert_int_eq(cb_mds_perf_delta(&b, &a, &d), -ERANGE);
	json_decref(m);
}
END_TEST

START_TEST(median)
{
	double odd[] = {5, 1, 3}, even[] = {4, 1, 3, 2}, one[] = {7};
	ck_assert_double_eq(cb_slow_median(odd, 3), 3);
	ck_assert_double_eq(cb_slow_median(even, 4), 2.5);
	ck_assert_double_eq(cb_slow_median(one, 1), 7);
}
END_TEST

static int find(const struct cb_slow_in *in, size_t n, struct cb_slow *out)
{
	return cb_slow_find(in, n, out);
}

START_TEST(finder)
{
	struct cb_slow out[16];
	/* one slow of three: its peers' median, itself left out */
	struct cb_slow_in three[] = {{0, 100, 1.2}, {1, 100, 14.2}, {2, 100, 1.6}};
	ck_assert_int_eq(find(three, 3, out), 1);
	ck_assert_int_eq(out[0].osd, 1);
	ck_assert_uint_eq(out[0].peers, 2);
	ck_assert_double_eq_tol(out[0].median_ms, 1.4, 1e-12);
	ck_assert_double_eq_tol(out[0].ratio, 14.2 / 1.4, 1e-12);
	/* above 2x but under the floor: a fast cluster's noise */
	struct cb_slow_in fast[] = {{0, 100, 0.1}, {1, 100, 0.9}, {2, 100, 0.12}};
	ck_assert_int_eq(find(fast, 3, out), 0);
	/* above the floor but exactly 2x: not beyond it */
	struct cb_slow_in twice[] = {{0, 100, 2}, {1, 100, 4}, {2, 100, 2}};
	ck_assert_int_eq(find(twice, 3, out), 0);
	twice[1].mean_ms = 4.01;
	ck_assert_int_eq(find(twice, 3, out), 1);
	/* an OSD that timed too few ops is neither judged nor a peer */
	struct cb_slow_in few[] = {
	    {0, 100, 1.2}, {1, CB_SLOW_MIN_OPS - 1, 50}, {2, 100, 1.3}, {3, 100, 40}, {4, 0, -1}};
	ck_assert_int_eq(find(few, 5, out), 1);
	ck_assert_int_eq(out[0].osd, 3);
	ck_assert_uint_eq(out[0].peers, 2);
	/* two OSDs: each against the other */
	struct cb_slow_in two[] = {{0, 100, 1.5}, {1, 100, 9}};
	ck_assert_int_eq(find(two, 2, out), 1);
	ck_assert_int_eq(out[0].osd, 1);
	ck_assert_uint_eq(out[0].peers, 1);
	/* one OSD: no peer, nobody slow */
	ck_assert_int_eq(find(two + 1, 1, out), 0);
	ck_assert_int_eq(find(NULL, 0, out), 0);
	/* twelve, one slow: 5.1x as the example */
	struct cb_slow_in twelve[12];
	for (int i = 0; i < 12; i++)
		twelve[i] = (struct cb_slow_in){i, 1000, i == 4 ? 14.28 : 2.8};
	ck_assert_int_eq(find(twelve, 12, out), 1);
	ck_assert_int_eq(out[0].osd, 4);
	ck_assert_uint_eq(out[0].peers, 11);
	ck_assert_double_eq_tol(out[0].ratio, 5.1, 1e-9);
	/* half the cluster slow: each slow one's peers are more fast than
	 * slow, so both are named */
	struct cb_slow_in half[] = {{0, 100, 1}, {1, 100, 10}, {2, 100, 1}, {3, 100, 10}};
	ck_assert_int_eq(find(half, 4, out), 2);
	ck_assert_int_eq(out[0].osd, 1);
	ck_assert_int_eq(out[1].osd, 3);
}
END_TEST

/* A row of 3 OSDs: 1,000 writes (osd.1's at 10 ms as primary), cephbench's
 * count within 1 % or not, and with replicas osd.2 slow as a replica:
 * judged on the replicas' latency, only osd.2 is named. */
static void row(struct cb_phase_result *p, uint64_t client_ops, double replica_ms)
{
	int ids[] = {0, 1, 2};
	struct cb_osd_perf d[3] = {{0}};
	const double ms[] = {1.2, 10, 1.4};
	memset(p, 0, sizeof(*p));
	p->name = "w";
	p->layer = "rados";
	p->all_ops = client_ops;
	p->all_bytes = client_ops * 4096;
	p->all_lat_ns = client_ops * 5000000ULL;
	for (int i = 0; i < 3; i++) {
		d[i].op = d[i].op_w = i == 2 ? 334 : 333;
		d[i].in_bytes = d[i].op * 4096;
		d[i].lat[CB_OSD_LAT_W] = (struct cb_perf_lat){d[i].op_w, d[i].op_w * ms[i] / 1e3};
		d[i].lat[CB_OSD_LAT_OP] = d[i].lat[CB_OSD_LAT_W];
		/* replica_ms 0: a pool without replicas */
		double r = i == 2 ? replica_ms : 0.4;
		if (replica_ms > 0)
			d[i].lat[CB_OSD_LAT_SUBOP_W] = (struct cb_perf_lat){600, 600 * r / 1e3};
	}
	ck_assert_ptr_nonnull(p->tm = calloc(1, sizeof(*p->tm)));
	ck_assert_ptr_nonnull(p->tm->osd = cb_tm_osd_from(ids, d, 3));
}

static char *text_of(const struct cb_phase_result *p)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	/* drawn from the row's record, as the report is */
	json_t *row = json_pack("{s:s}", "name", p->name);
	cb_tm_osd_json(p->tm->osd, p, row);
	cb_tm_osd_text(row, f);
	json_decref(row);
	fclose(f);
	return buf;
}

/* A row's slow OSDs, as expect.c counts them. */
static int slow_count(const struct cb_phase_result *p)
{
	return cb_tm_osd_slow_count(p->tm ? p->tm->osd : NULL);
}

START_TEST(row_text_and_json)
{
	struct cb_phase_result p;
	row(&p, 1005, 0);
	char *t = text_of(&p);
	ck_assert_msg(strstr(t, "w: cluster counted 1,000 ops, 3.9 MiB; cephbench 1,005 (ops "
				"compared: agree within 1 %)\n"),
		      "%s", t);
	ck_assert_msg(strstr(t, "w: cluster mean 4.20 ms, client mean 5.00 ms: 0.80 ms client"),
		      "%s", t);
	ck_assert_msg(strstr(t, "w: slow OSD: osd.1 write 10.0 ms mean, 7.7x the median of 2 other "
				"OSDs, host unknown\n"),
		      "%s", t);
	ck_assert_int_eq(slow_count(&p), 1);
	free(t);
	json_t *ph = json_object();
	cb_tm_osd_json(p.tm->osd, &p, ph);
	json_t *c = json_object_get(json_object_get(ph, "telemetry"), "cluster");
	ck_assert_int_eq(json_integer_value(json_object_get(c, "ops")), 1000);
	ck_assert_int_eq(json_integer_value(json_object_get(c, "client_ops")), 1005);
	ck_assert(json_is_true(json_object_get(c, "agree")));
	ck_assert_str_eq(json_string_value(json_object_get(c, "compared")), "ops");
	ck_assert_uint_eq(json_array_size(json_object_get(c, "osds")), 3);
	json_t *s = json_array_get(json_object_get(c, "slow_osds"), 0);
	ck_assert_int_eq(json_integer_value(json_object_get(s, "osd")), 1);
	ck_assert_str_eq(json_string_value(json_object_get(s, "op")), "write");
	json_decref(ph);
	cb_phase_tm_free(p.tm);

	/* 2 % apart: a warning line saying what to do; and osd.2 slow as a
	 * replica too */
	row(&p, 1020, 5);
	t = text_of(&p);
	ck_assert_msg(strstr(t, "w: warning: cluster counted 1,000 ops, 3.9 MiB; cephbench 1,020 "
				"(ops compared: they differ by more than 1 %: other clients of "
				"these OSDs count too: rerun with the cluster otherwise idle)\n"),
		      "%s", t);
	ck_assert_msg(strstr(t,
			     "w: slow OSD: osd.2 replica write 5.0 ms mean, 12.5x the median of 2 "
			     "other OSDs"),
		      "%s", t);
	ck_assert_msg(!strstr(t, "osd.1"), "%s", t);
	ck_assert_int_eq(slow_count(&p), 1);
	free(t);
	/* replicas all under the floor: nobody, whatever the primaries did */
	cb_phase_tm_free(p.tm);
	row(&p, 1000, 0.9);
	t = text_of(&p);
	ck_assert_msg(!strstr(t, "slow OSD"), "%s", t);
	ck_assert_int_eq(slow_count(&p), 0);
	free(t);
	/* rbd writes the OSDs counted 2 % more of: the object map's updates,
	 * said as the explanation, no warning; 2 % fewer: still a warning */
	p.layer = "rbd";
	p.all_ops = p.write_ops = 980;
	t = text_of(&p);
	ck_assert_msg(strstr(t, "w: cluster counted 1,000 ops, 3.9 MiB; cephbench 980 (ops "
				"compared: they differ by more than 1 %, as expected: librbd's own "
				"ops: an image's object map is updated"),
		      "%s", t);
	ck_assert_msg(!strstr(t, "warning"), "%s", t);
	free(t);
	p.all_ops = p.write_ops = 1020;
	t = text_of(&p);
	ck_assert_msg(strstr(t, "w: warning: cluster counted 1,000 ops"), "%s", t);
	free(t);
	/* reads it counted more of: nothing of librbd's explains them */
	p.all_ops = 980;
	p.write_ops = 0;
	t = text_of(&p);
	ck_assert_msg(strstr(t, "w: warning: cluster counted 1,000 ops"), "%s", t);
	free(t);
	/* a CephFS mismatch: the client's cache, said as the explanation */
	p.layer = "cephfs";
	p.all_bytes = 2000 * 4096;
	t = text_of(&p);
	ck_assert_msg(strstr(t, "(bytes compared: they differ by more than 1 %, as expected: a "
				"client cache's reads"),
		      "%s", t);
	ck_assert_msg(!strstr(t, "warning"), "%s", t);
	free(t);
	/* CephFS compares bytes */
	p.layer = "cephfs";
	p.all_bytes = 1000 * 4096;
	t = text_of(&p);
	ck_assert_msg(strstr(t, "cephbench 3.9 MiB (bytes compared: agree within 1 %)"), "%s", t);
	free(t);
	/* merged with itself (a second iteration): every count doubles */
	struct cb_tm_osd *again = cb_tm_osd_from((int[]){2}, &(struct cb_osd_perf){.op = 10}, 1);
	ck_assert_int_eq(cb_tm_osd_merge(p.tm->osd, again), 0);
	cb_tm_osd_free(again);
	ph = json_object();
	cb_tm_osd_json(p.tm->osd, &p, ph);
	c = json_object_get(json_object_get(ph, "telemetry"), "cluster");
	ck_assert_int_eq(json_integer_value(json_object_get(c, "ops")), 1010);
	json_decref(ph);
	cb_phase_tm_free(p.tm);
	p.tm = NULL;
	ck_assert_int_eq(slow_count(&p), -1);
}
END_TEST

/* One interval judged: each OSD that counts and has a peer is judged,
 * the slow one named; with a single OSD counting nobody is judged. */
START_TEST(tally)
{
	struct cb_slow_in in[] = {{0, 100, 1.2}, {1, 100, 14.2}, {2, 2, 30}, {3, 100, 1.1}};
	unsigned judged[4] = {0}, slow[4] = {0};
	ck_assert_int_eq(cb_slow_tally(in, 4, judged, slow), 0);
	ck_assert_uint_eq(judged[0], 1);
	ck_assert_uint_eq(judged[1], 1);
	ck_assert_uint_eq(judged[2], 0); /* 2 ops: not judged, nobody's peer */
	ck_assert_uint_eq(slow[1], 1);
	ck_assert_uint_eq(slow[0] + slow[2] + slow[3], 0);
	unsigned j1[2] = {0}, s1[2] = {0};
	ck_assert_int_eq(cb_slow_tally(in + 1, 2, j1, s1), 0);
	ck_assert_uint_eq(j1[0] + j1[1] + s1[0] + s1[1], 0);
	ck_assert(cb_slow_steady(4, 3));
	ck_assert(!cb_slow_steady(4, 2)); /* half: one stall across a cut */
	ck_assert(!cb_slow_steady(2, 2)); /* too few to tell */
}
END_TEST

/* Issue 41, item 9: osd.1 slow over the phase by its mean (7.7x), as a
 * stall of its process on a loaded host makes it, is named only when its
 * intervals say it was slow throughout. */
START_TEST(slow_throughout)
{
	struct cb_phase_result p;
	row(&p, 1000, 0);
	ck_assert_int_eq(slow_count(&p), 1); /* no intervals: the mean alone */
	cb_tm_osd_set_intervals(p.tm->osd, 1, 4, 1);
	ck_assert_int_eq(slow_count(&p), 0);
	char *t = text_of(&p);
	ck_assert_msg(!strstr(t, "slow OSD"), "%s", t);
	free(t);
	cb_tm_osd_set_intervals(p.tm->osd, 1, 4, 3);
	ck_assert_int_eq(slow_count(&p), 1);
	t = text_of(&p);
	ck_assert_msg(strstr(t, "w: slow OSD: osd.1 write 10.0 ms mean, 7.7x the median of 2 other "
				"OSDs, host unknown, slow in 3 of 4 intervals\n"),
		      "%s", t);
	free(t);
	/* merged with a later iteration where it was slow throughout too */
	struct cb_tm_osd *again = cb_tm_osd_from((int[]){1}, &(struct cb_osd_perf){.op = 10}, 1);
	cb_tm_osd_set_intervals(again, 1, 4, 4);
	ck_assert_int_eq(cb_tm_osd_merge(p.tm->osd, again), 0);
	cb_tm_osd_free(again);
	t = text_of(&p);
	ck_assert_msg(strstr(t, "slow in 7 of 8 intervals"), "%s", t);
	free(t);
	cb_phase_tm_free(p.tm);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("tm_osd");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, osd_delta_from_saved_dumps);
	tcase_add_test(tc, mds_counters);
	tcase_add_test(tc, median);
	tcase_add_test(tc, finder);
	tcase_add_test(tc, row_text_and_json);
	tcase_add_test(tc, tally);
	tcase_add_test(tc, slow_throughout);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
