/* Merging the clients of one phase, as the runner does it: noop clients run
 * by cb_run_phase, whose merge makes the row: counts and per-second samples
 * add up, the time is the slowest client's, and each client keeps a
 * per_client row of its own, which a later iteration adds to. The merged
 * histogram gives the same percentiles as one histogram fed every client's
 * latencies (synthetic clients there, whose latencies are known, through
 * cb_phase_merge_client, the function the runner's merge calls). Writes the
 * merged record's JSON to argv[1] for clients_schema. */
#include "profile.h"
#include "report.h"
#include "phase.h"
#include "cq.h"
#include "rng.h"
#include "unit_result.h"
#include "unit_run.h"

#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NCLIENTS 4

static const char *out_path;

/* Client k's latencies: a distribution of its own (uniform, exponential,
 * bimodal, a slow client's shift), so a merge that mixed up buckets or
 * dropped a client would move the percentiles. */
static uint64_t latency(unsigned k, uint64_t *rng)
{
	double u = (double)(cb_rng_next(rng) >> 11) / 9007199254740992.0;
	switch (k) {
	case 0:
		return 50000 + (uint64_t)(u * 400000);
	case 1:
		return 20000 + (uint64_t)(-log(1 - u) * 150000);
	case 2:
		return u < 0.9 ? 80000 + (uint64_t)(u * 10000) : 5000000 + (uint64_t)(u * 1e6);
	default:
		return 2000000 + (uint64_t)(u * 3000000);
	}
}

/* Client k's result: a different op count and time each, its samples by
 * completion second; every latency also goes into all. */
static void client_result(struct cb_phase_result *c, unsigned k, struct cb_hist *all)
{
	uint64_t rng = 0x9e3779b97f4a7c15ULL * (k + 1), n = 20000 + 7919 * k;
	ck_assert_int_eq(cb_phase_init(c), 0);
	c->elapsed_ns = (3 + k) * 1000000000ULL - 1;
	ck_assert_int_eq(cb_phase_samples_grow(c, 3 + k), 0);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t lat = latency(k, &rng);
		cb_hist_record(c->hist, lat);
		cb_hist_record(all, lat);
		struct cb_sample *s = &c->samples[i * (3 + k) / n];
		s->ops++;
		s->bytes += 4096;
		s->lat_sum_ns += lat;
		s->lat_max_ns = lat > s->lat_max_ns ? lat : s->lat_max_ns;
		c->ops++;
		c->bytes += 4096;
		c->write_ops++;
		c->write_bytes += 4096;
	}
	c->errors = k;
	c->ran = true;
}

/* Client results merged by the function the runner calls once per client,
 * for the histogram property: only synthetic clients have latencies known
 * beforehand. */
static void merged_synthetic(struct cb_phase_result *p, struct cb_hist *all)
{
	ck_assert_int_eq(cb_phase_init(p), 0);
	for (unsigned k = 0; k < NCLIENTS; k++) {
		struct cb_phase_result c;
		client_result(&c, k, all);
		ck_assert_int_eq(cb_phase_merge_client(p, &c), 0);
		cb_phase_release(&c);
	}
}

/* The phase's row as the runner makes it: NCLIENTS noop clients run by
 * cb_run_phase and merged by it. Each client starts OPS ops, every 7th of
 * which fails, with a delay so every latency is above zero. */
#define OPS	   7000
#define CB_STR1(x) #x
#define CB_STR(x)  CB_STR1(x)
static void merged(struct cb_phase_result *p)
{
	static const char yaml[] =
	    "workloads:\n"
	    "  - {name: w, layer: noop, op: write, ops: " CB_STR(OPS) ", clients: " CB_STR(
		NCLIENTS) ",\n"
			  "     fail_every: 7, max_errors: 100000, delay: 10us}\n";
	struct cb_profile *prof = NULL;
	struct cb_err e = {0};
	ck_assert_msg(
	    cb_profile_parse("clients.yaml", yaml, sizeof(yaml) - 1, NULL, 0, &prof, &e) == 0, "%s",
	    e.msg);
	struct cb_cq *cqs[NCLIENTS];
	for (unsigned k = 0; k < NCLIENTS; k++)
		ck_assert_ptr_nonnull(cqs[k] = cb_cq_new());
	struct cb_runner_opts ro = {.sigfd = -1, .cqs = cqs, .ncqs = NCLIENTS};
	struct cb_phase_out out = {0};
	struct cb_phase ph = {.wl = &prof->items[0].wl,
			      .lopts = prof->items[0].lopts,
			      .run_name = "unit",
			      .run_id = "0",
			      .clients = NCLIENTS,
			      .err = &e,
			      .out = &out};
	ck_assert_int_eq(cb_phase_init(p), 0);
	ck_assert_msg(cb_run_phase(&ph, prof->items[0].engine, &ro, p) == 0, "%s", e.msg);
	for (unsigned k = 0; k < NCLIENTS; k++)
		cb_cq_free(cqs[k]);
	cb_profile_free(prof);
}

