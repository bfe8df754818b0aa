/* Profile validation: every bad profile in tests/data/bad gives exactly the
 * message its first line expects (or its .expect file) and exit class 2;
 * good profiles and -o overrides land in the right fields. */
#include "engines.h"
#include "profile.h"

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *expected_for(const char *dir, const char *name)
{
	char path[1024], line[1024] = "";
	snprintf(path, sizeof(path), "%s/%.*s.expect", dir, (int)(strlen(name) - 5), name);
	FILE *f = fopen(path, "r");
	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		fclose(f);
	} else {
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		f = fopen(path, "r");
		ck_assert_ptr_nonnull(f);
		if (!fgets(line, sizeof(line), f) || strncmp(line, "# expect: ", 10) != 0)
			ck_abort_msg("%s: first line must be '# expect: MESSAGE'", name);
		fclose(f);
		memmove(line, line + 10, strlen(line + 10) + 1);
	}
	line[strcspn(line, "\n")] = '\0';
	return strdup(line);
}

/* The message with the profile's path replaced by FILE. */
static void normalize(const char *msg, const char *path, char *out, size_t n)
{
	const char *p = strstr(msg, path);
	if (!p) {
		snprintf(out, n, "%s", msg);
		return;
	}
	snprintf(out, n, "%.*sFILE%s", (int)(p - msg), msg, p + strlen(path));
}

START_TEST(bad_profiles)
{
	const char *dir = CB_TEST_DATA "/bad";
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;
	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		if (len < 6 || strcmp(de->d_name + len - 5, ".yaml") != 0)
			continue;
		char path[1024], got[2048];
		struct cb_err e = {0};
		struct cb_profile *p = NULL;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		char *want = expected_for(dir, de->d_name);
		int r = cb_profile_load(path, NULL, 0, &p, &e);
		ck_assert_msg(r < 0, "%s: accepted", de->d_name);
		ck_assert_ptr_null(p);
		ck_assert_int_eq(e.exit, CB_EXIT_USAGE);
		normalize(e.msg, path, got, sizeof(got));
		ck_assert_msg(strcmp(got, want) == 0, "%s:\n want: %s\n got:  %s", de->d_name, want,
			      got);
		free(want);
		n++;
	}
	closedir(d);
	ck_assert_int_ge(n, 12);
}
END_TEST

static char *write_tmp(const char *text)
{
	char *path = strdup("/tmp/cb-profile-XXXXXX");
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	FILE *f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	return path;
}

static const char good[] =
    "name: good\n"
    "cluster: { conf: /x/ceph.conf, client: bench, timeout: 5s }\n"
    "defaults: { duration: 3s, ramp: 500ms, concurrency: 8, pool: bench }\n"
    "workloads:\n"
    "  - { name: a, layer: rados, op: write, block_size: 64K, object_size: 1M }\n"
    "  - { name: b, layer: rados, op: rand, ops: 1000 }\n";

START_TEST(good_profile)
{
	char *path = write_tmp(good);
	struct cb_err e = {0};
	struct cb_profile *p = NULL;
	ck_assert_int_eq(cb_profile_load(path, NULL, 0, &p, &e), 0);
	ck_assert_str_eq(p->name, "good");
	ck_assert_str_eq(p->conf, "/x/ceph.conf");
	ck_assert_str_eq(p->client, "bench");
	ck_assert_uint_eq(p->timeout_ns, 5000000000ULL);
	ck_assert_uint_eq(p->n, 2);
	ck_assert_uint_eq(p->items[0].wl.block_size, 65536);
	ck_assert_uint_eq(p->items[0].wl.concurrency, 8);
	ck_assert_uint_eq(p->items[0].wl.duration_ns, 3000000000ULL);
	ck_assert_uint_eq(p->items[0].wl.ramp_ns, 500000000ULL);
	ck_assert_str_eq(p->items[0].engine->name, "rados");
	ck_assert_uint_eq(p->items[1].wl.ops, 1000);
	ck_assert_uint_eq(p->items[1].wl.block_size, 0);
	ck_assert_uint_eq(strlen(p->sha256), 64);
	cb_profile_free(p);
	unlink(path);
	free(path);
}
END_TEST

