/* Params and context: the option formatter (every option type as JSON), a
 * row's params in the record, a pool and the OSD counts described from an
 * `osd dump` reply, and compare naming the differences. Writes a record
 * with params, uses and context to argv[1] for the schema check. */
#include "compare.h"
#include "context.h"
#include "engines.h"
#include "report.h"
#include "unit_result.h"
#include "unit_run.h"

#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *out_path;

struct every {
	char *s, *unset;
	uint64_t size, dur, n, big;
	bool b;
	int e;
};

static const char *const colours[] = {"red", "green", NULL};
static const struct cb_option every_opts[] = {
    {"s", CB_OPT_STR, offsetof(struct every, s), NULL, 0, 0, NULL, ""},
    {"unset", CB_OPT_CEPH, offsetof(struct every, unset), NULL, 0, 0, NULL, ""},
    {"size", CB_OPT_SIZE, offsetof(struct every, size), NULL, 0, 0, NULL, ""},
    {"dur", CB_OPT_DURATION, offsetof(struct every, dur), NULL, 0, 0, NULL, ""},
    {"n", CB_OPT_UINT, offsetof(struct every, n), NULL, 0, 0, NULL, ""},
    {"big", CB_OPT_UINT, offsetof(struct every, big), NULL, 0, 0, NULL, ""},
    {"b", CB_OPT_BOOL, offsetof(struct every, b), NULL, 0, 0, NULL, ""},
    {"e", CB_OPT_ENUM, offsetof(struct every, e), NULL, 0, 0, colours, ""},
    {NULL, 0, 0, NULL, 0, 0, NULL, NULL},
};

START_TEST(option_formatter)
{
	struct every v = {0};
	char why[256];
	ck_assert_int_eq(cb_opt_parse(&every_opts[0], &v,
				      "a\xff"
				      "b",
				      why, sizeof(why)),
			 0);
	ck_assert_int_eq(cb_opt_parse(&every_opts[2], &v, "4M", why, sizeof(why)), 0);
	ck_assert_int_eq(cb_opt_parse(&every_opts[3], &v, "1500ms", why, sizeof(why)), 0);
	ck_assert_int_eq(cb_opt_parse(&every_opts[4], &v, "16", why, sizeof(why)), 0);
	ck_assert_int_eq(cb_opt_parse(&every_opts[6], &v, "yes", why, sizeof(why)), 0);
	ck_assert_int_eq(cb_opt_parse(&every_opts[7], &v, "green", why, sizeof(why)), 0);
	v.big = UINT64_MAX;
	json_t *o = json_object();
	static const char *const skip[] = {"n", NULL};
	ck_assert_int_eq(cb_opts_json(every_opts, &v, o, skip), 0);
	/* not UTF-8: shown near enough, never refused */
	ck_assert_str_eq(json_string_value(json_object_get(o, "s")), "a?b");
	ck_assert(json_is_null(json_object_get(o, "unset")));
	ck_assert_int_eq(json_integer_value(json_object_get(o, "size")), 4 << 20);
	ck_assert_double_eq_tol(json_real_value(json_object_get(o, "dur")), 1.5, 1e-9);
	ck_assert_ptr_null(json_object_get(o, "n"));
	ck_assert_int_eq(json_integer_value(json_object_get(o, "big")), INT64_MAX);
	ck_assert(json_is_true(json_object_get(o, "b")));
	ck_assert_str_eq(json_string_value(json_object_get(o, "e")), "green");
	json_decref(o);
	cb_opts_free(every_opts, &v);
}
END_TEST

/* A canned `osd dump` and `osd crush rule dump`, as Ceph 16 replies. */
static const char dump_json[] =
    "{\"pools\": [{\"pool\": 1, \"pool_name\": \"bench\", \"type\": 1, \"size\": 3, "
    "\"min_size\": 2, \"pg_num\": 32, \"crush_rule\": 1, \"erasure_code_profile\": \"\", "
    "\"options\": {\"compression_mode\": \"aggressive\", \"compression_algorithm\": \"lz4\"}, "
    "\"application_metadata\": {\"rgw\": {}, \"rados\": {}}}], "
    "\"osds\": [{\"osd\": 0, \"up\": 1, \"in\": 1}, {\"osd\": 1, \"up\": 0, \"in\": 1}, "
    "{\"osd\": 2, \"up\": 0, \"in\": 0}]}";
