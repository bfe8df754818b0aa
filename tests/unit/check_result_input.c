/* Result records read back from files (compare, history --add): the one
 * check of their content (result_check.h), the one rule for "started", and
 * the escaping of their text for a terminal (term_esc.h). */
#include "html.h"
#include "result_check.h"
#include "term_esc.h"

#include <check.h>
#include <errno.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A whole record as the writer makes it: one phase, two samples. */
static const char good[] =
    "{\"schema\": \"cephbench-result/1\", \"tool\": {\"name\": \"cephbench\", \"version\": "
    "\"0.1.0\"}, \"cluster\": {\"fsid\": \"00000000-0000-0000-0000-000000000000\", "
    "\"ceph_version\": \"16.2.15\"}, \"host\": \"h\", \"started\": \"2026-11-30T12:00:00Z\", "
    "\"run_name\": \"nightly\", \"profile\": {\"name\": \"health\", \"sha256\": "
    "\"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\"}, "
    "\"interrupted\": false, \"phases\": [{\"name\": \"w.prefill\", \"workload\": \"w\", "
    "\"step\": \"prefill\", \"matrix\": {\"pool\": \"ssd\"}, \"layer\": \"rados\", \"op\": "
    "\"write\", \"pool\": \"bench\", \"block_size\": 4096, \"concurrency\": 16, \"clients\": 1, "
    "\"duration_s\": 2.5, \"ops\": 100, \"bytes\": 409600, \"read_ops\": 0, \"read_bytes\": 0, "
    "\"write_ops\": 100, \"write_bytes\": 409600, \"iops\": 40.0, \"bw_bytes_per_s\": 163840.0, "
    "\"errors\": 0, \"interrupted\": false, \"failed\": false, \"latency_us\": {\"min\": 10, "
    "\"mean\": 20.5, \"max\": 90, \"stddev\": 3.0, \"p50\": 20, \"p90\": 30, \"p99\": 80, "
    "\"p99.9\": 90, \"p99.99\": 90}, \"histogram\": {\"layout\": \"log-linear\", "
    "\"sub_bucket_bits\": 10, \"max_exponent\": 43, \"count\": 100, \"buckets\": [[1000, "
    "100]]}, \"iterations\": {\"iops\": [40.0, "
    "41]}, \"samples\": [{\"t\": 0, \"ops\": 50, \"bytes\": 204800, \"lat_mean_us\": 20.1, "
    "\"lat_max_us\": 90}, {\"t\": 1, \"ops\": 50, \"bytes\": 204800, \"lat_mean_us\": 21, "
    "\"lat_max_us\": 80}]}]}";

static json_t *record(void)
{
	json_error_t je;
	json_t *r = json_loads(good, 0, &je);
	ck_assert_msg(r != NULL, "the test's record: %s", je.text);
	return r;
}

static json_t *phase0(json_t *rec)
{
	return json_array_get(json_object_get(rec, "phases"), 0);
}

/* rec is refused with one message that starts with "r.json: " + want
 * (and, unless NULL, holds shown); rec is released. */
static void refused(json_t *rec, const char *want, const char *shown)
{
	struct cb_err e = {0};
	char prefix[256];
	ck_assert_int_eq(cb_result_check(rec, "r.json", &e), -EINVAL);
	ck_assert_int_eq(e.exit, CB_EXIT_USAGE);
	snprintf(prefix, sizeof(prefix), "r.json: %s", want);
	ck_assert_msg(strncmp(e.msg, prefix, strlen(prefix)) == 0, "message: %s", e.msg);
	if (shown)
		ck_assert_msg(strstr(e.msg, shown) != NULL, "message: %s", e.msg);
	/* one line, no byte a terminal would act on */
	for (const char *c = e.msg; *c; c++)
		ck_assert_msg((unsigned char)*c >= 0x20 && *c != 0x7f, "control byte in %s", e.msg);
	ck_assert_uint_lt(strlen(e.msg), 400);
	json_decref(rec);
}