/* preflight: into its fields; absent: unset (the run's default, warn). */
START_TEST(preflight_parsed)
{
	char *path = write_tmp(
	    "name: pf\n"
	    "preflight: { require: ok, wait: 90s, allow: [OSDMAP_FLAGS, POOL_NO_REDUNDANCY] }\n"
	    "workloads:\n  - { name: w, layer: noop, op: write, ops: 10 }\n");
	struct cb_err e = {0};
	struct cb_profile *p = NULL;
	ck_assert_int_eq(cb_profile_load(path, NULL, 0, &p, &e), 0);
	ck_assert_int_eq(p->preflight.require, CB_PF_OK);
	ck_assert_uint_eq(p->preflight.wait_ns, 90000000000ULL);
	ck_assert_uint_eq(p->preflight.nallow, 2);
	ck_assert_str_eq(p->preflight.allow[0], "OSDMAP_FLAGS");
	ck_assert_str_eq(p->preflight.allow[1], "POOL_NO_REDUNDANCY");
	cb_profile_free(p);
	unlink(path);
	free(path);
	path =
	    write_tmp("name: pf\nworkloads:\n  - { name: w, layer: noop, op: write, ops: 10 }\n");
	ck_assert_int_eq(cb_profile_load(path, NULL, 0, &p, &e), 0);
	ck_assert_int_eq(p->preflight.require, CB_PF_UNSET);
	ck_assert_uint_eq(p->preflight.nallow, 0);
	cb_profile_free(p);
	unlink(path);
	free(path);
}
END_TEST

START_TEST(overrides)
{
	char *path = write_tmp(good);
	char *ov[] = {"workloads.a.concurrency=32", "b.block_size=4K", "ramp=0",
		      "cluster.client=admin"};
	struct cb_err e = {0};
	struct cb_profile *p = NULL;
	ck_assert_int_eq(cb_profile_load(path, ov, 4, &p, &e), 0);
	ck_assert_uint_eq(p->items[0].wl.concurrency, 32);
	ck_assert_uint_eq(p->items[1].wl.concurrency, 8);
	ck_assert_uint_eq(p->items[1].wl.block_size, 4096);
	ck_assert_uint_eq(p->items[0].wl.ramp_ns, 0);
	ck_assert_uint_eq(p->items[1].wl.ramp_ns, 0);
	ck_assert_str_eq(p->client, "admin");
	cb_profile_free(p);

	/* defaults.KEY is a default: the workload's own value wins */
	char *ov2[] = {"defaults.concurrency=4", "defaults.block_size=8K"};
	memset(&e, 0, sizeof(e));
	ck_assert_int_eq(cb_profile_load(path, ov2, 2, &p, &e), 0);
	ck_assert_uint_eq(p->items[0].wl.concurrency, 4);
	ck_assert_uint_eq(p->items[0].wl.block_size, 65536);
	ck_assert_uint_eq(p->items[1].wl.block_size, 8192);
	char sha_a[65];
	memcpy(sha_a, p->sha256, sizeof(sha_a));
	cb_profile_free(p);
	/* overrides are part of what the run claims to be */
	ck_assert_int_eq(cb_profile_load(path, NULL, 0, &p, &e), 0);
	ck_assert_str_ne(p->sha256, sha_a);
	cb_profile_free(p);

	char *bad1[] = {"workloads.c.concurrency=2"};
	memset(&e, 0, sizeof(e));
	ck_assert_int_lt(cb_profile_load(path, bad1, 1, &p, &e), 0);
	ck_assert_str_eq(e.msg,
			 "-o workloads.c.concurrency=2: no workload named 'c' (did you mean 'a'?)");
	char *bad2[] = {"a.concurency=2"};
	memset(&e, 0, sizeof(e));
	ck_assert_int_lt(cb_profile_load(path, bad2, 1, &p, &e), 0);
	ck_assert_str_eq(e.msg, "-o a.concurency=2: unknown key 'concurency' for layer rados (did "
				"you mean 'concurrency'?)");
	char *bad3[] = {"a.concurrency"};
	memset(&e, 0, sizeof(e));
	ck_assert_int_lt(cb_profile_load(path, bad3, 1, &p, &e), 0);
	ck_assert_int_eq(e.exit, CB_EXIT_USAGE);
	unlink(path);
	free(path);
}
END_TEST

