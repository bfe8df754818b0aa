/* The per-layer breakdown: which rows form groups, which are left out and
 * why, each layer's cost over its base, the layer where the most is lost,
 * and the text and JSON that show it. Writes a record with a breakdown to
 * argv[1] for the schema check. */
#include "bottleneck.h"
#include "unit_run.h"
#include "unit_result.h"
#include "report.h"
#include "served.h"
#include "telemetry.h"
#include "tm_osd.h"
#include "tm_osd_perf.h"

#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *out_path;

/* A row of ops ops in 1 s, each taking lat_us. */
static struct cb_phase_result *add(struct cb_result *r, const char *name, const char *layer,
				   const char *op, uint64_t bs, uint64_t ops, uint64_t lat_us)
{
	struct cb_phase_result *p = cb_result_add_phase(r);
	ck_assert_ptr_nonnull(p);
	p->name = strdup(name);
	p->layer = strdup(layer);
	p->op = strdup(op);
	snprintf(p->target, sizeof(p->target), "pool");
	p->block_size = bs;
	p->concurrency = 16;
	p->clients = 1;
	p->elapsed_ns = 1000000000ULL;
	p->ran = true;
	for (uint64_t i = 0; i < ops; i++)
		cb_hist_record(p->hist, lat_us * 1000 + i % 7);
	p->ops = ops;
	p->bytes = ops * bs;
	return p;
}

static void result(struct cb_result *r)
{
	unit_result_init(r, "bottleneck");
}

/* The bottleneck profile's shape: 4K random writes on rados, rbd and cephfs
 * (4 clients: a different depth), 4M writes on rados, rbd and krbd. */
static void bottleneck(struct cb_result *r)
{
	result(r);
	add(r, "obj-write-4k", "rados", "write", 4096, 10000, 1000);
	add(r, "img-randwrite-4k", "rbd", "randwrite", 4096, 6000, 2000);
	struct cb_phase_result *fs =
	    add(r, "fs-randwrite-4k", "cephfs", "randwrite", 4096, 3000, 3000);
	/* a file system, not a pool: no note for it */
	snprintf(fs->target, sizeof(fs->target), "cephfs");
	fs->clients = 4;
	fs->concurrency = 1;
	add(r, "obj-write-4m", "rados", "write", 4 << 20, 100, 40000);
	add(r, "img-write-4m", "rbd", "write", 4 << 20, 80, 50000);
	add(r, "krbd-write-4m", "krbd", "write", 4 << 20, 90, 45000);
}

/* A copy of the line of buf that starts with prefix. */
static char *line_of(const char *buf, const char *prefix)
{
	const char *s = strstr(buf, prefix);
	ck_assert_ptr_nonnull(s);
	return strndup(s, strcspn(s, "\n"));
}

static const struct cb_layer_row *row(const struct cb_layer_group *g, enum cb_layer l)
{
	ck_assert_uint_ne(g->row[l].phase, SIZE_MAX);
	return &g->row[l];
}

/* rbd on another pool than rados: the pools' difference would pass for
 * rbd's cost, so the group says so (text and JSON). */
START_TEST(pools_differ)
{
	struct cb_result r;
	struct cb_bottleneck l;
	bottleneck(&r);
	snprintf(r.phases[4].target, sizeof(r.phases[4].target), "hdd"); /* img-write-4m */
	ck_assert_int_eq(cb_bottleneck_find(&r, &l), 0);
	ck_assert(!l.groups[0].pools_differ);
	ck_assert(l.groups[1].pools_differ);
	cb_bottleneck_free(&l);
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	json_t *rec = cb_result_json(&r);
	cb_report_bottleneck_text(f, rec);
	json_decref(rec);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "note: the rows ran on different pools"));
	free(buf);
	json_t *j = cb_bottleneck_json(&r);
	ck_assert(json_is_true(json_object_get(json_array_get(j, 0), "same_pool")));
	ck_assert(json_is_false(json_object_get(json_array_get(j, 1), "same_pool")));
	json_decref(j);
	cb_result_release(&r);
}
END_TEST

