/* The merge of hosts' rows (cb_phase_merge_host, the MPI ranks' and
 * cephbench merge's) and a record's phase rebuilt from its JSON
 * (cb_phase_rebuild): written by the run's own writer, read back, the
 * counts and buckets exact, the samples placed by the wall clock. */
#include "load_opts.h"
#include "report.h"
#include "result.h"
#include "result_rebuild.h"

#include <check.h>
#include <errno.h>
#include <string.h>

#define NS_S 1000000000ULL

/* A one-client phase of n samples, second t holding ops[t] ops of lat ns
 * each, its window starting at start_s on the wall clock. */
static void make_phase(struct cb_phase_result *p, const uint64_t *ops, size_t n, uint64_t lat,
		       double start_s)
{
	ck_assert_int_eq(cb_phase_init(p), 0);
	p->name = strdup("w");
	p->layer = strdup("rados");
	p->op = strdup("write");
	snprintf(p->target, sizeof(p->target), "bench");
	p->block_size = 4096;
	p->concurrency = 4;
	p->clients = 1;
	ck_assert_int_eq(cb_phase_samples_grow(p, n), 0);
	for (size_t t = 0; t < n; t++) {
		p->samples[t].ops = ops[t];
		p->samples[t].bytes = ops[t] * 4096;
		p->samples[t].lat_sum_ns = ops[t] * lat;
		p->samples[t].lat_max_ns = ops[t] ? lat : 0;
		for (uint64_t k = 0; k < ops[t]; k++)
			cb_hist_record(p->hist, lat + k);
		p->ops += ops[t];
	}
	p->bytes = p->ops * 4096;
	p->write_ops = p->ops;
	p->write_bytes = p->bytes;
	p->elapsed_ns = n * NS_S - NS_S / 2;
	p->window_unix_ns = (uint64_t)(start_s * 1e9);
	p->ran = true;
}

START_TEST(rebuild_round_trip)
{
	struct cb_phase_result p, q;
	const uint64_t ops[] = {5, 0, 7};
	make_phase(&p, ops, 3, 1234567, 1700000000.25);
	json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:I, s:I}", "name", p.name, "layer", p.layer,
			      "op", p.op, "pool", p.target, "block_size", (json_int_t)4096,
			      "concurrency", (json_int_t)4);
	ck_assert_int_eq(cb_phase_figures_json(o, &p), 0);
	struct cb_err e = {0};
	ck_assert_int_eq(cb_phase_init(&q), 0);
	ck_assert_int_eq(cb_phase_rebuild(&q, o, "r.json: phases[0]", &e), 0);
	ck_assert_uint_eq(q.ops, 12);
	ck_assert_uint_eq(q.bytes, p.bytes);
	ck_assert_uint_eq(q.write_ops, 12);
	ck_assert_uint_eq(q.elapsed_ns, p.elapsed_ns);
	ck_assert_uint_eq(q.hist->count, 12);
	ck_assert_mem_eq(q.hist->buckets, p.hist->buckets, sizeof(p.hist->buckets));
	/* min and max to the microsecond the record keeps them to */
	ck_assert_uint_eq(q.hist->min / 1000, p.hist->min / 1000);
	ck_assert_uint_eq(q.hist->max / 1000, p.hist->max / 1000);
	ck_assert_uint_eq(cb_hist_percentile(q.hist, 99) / 1000,
			  cb_hist_percentile(p.hist, 99) / 1000);
	ck_assert_uint_eq(q.nsamples, 3);
	for (size_t t = 0; t < 3; t++) {
		ck_assert_uint_eq(q.samples[t].ops, ops[t]);
		ck_assert_uint_eq(q.samples[t].lat_sum_ns, p.samples[t].lat_sum_ns);
	}
	ck_assert(llabs((long long)q.window_unix_ns - (long long)p.window_unix_ns) < 1000);
	json_decref(o);
	cb_phase_release(&p);
	cb_phase_release(&q);
}
END_TEST

/* An open loop's figures come back: its rate, late ops, backlog, the
 * service histogram's buckets and the samples' schedule. */