START_TEST(adhoc)
{
	char *kv[] = {"pool=bench", "block_size=4K", "layer=rados", "op=seq", "name=seq"};
	const char *origin[] = {"-p", "-b", NULL, NULL, NULL};
	struct cb_err e = {0};
	struct cb_profile *p = NULL;
	ck_assert_int_eq(cb_profile_adhoc("rados", kv, origin, 5, &p, &e), 0);
	ck_assert_uint_eq(p->items[0].wl.block_size, 4096);
	ck_assert_uint_eq(p->items[0].wl.duration_ns, 10000000000ULL);
	cb_profile_free(p);
	kv[1] = "block_size=four";
	ck_assert_int_lt(cb_profile_adhoc("rados", kv, origin, 5, &p, &e), 0);
	ck_assert_str_eq(e.msg, "-b: block_size expects a size like 4K, 4M or 1G, got 'four'");
}
END_TEST

/* Load text as a profile file with overrides; NULL (and e set) on error. */
static struct cb_profile *load(const char *text, char **ov, size_t nov, struct cb_err *e)
{
	char *path = write_tmp(text);
	struct cb_profile *p = NULL;
	memset(e, 0, sizeof(*e));
	int r = cb_profile_load(path, ov, nov, &p, e);
	unlink(path);
	free(path);
	if (r < 0) {
		ck_assert_ptr_null(p);
		return NULL;
	}
	ck_assert_ptr_nonnull(p);
	return p;
}

static struct cb_profile *load_ok(const char *text, char **ov, size_t nov)
{
	struct cb_err e;
	struct cb_profile *p = load(text, ov, nov, &e);
	ck_assert_msg(p != NULL, "rejected: %s", e.msg);
	return p;
}

static const struct cb_workload *wl_at(const struct cb_profile *p, size_t i)
{
	ck_assert_uint_lt(i, p->n);
	return &p->items[i].wl;
}

/* Defaults are settled once, in the plan: the layer's block size (0 only
 * for a read in the size it was written with), one op in flight on a
 * synchronous layer, a tree test's block size from its byte keys. */
START_TEST(plan_defaults)
{
	struct cb_profile *p = load_ok(
	    "name: d\n"
	    "defaults: { pool: bench, duration: 1s, concurrency: 8 }\n"
	    "workloads:\n"
	    "  - { name: w, layer: rados, op: write }\n"
	    "  - { name: r, layer: rados, op: rand }\n"
	    "  - { name: s, layer: rados, op: seq, block_size: 64K }\n"
	    "  - { name: i, layer: rbd, op: randwrite, image_size: 64M }\n"
	    "  - { name: f, layer: cephfs, op: write }\n"
	    "  - { name: t, layer: cephfs, op: tree, items: 4, write_bytes: 4K, read_bytes: 1K, "
	    "block_size: 64K }\n"
	    "  - { name: m, layer: cephfs, op: tree, items: 4 }\n"
	    "  - { name: k, layer: krbd, op: write, image_size: 64M }\n",
	    NULL, 0);
	static const uint64_t bs[] = {4ULL << 20, 0, 65536, 4096, 4096, 4096, 0, 4096};
	/* cephfs file I/O keeps concurrency in flight where the client
	 * libraries have nonblocking I/O (libcephfs 20.2), else one */
	const uint64_t fdepth = cb_engine_find("cephfs")->synchronous ? 1 : 8;
	const uint64_t depth[] = {8, 8, 8, 8, fdepth, 1, 1, 8};
	ck_assert_uint_eq(p->n, 8);
	for (size_t i = 0; i < p->n; i++) {
		ck_assert_msg(wl_at(p, i)->block_size == bs[i], "%s: block_size %llu",
			      wl_at(p, i)->name, (unsigned long long)wl_at(p, i)->block_size);
		ck_assert_msg(wl_at(p, i)->concurrency == depth[i], "%s: concurrency %llu",
			      wl_at(p, i)->name, (unsigned long long)wl_at(p, i)->concurrency);
	}
	ck_assert(cb_engine_reads_as_written(p->items[1].engine, "rand"));
	ck_assert(!cb_engine_reads_as_written(p->items[0].engine, "write"));
	cb_profile_free(p);
}
END_TEST