/* rec passes; rec is released. */
static void accepted(json_t *rec)
{
	struct cb_err e = {0};
	ck_assert_msg(cb_result_check(rec, "r.json", &e) == 0, "refused: %s", e.msg);
	ck_assert(!cb_err_isset(&e));
	json_decref(rec);
}

START_TEST(whole_record_passes)
{
	accepted(record());
	/* the optional keys may be absent */
	json_t *rec = record();
	json_t *p = phase0(rec);
	json_object_del(p, "workload");
	json_object_del(p, "step");
	json_object_del(p, "matrix");
	json_object_del(p, "iterations");
	json_object_set_new(p, "name", json_string("w"));
	accepted(rec);
}
END_TEST

/* The names: ESC, BEL, newline, a CSI sequence, 100,000 characters;
 * and the other names under the same rules. */
START_TEST(hostile_names)
{
	static const char *const names[] = {"w\x1b[2J",
					    "w\a",
					    "w\nx",
					    "w\x1b]0;PWNED\a",
					    "w\xc2\x9b"
					    "2J",
					    "w x",
					    "w/x",
					    "",
					    "w.prefill.x",
					    "w..x"};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		json_t *rec = record();
		json_object_set_new(phase0(rec), "name", json_string(names[i]));
		refused(rec, "phases[0].name: expected a phase name", NULL);
	}
	char *big = malloc(100001);
	memset(big, 'x', 100000);
	big[100000] = '\0';
	json_t *rec = record();
	json_object_set_new(phase0(rec), "name", json_string(big));
	refused(rec, "phases[0].name: expected a phase name", "xxx...'");
	/* 65 characters: one past the rule */
	big[65] = '\0';
	rec = record();
	json_object_set_new(phase0(rec), "name", json_string(big));
	refused(rec, "phases[0].name: ", NULL);
	big[64] = '\0';
	rec = record();
	json_object_set_new(phase0(rec), "name", json_string(big));
	accepted(rec);
	free(big);

	/* the other names and texts; the culprit is shown escaped */
	static const struct {
		const char *in, *key, *value, *want, *shown;
	} texts[] = {
	    {NULL, "run_name", "r\x1b[2J", "run_name: expected a name", "got 'r\\x1b[2J'"},
	    {"profile", "name", "p\a", "profile.name: expected a name", "'p\\x07'"},
	    {"phase", "workload", "w\n", "phases[0].workload: expected a name", NULL},
	    {"phase", "step", "x\x1b", "phases[0].step: ", NULL},
	    {"phase", "layer", "rados\x1b[31m", "phases[0].layer: ", NULL},
	    {"phase", "pool", "bench\x1b[2J",
	     "phases[0].pool: expected 1-255 characters, no control characters", NULL},
	    {"phase", "pool", "", "phases[0].pool: ", NULL},
	    {NULL, "host", "h\x7f", "host: expected at most 255 characters", "'h\\x7f'"},
	    {"cluster", "fsid", "f\r", "cluster.fsid: ", NULL},
	    {"profile", "sha256", "ab", "profile.sha256: expected a sha256", NULL},
	};
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		rec = record();
		json_t *o = !texts[i].in			? rec
			    : strcmp(texts[i].in, "phase") == 0 ? phase0(rec)
								: json_object_get(rec, texts[i].in);
		json_object_set_new(o, texts[i].key, json_string(texts[i].value));
		refused(rec, texts[i].want, texts[i].shown);
	}
	rec = record();
	json_object_set_new(phase0(rec), "op", json_integer(3));
	refused(rec, "phases[0].op: expected a name", "got 3");
	rec = record();
	json_object_set_new(json_object_get(phase0(rec), "matrix"), "pool",
			    json_string("ssd\x1b[2J"));
	refused(rec, "phases[0].matrix.pool: ", NULL);
	rec = record();
	json_object_set_new(json_object_get(phase0(rec), "matrix"), "k\x1b", json_string("v"));
	refused(rec, "phases[0].matrix: ", "'k\\x1b'");
	/* a matrix value may be a device path, past the 255 of a pool name */
	char path[4097];
	memset(path, 'd', sizeof(path) - 1);
	path[0] = '/';
	path[4095] = '\0';
	rec = record();
	json_object_set_new(json_object_get(phase0(rec), "matrix"), "device", json_string(path));
	accepted(rec);
	path[4095] = 'd';
	path[4096] = '\0';
	rec = record();
	json_object_set_new(json_object_get(phase0(rec), "matrix"), "device", json_string(path));
	refused(rec, "phases[0].matrix.device: expected at most 4095 characters", NULL);
}
END_TEST

