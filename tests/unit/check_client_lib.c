/* The client libraries' version rules and the key types conn_auth.c reads
 * to explain a refusal, on keys made by each release's ceph-authtool
 * (tests/data/keys): which key, from which file, of which type. */
#include "client_lib.h"
#include "conn_auth.h"

#include <check.h>
#include <errno.h>
#include <rados/librados.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

static struct cb_ceph_version v(int a, int b, int c)
{
	return (struct cb_ceph_version){a, b, c};
}

START_TEST(aes256k_releases)
{
	/* CVE-2025-30156's fix: 19.2.6 and 20.2.4 first */
	struct cb_ceph_version yes[] = {v(19, 2, 6), v(19, 2, 7), v(20, 2, 4),
					v(20, 2, 9), v(21, 0, 0), v(22, 2, 0)};
	struct cb_ceph_version no[] = {v(16, 2, 15), v(18, 2, 7), v(19, 2, 5),
				       v(20, 2, 3),  v(20, 1, 9), v(19, 1, 0)};
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		ck_assert_msg(cb_ceph_version_has_aes256k(&yes[i]), "%d.%d.%d", yes[i].major,
			      yes[i].minor, yes[i].patch);
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		ck_assert_msg(!cb_ceph_version_has_aes256k(&no[i]), "%d.%d.%d", no[i].major,
			      no[i].minor, no[i].patch);
	struct cb_ceph_version p;
	ck_assert(cb_ceph_version_parse("20.2.4-2", &p) && p.major == 20 && p.patch == 4);
	ck_assert(!cb_ceph_version_parse("unknown", &p));
	ck_assert_str_eq(cb_ceph_release_name(16), "pacific");
	ck_assert_str_eq(cb_ceph_release_name(20), "tentacle");
	ck_assert_str_eq(cb_ceph_release_name(15), "");
	/* this binary's own libraries: a version, and the rule applied to it */
	struct cb_ceph_version mine;
	ck_assert(cb_ceph_version_parse(cb_client_lib_version(&mine), &p));
	ck_assert_int_eq(p.major, mine.major);
	json_t *j = cb_client_lib_json();
	ck_assert_str_eq(json_string_value(json_object_get(j, "ceph_version")),
			 cb_client_lib_version(NULL));
	bool listed = false;
	size_t i;
	json_t *f;
	json_array_foreach(json_object_get(j, "features"), i, f) listed |=
	    !strcmp(json_string_value(f), "aes256k");
	ck_assert(listed == cb_ceph_version_has_aes256k(&mine));
	json_decref(j);
}
END_TEST

/* The key of name in keyring file path, through a handle as conn.c has it. */
static int key_of(const char *path, const char *name, char *key, size_t n, char *from, size_t fn)
{
	rados_t r;
	ck_assert_int_eq(rados_create2(&r, "ceph", name, 0), 0);
	ck_assert_int_eq(rados_conf_set(r, "keyring", path), 0);
	int ret = cb_conn_find_key(r, name, key, n, from, fn);
	rados_shutdown(r);
	return ret;
}

START_TEST(key_types)
{
	char key[512], from[4096], tn[32];
	ck_assert_int_eq(key_of(CB_TEST_DATA "/keys/aes.keyring", "client.aes", key, sizeof(key),
				from, sizeof(from)),
			 0);
	ck_assert_str_eq(from, CB_TEST_DATA "/keys/aes.keyring");
	ck_assert_int_eq(cb_key_type(key), 1);
	ck_assert_str_eq(cb_key_type_name(cb_key_type(key), tn, sizeof(tn)), "AES");
	/* a list: the first file that opens, as librados reads it */
	ck_assert_int_eq(key_of("/nonexistent/keyring," CB_TEST_DATA "/keys/aes256k.keyring",
				"client.new", key, sizeof(key), from, sizeof(from)),
			 0);
	ck_assert_str_eq(from, CB_TEST_DATA "/keys/aes256k.keyring");
	ck_assert_int_eq(cb_key_type(key), 2);
	ck_assert_str_eq(cb_key_type_name(2, tn, sizeof(tn)), "AES256K");
	ck_assert_int_eq(key_of(CB_TEST_DATA "/keys/aes.keyring," CB_TEST_DATA
					     "/keys/aes256k.keyring",
				"client.new", key, sizeof(key), from, sizeof(from)),
			 -ENOENT);
	/* no such client, no such file */
	ck_assert_int_eq(key_of(CB_TEST_DATA "/keys/aes.keyring", "client.other", key, sizeof(key),
				from, sizeof(from)),
			 -ENOENT);
	ck_assert_int_eq(
	    key_of("/nonexistent/keyring", "client.aes", key, sizeof(key), from, sizeof(from)),
	    -ENOENT);
	/* not a key: not base64, too short for a CryptoKey's header */
	ck_assert_int_eq(cb_key_type("not-base64!"), -EINVAL);
	ck_assert_int_eq(cb_key_type("AQA="), -EINVAL);
	ck_assert_int_eq(cb_key_type(""), -EINVAL);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("client_lib");
	TCase *tc = tcase_create("client_lib");
	tcase_add_test(tc, aes256k_releases);
	tcase_add_test(tc, key_types);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