START_TEST(groups_and_costs)
{
	struct cb_result r;
	struct cb_bottleneck l;
	bottleneck(&r);
	ck_assert_int_eq(cb_bottleneck_find(&r, &l), 0);
	/* rados write also makes a "4K write" group, alone: dropped */
	ck_assert_uint_eq(l.n, 2);

	const struct cb_layer_group *g = &l.groups[0];
	ck_assert_str_eq(g->op, "randwrite");
	ck_assert_uint_eq(g->block_size, 4096);
	ck_assert_uint_eq(g->nlayers, 3);
	ck_assert_uint_eq(row(g, CB_L_RADOS)->phase, 0);
	ck_assert(!row(g, CB_L_RADOS)->has_base);
	ck_assert_uint_eq(g->row[CB_L_KRBD].phase, SIZE_MAX);
	const struct cb_layer_row *rbd = row(g, CB_L_RBD), *fs = row(g, CB_L_CEPHFS);
	ck_assert(rbd->has_base && rbd->base == CB_L_RADOS);
	ck_assert(fs->has_base && fs->base == CB_L_RADOS);
	ck_assert_double_eq_tol(rbd->iops_lost_pct, 40.0, 1e-9);
	ck_assert_double_eq_tol(fs->iops_lost_pct, 70.0, 1e-9);
	ck_assert_int_eq(rbd->p99_added_ns, (int64_t)cb_hist_percentile(r.phases[1].hist, 99) -
						(int64_t)cb_hist_percentile(r.phases[0].hist, 99));
	ck_assert_int_gt(rbd->p99_added_ns, 990000);
	ck_assert_int_lt(rbd->p99_added_ns, 1010000);
	ck_assert(g->has_worst && g->worst == CB_L_CEPHFS);
	ck_assert(g->depth_differs); /* 16 in flight against 4x1 */
	ck_assert(!g->pools_differ);

	g = &l.groups[1];
	ck_assert_str_eq(g->op, "write");
	ck_assert_uint_eq(g->block_size, 4 << 20);
	/* krbd over rbd, not rados; it gains 12.5 %: rbd is where the loss is */
	ck_assert(row(g, CB_L_KRBD)->base == CB_L_RBD);
	ck_assert_double_eq_tol(row(g, CB_L_KRBD)->iops_lost_pct, -12.5, 1e-9);
	ck_assert_double_eq_tol(row(g, CB_L_RBD)->iops_lost_pct, 20.0, 1e-9);
	ck_assert(g->has_worst && g->worst == CB_L_RBD);
	ck_assert(!g->depth_differs);
	ck_assert(!g->pools_differ);
	for (size_t i = 0; i < r.nphases; i++)
		ck_assert_int_eq(l.why[i], CB_LAYERS_USED);
	cb_bottleneck_free(&l);
	cb_result_release(&r);
}
END_TEST

