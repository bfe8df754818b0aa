/* Reporters: the JSON record carries the figures of the result exactly
 * (counts, percentiles, sparse histogram that rebuilds the same buckets),
 * and the text table has one row per phase. Writes its JSON to the path in
 * argv[1] so CTest can validate it against docs/result.schema.json. */
#include "report.h"
#include "unit_run.h"
#include "unit_result.h"

#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *out_path;

static void fill(struct cb_result *r)
{
	unit_result_init(r, "unit-profile");
	snprintf(r->client_debug, sizeof(r->client_debug), "quiet");
	snprintf(r->debug_kept, sizeof(r->debug_kept), "ms=1/1 rados=0/5");
	for (int k = 0; k < 2; k++) {
		struct cb_phase_result *p = cb_result_add_phase(r);
		ck_assert_ptr_nonnull(p);
		p->name = strdup(k ? "obj-rand-4k" : "obj-write-4k");
		p->layer = strdup("rados");
		p->op = strdup(k ? "rand" : "write");
		snprintf(p->target, sizeof(p->target), "bench");
		p->block_size = 4096;
		p->concurrency = 16;
		p->clients = 1;
		p->elapsed_ns = 2000000000ULL;
		p->nsamples = 2;
		p->samples = calloc(2, sizeof(*p->samples));
		for (uint64_t i = 1; i <= 10000; i++) {
			uint64_t lat = 1000 * i + 7 * (uint64_t)k;
			cb_hist_record(p->hist, lat);
			p->ops++;
			p->bytes += 4096;
			struct cb_sample *s = &p->samples[i > 5000];
			s->ops++;
			s->bytes += 4096;
			s->lat_sum_ns += lat;
			if (lat > s->lat_max_ns)
				s->lat_max_ns = lat;
		}
		p->errors = (uint64_t)k;
	}
}

START_TEST(json_record)
{
	struct cb_result r;
	fill(&r);
	FILE *f = fopen(out_path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(cb_report_json(f, &r), 0);
	fclose(f);

	json_t *j = json_load_file(out_path, 0, NULL);
	ck_assert_ptr_nonnull(j);
	ck_assert_str_eq(json_string_value(json_object_get(j, "schema")), "cephbench-result/2");
	ck_assert_str_eq(json_string_value(json_object_get(j, "started")), "2023-11-14T22:13:20Z");
	json_t *client = json_object_get(j, "client");
	ck_assert_str_eq(json_string_value(json_object_get(client, "debug")), "quiet");
	json_t *kept = json_object_get(client, "debug_kept");
	ck_assert_uint_eq(json_object_size(kept), 2);
	ck_assert_str_eq(json_string_value(json_object_get(kept, "ms")), "1/1");
	ck_assert_str_eq(json_string_value(json_object_get(kept, "rados")), "0/5");
	json_t *phases = json_object_get(j, "phases");
	ck_assert_uint_eq(json_array_size(phases), 2);
	for (size_t k = 0; k < 2; k++) {
		json_t *p = json_array_get(phases, k);
		const struct cb_phase_result *pr = &r.phases[k];
		ck_assert_int_eq(json_integer_value(json_object_get(p, "ops")), 10000);
		ck_assert_int_eq(json_integer_value(json_object_get(p, "bytes")), 40960000);
		ck_assert_int_eq(json_integer_value(json_object_get(p, "errors")), (int)k);
		ck_assert_double_eq_tol(json_real_value(json_object_get(p, "iops")), 5000.0, 1e-9);
		json_t *lat = json_object_get(p, "latency_us");
		ck_assert_int_eq(json_integer_value(json_object_get(lat, "p99")),
				 (json_int_t)(cb_hist_percentile(pr->hist, 99) / 1000));
		ck_assert_int_eq(json_integer_value(json_object_get(lat, "max")), 10000);
		/* the sparse histogram rebuilds the same buckets */
		struct cb_hist *h = cb_hist_new();
		json_t *b, *buckets = json_object_get(json_object_get(p, "histogram"), "buckets");
		size_t i;
		json_array_foreach(buckets, i, b)
		{
			ck_assert_int_eq(cb_hist_add_bucket(
					     h, (uint32_t)json_integer_value(json_array_get(b, 0)),
					     (uint64_t)json_integer_value(json_array_get(b, 1))),
					 0);
		}
		ck_assert_uint_eq(h->count, pr->hist->count);
		ck_assert_int_eq(memcmp(h->buckets, pr->hist->buckets, sizeof(h->buckets)), 0);
		cb_hist_free(h);
		json_t *samples = json_object_get(p, "samples");
		ck_assert_uint_eq(json_array_size(samples), 2);
		ck_assert_int_eq(
		    json_integer_value(json_object_get(json_array_get(samples, 1), "ops")), 5000);
	}
	json_decref(j);
	cb_result_release(&r);
}
END_TEST

START_TEST(text_table)
{
	struct cb_result r;
	char *buf = NULL;
	size_t len = 0;
	fill(&r);
	FILE *f = open_memstream(&buf, &len);
	json_t *rec = cb_result_json(&r);
	cb_report_text(f, rec, false);
	json_decref(rec);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "obj-write-4k"));
	ck_assert_ptr_nonnull(strstr(buf, "obj-rand-4k"));
	ck_assert_ptr_nonnull(strstr(buf, "p99 ms"));
	ck_assert_ptr_nonnull(strstr(buf, "5000.0"));
	free(buf);
	cb_result_release(&r);
}
END_TEST

int main(int argc, char **argv)
{
	out_path = argc > 1 ? argv[1] : "report-sample.json";
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("report");
	tcase_add_test(tc, json_record);
	tcase_add_test(tc, text_table);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