START_TEST(rebuild_open_loop)
{
	struct cb_phase_result p, q;
	const uint64_t ops[] = {3, 4};
	make_phase(&p, ops, 2, 2000000, 50.0);
	p.rate_ops = 250;
	p.arrival = CB_ARRIVAL_POISSON;
	p.late_ops = 5;
	p.backlog_max = 9;
	p.saturated = true;
	p.samples[1].due = 6;
	p.samples[1].late = 2;
	p.samples[1].backlog = 9;
	p.service_hist = cb_hist_new();
	ck_assert_ptr_nonnull(p.service_hist);
	for (uint64_t k = 0; k < 7; k++)
		cb_hist_record(p.service_hist, 500000 + 1000 * k);
	json_t *o = json_pack("{s:s, s:s, s:s, s:s}", "name", p.name, "layer", p.layer, "op", p.op,
			      "pool", p.target);
	json_object_set_new(o, "block_size", json_integer(4096));
	json_object_set_new(o, "concurrency", json_integer(4));
	ck_assert_int_eq(cb_phase_figures_json(o, &p), 0);
	ck_assert_ptr_nonnull(json_object_get(o, "open_loop"));
	struct cb_err e = {0};
	ck_assert_int_eq(cb_phase_init(&q), 0);
	ck_assert_int_eq(cb_phase_rebuild(&q, o, "r.json: phases[0]", &e), 0);
	ck_assert(q.rate_ops == 250);
	ck_assert_int_eq(q.arrival, CB_ARRIVAL_POISSON);
	ck_assert_uint_eq(q.late_ops, 5);
	ck_assert_uint_eq(q.backlog_max, 9);
	ck_assert(q.saturated);
	ck_assert_ptr_nonnull(q.service_hist);
	ck_assert_mem_eq(q.service_hist->buckets, p.service_hist->buckets,
			 sizeof(p.service_hist->buckets));
	ck_assert_uint_eq(q.samples[1].due, 6);
	ck_assert_uint_eq(q.samples[1].late, 2);
	ck_assert_uint_eq(q.samples[1].backlog, 9);
	json_decref(o);
	cb_phase_release(&p);
	cb_phase_release(&q);
}
END_TEST

/* Two hosts whose windows start 1.4 s apart: the later one's second t is
 * the earlier one's t + 1, whichever is merged into which. */
static void merge_pair(double start_dst, double start_src, const uint64_t *want, size_t nwant)
{
	struct cb_phase_result d, s;
	const uint64_t a[] = {1, 2}, b[] = {10, 20};
	make_phase(&d, a, 2, 1000, start_dst);
	make_phase(&s, b, 2, 3000, start_src);
	ck_assert_int_eq(cb_phase_merge_host(&d, &s, cb_phase_offset_s(&d, &s)), 0);
	ck_assert_uint_eq(d.ops, 33);
	ck_assert_uint_eq(d.hist->count, 33);
	ck_assert_uint_eq(d.nsamples, nwant);
	for (size_t t = 0; t < nwant; t++)
		ck_assert_uint_eq(d.samples[t].ops, want[t]);
	ck_assert_uint_eq(d.window_unix_ns, (uint64_t)(100.0 * 1e9));
	/* one row per client, a one-client side's own figures */
	ck_assert_uint_eq(d.nper_client, 2);
	ck_assert_uint_eq(d.per_client[0].ops, 3);
	ck_assert_uint_eq(d.per_client[1].ops, 30);
	ck_assert_uint_eq(d.per_client[1].lat_sum_ns, 30 * 3000);
	cb_phase_release(&d);
	cb_phase_release(&s);
}

START_TEST(merge_host_by_wall_clock)
{
	const uint64_t later[] = {1, 12, 20}, earlier[] = {10, 21, 2};
	merge_pair(100.0, 101.4, later, 3);
	merge_pair(101.4, 100.0, earlier, 3);
}
END_TEST

START_TEST(offset_rounds_to_the_second)
{
	struct cb_phase_result a = {0}, b = {0};
	a.window_unix_ns = 10 * NS_S;
	b.window_unix_ns = 10 * NS_S + 1600000000ULL;
	ck_assert_int_eq(cb_phase_offset_s(&a, &b), 2);
	ck_assert_int_eq(cb_phase_offset_s(&b, &a), -2);
	b.window_unix_ns = 10 * NS_S + 400000000ULL;
	ck_assert_int_eq(cb_phase_offset_s(&a, &b), 0);
	b.window_unix_ns = 0; /* unknown: side by side */
	ck_assert_int_eq(cb_phase_offset_s(&a, &b), 0);
}
END_TEST

/* Rows that already have clients' rows keep them, in order. */
START_TEST(merge_host_keeps_clients_rows)
{
	struct cb_phase_result d, s, c;
	const uint64_t a[] = {4}, b[] = {6};
	make_phase(&d, a, 1, 1000, 5.0);
	make_phase(&s, b, 1, 1000, 5.0);
	make_phase(&c, b, 1, 1000, 5.0);
	ck_assert_int_eq(cb_phase_merge_client(&s, &c), 0); /* s: one client row */
	ck_assert_int_eq(cb_phase_add_host(&d, 0, "h0", &d), 0);
	ck_assert_int_eq(cb_phase_add_host(&d, 1, "h1", &s), 0);
	ck_assert_int_eq(cb_phase_merge_host(&d, &s, 0), 0);
	ck_assert_uint_eq(d.nper_client, 2);
	ck_assert_uint_eq(d.per_client[0].ops, 4);
	ck_assert_uint_eq(d.per_client[1].ops, 6);
	ck_assert_uint_eq(d.nranks, 2);
	ck_assert_str_eq(d.ranks[1].host, "h1");
	ck_assert_uint_eq(d.ranks[1].ops, 12);
	ck_assert_uint_eq(d.ops, 16);
	cb_phase_release(&d);
	cb_phase_release(&s);
	cb_phase_release(&c);
}
END_TEST

