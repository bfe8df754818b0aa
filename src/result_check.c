/* Checking a result record read back from a file (result_check.h): one
 * table of what each key must be, for compare and history --add alike. */
#include "result_check.h"
#include "options.h"
#include "result_rebuild.h"
#include "term_esc.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

enum kind {
	K_NAME,	   /* a run, profile, workload, layer or op name: cb_name_valid */
	K_ROW,	   /* a phase: NAME or NAME.STEP */
	K_TARGET,  /* a pool, file system or device: cb_ceph_name_rule */
	K_TEXT,	   /* host, versions, fsid: at most 255, no controls */
	K_VALUE,   /* a matrix value, as a profile gave it (a path, too): at most 4095 */
	K_SHA256,  /* 64 lowercase hex digits */
	K_TIME,	   /* cb_result_time */
	K_COUNT,   /* an integer from 0 */
	K_SECONDS, /* a number from 0 to CB_RESULT_MAX_SECONDS */
	K_US,	   /* from 0 to CB_RESULT_MAX_US */
	K_RATE,	   /* from 0 to CB_RESULT_MAX_RATE */
	K_BOOL,
	K_OBJECT,
	K_ARRAY,
};

struct field {
	const char *parent; /* the object key holds in, NULL: the one checked */
	const char *key;
	enum kind kind;
	bool optional; /* checked only when present (with a parent: when the parent is) */
};

static const struct field run_fields[] = {
    {"tool", "version", K_TEXT, false},
    {"cluster", "fsid", K_TEXT, false},
    {"cluster", "ceph_version", K_TEXT, false},
    {NULL, "host", K_TEXT, false},
    {NULL, "started", K_TIME, false},
    {NULL, "run_name", K_NAME, false},
    {"profile", "name", K_NAME, false},
    {"profile", "sha256", K_SHA256, false},
    {NULL, "interrupted", K_BOOL, false},
    {NULL, "phases", K_ARRAY, false},
    {NULL, NULL, K_BOOL, false},
};

static const struct field phase_fields[] = {
    {NULL, "name", K_ROW, false},	   {NULL, "workload", K_NAME, true},
    {NULL, "step", K_NAME, true},	   {NULL, "layer", K_NAME, false},
    {NULL, "op", K_NAME, false},	   {NULL, "pool", K_TARGET, false},
    {NULL, "block_size", K_COUNT, false},  {NULL, "concurrency", K_COUNT, false},
    {NULL, "clients", K_COUNT, false},	   {NULL, "duration_s", K_SECONDS, false},
    {NULL, "ops", K_COUNT, false},	   {NULL, "bytes", K_COUNT, false},
    {NULL, "read_ops", K_COUNT, false},	   {NULL, "read_bytes", K_COUNT, false},
    {NULL, "write_ops", K_COUNT, false},   {NULL, "write_bytes", K_COUNT, false},
    {NULL, "iops", K_RATE, false},	   {NULL, "bw_bytes_per_s", K_RATE, false},
    {NULL, "errors", K_COUNT, false},	   {NULL, "interrupted", K_BOOL, false},
    {NULL, "failed", K_BOOL, false},	   {"latency_us", "min", K_US, false},
    {"latency_us", "mean", K_US, false},   {"latency_us", "max", K_US, false},
    {"latency_us", "stddev", K_US, false}, {"latency_us", "p50", K_US, false},
    {"latency_us", "p90", K_US, false},	   {"latency_us", "p99", K_US, false},
    {"latency_us", "p99.9", K_US, false},  {"latency_us", "p99.99", K_US, false},
    {NULL, "histogram", K_OBJECT, false},  {NULL, "samples", K_ARRAY, false},
    {NULL, "matrix", K_OBJECT, true},	   {NULL, "iterations", K_OBJECT, true},
    {"iterations", "iops", K_ARRAY, true}, {NULL, "sizes", K_OBJECT, true},
    {"sizes", "asked", K_TEXT, true},	   {"sizes", "mean", K_RATE, true},
    {NULL, NULL, K_BOOL, false},
};

static const struct field sample_fields[] = {
    {NULL, "t", K_COUNT, false},       {NULL, "ops", K_COUNT, false},
    {NULL, "bytes", K_COUNT, false},   {NULL, "lat_mean_us", K_US, false},
    {NULL, "lat_max_us", K_US, false}, {NULL, NULL, K_BOOL, false},
};

struct ctx {
	const char *path;
	char at[96]; /* where the object checked is: "", "phases[3].", ... */
	struct cb_err *e;
};

