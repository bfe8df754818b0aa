/* Table-driven tests for size/duration/integer parsing and for printing them
 * back: every accepted spelling, every rejected one with its errno, and
 * format -> parse round trips. */
#include "units.h"

#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define KiB (1ULL << 10)
#define MiB (1ULL << 20)
#define GiB (1ULL << 30)
#define TiB (1ULL << 40)
#define SEC 1000000000ULL

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct good {
	const char *in;
	uint64_t want;
};

struct bad {
	const char *in;
	int err;
};

static const struct good good_sizes[] = {
    {"0", 0},
    {"1", 1},
    {"4096", 4096},
    {"007", 7},
    {"512B", 512},
    {"512b", 512},
    {"4K", 4 * KiB},
    {"4k", 4 * KiB},
    {"4KiB", 4 * KiB},
    {"4KB", 4 * KiB},
    {"4kb", 4 * KiB},
    {"4kib", 4 * KiB},
    {"64K", 65536},
    {"1536K", 1536 * KiB},
    {"1M", MiB},
    {"1MiB", MiB},
    {"2G", 2 * GiB},
    {"2g", 2 * GiB},
    {"2GB", 2 * GiB},
    {"1T", TiB},
    {"1TiB", TiB},
    {"0K", 0},
    {"16777215T", 16777215 * TiB},
    {"18446744073709551615", UINT64_MAX},
    {"18446744073709551615B", UINT64_MAX},
};

static const struct bad bad_sizes[] = {
    {"", -EINVAL},
    {"-1", -EINVAL},
    {"+1", -EINVAL},
    {" 1", -EINVAL},
    {"1 ", -EINVAL},
    {"4 K", -EINVAL},
    {"1.5K", -EINVAL},
    {"K", -EINVAL},
    {"KiB", -EINVAL},
    {"4X", -EINVAL},
    {"4P", -EINVAL},
    {"4Ki", -EINVAL},
    {"4KiBx", -EINVAL},
    {"4KBB", -EINVAL},
    {"4iB", -EINVAL},
    {"4BB", -EINVAL},
    {"4KK", -EINVAL},
    {"0x10", -EINVAL},
    {"1e3", -EINVAL},
    {"99999999999999999999x", -EINVAL},
    {"18446744073709551616", -ERANGE},
    {"99999999999999999999", -ERANGE},
    {"16777216T", -ERANGE},
    {"17179869184G", -ERANGE},
    {"18014398509481984K", -ERANGE},
};

static const struct good good_durations[] = {
    {"0", 0},
    {"10", 10 * SEC},
    {"10s", 10 * SEC},
    {"250ms", 250000000},
    {"1us", 1000},
    {"1ns", 1},
    {"2m", 120 * SEC},
    {"1h", 3600 * SEC},
    {"0ms", 0},
    {"18446744073", 18446744073 * SEC},
    {"18446744073709551615ns", UINT64_MAX},
    {"5124095h", 5124095ULL * 3600 * SEC},
};

static const struct bad bad_durations[] = {
    {"", -EINVAL},
    {"s", -EINVAL},
    {"-1s", -EINVAL},
    {"+1s", -EINVAL},
    {" 1s", -EINVAL},
    {"1 s", -EINVAL},
    {"1s ", -EINVAL},
    {"1.5s", -EINVAL},
    {"1S", -EINVAL},
    {"1MS", -EINVAL},
    {"1M", -EINVAL},
    {"1sec", -EINVAL},
    {"1min", -EINVAL},
    {"1d", -EINVAL},
    {"1hs", -EINVAL},
    {"1msx", -EINVAL},
    {"10ss", -EINVAL},
    {"18446744074", -ERANGE},
    {"18446744074s", -ERANGE},
    {"5124096h", -ERANGE},
    {"18446744073709551616ns", -ERANGE},
};

static const struct good good_uints[] = {
    {"0", 0}, {"1", 1}, {"42", 42}, {"000", 0}, {"18446744073709551615", UINT64_MAX},
};

static const struct bad bad_uints[] = {
    {"", -EINVAL},
    {"-1", -EINVAL},
    {"+1", -EINVAL},
    {" 1", -EINVAL},
    {"1 ", -EINVAL},
    {"1K", -EINVAL},
    {"1.0", -EINVAL},
    {"0x1", -EINVAL},
    {"18446744073709551616", -ERANGE},
    {"184467440737095516150", -ERANGE},
};

typedef int (*parse_fn)(const char *, uint64_t *);

static void run_good(parse_fn fn, const struct good *t, size_t n, const char *what)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t v = 0xdeadbeef;
		int r = fn(t[i].in, &v);

		ck_assert_msg(r == 0, "%s(\"%s\") = %d, want 0", what, t[i].in, r);
		ck_assert_msg(v == t[i].want, "%s(\"%s\") -> %llu, want %llu", what, t[i].in,
			      (unsigned long long)v, (unsigned long long)t[i].want);
	}
}

/* A failed parse must also leave *out alone. */
static void run_bad(parse_fn fn, const struct bad *t, size_t n, const char *what)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t v = 0xdeadbeef;
		int r = fn(t[i].in, &v);

		ck_assert_msg(r == t[i].err, "%s(\"%s\") = %d, want %d", what, t[i].in, r,
			      t[i].err);
		ck_assert_msg(v == 0xdeadbeef, "%s(\"%s\") wrote *out on failure", what, t[i].in);
	}
	ck_assert_int_eq(fn(NULL, &(uint64_t){0}), -EINVAL);
}

