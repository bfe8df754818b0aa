/* expect: thresholds judged against rows built here (no cluster): each
 * threshold passes exactly at its limit and fails one unit beyond it, a
 * failed row fails every threshold, a prefill step has none, the counts
 * over a result, the margins, and the verdicts as the JSON record and the
 * PASS/FAIL table show them. Writes a JSON record with verdicts to the
 * path in argv[1] so CTest can validate it against the schema. */
#include "engine.h"
#include "unit_run.h"
#include "unit_result.h"
#include "err.h"
#include "expect.h"
#include "profile.h"
#include "report.h"
#include "result.h"
#include "search.h"
#include "telemetry.h"
#include "tm_osd.h"
#include "tm_osd_perf.h"

#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *out_path;

/* The figures every row below has unless a test changes them: 1000 ops of
 * 4 KiB in 1 s (1000 IOPS, 4096000 B/s), 3 errors, 990 latencies of 1000 ns
 * and 10 of 1500 ns. Below 2048 ns the histogram's buckets are 1 ns wide, so
 * p99 = 1000, p99.9 = 1500 and the mean = 1005 exactly. */
#define OPS	1000
#define BS	4096
#define P99	1000
#define P999	1500
#define MEAN	1005
#define ERRORS	3
#define SLOW	1    /* fill_phase's slow OSDs */
#define CAP	1000 /* phase_new's search: the rates above it saturate */
#define IOPS	1000
#define BW	(OPS * BS)
#define SECOND	1000000000ULL
#define MS	1000000ULL
#define N_ALL	CB_EXPECT_NMETRICS
#define ALL_SET ((1u << CB_EXPECT_NMETRICS) - 1)

static void fill_phase(struct cb_phase_result *p, const char *name, const struct cb_workload *wl)
{
	p->name = strdup(name);
	p->layer = strdup("rados");
	p->op = strdup("write");
	snprintf(p->target, sizeof(p->target), "bench");
	p->block_size = BS;
	p->concurrency = 1;
	p->clients = 1;
	p->wl = wl;
	p->ops = p->write_ops = OPS;
	p->bytes = p->write_bytes = (uint64_t)OPS * BS;
	p->elapsed_ns = SECOND;
	p->errors = ERRORS;
	for (int i = 0; i < OPS; i++)
		cb_hist_record(p->hist, i < 990 ? P99 : P999);
	/* the cluster's side: 3 OSDs, osd.1 writing at 10 ms, the others
	 * at 1.2 and 1.4 ms: one slow OSD */
	int ids[] = {0, 1, 2};
	struct cb_osd_perf d[3] = {{0}};
	const double ms[] = {1.2, 10, 1.4};
	p->all_ops = OPS;
	p->all_bytes = (uint64_t)OPS * BS;
	for (int i = 0; i < 3; i++) {
		d[i].op = d[i].op_w = i == 2 ? OPS - 2 * (OPS / 3) : OPS / 3;
		d[i].in_bytes = d[i].op * BS;
		d[i].lat[CB_OSD_LAT_W] = (struct cb_perf_lat){d[i].op_w, d[i].op_w * ms[i] / 1e3};
		d[i].lat[CB_OSD_LAT_OP] = d[i].lat[CB_OSD_LAT_W];
	}
	ck_assert_ptr_nonnull(p->tm = calloc(1, sizeof(*p->tm)));
	ck_assert_ptr_nonnull(p->tm->osd = cb_tm_osd_from(ids, d, 3));
}

static int step(void *arg, uint64_t rate, struct cb_phase_result *pr)
{
	fill_phase(pr, "row", arg);
	pr->ran = true;
	pr->saturated = rate > CAP;
	return 0;
}

/* A row with a capacity search behind it: from 125 ops/s up by doubling to
 * the first saturated step (2000), then bisecting to within 3 %, so the
 * capacity found is CAP exactly and the row has the figures above. */
static void phase_new(struct cb_phase_result *p, const struct cb_workload *wl)
{
	struct cb_workload s = {.clients = 1,
				.rate = {.ops = CAP / 8},
				.search = {.p99_ns = MS, .steps = 12, .error_ppm = 30000}};
	struct cb_err e = {0};
	ck_assert_int_eq(cb_phase_init(p), 0);
	ck_assert_int_eq(cb_search_run(&s, step, (void *)wl, p, &e), 0);
	double cap;
	ck_assert(cb_search_capacity(p, &cap));
	ck_assert_double_eq(cap, CAP);
}

