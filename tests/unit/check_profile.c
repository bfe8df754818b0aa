/* Profile validation: every bad profile in tests/data/bad gives exactly the
 * message its first line expects (or its .expect file) and exit class 2;
 * good profiles and -o overrides land in the right fields. */
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

int main(void)
{
	Suite *s = suite_create("profile");
	TCase *tc = tcase_create("profile");
	tcase_add_test(tc, bad_profiles);
	tcase_add_test(tc, good_profile);
	tcase_add_test(tc, overrides);
	tcase_add_test(tc, adhoc);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