START_TEST(percentiles_of_all_samples)
{
	static const double pcts[] = {1, 10, 50, 90, 99, 99.9, 99.99, 100};
	struct cb_phase_result p;
	struct cb_hist *all = cb_hist_new();
	ck_assert_ptr_nonnull(all);
	merged_synthetic(&p, all);
	ck_assert_uint_eq(p.hist->count, all->count);
	ck_assert_uint_eq(p.hist->min, all->min);
	ck_assert_uint_eq(p.hist->max, all->max);
	ck_assert_int_eq(memcmp(p.hist->buckets, all->buckets, sizeof(all->buckets)), 0);
	for (size_t i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++)
		ck_assert_uint_eq(cb_hist_percentile(p.hist, pcts[i]),
				  cb_hist_percentile(all, pcts[i]));
	ck_assert(fabs(cb_hist_mean(p.hist) - cb_hist_mean(all)) <= 1e-6 * cb_hist_mean(all));
	ck_assert(fabs(cb_hist_stddev(p.hist) - cb_hist_stddev(all)) <= 1e-6 * cb_hist_stddev(all));
	cb_hist_free(all);
	cb_phase_release(&p);
}
END_TEST

/* Seconds by the clients' own clocks: synthetic clients of 3 to 6 s, so
 * the merged samples span several seconds (noop clients end in one). */
START_TEST(samples_of_long_clients)
{
	struct cb_phase_result p;
	struct cb_hist *all = cb_hist_new();
	ck_assert_ptr_nonnull(all);
	merged_synthetic(&p, all);
	uint64_t sops = 0;
	ck_assert_uint_eq(p.nsamples, 3 + NCLIENTS - 1);
	for (size_t i = 0; i < p.nsamples; i++)
		sops += p.samples[i].ops;
	ck_assert_uint_eq(sops, p.ops);
	/* second 0 holds every client's first second */
	uint64_t first = 0;
	for (unsigned k = 0; k < NCLIENTS; k++) {
		uint64_t n = 20000 + 7919 * k, in0 = 0;
		for (uint64_t i = 0; i < n; i++)
			in0 += i * (3 + k) / n == 0;
		first += in0;
	}
	ck_assert_uint_eq(p.samples[0].ops, first);
	cb_hist_free(all);
	cb_phase_release(&p);
}
END_TEST

START_TEST(counts_samples_and_rows)
{
	struct cb_phase_result p;
	merged(&p);
	uint64_t ops = 0, bytes = 0, errors = 0, sops = 0, sbytes = 0, slowest = 0;
	ck_assert_uint_eq(p.clients, NCLIENTS);
	ck_assert_uint_eq(p.nper_client, NCLIENTS);
	for (unsigned k = 0; k < NCLIENTS; k++) {
		const struct cb_client_row *c = &p.per_client[k];
		ck_assert_uint_eq(c->ops, OPS - OPS / 7);
		ck_assert_uint_eq(c->bytes, (OPS - OPS / 7) * 4096);
		ck_assert_uint_eq(c->errors, OPS / 7);
		ops += c->ops;
		bytes += c->bytes;
		errors += c->errors;
		slowest = c->elapsed_ns > slowest ? c->elapsed_ns : slowest;
	}
	ck_assert_uint_eq(p.ops, ops);
	ck_assert_uint_eq(p.bytes, bytes);
	ck_assert_uint_eq(p.write_ops, ops);
	ck_assert_uint_eq(p.errors, errors);
	ck_assert_uint_eq(p.hist->count, ops);
	/* the slowest client's time, and its seconds */
	ck_assert_uint_eq(p.elapsed_ns, slowest);
	ck_assert_uint_eq(p.nsamples, slowest / 1000000000ULL + 1);
	for (size_t i = 0; i < p.nsamples; i++) {
		sops += p.samples[i].ops;
		sbytes += p.samples[i].bytes;
	}
	ck_assert_uint_eq(sops, ops);
	ck_assert_uint_eq(sbytes, bytes);
	cb_phase_release(&p);
}
END_TEST