/* What the plan relies on each layer's table to say. */
START_TEST(engine_tables)
{
	for (int i = 0; cb_engines[i]; i++) {
		const struct cb_engine *eng = cb_engines[i];
		ck_assert_msg(eng->max_clients >= 1, "%s: max_clients 0", eng->name);
		ck_assert_msg(eng->default_block_size >= 1, "%s: no default_block_size", eng->name);
	}
}
END_TEST

START_TEST(matrix_one_list)
{
	struct cb_profile *p = load_ok(
	    "name: m\n"
	    "workloads:\n"
	    "  - { name: first, layer: rados, pool: bench, op: write }\n"
	    "  - { name: w, layer: rados, pool: bench, op: write, block_size: [4K, 64K, 1M] }\n"
	    "  - { name: last, layer: rados, pool: bench, op: seq }\n",
	    NULL, 0);
	ck_assert_uint_eq(p->n, 5);
	static const char *const names[] = {"first", "w_block_size-4K", "w_block_size-64K",
					    "w_block_size-1M", "last"};
	static const char *const vals[] = {"4K", "64K", "1M"};
	static const uint64_t bs[] = {4096, 65536, 1048576};
	for (size_t i = 0; i < 5; i++)
		ck_assert_str_eq(wl_at(p, i)->name, names[i]);
	for (size_t i = 0; i < 3; i++) {
		const struct cb_workload *w = wl_at(p, i + 1);
		ck_assert_uint_eq(w->block_size, bs[i]);
		ck_assert_str_eq(w->base, "w");
		ck_assert_uint_eq(w->nmatrix, 1);
		ck_assert_str_eq(w->matrix[0].key, "block_size");
		ck_assert_str_eq(w->matrix[0].val, vals[i]);
		ck_assert_str_eq(w->op, "write");
	}
	/* a workload without lists is not a matrix row */
	ck_assert_ptr_null(wl_at(p, 0)->base);
	ck_assert_uint_eq(wl_at(p, 0)->nmatrix, 0);
	ck_assert_ptr_null(wl_at(p, 4)->base);
	cb_profile_free(p);
}
END_TEST

/* Two and three lists: the cartesian product, the first list (as written)
 * varying slowest. */
START_TEST(matrix_two_lists)
{
	struct cb_profile *p = load_ok(
	    "name: m\n"
	    "workloads:\n"
	    "  - { name: w, layer: rados, pool: bench, op: [write, seq], concurrency: [1, 16] }\n",
	    NULL, 0);
	ck_assert_uint_eq(p->n, 4);
	static const char *const names[] = {"w_op-write_concurrency-1", "w_op-write_concurrency-16",
					    "w_op-seq_concurrency-1", "w_op-seq_concurrency-16"};
	for (size_t i = 0; i < 4; i++) {
		const struct cb_workload *w = wl_at(p, i);
		ck_assert_str_eq(w->name, names[i]);
		ck_assert_str_eq(w->op, i < 2 ? "write" : "seq");
		ck_assert_uint_eq(w->concurrency, i % 2 ? 16 : 1);
		ck_assert_str_eq(w->base, "w");
		ck_assert_uint_eq(w->nmatrix, 2);
		ck_assert_str_eq(w->matrix[0].key, "op");
		ck_assert_str_eq(w->matrix[0].val, i < 2 ? "write" : "seq");
		ck_assert_str_eq(w->matrix[1].key, "concurrency");
		ck_assert_str_eq(w->matrix[1].val, i % 2 ? "16" : "1");
	}
	cb_profile_free(p);
}
END_TEST