static const char rules_json[] = "[{\"rule_id\": 0, \"rule_name\": \"replicated_rule\"}, "
				 "{\"rule_id\": 1, \"rule_name\": \"ssd\"}]";

static json_t *canned_context(void)
{
	struct cb_ctx x = {.quiet = true, .dump_tried = true, .rules_tried = true};
	x.osd_dump = json_loads(dump_json, 0, NULL);
	x.rules = json_loads(rules_json, 0, NULL);
	ck_assert_ptr_nonnull(x.osd_dump);
	ck_assert_ptr_nonnull(x.rules);
	json_t *c = json_pack("{s:{s:{s:i}, s:{s:i}}, s:{s:o}, s:o}", "versions", "mon", "16.2.15",
			      1, "osd", "16.2.15", 3, "pools", "bench", cb_ctx_pool(&x, "bench"),
			      "osds", cb_ctx_osds(&x));
	ck_assert_str_eq(cb_ctx_pool_name(&x, 1), "bench");
	ck_assert_ptr_null(cb_ctx_pool_name(&x, 7));
	json_t *missing = cb_ctx_pool(&x, "nope");
	ck_assert(json_is_null(missing));
	json_decref(missing);
	json_decref(x.osd_dump);
	json_decref(x.rules);
	return c;
}

START_TEST(pool_from_osd_dump)
{
	json_t *c = canned_context();
	const json_t *p = json_object_get(json_object_get(c, "pools"), "bench");
	ck_assert_str_eq(json_string_value(json_object_get(p, "type")), "replicated");
	ck_assert_int_eq(json_integer_value(json_object_get(p, "size")), 3);
	ck_assert_int_eq(json_integer_value(json_object_get(p, "min_size")), 2);
	ck_assert_int_eq(json_integer_value(json_object_get(p, "pg_num")), 32);
	ck_assert_str_eq(json_string_value(json_object_get(p, "crush_rule")), "ssd");
	ck_assert(json_is_null(json_object_get(p, "erasure_code_profile")));
	ck_assert_str_eq(json_string_value(json_object_get(p, "compression_mode")), "aggressive");
	ck_assert_str_eq(json_string_value(json_object_get(p, "compression_algorithm")), "lz4");
	const json_t *apps = json_object_get(p, "application");
	ck_assert_uint_eq(json_array_size(apps), 2);
	ck_assert_str_eq(json_string_value(json_array_get(apps, 0)), "rados");
	const json_t *o = json_object_get(c, "osds");
	ck_assert_int_eq(json_integer_value(json_object_get(o, "total")), 3);
	ck_assert_int_eq(json_integer_value(json_object_get(o, "up")), 1);
	ck_assert_int_eq(json_integer_value(json_object_get(o, "in")), 2);
	json_decref(c);
}
END_TEST

static const struct cb_engine *engine(const char *name)
{
	for (int i = 0; cb_engines[i]; i++)
		if (strcmp(cb_engines[i]->name, name) == 0)
			return cb_engines[i];
	return NULL;
}

/* A record of one rbd row with params, uses and a context, into the sample
 * file; its params as the record holds them. */