/* Negative, huge, non-integer and missing figures; the bounds themselves
 * pass. */
START_TEST(figures)
{
	static const struct {
		const char *parent, *key;
		double v;
		bool integer;
		const char *want;
	} bad[] = {
	    {NULL, "ops", -5, true,
	     "phases[0].ops: expected a count (a whole number from 0), got -5"},
	    {NULL, "ops", 1e308, false, "phases[0].ops: expected a count"},
	    {NULL, "ops", 2.5, false, "phases[0].ops: expected a count"},
	    {NULL, "bytes", -1, true, "phases[0].bytes: "},
	    {NULL, "errors", -1, true, "phases[0].errors: "},
	    {NULL, "clients", -1, true, "phases[0].clients: "},
	    {NULL, "duration_s", -0.5, false,
	     "phases[0].duration_s: expected seconds from 0 to 1e+09, got -0.5"},
	    {NULL, "duration_s", 1e10, false, "phases[0].duration_s: "},
	    {NULL, "iops", 1e308, false,
	     "phases[0].iops: expected a rate from 0 to 1e+18, got 1e+308"},
	    {NULL, "iops", -1e308, false, "phases[0].iops: "},
	    {NULL, "bw_bytes_per_s", 1.5e18, false, "phases[0].bw_bytes_per_s: "},
	    {"latency_us", "mean", -1, false, "phases[0].latency_us.mean: expected microseconds"},
	    {"latency_us", "p99", 1e13, false, "phases[0].latency_us.p99: "},
	    {"latency_us", "p99.9", -2, true, "phases[0].latency_us.p99.9: "},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		json_t *rec = record();
		json_t *o = phase0(rec);
		if (bad[i].parent)
			o = json_object_get(o, bad[i].parent);
		json_object_set_new(o, bad[i].key,
				    bad[i].integer ? json_integer((json_int_t)bad[i].v)
						   : json_real(bad[i].v));
		refused(rec, bad[i].want, NULL);
	}
	/* in a sample, in a repeat */
	json_t *rec = record();
	json_t *s = json_array_get(json_object_get(phase0(rec), "samples"), 1);
	json_object_set_new(s, "ops", json_integer(-3));
	refused(rec, "phases[0].samples[1].ops: expected a count", NULL);
	rec = record();
	s = json_array_get(json_object_get(phase0(rec), "samples"), 0);
	json_object_set_new(s, "lat_mean_us", json_real(1e308));
	refused(rec, "phases[0].samples[0].lat_mean_us: ", NULL);
	rec = record();
	json_array_set_new(json_object_get(phase0(rec), "samples"), 0, json_string("x"));
	refused(rec, "phases[0].samples[0]: expected an object, got 'x'", NULL);
	rec = record();
	json_t *reps = json_object_get(json_object_get(phase0(rec), "iterations"), "iops");
	json_array_set_new(reps, 1, json_real(-1));
	refused(rec, "phases[0].iterations.iops[1]: expected a rate", NULL);
	rec = record();
	json_object_del(json_object_get(phase0(rec), "iterations"), "iops");
	refused(rec, "phases[0].iterations.iops: expected an array, got nothing", NULL);
	/* missing and mistyped keys */
	rec = record();
	json_object_del(phase0(rec), "samples");
	refused(rec, "phases[0].samples: expected an array, got nothing", NULL);
	rec = record();
	json_object_set_new(phase0(rec), "failed", json_integer(0));
	refused(rec, "phases[0].failed: expected true or false, got 0", NULL);
	rec = record();
	json_object_set_new(phase0(rec), "latency_us", json_null());
	refused(rec, "phases[0].latency_us: expected an object, got null", NULL);
	rec = record();
	json_array_set_new(json_object_get(rec, "phases"), 0, json_integer(1));
	refused(rec, "phases[0]: expected an object, got 1", NULL);
	/* the bounds pass */
	rec = record();
	json_object_set_new(phase0(rec), "iops", json_real(CB_RESULT_MAX_RATE));
	json_object_set_new(phase0(rec), "duration_s", json_real(CB_RESULT_MAX_SECONDS));
	json_object_set_new(phase0(rec), "ops", json_integer(0));
	json_object_set_new(phase0(rec), "write_ops", json_integer(0));
	json_object_set_new(phase0(rec), "histogram",
			    json_pack("{s:s,s:i,s:i,s:i,s:[]}", "layout", "log-linear",
				      "sub_bucket_bits", 10, "max_exponent", 43, "count", 0,
				      "buckets"));
	accepted(rec);
}
END_TEST