static void set(struct cb_expect *x, enum cb_expect_metric m, uint64_t v)
{
	x->v[m] = v;
	cb_expect_mark(x, cb_expect_options[m].name);
}

/* The one verdict of x (one metric set) on p. */
static struct cb_verdict judge1(const struct cb_expect *x, const struct cb_phase_result *p)
{
	struct cb_verdict v[N_ALL];
	ck_assert_uint_eq(cb_expect_judge(x, p, v), 1);
	return v[0];
}

START_TEST(the_figures_are_exact)
{
	/* what the boundary cases rely on */
	struct cb_phase_result p;
	phase_new(&p, NULL);
	ck_assert_double_eq(cb_phase_iops(&p), IOPS);
	ck_assert_double_eq(cb_phase_bw(&p), BW);
	ck_assert_uint_eq(cb_hist_percentile(p.hist, 99), P99);
	ck_assert_uint_eq(cb_hist_percentile(p.hist, 99.9), P999);
	ck_assert_double_eq(cb_hist_mean(p.hist), MEAN);
	cb_phase_release(&p);
}
END_TEST

static const struct {
	enum cb_expect_metric m;
	const char *key;
	uint64_t measured;
	int beyond; /* the direction a limit moves to fail: +1 for a minimum */
} limits[] = {
    {CB_EXPECT_MIN_IOPS, "min_iops", IOPS, +1},
    {CB_EXPECT_MIN_BW, "min_bw", BW, +1},
    {CB_EXPECT_MAX_MEAN_LATENCY, "max_mean_latency", MEAN, -1},
    {CB_EXPECT_MAX_P99, "max_p99", P99, -1},
    {CB_EXPECT_MAX_P999, "max_p999", P999, -1},
    {CB_EXPECT_MAX_ERRORS, "max_errors", ERRORS, -1},
    {CB_EXPECT_MAX_SLOW_OSDS, "slow_osds", SLOW, -1},
    {CB_EXPECT_MIN_CAPACITY, "min_capacity", CAP, +1},
};

/* loop over limits[]: exactly at the limit passes, one unit beyond fails,
 * one unit the other way passes */
START_TEST(boundary)
{
	struct cb_phase_result p;
	phase_new(&p, NULL);
	struct {
		int64_t delta;
		bool pass;
	} cases[] = {{0, true}, {1, false}, {-1, true}};
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct cb_expect x = {.set = 0};
		uint64_t lim = limits[_i].measured + (uint64_t)(cases[c].delta * limits[_i].beyond);
		set(&x, limits[_i].m, lim);
		ck_assert_uint_eq(x.set, 1u << limits[_i].m);
		struct cb_verdict v = judge1(&x, &p);
		ck_assert_int_eq(v.metric, limits[_i].m);
		ck_assert_str_eq(v.key, limits[_i].key);
		ck_assert_double_eq(v.measured, (double)limits[_i].measured);
		ck_assert_double_eq(v.expected, (double)lim);
		ck_assert_msg(v.pass == cases[c].pass, "%s: limit %llu measured %llu: %s",
			      limits[_i].key, (unsigned long long)lim,
			      (unsigned long long)limits[_i].measured,
			      v.pass ? "passed" : "failed");
		if (cases[c].delta == 0)
			ck_assert_double_eq(v.margin, 0);
	}
	cb_phase_release(&p);
}
END_TEST

/* Latencies at millisecond scale: all samples equal, so every percentile
 * is the value itself (clamped to min = max). */
