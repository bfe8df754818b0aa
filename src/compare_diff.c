/* What differed between two compared rows besides their figures: their
 * params, the pools, image and file system they ran on (the records'
 * context), and the clusters' versions and OSDs (docs/compare.md). A
 * record without params or context (an older one) shows none. */
#include "compare.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct diffs {
	struct cb_cmp_diff *d;
	size_t n, cap;
};

static int add(struct diffs *ds, const struct cb_cmp_diff *d)
{
	if (ds->n == ds->cap) {
		size_t cap = ds->cap ? 2 * ds->cap : 8;
		struct cb_cmp_diff *g = realloc(ds->d, cap * sizeof(*g));
		if (!g)
			return -ENOMEM;
		ds->d = g;
		ds->cap = cap;
	}
	ds->d[ds->n++] = *d;
	return 0;
}

/* Keys not compared: skip (compare's --by), and the seed, which picks
 * which offsets an op takes, not how fast it is, and is drawn anew by
 * every run that does not give one. */
static bool skipped(const char *k, const char *skip)
{
	return (skip && strcmp(k, skip) == 0) || strcmp(k, "seed") == 0;
}

/* Every key of a or b (a's first, then b's own) whose values differ. */
static int object_diffs(struct diffs *ds, const char *kind, const char *a_name, const char *b_name,
			const json_t *a, const json_t *b, const char *skip)
{
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)a, k, v)
	{
		const json_t *w = json_object_get(b, k);
		if (skipped(k, skip) || (w && json_equal(v, (json_t *)w)))
			continue;
		if (add(ds, &(struct cb_cmp_diff){kind, a_name, b_name, k, v, w}) < 0)
			return -ENOMEM;
	}
	json_object_foreach((json_t *)b, k, v)
	{
		if (skipped(k, skip) || json_object_get(a, k))
			continue;
		if (add(ds, &(struct cb_cmp_diff){kind, a_name, b_name, k, NULL, v}) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* A target both rows name in their uses, described in both contexts (a
 * part a record could not read, null, says nothing). */
static int target_diffs(struct diffs *ds, const char *kind, const char *section, const char *a_name,
			const char *b_name, const struct cb_cmp *c)
{
	const json_t *a =
	    json_object_get(json_object_get(c->a->context, section), a_name ? a_name : "");
	const json_t *b =
	    json_object_get(json_object_get(c->b->context, section), b_name ? b_name : "");
	if (!json_is_object(a) || !json_is_object(b))
		return 0;
	return object_diffs(ds, kind, a_name, b_name, a, b, NULL);
}

int cb_cmp_diffs(struct cb_cmp *c, const char *skip)
{
	struct diffs ds = {0};
	int r = 0;
	if (json_is_object(c->a->params) && json_is_object(c->b->params))
		r = object_diffs(&ds, "params", NULL, NULL, c->a->params, c->b->params, skip);
	/* pools in the order the rows name them: the target first */
	const json_t *pa = json_object_get(c->a->uses, "pools");
	const json_t *pb = json_object_get(c->b->uses, "pools");
	for (size_t i = 0; r == 0 && i < json_array_size(pa) && i < json_array_size(pb); i++)
		r = target_diffs(&ds, "pool", "pools", json_string_value(json_array_get(pa, i)),
				 json_string_value(json_array_get(pb, i)), c);
	static const char *const kinds[][2] = {{"image", "images"}, {"filesystem", "filesystems"}};
	for (size_t k = 0; r == 0 && k < 2; k++) {
		const char *a = json_string_value(json_object_get(c->a->uses, kinds[k][0]));
		const char *b = json_string_value(json_object_get(c->b->uses, kinds[k][0]));
		if (a && b)
			r = target_diffs(&ds, kinds[k][0], kinds[k][1], a, b, c);
	}
	if (r < 0) {
		free(ds.d);
		return r;
	}
	c->diffs = ds.d;
	c->ndiffs = ds.n;
	return 0;
}

int cb_cmp_context_diffs(const json_t *a, const json_t *b, struct cb_cmp_diff **out, size_t *n)
{
	struct diffs ds = {0};
	int r = 0;
	static const char *const parts[] = {"versions", "osds"};
	for (size_t i = 0; r == 0 && i < 2; i++) {
		const json_t *x = json_object_get(a, parts[i]), *y = json_object_get(b, parts[i]);
		if (json_is_object(x) && json_is_object(y))
			r = object_diffs(&ds, "cluster", parts[i], parts[i], x, y, NULL);
	}
	if (r < 0) {
		free(ds.d);
		return r;
	}
	*out = ds.d;
	*n = ds.n;
	return 0;
}

const char *cb_cmp_value_text(const json_t *v, char *buf, size_t n)
{
	size_t off = 0;
	const char *k;
	json_t *x;
	size_t i;
	buf[0] = '\0';
	switch (v ? json_typeof(v) : JSON_NULL) {
	case JSON_STRING:
		snprintf(buf, n, "%s", json_string_value(v));
		break;
	case JSON_INTEGER:
		snprintf(buf, n, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		break;
	case JSON_REAL:
		snprintf(buf, n, "%g", json_real_value(v));
		break;
	case JSON_TRUE:
	case JSON_FALSE:
		snprintf(buf, n, "%s", json_is_true(v) ? "true" : "false");
		break;
	case JSON_ARRAY:
		json_array_foreach((json_t *)v, i, x)
		{
			char one[128];
			if (off < n)
				off += (size_t)snprintf(buf + off, n - off, "%s%s", i ? "," : "",
							cb_cmp_value_text(x, one, sizeof(one)));
		}
		break;
	case JSON_OBJECT: /* an erasure-code profile: "name=ec k=2 m=1 plugin=jerasure" */
		json_object_foreach((json_t *)v, k, x)
		{
			char one[128];
			if (off < n)
				off +=
				    (size_t)snprintf(buf + off, n - off, "%s%s=%s", off ? " " : "",
						     k, cb_cmp_value_text(x, one, sizeof(one)));
		}
		break;
	default:
		break;
	}
	if (!v || json_is_null(v) || !buf[0])
		snprintf(buf, n, "none");
	return buf;
}