START_TEST(params_in_record)
{
	const struct cb_engine *rbd = engine("rbd");
	ck_assert_ptr_nonnull(rbd);
	void *lopts = calloc(1, rbd->options_size);
	char why[256];
	ck_assert_int_eq(cb_opts_defaults(rbd->options, lopts), 0);
	ck_assert_int_eq(
	    cb_opt_parse(cb_opt_find(rbd->options, "image_size"), lopts, "1G", why, sizeof(why)),
	    0);
	struct cb_workload wl = {.name = "w",
				 .layer = "rbd",
				 .op = "randwrite",
				 .block_size = 4096,
				 .concurrency = 4,
				 .duration_ns = 2000000000ULL,
				 .clients = 1,
				 .repeat = 1};
	struct cb_result r;
	unit_result_init(&r, "context");
	struct cb_phase_result *p = cb_result_add_phase(&r);
	p->name = strdup("w");
	p->layer = strdup("rbd");
	p->op = strdup("randwrite");
	snprintf(p->target, sizeof(p->target), "bench");
	p->block_size = 4096;
	p->concurrency = 4;
	p->clients = 1;
	p->elapsed_ns = 2000000000ULL;
	p->wl = &wl;
	p->engine = rbd;
	p->lopts = lopts;
	p->uses = json_pack("{s:[s], s:s}", "pools", "bench", "image", "bench/cephbench.unit.0");
	r.context = canned_context();
	json_object_set_new(r.context, "images",
			    json_pack("{s:{s:[s], s:I, s:I, s:I, s:I, s:n}}",
				      "bench/cephbench.unit.0", "features", "layering", "size",
				      (json_int_t)1 << 30, "object_size", (json_int_t)4 << 20,
				      "stripe_unit", (json_int_t)4 << 20, "stripe_count",
				      (json_int_t)1, "data_pool"));
	FILE *f = fopen(out_path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(cb_report_json(f, &r), 0);
	fclose(f);
	json_t *j = json_load_file(out_path, 0, NULL);
	const json_t *params =
	    json_object_get(json_array_get(json_object_get(j, "phases"), 0), "params");
	ck_assert_int_eq(json_integer_value(json_object_get(params, "concurrency")), 4);
	ck_assert_int_eq(json_integer_value(json_object_get(params, "image_size")), 1 << 30);
	ck_assert_str_eq(json_string_value(json_object_get(params, "cache")), "off");
	ck_assert_int_eq(json_integer_value(json_object_get(params, "rw_mix_read")), 50);
	ck_assert_double_eq_tol(json_real_value(json_object_get(params, "duration")), 2.0, 1e-9);
	ck_assert(json_is_null(json_object_get(params, "features")));
	ck_assert_ptr_null(json_object_get(params, "name"));
	ck_assert_ptr_nonnull(json_object_get(j, "context"));
	json_decref(j);
	cb_result_release(&r);
	cb_opts_free(rbd->options, lopts);
	free(lopts);
}
END_TEST

static json_t *pool_ctx(const char *name, const char *type, int size)
{
	return json_pack("{s:{s:{s:s, s:i, s:o}}}", "pools", name, "type", type, "size", size,
			 "erasure_code_profile",
			 strcmp(type, "erasure") == 0
			     ? json_pack("{s:s, s:i, s:i, s:s}", "name", "ec21", "k", 2, "m", 1,
					 "plugin", "jerasure")
			     : json_null());
}

START_TEST(compare_names_differences)
{
	json_t *pa = json_pack("{s:i, s:s}", "concurrency", 4, "op", "write");
	json_t *pb = json_pack("{s:i, s:s, s:b}", "concurrency", 16, "op", "write", "verify", 1);
	json_t *ua = json_pack("{s:[s]}", "pools", "rep"),
	       *ub = json_pack("{s:[s]}", "pools", "ec");
	json_t *ca = pool_ctx("rep", "replicated", 3), *cb = pool_ctx("ec", "erasure", 3);
	struct cb_cmp_phase a = {.name = "w", .params = pa, .uses = ua, .context = ca};
	struct cb_cmp_phase b = {.name = "w", .params = pb, .uses = ub, .context = cb};
	struct cb_cmp c = {.a = &a, .b = &b};
	ck_assert_int_eq(cb_cmp_diffs(&c, NULL), 0);
	/* concurrency, verify (only in B), the pool's type and EC profile */
	ck_assert_uint_eq(c.ndiffs, 4);
	ck_assert_str_eq(c.diffs[0].key, "concurrency");
	ck_assert_str_eq(c.diffs[1].key, "verify");
	ck_assert_ptr_null(c.diffs[1].a);
	ck_assert_str_eq(c.diffs[2].kind, "pool");
	ck_assert_str_eq(c.diffs[2].key, "type");

	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct cb_cmp_set s = {
	    .label_a = "A", .label_b = "B", .file_a = "a", .file_b = "b", .c = &c, .n = 1};
	struct cb_cmp_doc d = {.s = &s, .n = 1};
	struct cb_cmp_opts o = {.confidence = 0.95, .fail_pct = NAN};
	cb_cmp_print_text(f, &d, &o);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "  differs: concurrency: 16 (A: 4)\n"));
	ck_assert_ptr_nonnull(strstr(buf, "  differs: verify: true (A: none)\n"));
	ck_assert_ptr_nonnull(strstr(buf, "  differs: B's pool ec (A: rep): type erasure (A: "
					  "replicated), erasure_code_profile name=ec21 k=2 m=1 "
					  "plugin=jerasure (A: none)\n"));
	free(buf);
	free(c.diffs);

	/* --by KEY: the key itself is not said again */
	c = (struct cb_cmp){.a = &a, .b = &b};
	ck_assert_int_eq(cb_cmp_diffs(&c, "concurrency"), 0);
	ck_assert_str_eq(c.diffs[0].key, "verify");
	free(c.diffs);

	/* an older record (no params, no context): nothing to say */
	struct cb_cmp_phase old = {.name = "w"};
	c = (struct cb_cmp){.a = &old, .b = &b};
	ck_assert_int_eq(cb_cmp_diffs(&c, NULL), 0);
	ck_assert_uint_eq(c.ndiffs, 0);
	free(c.diffs);

	/* the clusters: OSDs up */
	json_t *xa = json_pack("{s:{s:i, s:i, s:i}}", "osds", "total", 3, "up", 3, "in", 3);
	json_t *xb = json_pack("{s:{s:i, s:i, s:i}}", "osds", "total", 3, "up", 2, "in", 3);
	struct cb_cmp_diff *cd;
	size_t n;
	ck_assert_int_eq(cb_cmp_context_diffs(xa, xb, &cd, &n), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(cd[0].key, "up");
	free(cd);
	ck_assert_int_eq(cb_cmp_context_diffs(NULL, xb, &cd, &n), 0);
	ck_assert_uint_eq(n, 0);
	free(cd);
	json_decref(xa);
	json_decref(xb);
	json_decref(pa);
	json_decref(pb);
	json_decref(ua);
	json_decref(ub);
	json_decref(ca);
	json_decref(cb);
}
END_TEST