START_TEST(boundary_ms)
{
	struct cb_phase_result p;
	ck_assert_int_eq(cb_phase_init(&p), 0);
	p.ops = 100;
	p.elapsed_ns = SECOND;
	for (int i = 0; i < 100; i++)
		cb_hist_record(p.hist, 20 * MS);
	enum cb_expect_metric lat[] = {CB_EXPECT_MAX_MEAN_LATENCY, CB_EXPECT_MAX_P99,
				       CB_EXPECT_MAX_P999};
	for (size_t i = 0; i < 3; i++) {
		struct cb_expect at = {.set = 0}, under = {.set = 0};
		set(&at, lat[i], 20 * MS);
		set(&under, lat[i], 20 * MS - 1);
		ck_assert(judge1(&at, &p).pass);
		ck_assert(!judge1(&under, &p).pass);
		ck_assert_double_eq(judge1(&at, &p).measured, 20e6);
	}
	cb_phase_release(&p);
}
END_TEST

START_TEST(all_thresholds_in_order)
{
	struct cb_phase_result p;
	phase_new(&p, NULL);
	struct cb_expect x = {.set = 0};
	for (size_t i = 0; i < N_ALL; i++)
		set(&x, limits[i].m, limits[i].measured);
	ck_assert_uint_eq(x.set, ALL_SET);
	struct cb_verdict v[N_ALL];
	ck_assert_uint_eq(cb_expect_judge(&x, &p, v), N_ALL);
	for (size_t i = 0; i < N_ALL; i++) {
		ck_assert_int_eq(v[i].metric, (int)i);
		ck_assert(v[i].pass);
	}
	/* only what was given is judged */
	struct cb_expect two = {.set = 0};
	set(&two, CB_EXPECT_MAX_ERRORS, 0);
	set(&two, CB_EXPECT_MIN_BW, 1);
	ck_assert_uint_eq(cb_expect_judge(&two, &p, v), 2);
	ck_assert_int_eq(v[0].metric, CB_EXPECT_MIN_BW);
	ck_assert(v[0].pass);
	ck_assert_int_eq(v[1].metric, CB_EXPECT_MAX_ERRORS);
	ck_assert(!v[1].pass);
	/* none given, or no expectations at all */
	struct cb_expect none = {.set = 0};
	ck_assert_uint_eq(cb_expect_judge(&none, &p, v), 0);
	ck_assert_uint_eq(cb_expect_judge(NULL, &p, v), 0);
	cb_phase_release(&p);
}
END_TEST

START_TEST(mark)
{
	struct cb_expect x = {.set = 0};
	cb_expect_mark(&x, "max_p999");
	ck_assert_uint_eq(x.set, 1u << CB_EXPECT_MAX_P999);
	cb_expect_mark(&x, "min_iops");
	ck_assert_uint_eq(x.set, (1u << CB_EXPECT_MAX_P999) | (1u << CB_EXPECT_MIN_IOPS));
	cb_expect_mark(&x, "max_p99x");
	cb_expect_mark(&x, "");
	ck_assert_uint_eq(x.set, (1u << CB_EXPECT_MAX_P999) | (1u << CB_EXPECT_MIN_IOPS));
	/* the options table is in enum order, as mark relies on */
	for (unsigned m = 0; m < N_ALL; m++) {
		struct cb_expect y = {.set = 0};
		cb_expect_mark(&y, limits[m].key);
		ck_assert_uint_eq(y.set, 1u << m);
		ck_assert_str_eq(cb_expect_options[m].name, limits[m].key);
	}
	ck_assert_ptr_null(cb_expect_options[N_ALL].name);
}
END_TEST

/* A row that ended on an error fails every threshold, however easy. */
/* slow_osds on a row whose OSD counters were not read: a FAIL that says
 * so, not a pass; the finder's count otherwise */
START_TEST(slow_osds_not_measured)
{
	struct cb_phase_result p;
	phase_new(&p, NULL);
	struct cb_expect x = {.set = 0};
	set(&x, CB_EXPECT_MAX_SLOW_OSDS, 0);
	struct cb_verdict v = judge1(&x, &p);
	ck_assert(!v.pass);
	ck_assert_double_eq(v.measured, 1);
	cb_phase_tm_free(p.tm);
	p.tm = NULL;
	v = judge1(&x, &p);
	ck_assert(!v.pass);
	ck_assert_double_eq(v.measured, -1);
	char buf[48];
	ck_assert_str_eq(cb_expect_format(v.metric, v.measured, buf, sizeof(buf)), "not measured");
	set(&x, CB_EXPECT_MAX_SLOW_OSDS, 5);
	ck_assert(!judge1(&x, &p).pass);
	cb_phase_release(&p);
}
END_TEST