START_TEST(matrix_three_lists)
{
	struct cb_profile *p = load_ok("name: m\n"
				       "workloads:\n"
				       "  - name: w\n"
				       "    layer: rados\n"
				       "    op: write\n"
				       "    block_size: [4K, 1M]\n"
				       "    pool: [a, b, c]\n"
				       "    concurrency: [2, 8]\n",
				       NULL, 0);
	static const char *const bs[] = {"4K", "1M"}, *const pool[] = {"a", "b", "c"},
				 *const conc[] = {"2", "8"};
	ck_assert_uint_eq(p->n, 12);
	size_t i = 0;
	for (size_t x = 0; x < 2; x++)
		for (size_t y = 0; y < 3; y++)
			for (size_t z = 0; z < 2; z++, i++) {
				char want[128];
				const struct cb_workload *w = wl_at(p, i);
				snprintf(want, sizeof(want),
					 "w_block_size-%s_pool-%s_concurrency-%s", bs[x], pool[y],
					 conc[z]);
				ck_assert_str_eq(w->name, want);
				ck_assert_uint_eq(w->nmatrix, 3);
				ck_assert_str_eq(w->matrix[0].key, "block_size");
				ck_assert_str_eq(w->matrix[0].val, bs[x]);
				ck_assert_str_eq(w->matrix[1].key, "pool");
				ck_assert_str_eq(w->matrix[1].val, pool[y]);
				ck_assert_str_eq(w->matrix[2].key, "concurrency");
				ck_assert_str_eq(w->matrix[2].val, conc[z]);
				ck_assert_uint_eq(w->block_size, x ? 1048576 : 4096);
				ck_assert_uint_eq(w->concurrency, z ? 8 : 2);
			}
	cb_profile_free(p);
}
END_TEST

/* Characters names do not allow become '-' in the row's name; the value
 * itself, and matrix[], keep them. */
START_TEST(matrix_name_chars)
{
	struct cb_profile *p =
	    load_ok("name: m\n"
		    "workloads:\n"
		    "  - { name: w, layer: rados, op: write, pool: [\"a.b\", \"c d\", e_f-9] }\n",
		    NULL, 0);
	ck_assert_uint_eq(p->n, 3);
	ck_assert_str_eq(wl_at(p, 0)->name, "w_pool-a-b");
	ck_assert_str_eq(wl_at(p, 1)->name, "w_pool-c-d");
	ck_assert_str_eq(wl_at(p, 2)->name, "w_pool-e_f-9");
	ck_assert_str_eq(wl_at(p, 0)->matrix[0].val, "a.b");
	ck_assert_str_eq(wl_at(p, 1)->matrix[0].val, "c d");
	cb_profile_free(p);
}
END_TEST

static const char defaults_list[] =
    "name: m\n"
    "defaults: { pool: [p1, p2], duration: 1s }\n"
    "workloads:\n"
    "  - { name: a, layer: rados, op: write, block_size: [4K, 8K] }\n"
    "  - { name: fs, layer: cephfs, op: write, block_size: 4K }\n"
    "  - { name: b, layer: rados, op: seq, pool: one }\n";

/* A list in defaults varies the workloads whose layer has the key (cephfs
 * has no pool), before the workload's own lists; a workload's scalar wins. */
START_TEST(matrix_defaults_list)
{
	struct cb_profile *p = load_ok(defaults_list, NULL, 0);
	ck_assert_uint_eq(p->n, 6);
	static const char *const names[] = {"a_pool-p1_block_size-4K", "a_pool-p1_block_size-8K",
					    "a_pool-p2_block_size-4K", "a_pool-p2_block_size-8K"};
	for (size_t i = 0; i < 4; i++) {
		ck_assert_str_eq(wl_at(p, i)->name, names[i]);
		ck_assert_uint_eq(wl_at(p, i)->nmatrix, 2);
		ck_assert_str_eq(wl_at(p, i)->matrix[0].key, "pool");
		ck_assert_str_eq(wl_at(p, i)->matrix[0].val, i < 2 ? "p1" : "p2");
		ck_assert_uint_eq(wl_at(p, i)->duration_ns, 1000000000ULL);
	}
	ck_assert_str_eq(wl_at(p, 4)->name, "fs");
	ck_assert_str_eq(p->items[4].engine->name, "cephfs");
	ck_assert_ptr_null(wl_at(p, 4)->base);
	ck_assert_uint_eq(wl_at(p, 4)->nmatrix, 0);
	ck_assert_str_eq(wl_at(p, 5)->name, "b");
	ck_assert_ptr_null(wl_at(p, 5)->base);
	ck_assert_uint_eq(wl_at(p, 5)->nmatrix, 0);
	cb_profile_free(p);
}
END_TEST

