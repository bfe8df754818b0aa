/* The RADOS layer's names read back exactly: cleanup removes only what
 * parses as a name a run makes, so every near miss must parse as none. */
#include "../../rados/rados_priv.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

START_TEST(made_names_parse)
{
	char name[160], run[65];
	cb_rados_obj_name(name, sizeof(name), "bench", 0, 0);
	ck_assert_int_eq(cb_rados_name_parse(name, run), RADOS_NAME_DATA);
	ck_assert_str_eq(run, "bench");
	cb_rados_obj_name(name, sizeof(name), "a-b_C9", 1023, UINT64_MAX);
	ck_assert_int_eq(cb_rados_name_parse(name, run), RADOS_NAME_DATA);
	ck_assert_str_eq(run, "a-b_C9");
	cb_rados_meta_name(name, sizeof(name), "bench", 0);
	ck_assert_str_eq(name, "bench.meta");
	ck_assert_int_eq(cb_rados_name_parse(name, run), RADOS_NAME_META);
	cb_rados_meta_name(name, sizeof(name), "rbd_data", 7);
	ck_assert_str_eq(name, "rbd_data.meta.c7");
	ck_assert_int_eq(cb_rados_name_parse(name, run), RADOS_NAME_META_CLIENT);
	ck_assert_str_eq(run, "rbd_data");
	char longest[65];
	memset(longest, 'x', 64);
	longest[64] = '\0';
	cb_rados_obj_name(name, sizeof(name), longest, 4294967295u, 12);
	ck_assert_int_eq(cb_rados_name_parse(name, run), RADOS_NAME_DATA);
	ck_assert_str_eq(run, longest);
}
END_TEST

/* The hand-made names are snprintf's, byte for byte, cut alike. */
START_TEST(names_as_printf)
{
	static const char *const runs[] = {"bench", "a", "rbd_data", "x-y_Z0"};
	static const unsigned clients[] = {0, 1, 9, 10, 1023, 4294967295u};
	static const uint64_t idxs[] = {0, 1, 9, 10, 99, 100, 123456789, UINT64_MAX};
	for (size_t r = 0; r < sizeof(runs) / sizeof(runs[0]); r++)
		for (size_t c = 0; c < sizeof(clients) / sizeof(clients[0]); c++)
			for (size_t i = 0; i < sizeof(idxs) / sizeof(idxs[0]); i++)
				for (size_t n = 1; n < 48; n += 3) {
					char got[64], want[64];
					memset(got, 'G', sizeof(got));
					memset(want, 'G', sizeof(want));
					cb_rados_obj_name(got, n, runs[r], clients[c], idxs[i]);
					snprintf(want, n, "%s.c%u.%llu", runs[r], clients[c],
						 (unsigned long long)idxs[i]);
					ck_assert_mem_eq(got, want, sizeof(got));
				}
}
END_TEST

/* Names no run makes: users' objects, RBD's, near misses of each form. */
START_TEST(other_names_do_not)
{
	static const char *const none[] = {"bench",
					   "userdata",
					   "important.txt",
					   "notarun",
					   "keepme",
					   "bench.userfile",
					   "bench.c0.backup",
					   "bench.c0.5.bak",
					   "bench.c00.1",
					   "bench.c0.01",
					   "bench.c-1.0",
					   "bench.c+1.0",
					   "bench.c 1.0",
					   "bench.c0.",
					   "bench.c.0",
					   "bench.c0",
					   "bench..c0.0",
					   ".c0.0",
					   "bench.C0.0",
					   "bench.c0.0x1",
					   "bench.meta.c0",
					   "bench.meta.c01",
					   "bench.meta.c",
					   "bench.meta.",
					   "bench.metadata",
					   "bench.meta.c1.x",
					   "bench.meta.bak",
					   "be$nch.c0.0",
					   "bench.c4294967296.0",
					   "bench.c0.18446744073709551616",
					   "rbd_data.1040feff41d3.0000000000000000",
					   "rbd_header.1040feff41d3",
					   "rbd_id.vmdisk",
					   "rbd_directory",
					   "rbd_data.c0.0000000000000005",
					   "benchmark_data_host_1_object0",
					   "cephbench.bench.0",
					   "",
					   "."};
	char run[65];
	for (size_t i = 0; i < sizeof(none) / sizeof(none[0]); i++)
		ck_assert_msg(cb_rados_name_parse(none[i], run) == RADOS_NAME_NONE,
			      "'%s' parsed as a run's name", none[i]);
	/* a run name of 65 characters is no run's */
	char name[100];
	memset(name, 'x', 65);
	snprintf(name + 65, sizeof(name) - 65, ".c0.0");
	ck_assert_int_eq(cb_rados_name_parse(name, run), RADOS_NAME_NONE);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("rados_names");
	TCase *tc = tcase_create("parse");
	tcase_add_test(tc, made_names_parse);
	tcase_add_test(tc, other_names_do_not);
	tcase_add_test(tc, names_as_printf);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