static json_t *hist_of(int bits, int count, int idx, int n)
{
	return json_pack("{s:s,s:i,s:i,s:i,s:[[i,i]]}", "layout", "log-linear", "sub_bucket_bits",
			 bits, "max_exponent", 43, "count", count, "buckets", idx, n);
}

/* Issue 41: report and compare took histograms merge refuses; the check
 * they share now rebuilds each phase as merge does. */
START_TEST(histograms)
{
	json_t *rec = record();
	json_object_set_new(phase0(rec), "histogram", hist_of(10, 101, 1000, 100));
	refused(rec, "phases[0] histogram: the buckets hold 100 values, its count says 101", NULL);
	rec = record();
	json_object_set_new(phase0(rec), "histogram", hist_of(10, 100, 99999, 100));
	refused(rec, "phases[0] histogram: buckets[0]: expected [index below", NULL);
	rec = record();
	json_object_set_new(phase0(rec), "histogram", hist_of(7, 100, 1000, 100));
	refused(rec, "phases[0] histogram: sub_bucket_bits 7", NULL);
	rec = record();
	json_object_set_new(phase0(rec), "histogram", hist_of(10, 99, 1000, 99));
	refused(rec, "phases[0]: the histogram holds 99 ops, the row 100", NULL);
	rec = record();
	json_object_set_new(phase0(rec), "histogram", json_object());
	refused(rec, "phases[0] histogram: expected a log-linear histogram with buckets", NULL);
	/* control: the same record with its own histogram passes */
	accepted(record());
}
END_TEST

START_TEST(started)
{
	static const char *const bad[] = {"9999-99-99",
					  "2026-13-01T00:00:00Z",
					  "2026-00-10T00:00:00Z",
					  "2026-02-30T00:00:00Z",
					  "2026-04-31T00:00:00Z",
					  "2025-02-29T00:00:00Z",
					  "2026-01-01T24:00:00Z",
					  "2026-01-01T00:60:00Z",
					  "2026-01-01T00:00:60Z",
					  "1969-12-31T23:59:59Z",
					  "2026-1-01T00:00:00Z",
					  " 2026-01-01T00:00:00Z",
					  "2026-01-01T00:00:00Z ",
					  "2026-01-01T00:00:00",
					  "2026-01-01 00:00:00Z",
					  "+026-01-01T00:00:00Z",
					  "yesterday",
					  ""};
	time_t t = 12345;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(cb_result_time(bad[i], &t) == -EINVAL, "'%s' taken", bad[i]);
		ck_assert_int_eq(t, 12345);
	}
	ck_assert_int_eq(cb_result_time("2026-11-30T12:00:00Z", &t), 0);
	ck_assert_int_eq(t, 1796040000);
	ck_assert_int_eq(cb_result_time("1970-01-01T00:00:00Z", &t), 0);
	ck_assert_int_eq(t, 0);
	ck_assert_int_eq(cb_result_time("2024-02-29T23:59:59Z", &t), 0);
	ck_assert_int_eq(cb_result_time("9999-12-31T23:59:59Z", &t), 0);
	/* in a record, the same rule */
	json_t *rec = record();
	json_object_set_new(rec, "started", json_string("2026-13-01T00:00:00Z"));
	refused(rec, "started: expected a real UTC time", "'2026-13-01T00:00:00Z'");
	rec = record();
	json_object_set_new(rec, "started", json_string("9999-99-99"));
	refused(rec, "started: ", NULL);
}
END_TEST

