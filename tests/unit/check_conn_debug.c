/* Quiet Ceph clients (src/conn_debug.c) on a librados handle that never
 * connects: a level nobody set goes to 0/0, one set is kept and listed. */
#include "conn_debug.h"
#include "conn_files.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static rados_t handle(struct cb_debug_defaults *d, const char *const *env_words)
{
	rados_t r;
	ck_assert_int_eq(rados_create2(&r, "ceph", "client.admin", 0), 0);
	memset(d, 0, sizeof(*d));
	for (; env_words && *env_words; env_words++)
		cb_debug_env_arg(d, *env_words);
	cb_debug_defaults_read(r, d);
	return r;
}

static void level(rados_t r, const char *key, const char *want)
{
	char v[32];
	ck_assert_int_eq(rados_conf_get(r, key, v, sizeof(v)), 0);
	ck_assert_str_eq(v, want);
}

START_TEST(unset_levels_go_quiet)
{
	struct cb_debug_defaults d;
	char kept[256];
	rados_t r = handle(&d, NULL);
	level(r, "debug_rados", "0/5"); /* Ceph 16's default: gathered in memory */
	ck_assert_int_eq(cb_debug_quiet(r, &d, kept, sizeof(kept)), 0);
	ck_assert_str_eq(kept, "");
	level(r, "debug_rados", "0/0");
	level(r, "debug_objecter", "0/0");
	level(r, "debug_rbd", "0/0");
	level(r, "debug_ms", "0/0");
	rados_shutdown(r);
}
END_TEST

/* as the conf or the cluster would: a level that differs from the default */
START_TEST(set_levels_are_kept)
{
	struct cb_debug_defaults d;
	char kept[256];
	rados_t r = handle(&d, NULL);
	ck_assert_int_eq(rados_conf_set(r, "debug_objecter", "5/5"), 0);
	ck_assert_int_eq(rados_conf_set(r, "debug_ms", "1/1"), 0);
	ck_assert_int_eq(cb_debug_quiet(r, &d, kept, sizeof(kept)), 0);
	ck_assert_str_eq(kept, "ms=1/1 objecter=5/5");
	level(r, "debug_objecter", "5/5");
	level(r, "debug_ms", "1/1");
	level(r, "debug_rados", "0/0");
	rados_shutdown(r);
}
END_TEST

/* CEPH_ARGS words, even at the default level: the user said so */
START_TEST(ceph_args_levels_are_kept)
{
	static const char *const words[] = {"--debug-rados", "0/5",  "--debug_rbd=3/3",
					    "--debugger",    "--id", NULL};
	struct cb_debug_defaults d;
	char kept[256];
	rados_t r = handle(&d, words);
	ck_assert_int_eq(cb_debug_quiet(r, &d, kept, sizeof(kept)), 0);
	ck_assert_str_eq(kept, "rados=0/5 rbd=0/5");
	level(r, "debug_rados", "0/5");
	level(r, "debug_objecter", "0/0");
	rados_shutdown(r);
}
END_TEST

/* a conf line, even at the default level (a user's 0/5 for crash dumps):
 * kept; a comment sets nothing */
START_TEST(conf_levels_are_kept)
{
	char path[] = "/tmp/check_conn_debug.XXXXXX", kept[256];
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	FILE *f = fdopen(fd, "w");
	fputs("[client]\n  Debug Rados = 0/5\n# debug ms = 1/1\n", f);
	fclose(f);
	struct cb_debug_defaults d;
	rados_t r = handle(&d, NULL);
	cb_conf_each_key(path, cb_debug_conf_key, &d);
	ck_assert_int_eq(rados_conf_read_file(r, path), 0);
	unlink(path);
	ck_assert_int_eq(cb_debug_quiet(r, &d, kept, sizeof(kept)), 0);
	ck_assert_str_eq(kept, "rados=0/5");
	level(r, "debug_rados", "0/5");
	level(r, "debug_ms", "0/0");
	rados_shutdown(r);
}
END_TEST

/* a list that does not fit keeps whole entries only */
START_TEST(kept_list_cut_whole)
{
	struct cb_debug_defaults d;
	char kept[12];
	rados_t r = handle(&d, NULL);
	ck_assert_int_eq(rados_conf_set(r, "debug_ms", "1/1"), 0);
	ck_assert_int_eq(rados_conf_set(r, "debug_objecter", "5/5"), 0);
	ck_assert_int_eq(cb_debug_quiet(r, &d, kept, sizeof(kept)), 0);
	ck_assert_str_eq(kept, "ms=1/1");
	rados_shutdown(r);
}
END_TEST

int main(void)
{
	/* rados_create2 applies CEPH_ARGS: the cases say their own words */
	unsetenv("CEPH_ARGS");
	Suite *s = suite_create("conn_debug");
	TCase *tc = tcase_create("levels");
	tcase_add_test(tc, unset_levels_go_quiet);
	tcase_add_test(tc, set_levels_are_kept);
	tcase_add_test(tc, ceph_args_levels_are_kept);
	tcase_add_test(tc, conf_levels_are_kept);
	tcase_add_test(tc, kept_list_cut_whole);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