static int rebuild_text(const char *text, struct cb_err *e)
{
	json_error_t je;
	json_t *o = json_loads(text, 0, &je);
	ck_assert_ptr_nonnull(o);
	struct cb_phase_result p;
	ck_assert_int_eq(cb_phase_init(&p), 0);
	memset(e, 0, sizeof(*e)); /* the first error stands: each its own */
	int r = cb_phase_rebuild(&p, o, "x.json: phases[0]", e);
	cb_phase_release(&p);
	json_decref(o);
	return r;
}

#define ROW                                                                                        \
	"\"name\": \"w\", \"layer\": \"rados\", \"op\": \"write\", \"pool\": \"b\", "              \
	"\"block_size\": 1, \"concurrency\": 1, \"clients\": 1, \"ops\": 2, \"bytes\": 2, "        \
	"\"write_ops\": 2, \"write_bytes\": 2, \"errors\": 0, \"duration_s\": 1.0, "               \
	"\"latency_us\": {\"min\": 1, \"max\": 1, \"mean\": 1.0, \"stddev\": 0.0}, "

START_TEST(rebuild_refuses)
{
	struct cb_err e = {0};
	const char *hist = "\"histogram\": {\"layout\": \"log-linear\", \"sub_bucket_bits\": 10, "
			   "\"max_exponent\": 43, \"count\": 2, \"buckets\": [[1000, 2]]}";
	char buf[1024];
	snprintf(buf, sizeof(buf),
		 "{" ROW "%s, \"samples\": [{\"t\": 0, \"ops\": 2, \"bytes\": 2, "
		 "\"lat_mean_us\": 1.0, \"lat_max_us\": 1.0}]}",
		 hist);
	ck_assert_int_eq(rebuild_text(buf, &e), 0);
	/* a second out of its place */
	snprintf(buf, sizeof(buf),
		 "{" ROW "%s, \"samples\": [{\"t\": 3, \"ops\": 2, \"bytes\": 2, "
		 "\"lat_mean_us\": 1.0, \"lat_max_us\": 1.0}]}",
		 hist);
	ck_assert_int_eq(rebuild_text(buf, &e), -EINVAL);
	ck_assert_ptr_nonnull(strstr(e.msg, "x.json: phases[0] samples[0] t: expected 0"));
	/* buckets that do not add up to the count, an index past the top */
	snprintf(buf, sizeof(buf),
		 "{" ROW "\"histogram\": {\"layout\": \"log-linear\", \"sub_bucket_bits\": 10, "
		 "\"max_exponent\": 43, \"count\": 3, \"buckets\": [[1000, 2]]}, \"samples\": []}");
	ck_assert_int_eq(rebuild_text(buf, &e), -EINVAL);
	ck_assert_ptr_nonnull(strstr(e.msg, "the buckets hold 2 values, its count says 3"));
	snprintf(
	    buf, sizeof(buf),
	    "{" ROW "\"histogram\": {\"layout\": \"log-linear\", \"sub_bucket_bits\": 10, "
	    "\"max_exponent\": 43, \"count\": 2, \"buckets\": [[99999, 2]]}, \"samples\": []}");
	ck_assert_int_eq(rebuild_text(buf, &e), -EINVAL);
	ck_assert_ptr_nonnull(strstr(e.msg, "buckets[0]"));
	/* another layout */
	snprintf(buf, sizeof(buf),
		 "{" ROW "\"histogram\": {\"layout\": \"log-linear\", \"sub_bucket_bits\": 7, "
		 "\"max_exponent\": 43, \"count\": 2, \"buckets\": [[1000, 2]]}, \"samples\": []}");
	ck_assert_int_eq(rebuild_text(buf, &e), -EINVAL);
	ck_assert_ptr_nonnull(strstr(e.msg, "sub_bucket_bits 7"));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("merge");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, rebuild_round_trip);
	tcase_add_test(tc, rebuild_open_loop);
	tcase_add_test(tc, merge_host_by_wall_clock);
	tcase_add_test(tc, offset_rounds_to_the_second);
	tcase_add_test(tc, merge_host_keeps_clients_rows);
	tcase_add_test(tc, rebuild_refuses);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