START_TEST(rows_left_out)
{
	struct cb_result r;
	struct cb_bottleneck l;
	result(&r);
	add(&r, "obj-seq-4k", "rados", "seq", 4096, 9000, 500);			 /* 0 */
	add(&r, "img-randread-4k.prefill", "rbd", "prefill", 4 << 20, 64, 9000); /* 1 */
	add(&r, "img-read-4k", "rbd", "read", 4096, 8000, 600);			 /* 2 */
	add(&r, "img-read-4k-b", "rbd", "read", 4096, 7000, 700);		 /* 3 */
	add(&r, "img-broken", "rbd", "read", 4096, 10, 700)->failed = true;	 /* 4 */
	add(&r, "img-empty", "rbd", "read", 4096, 0, 0);			 /* 5 */
	add(&r, "md.dir-create", "cephfs", "dir-create", 4096, 100, 1000);	 /* 6 */
	add(&r, "obj-rand-8k", "rados", "rand", 8192, 9000, 500);		 /* 7 */
	add(&r, "img-read-8k", "rbd", "read", 8192, 9000, 500);			 /* 8 */
	add(&r, "fs-read-4k.prefill", "cephfs", "prefill", 4 << 20, 10, 9000);	 /* 9 */
	add(&r, "krbd-randread-8k", "krbd", "randread", 8192, 9500, 450);	 /* 10 */
	add(&r, "img-randrw", "rbd", "randrw", 4096, 9500, 450);		 /* 11 */
	add(&r, "vm-load", "rbd", "read", 4096, 9000, 500)->load = true;	 /* 12 */
	ck_assert_int_eq(cb_bottleneck_find(&r, &l), 0);
	ck_assert_int_eq(l.why[0], CB_LAYERS_USED);
	ck_assert_int_eq(l.why[1], CB_LAYERS_PREFILL);
	ck_assert_int_eq(l.why[2], CB_LAYERS_USED);
	ck_assert_int_eq(l.why[3], CB_LAYERS_DUPLICATE);
	ck_assert_int_eq(l.why[4], CB_LAYERS_FAILED);
	ck_assert_int_eq(l.why[5], CB_LAYERS_NO_OPS);
	ck_assert_int_eq(l.why[6], CB_LAYERS_OTHER_OP);
	ck_assert_int_eq(l.why[7], CB_LAYERS_USED);
	ck_assert_int_eq(l.why[8], CB_LAYERS_ALONE); /* rados rand is randread, not read */
	ck_assert_int_eq(l.why[9], CB_LAYERS_PREFILL);
	ck_assert_int_eq(l.why[10], CB_LAYERS_USED);
	ck_assert_int_eq(l.why[11], CB_LAYERS_ALONE); /* no mixed op beneath rbd */
	ck_assert_int_eq(l.why[12], CB_LAYERS_LOAD);  /* a group's load, not rbd's figure */
	ck_assert_uint_eq(l.n, 2);
	/* rados seq stands as the base of a sequential read; the first rbd row
	 * is compared, the second named as left out */
	ck_assert_str_eq(l.groups[0].op, "read");
	ck_assert_uint_eq(l.groups[0].row[CB_L_RBD].phase, 2);
	ck_assert_uint_eq(l.groups[0].nshadowed, 1);
	ck_assert_uint_eq(l.groups[0].shadowed[0], 3);
	ck_assert(l.groups[0].has_worst && l.groups[0].worst == CB_L_RBD);
	/* krbd over rados when no rbd row is there; a gain everywhere: no worst */
	ck_assert_str_eq(l.groups[1].op, "randread");
	ck_assert_uint_eq(l.groups[1].block_size, 8192);
	ck_assert(l.groups[1].row[CB_L_KRBD].base == CB_L_RADOS);
	ck_assert(!l.groups[1].has_worst);
	cb_bottleneck_free(&l);
	cb_result_release(&r);
}
END_TEST

/* The OSDs' side of a read row: one OSD that sent out_bytes. */
static void osd_reads(struct cb_phase_result *p, uint64_t out_bytes)
{
	int id = 0;
	struct cb_osd_perf d = {0};
	d.op = d.op_r = out_bytes / p->block_size;
	d.out_bytes = out_bytes;
	p->all_ops = p->ops;
	p->all_bytes = p->bytes;
	ck_assert_ptr_nonnull(p->tm = calloc(1, sizeof(*p->tm)));
	ck_assert_ptr_nonnull(p->tm->osd = cb_tm_osd_from(&id, &d, 1));
}

/* A read row the OSDs served under half of (the client's cache did) is
 * left out, named under its group; the same row served by the OSDs (the
 * negative control) is compared. */
