/* How error messages show what the user gave (src/err.c): cb_echo cuts a
 * long value and escapes control characters; a message cut by its buffer
 * ends in "...". */
#include "err.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

START_TEST(test_short_kept)
{
	ck_assert_str_eq(CB_ECHO("bench"), "bench");
	ck_assert_str_eq(CB_ECHO(""), "");
	ck_assert_str_eq(CB_ECHO("pool é/ü"), "pool é/ü");
}
END_TEST

START_TEST(test_control_escaped)
{
	ck_assert_str_eq(CB_ECHO("a\nb\tc\rd"), "a\\x0ab\\x09c\\x0dd");
	ck_assert_str_eq(CB_ECHO("\033]0;title\007x\033[2J"), "\\x1b]0;title\\x07x\\x1b[2J");
	ck_assert_str_eq(CB_ECHO("del\177"), "del\\x7f");
	/* an escaped byte counts as one of the CB_ECHO_MAX shown */
	char in[CB_ECHO_MAX + 1];
	memset(in, '\033', CB_ECHO_MAX);
	in[CB_ECHO_MAX] = '\0';
	const char *out = CB_ECHO(in);
	ck_assert_uint_eq(strlen(out), 4 * CB_ECHO_MAX);
	ck_assert_ptr_null(strchr(out, '\033'));
}
END_TEST

START_TEST(test_long_cut)
{
	size_t n = 100 * 1024; /* the 100 KB -o value */
	char *in = malloc(n + 1);
	memset(in, 'A', n);
	in[n] = '\0';
	const char *out = CB_ECHO(in);
	ck_assert_uint_eq(strlen(out), CB_ECHO_MAX + 3);
	ck_assert_int_eq(strncmp(out, in, CB_ECHO_MAX), 0);
	ck_assert_str_eq(out + CB_ECHO_MAX, "...");
	/* exactly CB_ECHO_MAX: whole, no ellipsis */
	in[CB_ECHO_MAX] = '\0';
	ck_assert_str_eq(CB_ECHO(in), in);
	free(in);
}
END_TEST

START_TEST(test_utf8_not_split)
{
	/* 127 bytes, then a 2-byte é across the cut: it goes whole */
	char in[CB_ECHO_MAX + 8];
	memset(in, 'a', CB_ECHO_MAX - 1);
	strcpy(in + CB_ECHO_MAX - 1, "éxyz");
	const char *out = CB_ECHO(in);
	ck_assert_uint_eq(strlen(out), CB_ECHO_MAX - 1 + 3);
	ck_assert_str_eq(out + CB_ECHO_MAX - 1, "...");
	/* a 3-byte € with its first two bytes inside */
	memset(in, 'a', CB_ECHO_MAX - 2);
	strcpy(in + CB_ECHO_MAX - 2, "€€");
	out = CB_ECHO(in);
	ck_assert_uint_eq(strlen(out), CB_ECHO_MAX - 2 + 3);
	/* not UTF-8: a stray continuation byte after an escaped one is cut
	 * there, the escape left whole */
	memset(in, 'a', CB_ECHO_MAX - 1);
	in[CB_ECHO_MAX - 1] = '\033';
	in[CB_ECHO_MAX] = (char)0x80;
	in[CB_ECHO_MAX + 1] = '\0';
	out = CB_ECHO(in);
	ck_assert_str_eq(out + CB_ECHO_MAX - 1, "\\x1b...");
}
END_TEST

START_TEST(test_small_buffer)
{
	char buf[8];
	ck_assert_str_eq(cb_echo(buf, sizeof(buf), "abcdefghij"), "abcd...");
	ck_assert_str_eq(cb_echo(buf, 3, "abc"), "");
	ck_assert_str_eq(cb_echo(buf, sizeof(buf), "a\033"), "a\\x1b");
	ck_assert_str_eq(cb_echo(buf, sizeof(buf), "ab\033xy"), "ab...");
}
END_TEST

START_TEST(test_rule_message)
{
	struct cb_err e = {0};
	char in[1000];
	memset(in, 'p', sizeof(in) - 2);
	in[sizeof(in) - 2] = '\033';
	in[sizeof(in) - 1] = '\0';
	ck_assert_int_lt(cb_err_rule(&e, "--pool", in, "use 1-255 characters"), 0);
	/* the rule is not pushed out of the message by the value */
	ck_assert_ptr_nonnull(strstr(e.msg, "...': use 1-255 characters"));
	ck_assert_uint_lt(strlen(e.msg), 200);
}
END_TEST

START_TEST(test_cut_message_says_so)
{
	struct cb_err e = {0};
	char in[3000];
	memset(in, 'x', sizeof(in) - 1);
	in[sizeof(in) - 1] = '\0';
	cb_err_usage(&e, "remove it with: cephbench cleanup --conf %s", in);
	ck_assert_uint_eq(strlen(e.msg), sizeof(e.msg) - 1);
	ck_assert_str_eq(e.msg + sizeof(e.msg) - 4, "...");
	/* one that fits is left alone */
	struct cb_err f = {0};
	cb_err_usage(&f, "pool '%s' does not exist", "bench");
	ck_assert_str_eq(f.msg, "pool 'bench' does not exist");
	/* a cut never splits a UTF-8 character */
	struct cb_err g = {0};
	char u[1300] = "";
	for (size_t i = 0; i < 600; i++)
		strcat(u, "é");
	cb_err_usage(&g, "x%s", u); /* é from byte 1: the cut falls inside one */
	size_t len = strlen(g.msg);
	ck_assert_str_eq(g.msg + len - 3, "...");
	ck_assert_int_eq(((unsigned char)g.msg[len - 4] & 0xc0) == 0xc0, 0);
}
END_TEST

static Suite *echo_suite(void)
{
	Suite *s = suite_create("echo");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_short_kept);
	tcase_add_test(tc, test_control_escaped);
	tcase_add_test(tc, test_long_cut);
	tcase_add_test(tc, test_utf8_not_split);
	tcase_add_test(tc, test_small_buffer);
	tcase_add_test(tc, test_rule_message);
	tcase_add_test(tc, test_cut_message_says_so);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(echo_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
