/* Option tables: parsing text values into typed struct fields, defaults,
 * freeing, and did-you-mean suggestions for unknown keys. */
#include "options.h"
#include "data.h"
#include "dist.h"
#include "load_opts.h"
#include "sizes.h"
#include "err.h"
#include "units.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const struct cb_option *cb_opt_find(const struct cb_option *tab, const char *name)
{
	for (; tab && tab->name; tab++)
		if (strcmp(tab->name, name) == 0)
			return tab;
	return NULL;
}

bool cb_name_valid(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > 64)
		return false;
	for (; *s; s++) {
		char c = *s;
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '-'))
			return false;
	}
	return true;
}

static bool has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

const char *cb_ceph_name_rule(const char *s)
{
	size_t n = strlen(s);
	return n == 0 || n > 255 || has_control(s) ? "use 1-255 characters, no control characters"
						   : NULL;
}

const char *cb_image_name_rule(const char *s)
{
	return cb_ceph_name_rule(s) || strpbrk(s, "/@")
		   ? "use 1-255 characters, no '/', '@' or control characters"
		   : NULL;
}

const char *cb_path_rule(const char *s)
{
	size_t n = strlen(s);
	return n == 0 || n > 4095 || has_control(s)
		   ? "use a path of 1-4095 characters, no control characters"
		   : NULL;
}

static int parse_bool(const char *v, bool *out)
{
	static const char *const yes[] = {"true", "yes", "on", "1", NULL};
	static const char *const no[] = {"false", "no", "off", "0", NULL};
	for (int i = 0; yes[i]; i++) {
		if (strcasecmp(v, yes[i]) == 0) {
			*out = true;
			return 0;
		}
		if (strcasecmp(v, no[i]) == 0) {
			*out = false;
			return 0;
		}
	}
	return -EINVAL;
}

static int check_range(const struct cb_option *o, uint64_t v, char *why, size_t n)
{
	char a[32], b[32];
	if (v >= o->min && (o->max == 0 || v <= o->max))
		return 0;
	switch (o->type) {
	case CB_OPT_SIZE:
	case CB_OPT_SIZES:
		cb_format_size(o->min, a, sizeof(a));
		cb_format_size(o->max, b, sizeof(b));
		break;
	case CB_OPT_DURATION:
		cb_format_duration(o->min, a, sizeof(a));
		cb_format_duration(o->max, b, sizeof(b));
		break;
	case CB_OPT_PERCENT:
		snprintf(a, sizeof(a), "%g%%", (double)o->min / 1e4);
		snprintf(b, sizeof(b), "%g%%", (double)o->max / 1e4);
		break;
	default:
		snprintf(a, sizeof(a), "%llu", (unsigned long long)o->min);
		snprintf(b, sizeof(b), "%llu", (unsigned long long)o->max);
	}
	if (o->max)
		snprintf(why, n, "%s must be between %s and %s", o->name, a, b);
	else
		snprintf(why, n, "%s must be at least %s", o->name, a);
	return -ERANGE;
}

struct opt_type;
/* A type's parser: value into field (o's, in the caller's struct), or
 * -EINVAL / -ERANGE / -ENOMEM with why; t is the type's own entry. */
typedef int opt_parse_fn(const struct opt_type *t, const struct cb_option *o, void *field,
			 const char *value, char *why, size_t n);

/* How a type's values are parsed: parse, with what it reads. */
struct opt_type {
	opt_parse_fn *parse;
	/* a number's: its text's parser, and what the text should look like */
	int (*number)(const char *s, uint64_t *v);
	const char *looks;
	/* a string's rule (NULL: any text); strings are the struct's, freed
	 * by cb_opts_free */
	const char *(*rule)(const char *s);
	bool string;
};

static int parse_string(const struct opt_type *t, const struct cb_option *o, void *field,
			const char *value, char *why, size_t n)
{
	const char *bad = t->rule ? t->rule(value) : NULL;
	if (bad) {
		snprintf(why, n, "%s '%s': %s", o->name, CB_ECHO(value), bad);
		return -EINVAL;
	}
	char *s = strdup(value);
	if (!s)
		return -ENOMEM;
	free(*(char **)field);
	*(char **)field = s;
	return 0;
}