/* A refused part is said once, however many rows or pools meet it, and
 * not at all under --quiet. */
START_TEST(one_note_per_part)
{
	char path[] = "/tmp/check_context.XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	fflush(stderr);
	int saved = dup(STDERR_FILENO);
	dup2(fd, STDERR_FILENO);
	struct cb_ctx x = {0};
	for (int i = 0; i < 3; i++) {
		cb_ctx_note(&x, "pools and OSDs (osd dump)", "Permission denied");
		cb_ctx_note(&x, "file systems (fs get)", "Permission denied");
	}
	cb_ctx_note(&x, "pools", "a part whose name another's begins with");
	struct cb_ctx q = {.quiet = true};
	cb_ctx_note(&q, "daemon versions", "Permission denied");
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	char buf[1024] = "";
	ck_assert_int_ge(pread(fd, buf, sizeof(buf) - 1, 0), 0);
	close(fd);
	unlink(path);
	ck_assert_str_eq(buf,
			 "context: pools and OSDs (osd dump) not recorded: Permission denied\n"
			 "context: file systems (fs get) not recorded: Permission denied\n"
			 "context: pools not recorded: a part whose name another's begins with\n");
}
END_TEST

int main(int argc, char **argv)
{
	out_path = argc > 1 ? argv[1] : "context-sample.json";
	Suite *s = suite_create("context");
	TCase *tc = tcase_create("context");
	tcase_add_test(tc, option_formatter);
	tcase_add_test(tc, pool_from_osd_dump);
	tcase_add_test(tc, params_in_record);
	tcase_add_test(tc, compare_names_differences);
	tcase_add_test(tc, one_note_per_part);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