START_TEST(test_size)
{
	run_good(cb_parse_size, good_sizes, ARRAY_SIZE(good_sizes), "cb_parse_size");
	run_bad(cb_parse_size, bad_sizes, ARRAY_SIZE(bad_sizes), "cb_parse_size");
}
END_TEST

START_TEST(test_duration)
{
	run_good(cb_parse_duration, good_durations, ARRAY_SIZE(good_durations),
		 "cb_parse_duration");
	run_bad(cb_parse_duration, bad_durations, ARRAY_SIZE(bad_durations), "cb_parse_duration");
}
END_TEST

START_TEST(test_uint)
{
	run_good(cb_parse_uint, good_uints, ARRAY_SIZE(good_uints), "cb_parse_uint");
	run_bad(cb_parse_uint, bad_uints, ARRAY_SIZE(bad_uints), "cb_parse_uint");
}
END_TEST

static const struct {
	uint64_t v;
	const char *want;
} size_fmt[] = {
    {0, "0"},
    {1, "1"},
    {100, "100"},
    {1023, "1023"},
    {1024, "1K"},
    {1025, "1025"},
    {4096, "4K"},
    {1536 * KiB, "1536K"},
    {4 * MiB, "4M"},
    {3 * GiB, "3G"},
    {GiB + MiB, "1025M"},
    {TiB, "1T"},
    {1024 * TiB, "1024T"},
    {UINT64_MAX, "18446744073709551615"},
    {UINT64_MAX - (KiB - 1), "18014398509481983K"},
};

static const struct {
	uint64_t v;
	const char *want;
} dur_fmt[] = {
    {0, "0s"},		{1, "1ns"},	      {999, "999ns"},	      {1000, "1us"},
    {1500, "1.5us"},	{250000000, "250ms"}, {999999999, "1s"},      {999999, "999.999us"},
    {1000000000, "1s"}, {1500000000, "1.5s"}, {1234567891, "1.235s"}, {1001000000, "1.001s"},
    {10 * SEC, "10s"},	{59 * SEC, "59s"},    {60 * SEC, "1m"},	      {90 * SEC, "90s"},
    {300 * SEC, "5m"},	{3600 * SEC, "1h"},   {5400 * SEC, "90m"},    {86400 * SEC, "24h"},
};

START_TEST(test_format_size)
{
	char buf[32];

	for (size_t i = 0; i < ARRAY_SIZE(size_fmt); i++) {
		uint64_t back = 0;

		ck_assert_ptr_eq(cb_format_size(size_fmt[i].v, buf, sizeof(buf)), buf);
		ck_assert_str_eq(buf, size_fmt[i].want);
		ck_assert_int_eq(cb_parse_size(buf, &back), 0);
		ck_assert_uint_eq(back, size_fmt[i].v);
	}
	/* Truncates rather than overflowing a short buffer. */
	ck_assert_str_eq(cb_format_size(1536 * KiB, buf, 3), "15");
}
END_TEST

START_TEST(test_format_duration)
{
	char buf[32];

	for (size_t i = 0; i < ARRAY_SIZE(dur_fmt); i++) {
		uint64_t back = 0;

		ck_assert_ptr_eq(cb_format_duration(dur_fmt[i].v, buf, sizeof(buf)), buf);
		ck_assert_str_eq(buf, dur_fmt[i].want);
		/* Whole-unit output parses back; decimals (and 999999999 rounded
		 * up to "1s") are for display only. */
		if (!strchr(buf, '.') && dur_fmt[i].v != 999999999) {
			ck_assert_int_eq(cb_parse_duration(buf, &back), 0);
			ck_assert_uint_eq(back, dur_fmt[i].v);
		}
	}
	ck_assert_str_eq(cb_format_duration(1500000000, buf, 3), "1.");
}
END_TEST

/* Sweep: every exactly-formatted value parses back to itself. */
START_TEST(test_round_trip)
{
	char buf[32];
	uint64_t s = 0x12345678, back;

	for (int i = 0; i < 100000; i++) {
		uint64_t v;

		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		v = s >> (s % 64);
		/* Sizes: always lossless. */
		cb_format_size(v, buf, sizeof(buf));
		ck_assert_int_eq(cb_parse_size(buf, &back), 0);
		ck_assert_uint_eq(back, v);
		/* Durations: whole units of s/ms/us/ns print without decimals. */
		v = (v >> 20) * 1000000;
		cb_format_duration(v, buf, sizeof(buf));
		if (!strchr(buf, '.')) {
			ck_assert_int_eq(cb_parse_duration(buf, &back), 0);
			ck_assert_uint_eq(back, v);
		}
	}
	for (uint64_t sec = 0; sec < 100000; sec += 7) {
		cb_format_duration(sec * SEC, buf, sizeof(buf));
		ck_assert_int_eq(cb_parse_duration(buf, &back), 0);
		ck_assert_uint_eq(back, sec * SEC);
	}
}
END_TEST

static Suite *units_suite(void)
{
	Suite *s = suite_create("units");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_size);
	tcase_add_test(tc, test_duration);
	tcase_add_test(tc, test_uint);
	tcase_add_test(tc, test_format_size);
	tcase_add_test(tc, test_format_duration);
	tcase_add_test(tc, test_round_trip);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(units_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