/* A later scalar (-o NAME.KEY, -o KEY, -o defaults.KEY) replaces a list:
 * no expansion on that key. */
START_TEST(matrix_scalar_override)
{
	char *ov1[] = {"a.pool=x"};
	struct cb_profile *p = load_ok(defaults_list, ov1, 1);
	ck_assert_uint_eq(p->n, 4);
	ck_assert_str_eq(wl_at(p, 0)->name, "a_block_size-4K");
	ck_assert_str_eq(wl_at(p, 1)->name, "a_block_size-8K");
	ck_assert_uint_eq(wl_at(p, 0)->nmatrix, 1);
	ck_assert_str_eq(wl_at(p, 0)->matrix[0].key, "block_size");
	cb_profile_free(p);

	char *ov2[] = {"pool=x", "block_size=16K"};
	p = load_ok(defaults_list, ov2, 2);
	ck_assert_uint_eq(p->n, 3);
	ck_assert_str_eq(wl_at(p, 0)->name, "a");
	ck_assert_ptr_null(wl_at(p, 0)->base);
	ck_assert_uint_eq(wl_at(p, 0)->nmatrix, 0);
	ck_assert_uint_eq(wl_at(p, 0)->block_size, 16384);
	cb_profile_free(p);

	char *ov3[] = {"defaults.pool=x"};
	p = load_ok(defaults_list, ov3, 1);
	ck_assert_uint_eq(p->n, 4);
	ck_assert_str_eq(wl_at(p, 0)->name, "a_block_size-4K");
	cb_profile_free(p);

	/* -o names a matrix workload by its name as written: every row */
	char *ov4[] = {"a.concurrency=3"};
	p = load_ok(defaults_list, ov4, 1);
	ck_assert_uint_eq(p->n, 6);
	for (size_t i = 0; i < 4; i++)
		ck_assert_uint_eq(wl_at(p, i)->concurrency, 3);
	ck_assert_uint_ne(wl_at(p, 5)->concurrency, 3);
	cb_profile_free(p);

	/* a row's name is not a workload's; the hint names the workload */
	struct cb_err e;
	char *bad1[] = {"a_pool-p1_block_size-4K.concurrency=2"};
	ck_assert_ptr_null(load(defaults_list, bad1, 1, &e));
	ck_assert_str_eq(e.msg, "-o a_pool-p1_block_size-4K.concurrency=2: no workload named "
				"'a_pool-p1_block_size-4K'");
	char *bad2[] = {"aa.concurrency=2"};
	ck_assert_ptr_null(load(defaults_list, bad2, 1, &e));
	ck_assert_str_eq(e.msg, "-o aa.concurrency=2: no workload named 'aa' (did you mean 'a'?)");
}
END_TEST

/* The row limit itself is allowed: 4^5 = 1024 rows. (8 keys as lists, the
 * other limit, always make a row name over 64 characters.) */
START_TEST(matrix_limits)
{
	struct cb_profile *p = load_ok("name: m\n"
				       "workloads:\n"
				       "  - name: w\n"
				       "    layer: rados\n"
				       "    op: write\n"
				       "    pool: [a, b, c, d]\n"
				       "    block_size: [1K, 2K, 4K, 8K]\n"
				       "    concurrency: [1, 2, 4, 8]\n"
				       "    duration: [1s, 2s, 3s, 4s]\n"
				       "    ramp: [1s, 2s, 3s, 4s]\n",
				       NULL, 0);
	ck_assert_uint_eq(p->n, 1024);
	ck_assert_str_eq(wl_at(p, 1023)->name,
			 "w_pool-d_block_size-8K_concurrency-8_duration-4s_ramp-4s");
	cb_profile_free(p);
}
END_TEST