static int parse_name(const struct opt_type *t, const struct cb_option *o, void *field,
		      const char *value, char *why, size_t n)
{
	if (!cb_name_valid(value)) {
		snprintf(why, n,
			 "%s '%s' is not a valid name (use 1-64 letters, digits, '_' or '-')",
			 o->name, CB_ECHO(value));
		return -EINVAL;
	}
	return parse_string(t, o, field, value, why, n);
}

/* A number, by its type's parser, checked against o's range: into *out
 * only when it passes. */
static int parse_number(const struct opt_type *t, const struct cb_option *o, const char *value,
			uint64_t *out, char *why, size_t n)
{
	uint64_t v;
	int r = t->number(value, &v);
	if (r == -EINVAL)
		snprintf(why, n, "%s expects %s, got '%s'", o->name, t->looks, CB_ECHO(value));
	else if (r == -ERANGE)
		snprintf(why, n, "%s value '%s' is too large", o->name, CB_ECHO(value));
	if (r == 0 && (r = check_range(o, v, why, n)) == 0)
		*out = v;
	return r;
}

static int parse_u64(const struct opt_type *t, const struct cb_option *o, void *field,
		     const char *value, char *why, size_t n)
{
	return parse_number(t, o, value, (uint64_t *)field, why, n);
}

static int parse_bool_opt(const struct opt_type *t, const struct cb_option *o, void *field,
			  const char *value, char *why, size_t n)
{
	(void)t;
	if (parse_bool(value, (bool *)field) == 0)
		return 0;
	snprintf(why, n, "%s expects true or false, got '%s'", o->name, CB_ECHO(value));
	return -EINVAL;
}

static int parse_enum(const struct opt_type *t, const struct cb_option *o, void *field,
		      const char *value, char *why, size_t n)
{
	(void)t;
	for (int i = 0; o->choices[i]; i++) {
		if (strcmp(o->choices[i], value) == 0) {
			*(int *)field = i;
			return 0;
		}
	}
	size_t off = (size_t)snprintf(why, n, "%s '%s' is not one of", o->name, CB_ECHO(value));
	for (int i = 0; o->choices[i] && off < n; i++)
		off += (size_t)snprintf(why + off, n - off, "%s %s", i ? "," : "", o->choices[i]);
	return -EINVAL;
}

/* A spec parser's result r, its reason said after the value. */
static int spec_result(const struct cb_option *o, const char *value, int r, const char *reason,
		       char *why, size_t n)
{
	if (r < 0)
		snprintf(why, n, "%s '%s': %s", o->name, CB_ECHO(value), reason);
	return r;
}

/* A distribution has its own parser; one size is parsed, checked and
 * refused as a CB_OPT_SIZE is. */
static int parse_sizes(const struct opt_type *t, const struct cb_option *o, void *field,
		       const char *value, char *why, size_t n)
{
	const char *dash = strchr(value, '-');
	char reason[160];
	uint64_t v;
	if (strchr(value, ':') || (dash && dash != value))
		return spec_result(o, value,
				   cb_sizes_parse(value, o->min, o->max, (struct cb_sizes *)field,
						  reason, sizeof(reason)),
				   reason, why, n);
	int r = parse_number(t, o, value, &v, why, n);
	if (r == 0)
		*(struct cb_sizes *)field = (struct cb_sizes){.size = {v}};
	return r;
}

static int parse_rate(const struct opt_type *t, const struct cb_option *o, void *field,
		      const char *value, char *why, size_t n)
{
	(void)t;
	struct cb_rate rt;
	int r = cb_parse_rate(value, &rt.ops, &rt.bytes);
	if (r == -EINVAL)
		snprintf(why, n,
			 "%s expects ops per second like 10000 or a bandwidth like 200MiB/s, "
			 "got '%s'",
			 o->name, CB_ECHO(value));
	else if (r == -ERANGE)
		snprintf(why, n, "%s value '%s' is too large", o->name, CB_ECHO(value));
	else if (!rt.ops && !rt.bytes) {
		snprintf(why, n, "%s must be more than 0 (leave it out for a closed loop)",
			 o->name);
		r = -ERANGE;
	} else if (rt.ops)
		r = check_range(o, rt.ops, why, n);
	if (r == 0)
		*(struct cb_rate *)field = rt;
	return r;
}