static const char *const expected[] = {
    [K_NAME] = "a name (1-64 letters, digits, '_' or '-')",
    /* one literal: clang's -Wstring-concatenation (the fuzz build) takes
     * two adjacent ones in an array for a missing comma */
    [K_ROW] = "a phase name (a workload name, 1-64 letters, digits, '_' or '-'; then .STEP)",
    [K_TARGET] = "1-255 characters, no control characters",
    [K_TEXT] = "at most 255 characters, no control characters",
    [K_VALUE] = "at most 4095 characters, no control characters",
    [K_SHA256] = "a sha256 (64 hex digits)",
    [K_TIME] = "a real UTC time YYYY-MM-DDTHH:MM:SSZ from 1970 to 9999",
    [K_COUNT] = "a count (a whole number from 0)",
    [K_SECONDS] = "seconds from 0 to 1e+09",
    [K_US] = "microseconds from 0 to 1e+12",
    [K_RATE] = "a rate from 0 to 1e+18",
    [K_BOOL] = "true or false",
    [K_OBJECT] = "an object",
    [K_ARRAY] = "an array",
};

/* What v is, for "expected X, got Y": its value when short, its type else. */
static const char *got(const json_t *v, char *buf, size_t n)
{
	char esc[48];
	switch (json_typeof(v)) {
	case JSON_STRING:
		snprintf(buf, n, "'%s'", cb_esc_str(json_string_value(v), esc, sizeof(esc)));
		return buf;
	case JSON_INTEGER:
		snprintf(buf, n, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		return buf;
	case JSON_REAL:
		snprintf(buf, n, "%.6g", json_real_value(v));
		return buf;
	case JSON_OBJECT:
		return "an object";
	case JSON_ARRAY:
		return "an array";
	case JSON_TRUE:
		return "true";
	case JSON_FALSE:
		return "false";
	default:
		return "null";
	}
}

static int bad(const struct ctx *c, const char *parent, const char *key, enum kind k,
	       const json_t *v)
{
	char g[80];
	return cb_err_usage(c->e, "%s: %s%s%s%s: expected %s, got %s", c->path, c->at,
			    parent ? parent : "", parent ? "." : "", key, expected[k],
			    v ? got(v, g, sizeof(g)) : "nothing");
}

static bool text_ok(const char *s)
{
	return strlen(s) <= 255 && (!*s || !cb_ceph_name_rule(s));
}

static bool row_ok(const char *s)
{
	char wl[65];
	size_t n = strcspn(s, ".");
	if (n >= sizeof(wl))
		return false;
	memcpy(wl, s, n);
	wl[n] = '\0';
	return cb_name_valid(wl) && (!s[n] || cb_name_valid(s + n + 1));
}

static bool sha256_ok(const char *s)
{
	return strlen(s) == 64 && strspn(s, "0123456789abcdef") == 64;
}

static bool number_ok(const json_t *v, double max)
{
	double x = json_number_value(v);
	return json_is_number(v) && isfinite(x) && x >= 0 && x <= max;
}

static bool value_ok(const json_t *v, enum kind k)
{
	const char *s = json_string_value(v);
	time_t t;
	switch (k) {
	case K_NAME:
		return s && cb_name_valid(s);
	case K_ROW:
		return s && row_ok(s);
	case K_TARGET:
		return s && !cb_ceph_name_rule(s);
	case K_TEXT:
		return s && text_ok(s);
	case K_VALUE:
		return s && (!*s || !cb_path_rule(s));
	case K_SHA256:
		return s && sha256_ok(s);
	case K_TIME:
		return s && cb_result_time(s, &t) == 0;
	case K_COUNT:
		return json_is_integer(v) && json_integer_value(v) >= 0;
	case K_SECONDS:
		return number_ok(v, CB_RESULT_MAX_SECONDS);
	case K_US:
		return number_ok(v, CB_RESULT_MAX_US);
	case K_RATE:
		return number_ok(v, CB_RESULT_MAX_RATE);
	case K_BOOL:
		return json_is_boolean(v);
	case K_OBJECT:
		return json_is_object(v);
	case K_ARRAY:
		return json_is_array(v);
	}
	return false;
}

static int check_fields(const struct ctx *c, const json_t *o, const struct field *f)
{
	for (; f->key; f++) {
		const json_t *in = o;
		if (f->parent) {
			in = json_object_get(o, f->parent);
			/* optional here: the parent may be absent, not the key */
			if (!in && f->optional)
				continue;
			if (!json_is_object(in))
				return bad(c, NULL, f->parent, K_OBJECT, in);
		}
		const json_t *v = json_object_get(in, f->key);
		if (!v && f->optional && !f->parent)
			continue;
		if (!value_ok(v, f->kind))
			return bad(c, f->parent, f->key, f->kind, v);
	}
	return 0;
}

/* Each item of the array a checked as kind (and, for an object, against
 * fields), named KEY[i]. */
static int check_items(const struct ctx *c, const json_t *a, const char *key, enum kind kind,
		       const struct field *fields)
{
	size_t i;
	const json_t *v;
	json_array_foreach(a, i, v)
	{
		char name[64];
		snprintf(name, sizeof(name), "%s[%zu]", key, i);
		if (!value_ok(v, kind))
			return bad(c, NULL, name, kind, v);
		if (fields) {
			struct ctx in = *c;
			/* phases[N]. and samples[N], each under 40 characters */
			snprintf(in.at, sizeof(in.at), "%.40s%.40s.", c->at, name);
			if (check_fields(&in, v, fields) < 0)
				return -EINVAL;
		}
	}
	return 0;
}

static int check_matrix(const struct ctx *c, const json_t *m)
{
	const char *k;
	const json_t *v;
	json_object_foreach((json_t *)m, k, v)
	{
		char name[96], esc[48];
		if (cb_ceph_name_rule(k)) {
			json_t *key = json_string(k);
			int r = bad(c, NULL, "matrix", K_TARGET, key);
			json_decref(key);
			return r;
		}
		snprintf(name, sizeof(name), "matrix.%s", cb_esc_str(k, esc, sizeof(esc)));
		if (!value_ok(v, K_VALUE))
			return bad(c, NULL, name, K_VALUE, v);
	}
	return 0;
}

static int check_phase(const struct ctx *run, size_t i, const json_t *p)
{
	struct ctx c = *run;
	snprintf(c.at, sizeof(c.at), "phases[%zu].", i);
	if (!json_is_object(p)) {
		snprintf(c.at, sizeof(c.at), "phases[%zu]", i);
		return bad(&c, NULL, "", K_OBJECT, p);
	}
	if (check_fields(&c, p, phase_fields) < 0 ||
	    check_items(&c, json_object_get(p, "samples"), "samples", K_OBJECT, sample_fields) < 0)
		return -EINVAL;
	const json_t *m = json_object_get(p, "matrix");
	if (m && check_matrix(&c, m) < 0)
		return -EINVAL;
	const json_t *reps = json_object_get(json_object_get(p, "iterations"), "iops");
	if (check_items(&c, reps, "iterations.iops", K_RATE, NULL) < 0)
		return -EINVAL;
	/* What merge refuses (a histogram whose buckets disagree with its count
	 * or its row, of another layout), report and compare refuse too: the
	 * record is rebuilt as merge rebuilds it, then dropped. */
	struct cb_phase_result scratch = {0};
	char where[160];
	snprintf(where, sizeof(where), "%s: phases[%zu]", run->path, i);
	if (cb_phase_init(&scratch) < 0)
		return cb_err_usage(run->e, "out of memory");
	int r = cb_phase_rebuild(&scratch, p, where, run->e);
	cb_phase_release(&scratch);
	return r < 0 ? -EINVAL : 0;
}

int cb_result_check(const json_t *rec, const char *path, struct cb_err *e)
{
	struct ctx c = {.path = path, .e = e};
	if (check_fields(&c, rec, run_fields) < 0)
		return -EINVAL;
	size_t i;
	const json_t *p;
	json_array_foreach(json_object_get(rec, "phases"), i, p)
	{
		if (check_phase(&c, i, p) < 0)
			return -EINVAL;
	}
	return 0;
}

int cb_result_time(const char *s, time_t *out)
{
	static const char form[] = "0000-00-00T00:00:00Z"; /* 0: a digit */
	if (strlen(s) != sizeof(form) - 1)
		return -EINVAL;
	for (size_t i = 0; form[i]; i++)
		if (form[i] == '0' ? s[i] < '0' || s[i] > '9' : s[i] != form[i])
			return -EINVAL;
	struct tm tm = {0}, back;
	if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
		   &tm.tm_min, &tm.tm_sec) != 6 ||
	    tm.tm_year < 1970)
		return -EINVAL;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	/* timegm normalizes what is out of range (month 13, day 31 of a
	 * 30-day month, second 60): such a time does not read back the same */
	struct tm norm = tm; /* timegm normalizes its argument in place */
	time_t t = timegm(&norm);
	if (t == (time_t)-1 || !gmtime_r(&t, &back) || back.tm_year != tm.tm_year ||
	    back.tm_mon != tm.tm_mon || back.tm_mday != tm.tm_mday || back.tm_hour != tm.tm_hour ||
	    back.tm_min != tm.tm_min || back.tm_sec != tm.tm_sec)
		return -EINVAL;
	*out = t;
	return 0;
}