/* A row the client's cache served (the OSDs sent a tenth of what it
 * read): not judged, so not a pass, with cached set; cached: ok judges it;
 * the same row served by the OSDs (the negative control) passes. */
START_TEST(cached_not_judged)
{
	struct cb_workload wl = {.cached = 0};
	for (int k = 0; k < 3; k++) {
		struct cb_phase_result p;
		phase_new(&p, &wl);
		p.write_ops = p.write_bytes = 0; /* reads */
		int id = 0;
		struct cb_osd_perf d = {.op = OPS, .op_r = OPS};
		d.out_bytes = k == 2 ? p.all_bytes : p.all_bytes / 10;
		cb_tm_osd_free(p.tm->osd);
		ck_assert_ptr_nonnull(p.tm->osd = cb_tm_osd_from(&id, &d, 1));
		wl.cached = k == 1;
		struct cb_expect x = {.set = 0};
		set(&x, CB_EXPECT_MIN_IOPS, 1);
		struct cb_verdict v = judge1(&x, &p);
		ck_assert(v.cached == (k == 0));
		ck_assert(v.pass == (k != 0));
		ck_assert_double_eq(v.measured, k == 0 ? -1 : IOPS);
		cb_phase_release(&p);
	}
}
END_TEST

START_TEST(failed_phase_fails_all)
{
	struct cb_phase_result p;
	phase_new(&p, NULL);
	struct cb_expect x = {.set = 0};
	set(&x, CB_EXPECT_MIN_IOPS, 0);
	set(&x, CB_EXPECT_MIN_BW, 0);
	set(&x, CB_EXPECT_MAX_MEAN_LATENCY, 10 * SECOND);
	set(&x, CB_EXPECT_MAX_P99, 10 * SECOND);
	set(&x, CB_EXPECT_MAX_P999, 10 * SECOND);
	set(&x, CB_EXPECT_MAX_ERRORS, 1000000);
	set(&x, CB_EXPECT_MAX_SLOW_OSDS, 3);
	set(&x, CB_EXPECT_MIN_CAPACITY, 0);
	struct cb_verdict v[N_ALL];
	ck_assert_uint_eq(cb_expect_judge(&x, &p, v), N_ALL);
	for (size_t i = 0; i < N_ALL; i++)
		ck_assert(v[i].pass);
	p.failed = true;
	ck_assert_uint_eq(cb_expect_judge(&x, &p, v), N_ALL);
	for (size_t i = 0; i < N_ALL; i++) {
		ck_assert_msg(!v[i].pass, "%s passed on a failed row", v[i].key);
		/* the figures are still reported */
		ck_assert_double_eq(v[i].measured, (double)limits[i].measured);
	}
	cb_phase_release(&p);
}
END_TEST

START_TEST(margins)
{
	struct cb_phase_result p;
	phase_new(&p, NULL);
	struct cb_expect x = {.set = 0};
	set(&x, CB_EXPECT_MIN_IOPS, 800);  /* 1000 vs 800: +25 % */
	set(&x, CB_EXPECT_MAX_P99, 2000);  /* 1000 vs 2000: -50 % */
	set(&x, CB_EXPECT_MAX_P999, 1200); /* 1500 vs 1200: +25 %, fails */
	set(&x, CB_EXPECT_MAX_ERRORS, 0);  /* 3 vs 0: +inf, fails */
	struct cb_verdict v[N_ALL];
	ck_assert_uint_eq(cb_expect_judge(&x, &p, v), 4);
	ck_assert_double_eq_tol(v[0].margin, 0.25, 1e-12);
	ck_assert(v[0].pass);
	ck_assert_double_eq_tol(v[1].margin, -0.5, 1e-12);
	ck_assert(v[1].pass);
	ck_assert_double_eq_tol(v[2].margin, 0.25, 1e-12);
	ck_assert(!v[2].pass);
	ck_assert(isinf(v[3].margin) && v[3].margin > 0);
	ck_assert(!v[3].pass);
	/* 0 expected and 0 measured: on the limit, margin 0 */
	p.errors = 0;
	struct cb_verdict z =
	    judge1(&(struct cb_expect){.v = {0}, .set = 1u << CB_EXPECT_MAX_ERRORS}, &p);
	ck_assert_double_eq(z.margin, 0);
	ck_assert(z.pass);
	cb_phase_release(&p);
}
END_TEST