/* A second iteration adds to each client's row. */
START_TEST(iterations_add_rows)
{
	struct cb_phase_result a, b;
	merged(&a);
	merged(&b);
	uint64_t ea[NCLIENTS], ops = a.ops + b.ops;
	for (unsigned k = 0; k < NCLIENTS; k++)
		ea[k] = a.per_client[k].elapsed_ns + b.per_client[k].elapsed_ns;
	ck_assert_int_eq(cb_phase_merge_iteration(&a, &b), 0);
	ck_assert_uint_eq(a.nper_client, NCLIENTS);
	for (unsigned k = 0; k < NCLIENTS; k++) {
		ck_assert_uint_eq(a.per_client[k].ops, 2 * (OPS - OPS / 7));
		ck_assert_uint_eq(a.per_client[k].elapsed_ns, ea[k]);
	}
	ck_assert_uint_eq(a.ops, ops);
	ck_assert_uint_eq(a.hist->count, ops);
	cb_phase_release(&a);
	cb_phase_release(&b);
}
END_TEST

/* The record's per_client array: one object per client, figures as merged. */
START_TEST(json_rows)
{
	struct cb_result r;
	unit_result_init(&r, "clients");
	struct cb_phase_result *p = cb_result_add_phase(&r);
	ck_assert_ptr_nonnull(p);
	cb_phase_release(p);
	merged(p);
	FILE *f = fopen(out_path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(cb_report_json(f, &r), 0);
	fclose(f);

	json_t *j = json_load_file(out_path, 0, NULL);
	ck_assert_ptr_nonnull(j);
	json_t *ph = json_array_get(json_object_get(j, "phases"), 0);
	json_t *rows = json_object_get(ph, "per_client");
	ck_assert_uint_eq(json_array_size(rows), NCLIENTS);
	json_int_t ops = 0;
	for (size_t k = 0; k < NCLIENTS; k++) {
		json_t *c = json_array_get(rows, k);
		ck_assert_int_eq(json_integer_value(json_object_get(c, "client")), (json_int_t)k);
		ops += json_integer_value(json_object_get(c, "ops"));
		double secs = json_real_value(json_object_get(c, "duration_s"));
		double iops = json_real_value(json_object_get(c, "iops"));
		ck_assert(fabs(iops * secs - (double)p->per_client[k].ops) < 1e-6 * iops * secs);
		ck_assert(json_real_value(json_object_get(c, "lat_mean_us")) > 0);
	}
	ck_assert_int_eq(ops, json_integer_value(json_object_get(ph, "ops")));
	json_decref(j);
	cb_result_release(&r);
}
END_TEST

/* One client: no per_client rows, the record as before. */
START_TEST(one_client_no_rows)
{
	struct cb_result r;
	unit_result_init(&r, "one");
	struct cb_phase_result *p = cb_result_add_phase(&r);
	ck_assert_ptr_nonnull(p);
	p->name = strdup("w");
	p->layer = strdup("rados");
	p->op = strdup("write");
	p->clients = 1;
	json_t *j = cb_result_json(&r);
	ck_assert_ptr_nonnull(j);
	ck_assert_ptr_null(
	    json_object_get(json_array_get(json_object_get(j, "phases"), 0), "per_client"));
	json_decref(j);
	cb_result_release(&r);
}
END_TEST

int main(int argc, char **argv)
{
	out_path = argc > 1 ? argv[1] : "clients-sample.json";
	Suite *s = suite_create("clients");
	TCase *tc = tcase_create("merge");
	tcase_add_test(tc, percentiles_of_all_samples);
	tcase_add_test(tc, samples_of_long_clients);
	tcase_add_test(tc, counts_samples_and_rows);
	tcase_add_test(tc, iterations_add_rows);
	tcase_add_test(tc, json_rows);
	tcase_add_test(tc, one_client_no_rows);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