START_TEST(cached_left_out)
{
	for (int served = 0; served < 2; served++) {
		struct cb_result r;
		struct cb_bottleneck l;
		result(&r);
		osd_reads(add(&r, "obj-rand-4k", "rados", "rand", 4096, 9000, 500), 9000ULL * 4096);
		osd_reads(add(&r, "krbd-randread-4k", "krbd", "randread", 4096, 9500, 450),
			  9500ULL * 4096);
		struct cb_phase_result *img =
		    add(&r, "img-randread-4k", "rbd", "randread", 4096, 8000, 600);
		osd_reads(img, served ? 8000ULL * 4096 : 8000ULL * 4096 / 10);
		struct cb_served sv;
		cb_served_of(img, &sv);
		ck_assert_int_eq(sv.by, served ? CB_SERVED_CLUSTER : CB_SERVED_CACHE);
		ck_assert_str_eq(sv.counter, "OSD read bytes");
		ck_assert_int_eq(cb_bottleneck_find(&r, &l), 0);
		ck_assert_int_eq(l.why[2], served ? CB_LAYERS_USED : CB_LAYERS_CACHED);
		ck_assert_uint_eq(l.n, 1);
		ck_assert_uint_eq(l.groups[0].ncached, served ? 0 : 1);
		ck_assert_uint_eq(l.groups[0].row[CB_L_RBD].phase, served ? 2 : SIZE_MAX);
		if (!served) {
			ck_assert_uint_eq(l.groups[0].cached[0], 2);
			/* krbd stands on rados when the rbd row is out */
			ck_assert(l.groups[0].row[CB_L_KRBD].base == CB_L_RADOS);
		}
		cb_bottleneck_free(&l);
		cb_result_release(&r);
	}
}
END_TEST

START_TEST(nothing_to_compare)
{
	struct cb_result r;
	struct cb_bottleneck l;
	char *buf = NULL;
	size_t len = 0;
	result(&r);
	add(&r, "obj-write-4k", "rados", "write", 4096, 10000, 1000);
	add(&r, "img-randwrite-8k", "rbd", "randwrite", 8192, 6000, 2000); /* another size */
	ck_assert_int_eq(cb_bottleneck_find(&r, &l), 0);
	ck_assert_uint_eq(l.n, 0);
	ck_assert_int_eq(l.why[1], CB_LAYERS_ALONE);
	cb_bottleneck_free(&l);
	FILE *f = open_memstream(&buf, &len);
	json_t *rec = cb_result_json(&r);
	cb_report_text(f, rec, false);
	json_decref(rec);
	fclose(f);
	ck_assert_ptr_null(strstr(buf, "Layer breakdown"));
	free(buf);
	json_t *j = cb_result_json(&r);
	ck_assert_uint_eq(json_array_size(json_object_get(j, "layers")), 0);
	json_decref(j);
	cb_result_release(&r);
}
END_TEST