/* What fputs/fpad writes for s, as a string. */
static char *esc_out(const char *s, size_t width, size_t *shown)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(f);
	*shown = cb_esc_fputs(f, s, width);
	fclose(f);
	return buf;
}

static char *csv_out(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(f);
	cb_esc_csv(f, s);
	fclose(f);
	return buf;
}

START_TEST(escaping)
{
	static const struct {
		const char *in, *out;
		size_t shown;
	} cases[] = {
	    {"plain-name_1", "plain-name_1", 12},
	    {"\x1b[2J", "\\x1b[2J", 7},
	    {"a\ab", "a\\x07b", 6},
	    {"a\nb\rc\td", "a\\x0ab\\x0dc\\x09d", 16},
	    {"\x7f", "\\x7f", 4},
	    {"back\\slash", "back\\\\slash", 11},
	    {"caf\xc3\xa9", "caf\xc3\xa9", 4}, /* UTF-8 kept, one column */
	    {"\xe2\x82\xac\xf0\x9f\x98\x80", "\xe2\x82\xac\xf0\x9f\x98\x80", 2},
	    {"\xc2\x9b"
	     "2J",
	     "\\u009b2J", 8},				      /* C1 CSI */
	    {"\xc2\x85", "\\u0085", 6},			      /* C1 NEL */
	    {"\xc2\xa0", "\xc2\xa0", 1},		      /* U+00A0 is no control */
	    {"\x9b", "\\x9b", 4},			      /* a lone byte, not UTF-8 */
	    {"\xc3", "\\xc3", 4},			      /* cut short */
	    {"\xc0\xaf", "\\xc0\\xaf", 8},		      /* overlong */
	    {"\xed\xa0\x80", "\\xed\\xa0\\x80", 12},	      /* a surrogate */
	    {"\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80", 16}, /* past U+10FFFF */
	    {"", "", 0},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t shown;
		char *out = esc_out(cases[i].in, 0, &shown);
		ck_assert_str_eq(out, cases[i].out);
		ck_assert_uint_eq(shown, cases[i].shown);
		free(out);
		char buf[64];
		ck_assert_str_eq(cb_esc_str(cases[i].in, buf, sizeof(buf)), cases[i].out);
	}
	size_t shown;
	char *out = esc_out("ab", 5, &shown);
	ck_assert_str_eq(out, "ab   ");
	free(out);
	out = esc_out("\x1b", 6, &shown);
	ck_assert_str_eq(out, "\\x1b  ");
	free(out);
	out = esc_out(NULL, 2, &shown);
	ck_assert_str_eq(out, "  ");
	free(out);

	/* cut to fit, never inside an escape or a character */
	char buf[12];
	ck_assert_str_eq(cb_esc_str("abcdefghijklmnop", buf, sizeof(buf)), "abcdefgh...");
	ck_assert_str_eq(cb_esc_str("abcdefg\x1bxyz", buf, sizeof(buf)), "abcdefg...");
	ck_assert_str_eq(cb_esc_str("abcdef\xc3\xa9\xc3\xa9xx", buf, sizeof(buf)),
			 "abcdef\xc3\xa9...");
	ck_assert_str_eq(cb_esc_str("abcdefghijk", buf, sizeof(buf)), "abcdefghijk");
	char tiny[3];
	ck_assert_str_eq(cb_esc_str("abcdef", tiny, sizeof(tiny)), "..");

	/* CSV: RFC 4180 quoting of what is left after escaping */
	static const struct {
		const char *in, *out;
	} csv[] = {
	    {"plain", "plain"},
	    {"a,b", "\"a,b\""},
	    {"say \"hi\"", "\"say \"\"hi\"\"\""},
	    {"two\nlines", "two\\x0alines"},
	    {"\x1b]0;T\a,\"x\"", "\"\\x1b]0;T\\x07,\"\"x\"\"\""},
	    {"", ""},
	    /* formulas to a spreadsheet: a quote first, and quoted (OWASP) */
	    {"=HYPERLINK(\"http://x\")", "\"'=HYPERLINK(\"\"http://x\"\")\""},
	    {"+cmd|' /C calc'!A0", "\"'+cmd|' /C calc'!A0\""},
	    {"-2+3", "\"'-2+3\""},
	    {"@SUM(1+1)", "\"'@SUM(1+1)\""},
	    {"\tx", "\"'\\x09x\""},
	    {"\rx", "\"'\\x0dx\""},
	    /* only at the start */
	    {"a=1+2", "a=1+2"},
	    {"'quoted", "'quoted"},
	};
	for (size_t i = 0; i < sizeof(csv) / sizeof(csv[0]); i++) {
		char *c = csv_out(csv[i].in);
		ck_assert_str_eq(c, csv[i].out);
		free(c);
	}
}
END_TEST