START_TEST(repeat_optional)
{
	struct cb_profile *p = load_ok(
	    "name: r\n"
	    "workloads:\n"
	    "  - { name: a, layer: rados, pool: bench, op: write, repeat: 3, optional: true }\n"
	    "  - { name: b, layer: rados, pool: bench, op: write }\n"
	    "  - { name: c, layer: rados, pool: bench, op: write, repeat: 1000 }\n",
	    NULL, 0);
	ck_assert_uint_eq(wl_at(p, 0)->repeat, 3);
	ck_assert(wl_at(p, 0)->optional);
	ck_assert_uint_eq(wl_at(p, 1)->repeat, 1);
	ck_assert(!wl_at(p, 1)->optional);
	ck_assert_uint_eq(wl_at(p, 2)->repeat, 1000);
	cb_profile_free(p);
	struct cb_err e;
	ck_assert_ptr_null(
	    load("name: r\nworkloads:\n"
		 "  - { name: a, layer: rados, pool: bench, op: write, repeat: 0 }\n",
		 NULL, 0, &e));
	ck_assert_ptr_nonnull(strstr(e.msg, "repeat must be between 1 and 1000"));
	ck_assert_ptr_null(
	    load("name: r\nworkloads:\n"
		 "  - { name: a, layer: rados, pool: bench, op: write, repeat: 1001 }\n",
		 NULL, 0, &e));
	ck_assert_ptr_nonnull(strstr(e.msg, "repeat must be between 1 and 1000"));
}
END_TEST

#define BIT(m) (1u << (m))

static const char expect_profile[] =
    "name: x\n"
    "defaults: { pool: bench, expect: { min_iops: 100, max_errors: 0 } }\n"
    "workloads:\n"
    "  - { name: a, layer: rados, op: write, expect: { min_iops: 500, max_p99: 20ms } }\n"
    "  - { name: b, layer: rados, op: write }\n";

START_TEST(expect_parsed)
{
	struct cb_profile *p = load_ok(expect_profile, NULL, 0);
	const struct cb_expect *a = &wl_at(p, 0)->expect, *b = &wl_at(p, 1)->expect;
	/* the workload's own key wins over the default's; the rest merge */
	ck_assert_uint_eq(a->set, BIT(CB_EXPECT_MIN_IOPS) | BIT(CB_EXPECT_MAX_ERRORS) |
				      BIT(CB_EXPECT_MAX_P99));
	ck_assert_uint_eq(a->v[CB_EXPECT_MIN_IOPS], 500);
	ck_assert_uint_eq(a->v[CB_EXPECT_MAX_P99], 20000000ULL);
	ck_assert_uint_eq(a->v[CB_EXPECT_MAX_ERRORS], 0);
	ck_assert_uint_eq(b->set, BIT(CB_EXPECT_MIN_IOPS) | BIT(CB_EXPECT_MAX_ERRORS));
	ck_assert_uint_eq(b->v[CB_EXPECT_MIN_IOPS], 100);
	cb_profile_free(p);

	/* no expect: nothing set */
	p = load_ok(good, NULL, 0);
	ck_assert_uint_eq(wl_at(p, 0)->expect.set, 0);
	cb_profile_free(p);
}
END_TEST