START_TEST(expect_of)
{
	struct cb_workload wl = {.name = "w"}, plain = {.name = "p"};
	set(&wl.expect, CB_EXPECT_MIN_IOPS, 1);
	struct cb_phase_result p;
	phase_new(&p, NULL);
	ck_assert_ptr_null(cb_expect_of(&p)); /* a row from elsewhere */
	p.wl = &plain;
	ck_assert_ptr_null(cb_expect_of(&p)); /* no expect: given */
	p.wl = &wl;
	ck_assert_ptr_eq(cb_expect_of(&p), &wl.expect);
	p.step = "tree-create";
	ck_assert_ptr_eq(cb_expect_of(&p), &wl.expect);
	p.step = "prefill";
	ck_assert_ptr_null(cb_expect_of(&p));
	p.step = NULL;
	cb_phase_release(&p);
}
END_TEST

/* A result of four rows:
 *   r0 (wl a: min_iops 1000, max_errors 3)   2 pass
 *   r1 (wl a, prefill step)                  not judged
 *   r2 (wl b: min_iops 1001, max_p99 1000)   1 pass, 1 fail
 *   r3 (no workload)                         not judged */
static struct cb_workload wa = {.name = "a"}, wb = {.name = "b"};

static void fill_result(struct cb_result *r)
{
	unit_result_init(r, "unit-profile");
	wa = (struct cb_workload){.name = "a"};
	wb = (struct cb_workload){.name = "b"};
	set(&wa.expect, CB_EXPECT_MIN_IOPS, IOPS);
	set(&wa.expect, CB_EXPECT_MAX_ERRORS, ERRORS);
	set(&wb.expect, CB_EXPECT_MIN_IOPS, IOPS + 1);
	set(&wb.expect, CB_EXPECT_MAX_P99, P99);
	const char *names[] = {"row-a", "row-a.prefill", "row-b", "row-none"};
	const struct cb_workload *wls[] = {&wa, &wa, &wb, NULL};
	for (int i = 0; i < 4; i++) {
		struct cb_phase_result *p = cb_result_add_phase(r);
		ck_assert_ptr_nonnull(p);
		fill_phase(p, names[i], wls[i]);
	}
	r->phases[1].step = "prefill";
	/* 1 op/s, which would fail a's min_iops (its ops kept: a record's
	 * histogram holds the row's ops) */
	r->phases[1].elapsed_ns = (uint64_t)OPS * SECOND;
}

START_TEST(count)
{
	struct cb_result r;
	size_t passed = 99, failed = 99;
	fill_result(&r);
	cb_expect_count(&r, &passed, &failed);
	ck_assert_uint_eq(passed, 3);
	ck_assert_uint_eq(failed, 1);
	r.phases[0].failed = true;
	cb_expect_count(&r, &passed, &failed);
	ck_assert_uint_eq(passed, 1);
	ck_assert_uint_eq(failed, 3);
	cb_result_release(&r);
	/* no rows, no verdicts */
	memset(&r, 0, sizeof(r));
	cb_expect_count(&r, &passed, &failed);
	ck_assert_uint_eq(passed + failed, 0);
}
END_TEST

/* Thresholds parsed from a profile judge like those set by hand: min_bw in
 * bytes per second, latencies in ns. */