/* What cb_html_put_json writes for the JSON text of v. */
static char *page_json(const json_t *v)
{
	char *text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY), *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(text);
	ck_assert_ptr_nonnull(f);
	cb_html_put_json(f, text);
	fclose(f);
	free(text);
	return buf;
}

START_TEST(html_json)
{
	static const char *const hostile[] = {
	    "<!--<script>",
	    "</script><script>window.__pwn=1</script>",
	    "a & b &amp; -->",
	    "line\xe2\x80\xa8sep\xe2\x80\xa9para",
	    "caf\xc3\xa9 \xe2\x80\xa7 \\< \"<\"",
	};
	for (size_t i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++) {
		json_t *v = json_pack("{s:s, s:[s]}", hostile[i], hostile[i], "k", hostile[i]);
		char *out = page_json(v);
		/* nothing a <script> element's parser acts on is left */
		ck_assert_msg(!strpbrk(out, "<>&"), "%s", out);
		ck_assert_ptr_null(strstr(out, "\xe2\x80\xa8"));
		ck_assert_ptr_null(strstr(out, "\xe2\x80\xa9"));
		/* and it reads back as the same value, keys too */
		json_error_t err;
		json_t *back = json_loads(out, 0, &err);
		ck_assert_msg(back && json_equal(back, v), "%s: %s", out, err.text);
		json_decref(back);
		json_decref(v);
		free(out);
	}
	/* other UTF-8 (U+2027 beside U+2028) is kept as it is */
	json_t *s = json_string("\xe2\x80\xa7");
	char *out = page_json(s);
	ck_assert_str_eq(out, "\"\xe2\x80\xa7\"");
	free(out);
	json_decref(s);
	/* the negative control: jansson's own escaping leaves "<!--<script>" */
	s = json_string("<!--<script>");
	char *raw = json_dumps(s, JSON_ENCODE_ANY | JSON_ESCAPE_SLASH);
	ck_assert_ptr_nonnull(strstr(raw, "<!--<script>"));
	free(raw);
	json_decref(s);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("result_input");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, whole_record_passes);
	tcase_add_test(tc, hostile_names);
	tcase_add_test(tc, figures);
	tcase_add_test(tc, started);
	tcase_add_test(tc, escaping);
	tcase_add_test(tc, histograms);
	tcase_add_test(tc, html_json);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