START_TEST(rendered)
{
	struct cb_result r;
	char *buf = NULL;
	size_t len = 0;
	bottleneck(&r);
	add(&r, "img-randwrite-4k-b", "rbd", "randwrite", 4096, 5000, 2000);
	FILE *f = open_memstream(&buf, &len);
	json_t *rec = cb_result_json(&r);
	cb_report_text(f, rec, false);
	json_decref(rec);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "\nLayer breakdown"));
	ck_assert_ptr_nonnull(
	    strstr(buf, "\n4K randwrite: most lost in cephfs over rados (-70.0 % IOPS, +2.00"));
	ck_assert_ptr_nonnull(strstr(buf, "\n4M write: most lost in rbd over rados (-20.0 % IOPS"));
	ck_assert_ptr_nonnull(strstr(buf, "note: ops in flight differ"));
	ck_assert_ptr_nonnull(strstr(buf, "note: img-randwrite-4k-b not compared"));
	/* the row's figures as the table prints them, its cost over its base */
	char *line = line_of(buf, "  rbd    img-randwrite-4k ");
	ck_assert_ptr_nonnull(
	    strstr(line, " 6000.0     2.000     2.000 | rados   -40.0 %    +1.000"));
	free(line);
	line = line_of(buf, "  krbd   krbd-write-4m ");
	ck_assert_ptr_nonnull(
	    strstr(line, " 90.0    45.000    45.000 | rbd     +12.5 %    -5.000"));
	free(line);
	free(buf);

	FILE *o = fopen(out_path, "w");
	ck_assert_ptr_nonnull(o);
	ck_assert_int_eq(cb_report_json(o, &r), 0);
	fclose(o);
	json_t *j = json_load_file(out_path, 0, NULL);
	ck_assert_ptr_nonnull(j);
	json_t *layers = json_object_get(j, "layers");
	ck_assert_uint_eq(json_array_size(layers), 2);
	json_t *g = json_array_get(layers, 0);
	ck_assert_str_eq(json_string_value(json_object_get(g, "op")), "randwrite");
	ck_assert_int_eq(json_integer_value(json_object_get(g, "block_size")), 4096);
	ck_assert(json_is_false(json_object_get(g, "same_in_flight")));
	json_t *worst = json_object_get(g, "most_lost");
	ck_assert_str_eq(json_string_value(json_object_get(worst, "layer")), "cephfs");
	ck_assert_str_eq(json_string_value(json_object_get(worst, "base")), "rados");
	ck_assert_str_eq(json_string_value(json_array_get(json_object_get(g, "not_compared"), 0)),
			 "img-randwrite-4k-b");
	json_t *rows = json_object_get(g, "rows"), *phases = json_object_get(j, "phases");
	ck_assert_uint_eq(json_array_size(rows), 3);
	ck_assert_ptr_null(json_object_get(json_array_get(rows, 0), "base"));
	/* each row's figures are its phase's */
	size_t i;
	json_t *w;
	json_array_foreach(rows, i, w)
	{
		json_t *p = NULL, *q;
		size_t k;
		json_array_foreach(phases, k, q)
		{
			if (strcmp(json_string_value(json_object_get(q, "name")),
				   json_string_value(json_object_get(w, "phase"))) == 0)
				p = q;
		}
		ck_assert_ptr_nonnull(p);
		ck_assert_double_eq(json_real_value(json_object_get(w, "iops")),
				    json_real_value(json_object_get(p, "iops")));
		json_t *lat = json_object_get(p, "latency_us");
		ck_assert_int_eq(json_integer_value(json_object_get(w, "p50_us")),
				 json_integer_value(json_object_get(lat, "p50")));
		ck_assert_int_eq(json_integer_value(json_object_get(w, "p99_us")),
				 json_integer_value(json_object_get(lat, "p99")));
	}
	json_t *rbd = json_array_get(rows, 1);
	ck_assert_str_eq(json_string_value(json_object_get(rbd, "base")), "rados");
	ck_assert_double_eq_tol(json_real_value(json_object_get(rbd, "iops_lost_pct")), 40.0, 1e-9);
	ck_assert_int_eq(
	    json_integer_value(json_object_get(rbd, "p99_added_us")),
	    json_integer_value(json_object_get(rbd, "p99_us")) -
		json_integer_value(json_object_get(json_array_get(rows, 0), "p99_us")));
	json_decref(j);
	cb_result_release(&r);
}
END_TEST

int main(int argc, char **argv)
{
	out_path = argc > 1 ? argv[1] : "bottleneck-sample.json";
	Suite *s = suite_create("bottleneck");
	TCase *tc = tcase_create("bottleneck");
	tcase_add_test(tc, groups_and_costs);
	tcase_add_test(tc, pools_differ);
	tcase_add_test(tc, rows_left_out);
	tcase_add_test(tc, cached_left_out);
	tcase_add_test(tc, nothing_to_compare);
	tcase_add_test(tc, rendered);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