START_TEST(from_profile)
{
	char path[] = "/tmp/cb-expect-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	FILE *f = fdopen(fd, "w");
	fputs("name: x\n"
	      "workloads:\n"
	      "  - { name: w, layer: rados, pool: bench, op: write,\n"
	      "      expect: { min_bw: 4000000/s, max_p99: 1us, max_p999: 1499ns, max_errors: 3 } "
	      "}\n",
	      f);
	fclose(f);
	struct cb_profile *prof = NULL;
	struct cb_err e = {0};
	int r = cb_profile_load(path, NULL, 0, &prof, &e);
	unlink(path);
	ck_assert_msg(r == 0, "%s", e.msg);
	const struct cb_workload *wl = &prof->items[0].wl;
	struct cb_phase_result p;
	phase_new(&p, wl);
	ck_assert_ptr_eq(cb_expect_of(&p), &wl->expect);
	struct cb_verdict v[N_ALL];
	ck_assert_uint_eq(cb_expect_judge(cb_expect_of(&p), &p, v), 4);
	ck_assert_int_eq(v[0].metric, CB_EXPECT_MIN_BW);
	ck_assert_double_eq(v[0].expected, 4000000);
	ck_assert(v[0].pass);
	ck_assert_int_eq(v[1].metric, CB_EXPECT_MAX_P99);
	ck_assert_double_eq(v[1].expected, 1000);
	ck_assert(v[1].pass);
	ck_assert_int_eq(v[2].metric, CB_EXPECT_MAX_P999);
	ck_assert_double_eq(v[2].expected, 1499);
	ck_assert(!v[2].pass);
	ck_assert(v[3].pass);
	cb_phase_release(&p);
	cb_profile_free(prof);
}
END_TEST

static json_t *find_verdict(json_t *phase, const char *key)
{
	json_t *a = json_object_get(phase, "expect"), *v;
	size_t i;
	json_array_foreach(a, i, v)
	{
		if (strcmp(json_string_value(json_object_get(v, "threshold")), key) == 0)
			return v;
	}
	return NULL;
}