START_TEST(expect_overrides)
{
	/* -o NAME.expect.KEY: that workload only */
	char *ov1[] = {"b.expect.max_p999=5ms", "workloads.a.expect.min_iops=7"};
	struct cb_profile *p = load_ok(expect_profile, ov1, 2);
	const struct cb_expect *a = &wl_at(p, 0)->expect, *b = &wl_at(p, 1)->expect;
	ck_assert_uint_eq(b->v[CB_EXPECT_MAX_P999], 5000000ULL);
	ck_assert(b->set & BIT(CB_EXPECT_MAX_P999));
	ck_assert(!(a->set & BIT(CB_EXPECT_MAX_P999)));
	ck_assert_uint_eq(a->v[CB_EXPECT_MIN_IOPS], 7);
	ck_assert_uint_eq(b->v[CB_EXPECT_MIN_IOPS], 100);
	cb_profile_free(p);

	/* -o expect.KEY: every workload, over their own */
	char *ov2[] = {"expect.min_iops=9", "expect.max_mean_latency=3ms"};
	p = load_ok(expect_profile, ov2, 2);
	for (size_t i = 0; i < 2; i++) {
		const struct cb_expect *x = &wl_at(p, i)->expect;
		ck_assert_uint_eq(x->v[CB_EXPECT_MIN_IOPS], 9);
		ck_assert_uint_eq(x->v[CB_EXPECT_MAX_MEAN_LATENCY], 3000000ULL);
		ck_assert(x->set & BIT(CB_EXPECT_MAX_MEAN_LATENCY));
	}
	cb_profile_free(p);

	/* -o defaults.expect.KEY: a default, under a workload's own */
	char *ov3[] = {"defaults.expect.min_iops=11", "defaults.expect.min_bw=1M"};
	p = load_ok(expect_profile, ov3, 2);
	a = &wl_at(p, 0)->expect;
	b = &wl_at(p, 1)->expect;
	ck_assert_uint_eq(a->v[CB_EXPECT_MIN_IOPS], 500);
	ck_assert_uint_eq(b->v[CB_EXPECT_MIN_IOPS], 11);
	ck_assert_uint_eq(a->v[CB_EXPECT_MIN_BW], 1048576);
	ck_assert_uint_eq(b->v[CB_EXPECT_MIN_BW], 1048576);
	ck_assert(a->set & BIT(CB_EXPECT_MIN_BW));
	cb_profile_free(p);

	/* an -o expect: on a profile that had none */
	char *ov4[] = {"a.expect.max_errors=2"};
	p = load_ok(good, ov4, 1);
	ck_assert_uint_eq(wl_at(p, 0)->expect.set, BIT(CB_EXPECT_MAX_ERRORS));
	ck_assert_uint_eq(wl_at(p, 0)->expect.v[CB_EXPECT_MAX_ERRORS], 2);
	ck_assert_uint_eq(wl_at(p, 1)->expect.set, 0);
	cb_profile_free(p);

	struct cb_err e;
	char *bad1[] = {"expect.min_iop=1"};
	ck_assert_ptr_null(load(good, bad1, 1, &e));
	ck_assert_str_eq(
	    e.msg, "-o expect.min_iop=1: unknown expect key 'min_iop' (did you mean 'min_iops'?)");
	char *bad2[] = {"a.expect.max_p99=2parsecs"};
	ck_assert_ptr_null(load(good, bad2, 1, &e));
	ck_assert_str_eq(e.msg, "-o a.expect.max_p99=2parsecs: expect.max_p99 expects a duration "
				"like 500ms, 30s, 5m or 1h, got '2parsecs'");
	ck_assert_int_eq(e.exit, CB_EXIT_USAGE);
}
END_TEST

/* A bandwidth may be written per second, as reports print it. */
START_TEST(expect_min_bw_per_second)
{
	struct cb_profile *p = load_ok(
	    "name: x\n"
	    "workloads:\n"
	    "  - { name: a, layer: rados, pool: b, op: write, expect: { min_bw: 100M/s } }\n"
	    "  - { name: b, layer: rados, pool: b, op: write, expect: { min_bw: 100M } }\n",
	    NULL, 0);
	ck_assert_uint_eq(wl_at(p, 0)->expect.v[CB_EXPECT_MIN_BW], 104857600ULL);
	ck_assert_uint_eq(wl_at(p, 1)->expect.v[CB_EXPECT_MIN_BW], 104857600ULL);
	ck_assert_uint_eq(wl_at(p, 0)->expect.set, BIT(CB_EXPECT_MIN_BW));
	ck_assert_uint_eq(wl_at(p, 1)->expect.set, BIT(CB_EXPECT_MIN_BW));
	cb_profile_free(p);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("profile");
	TCase *tc = tcase_create("profile");
	tcase_add_test(tc, bad_profiles);
	tcase_add_test(tc, good_profile);
	tcase_add_test(tc, preflight_parsed);
	tcase_add_test(tc, overrides);
	tcase_add_test(tc, adhoc);
	tcase_add_test(tc, matrix_one_list);
	tcase_add_test(tc, matrix_two_lists);
	tcase_add_test(tc, matrix_three_lists);
	tcase_add_test(tc, matrix_name_chars);
	tcase_add_test(tc, matrix_defaults_list);
	tcase_add_test(tc, matrix_scalar_override);
	tcase_add_test(tc, matrix_limits);
	tcase_add_test(tc, repeat_optional);
	tcase_add_test(tc, expect_parsed);
	tcase_add_test(tc, expect_overrides);
	tcase_add_test(tc, expect_min_bw_per_second);
	tcase_add_test(tc, plan_defaults);
	tcase_add_test(tc, engine_tables);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