/* A distribution or a data spec, each by its own parser. */
static int parse_spec(const struct opt_type *t, const struct cb_option *o, void *field,
		      const char *value, char *why, size_t n)
{
	(void)t;
	char reason[160];
	int r = o->type == CB_OPT_DIST ? cb_dist_parse(value, field, reason, sizeof(reason))
				       : cb_data_parse(value, field, reason, sizeof(reason));
	return spec_result(o, value, r, reason, why, n);
}

#define SIZE_LOOKS "a size like 4K, 4M or 1G"

static const struct opt_type opt_types[] = {
    [CB_OPT_STR] = {.parse = parse_string, .string = true},
    [CB_OPT_SIZE] = {.parse = parse_u64, .number = cb_parse_size, .looks = SIZE_LOOKS},
    [CB_OPT_DURATION] = {.parse = parse_u64,
			 .number = cb_parse_duration,
			 .looks = "a duration like 500ms, 30s, 5m or 1h"},
    [CB_OPT_UINT] = {.parse = parse_u64, .number = cb_parse_uint, .looks = "a whole number"},
    [CB_OPT_BOOL] = {.parse = parse_bool_opt},
    [CB_OPT_ENUM] = {.parse = parse_enum},
    [CB_OPT_NAME] = {.parse = parse_name, .string = true},
    [CB_OPT_CEPH] = {.parse = parse_string, .rule = cb_ceph_name_rule, .string = true},
    [CB_OPT_IMAGE] = {.parse = parse_string, .rule = cb_image_name_rule, .string = true},
    [CB_OPT_PATH] = {.parse = parse_string, .rule = cb_path_rule, .string = true},
    [CB_OPT_RATE] = {.parse = parse_rate},
    [CB_OPT_PERCENT] = {.parse = parse_u64,
			.number = cb_parse_percent,
			.looks = "a percentage like 5% or 0.5%"},
    [CB_OPT_DIST] = {.parse = parse_spec},
    [CB_OPT_DATA] = {.parse = parse_spec},
    [CB_OPT_SIZES] = {.parse = parse_sizes, .number = cb_parse_size, .looks = SIZE_LOOKS},
};

/* The type's entry, or NULL for a type the table lacks. */
static const struct opt_type *opt_type_of(enum cb_opt_type type)
{
	if ((size_t)type >= sizeof(opt_types) / sizeof(opt_types[0]) || !opt_types[type].parse)
		return NULL;
	return &opt_types[type];
}

int cb_opt_parse(const struct cb_option *o, void *obj, const char *value, char *why, size_t n)
{
	const struct opt_type *t = opt_type_of(o->type);
	return t ? t->parse(t, o, (char *)obj + o->off, value, why, n) : -EINVAL;
}

int cb_opts_defaults(const struct cb_option *tab, void *obj)
{
	char why[256];
	for (; tab && tab->name; tab++) {
		if (!tab->def)
			continue;
		int r = cb_opt_parse(tab, obj, tab->def, why, sizeof(why));
		if (r < 0)
			return r;
	}
	return 0;
}

void cb_opts_free(const struct cb_option *tab, void *obj)
{
	for (; tab && tab->name; tab++) {
		const struct opt_type *t = opt_type_of(tab->type);
		if (!t || !t->string)
			continue;
		char **p = (char **)((char *)obj + tab->off);
		free(*p);
		*p = NULL;
	}
}

/* A user's text as a JSON string; jansson refuses what is not UTF-8, so
 * such bytes become '?': the record shows the value, near enough. */
static json_t *utf8_json(const char *s)
{
	json_t *j = json_string(s);
	if (j)
		return j;
	char *t = strdup(s);
	if (!t)
		return NULL;
	for (char *c = t; *c; c++)
		if ((unsigned char)*c >= 0x80)
			*c = '?';
	j = json_string(t);
	free(t);
	return j;
}