START_TEST(json_verdicts)
{
	struct cb_result r;
	fill_result(&r);
	/* a matrix row: the JSON names the workload as written and its values */
	struct cb_mvar mv = {.key = "block_size", .val = "4K"};
	wb.base = "b";
	wb.name = "b_block_size-4K";
	wb.matrix = &mv;
	wb.nmatrix = 1;
	json_t *j = cb_result_json(&r);
	ck_assert_ptr_nonnull(j);

	json_t *verdict = json_object_get(j, "verdict");
	ck_assert_ptr_nonnull(verdict);
	ck_assert_str_eq(json_string_value(json_object_get(verdict, "result")), "fail");
	ck_assert_int_eq(json_integer_value(json_object_get(verdict, "passed")), 3);
	ck_assert_int_eq(json_integer_value(json_object_get(verdict, "failed")), 1);

	json_t *ph = json_object_get(j, "phases");
	ck_assert_uint_eq(json_array_size(ph), 4);
	json_t *p0 = json_array_get(ph, 0), *p1 = json_array_get(ph, 1);
	json_t *p2 = json_array_get(ph, 2), *p3 = json_array_get(ph, 3);
	ck_assert_uint_eq(json_array_size(json_object_get(p0, "expect")), 2);
	ck_assert_ptr_null(json_object_get(p1, "expect")); /* prefill */
	ck_assert_str_eq(json_string_value(json_object_get(p1, "step")), "prefill");
	ck_assert_uint_eq(json_array_size(json_object_get(p2, "expect")), 2);
	ck_assert_ptr_null(json_object_get(p3, "expect")); /* no workload */
	ck_assert_ptr_null(json_object_get(p3, "workload"));

	json_t *v = find_verdict(p0, "min_iops");
	ck_assert_ptr_nonnull(v);
	ck_assert_str_eq(json_string_value(json_object_get(v, "unit")), "ops/s");
	ck_assert_double_eq(json_real_value(json_object_get(v, "measured")), IOPS);
	ck_assert_double_eq(json_real_value(json_object_get(v, "expected")), IOPS);
	ck_assert_double_eq(json_real_value(json_object_get(v, "margin_pct")), 0);
	ck_assert(json_is_true(json_object_get(v, "pass")));
	v = find_verdict(p0, "max_errors");
	ck_assert_str_eq(json_string_value(json_object_get(v, "unit")), "errors");
	ck_assert(json_is_true(json_object_get(v, "pass")));

	/* latencies in microseconds, like latency_us */
	v = find_verdict(p2, "max_p99");
	ck_assert_ptr_nonnull(v);
	ck_assert_str_eq(json_string_value(json_object_get(v, "unit")), "us");
	ck_assert_double_eq_tol(json_real_value(json_object_get(v, "measured")), 1.0, 1e-12);
	ck_assert_double_eq_tol(json_real_value(json_object_get(v, "expected")), 1.0, 1e-12);
	ck_assert(json_is_true(json_object_get(v, "pass")));
	v = find_verdict(p2, "min_iops");
	ck_assert(json_is_false(json_object_get(v, "pass")));
	ck_assert_double_eq_tol(json_real_value(json_object_get(v, "margin_pct")),
				(1000.0 / 1001 - 1) * 100, 1e-9);
	ck_assert_str_eq(json_string_value(json_object_get(p2, "workload")), "b");
	ck_assert_str_eq(
	    json_string_value(json_object_get(json_object_get(p2, "matrix"), "block_size")), "4K");
	ck_assert_str_eq(json_string_value(json_object_get(p0, "workload")), "a");
	ck_assert_ptr_null(json_object_get(p0, "matrix"));

	/* expected 0, measured not: margin null */
	set(&wa.expect, CB_EXPECT_MAX_MEAN_LATENCY, 0);
	json_decref(j);
	j = cb_result_json(&r);
	v = find_verdict(json_array_get(json_object_get(j, "phases"), 0), "max_mean_latency");
	ck_assert_ptr_nonnull(v);
	ck_assert(json_is_null(json_object_get(v, "margin_pct")));
	ck_assert(json_is_false(json_object_get(v, "pass")));
	ck_assert_int_eq(
	    json_integer_value(json_object_get(json_object_get(j, "verdict"), "failed")), 2);

	/* the record CTest validates against the schema */
	FILE *f = fopen(out_path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(cb_report_json(f, &r), 0);
	fclose(f);
	json_decref(j);

	/* all passing: result pass */
	memset(&wa.expect, 0, sizeof(wa.expect));
	set(&wa.expect, CB_EXPECT_MIN_IOPS, 1);
	memset(&wb.expect, 0, sizeof(wb.expect));
	set(&wb.expect, CB_EXPECT_MAX_P999, P999);
	j = cb_result_json(&r);
	verdict = json_object_get(j, "verdict");
	ck_assert_str_eq(json_string_value(json_object_get(verdict, "result")), "pass");
	ck_assert_int_eq(json_integer_value(json_object_get(verdict, "passed")), 2);
	ck_assert_int_eq(json_integer_value(json_object_get(verdict, "failed")), 0);
	json_decref(j);

	/* no thresholds anywhere: no verdict, no expect */
	memset(&wa.expect, 0, sizeof(wa.expect));
	memset(&wb.expect, 0, sizeof(wb.expect));
	j = cb_result_json(&r);
	ck_assert_ptr_null(json_object_get(j, "verdict"));
	ck_assert_ptr_null(
	    json_object_get(json_array_get(json_object_get(j, "phases"), 0), "expect"));
	json_decref(j);
	wb = (struct cb_workload){.name = "b"};
	cb_result_release(&r);
}
END_TEST

static char *verdicts_text(const struct cb_result *r, bool only_failed)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(f);
	json_t *rec = cb_result_json(r);
	cb_report_verdicts(f, rec, only_failed);
	json_decref(rec);
	fclose(f);
	return buf;
}

/* Table rows (after the two header lines) ending in verdict. */
static int rows_ending(const char *text, const char *verdict, const char *name)
{
	int n = 0;
	const char *line = text;
	while (line && *line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char buf[512];
		snprintf(buf, sizeof(buf), "%.*s", (int)len, line);
		char *end = strstr(buf, verdict);
		if (end && (end[strlen(verdict)] == '\0' || end[strlen(verdict)] == ' ') &&
		    strncmp(buf, name, strlen(name)) == 0)
			n++;
		line = nl ? nl + 1 : NULL;
	}
	return n;
}

START_TEST(text_verdicts)
{
	struct cb_result r;
	fill_result(&r);
	char *t = verdicts_text(&r, false);
	ck_assert_ptr_nonnull(strstr(t, "expectations: FAIL, 3 of 4 passed"));
	ck_assert_int_eq(rows_ending(t, "PASS", "row-a "), 2);
	ck_assert_int_eq(rows_ending(t, "PASS", "row-b "), 1);
	ck_assert_int_eq(rows_ending(t, "FAIL", "row-b "), 1);
	ck_assert_ptr_null(strstr(t, "row-a.prefill"));
	ck_assert_ptr_null(strstr(t, "row-none"));
	/* the failing row: its threshold, measured and bound */
	ck_assert_ptr_nonnull(strstr(t, "min_iops"));
	ck_assert_ptr_nonnull(strstr(t, ">= 1001.0 IOPS"));
	ck_assert_ptr_nonnull(strstr(t, "<= 1.0 us"));
	free(t);

	/* only_failed: the FAIL row alone */
	t = verdicts_text(&r, true);
	ck_assert_ptr_nonnull(strstr(t, "expectations: FAIL, 3 of 4 passed"));
	ck_assert_int_eq(rows_ending(t, "FAIL", "row-b "), 1);
	ck_assert_ptr_null(strstr(t, "PASS"));
	ck_assert_ptr_null(strstr(t, "row-a"));
	free(t);

	/* a failed row says so */
	r.phases[0].failed = true;
	t = verdicts_text(&r, true);
	ck_assert_int_eq(rows_ending(t, "FAIL (the phase failed)", "row-a "), 2);
	ck_assert_ptr_nonnull(strstr(t, "expectations: FAIL, 1 of 4 passed"));
	free(t);
	r.phases[0].failed = false;

	/* all passing: a PASS table, and nothing when only failures are asked */
	memset(&wb.expect, 0, sizeof(wb.expect));
	t = verdicts_text(&r, false);
	ck_assert_ptr_nonnull(strstr(t, "expectations: PASS, 2 of 2 passed"));
	ck_assert_ptr_null(strstr(t, "FAIL"));
	free(t);
	t = verdicts_text(&r, true);
	ck_assert_str_eq(t, "");
	free(t);

	/* the end-of-run table ends with the verdicts */
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	json_t *rec = cb_result_json(&r);
	cb_report_text(f, rec, false);
	json_decref(rec);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "expectations: PASS"));
	free(buf);

	/* no thresholds: nothing */
	memset(&wa.expect, 0, sizeof(wa.expect));
	t = verdicts_text(&r, false);
	ck_assert_str_eq(t, "");
	free(t);
	cb_result_release(&r);
}
END_TEST

START_TEST(format)
{
	char b[48];
	ck_assert_str_eq(cb_expect_format(CB_EXPECT_MIN_IOPS, 1523.44, b, sizeof(b)),
			 "1523.4 IOPS");
	ck_assert_str_eq(cb_expect_format(CB_EXPECT_MIN_BW, 104857600, b, sizeof(b)),
			 "100.00 MiB/s");
	ck_assert_str_eq(cb_expect_format(CB_EXPECT_MAX_ERRORS, 3, b, sizeof(b)), "3 errors");
	ck_assert_str_eq(cb_expect_format(CB_EXPECT_MAX_P99, 999, b, sizeof(b)), "1.0 us");
	ck_assert_str_eq(cb_expect_format(CB_EXPECT_MAX_P99, 12.3e6, b, sizeof(b)), "12.300 ms");
	ck_assert_str_eq(cb_expect_format(CB_EXPECT_MAX_P999, 2.5e9, b, sizeof(b)), "2.500 s");
}
END_TEST

int main(int argc, char **argv)
{
	out_path = argc > 1 ? argv[1] : "expect-sample.json";
	Suite *s = suite_create("expect");
	TCase *tc = tcase_create("expect");
	tcase_add_test(tc, the_figures_are_exact);
	tcase_add_test(tc, cached_not_judged);
	tcase_add_loop_test(tc, boundary, 0, (int)(sizeof(limits) / sizeof(limits[0])));
	tcase_add_test(tc, boundary_ms);
	tcase_add_test(tc, all_thresholds_in_order);
	tcase_add_test(tc, mark);
	tcase_add_test(tc, failed_phase_fails_all);
	tcase_add_test(tc, slow_osds_not_measured);
	tcase_add_test(tc, margins);
	tcase_add_test(tc, expect_of);
	tcase_add_test(tc, count);
	tcase_add_test(tc, from_profile);
	tcase_add_test(tc, json_verdicts);
	tcase_add_test(tc, text_verdicts);
	tcase_add_test(tc, format);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