json_t *cb_opt_json(const struct cb_option *o, const void *obj)
{
	const char *field = (const char *)obj + o->off;
	switch (o->type) {
	case CB_OPT_SIZE:
	case CB_OPT_UINT: {
		/* JSON integers are signed: an unbounded count given past 2^63 is cut */
		uint64_t v = *(const uint64_t *)field;
		return json_integer(v > INT64_MAX ? INT64_MAX : (json_int_t)v);
	}
	case CB_OPT_DURATION:
		return json_real((double)*(const uint64_t *)field / 1e9);
	case CB_OPT_PERCENT: /* as a percentage: 5 for 5% */
		return json_real((double)*(const uint64_t *)field / 1e4);
	case CB_OPT_RATE: { /* ops/s as settled; null: closed loop */
		const struct cb_rate *rt = (const struct cb_rate *)field;
		return rt->ops ? json_integer((json_int_t)rt->ops) : json_null();
	}
	case CB_OPT_BOOL:
		return json_boolean(*(const bool *)field);
	case CB_OPT_SIZES: { /* bytes when one size, else the distribution as written */
		const struct cb_sizes *z = (const struct cb_sizes *)field;
		char buf[512];
		if (!cb_sizes_varies(z))
			return json_integer((json_int_t)z->size[0]);
		cb_sizes_format(z, buf, sizeof(buf));
		return json_string(buf);
	}
	case CB_OPT_DIST:
	case CB_OPT_DATA: {
		char buf[48];
		if (o->type == CB_OPT_DIST)
			cb_dist_format((const struct cb_dist_spec *)field, buf, sizeof(buf));
		else
			cb_data_format((const struct cb_data_spec *)field, buf, sizeof(buf));
		return json_string(buf);
	}
	case CB_OPT_ENUM: {
		int i = *(const int *)field, n = 0;
		while (o->choices[n])
			n++;
		return i >= 0 && i < n ? json_string(o->choices[i]) : json_null();
	}
	case CB_OPT_STR:
	case CB_OPT_NAME:
	case CB_OPT_CEPH:
	case CB_OPT_IMAGE:
	case CB_OPT_PATH: {
		const char *s = *(char *const *)field;
		return s ? utf8_json(s) : json_null();
	}
	}
	return json_null();
}

int cb_opts_json(const struct cb_option *tab, const void *obj, json_t *into,
		 const char *const *skip)
{
	for (; tab && tab->name; tab++) {
		bool skipped = false;
		for (size_t i = 0; skip && skip[i] && !skipped; i++)
			skipped = strcmp(skip[i], tab->name) == 0;
		if (!skipped && json_object_set_new(into, tab->name, cb_opt_json(tab, obj)) < 0)
			return -ENOMEM;
	}
	return 0;
}

unsigned cb_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 64 || lb > 64)
		return 1000;
	unsigned row[65];
	for (size_t j = 0; j <= lb; j++)
		row[j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++) {
		unsigned diag = row[0];
		row[0] = (unsigned)i;
		for (size_t j = 1; j <= lb; j++) {
			unsigned up = row[j];
			unsigned cost = a[i - 1] == b[j - 1] ? 0 : 1;
			unsigned best = diag + cost;
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

const char *cb_closest(const char *name, const char *const *words)
{
	const char *best = NULL;
	unsigned bestd = 1000;
	for (; *words; words++) {
		unsigned d = cb_edit_distance(name, *words);
		if (d < bestd) {
			bestd = d;
			best = *words;
		}
	}
	/* a typo, not a different word: allow more edits in longer names */
	size_t len = strlen(name);
	unsigned limit = len < 6 ? 1 : (len < 12 ? 2 : 3);
	return bestd <= limit ? best : NULL;
}

const char *cb_opt_suggest(const struct cb_option *const *tabs, const char *name)
{
	const char *names[256];
	size_t n = 0;
	for (; *tabs; tabs++)
		for (const struct cb_option *o = *tabs; o->name && n < 255; o++)
			names[n++] = o->name;
	names[n] = NULL;
	return cb_closest(name, names);
}
