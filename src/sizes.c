/* Size distributions (see sizes.h). */
#include "sizes.h"

#include "rng.h"
#include "units.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One size of the text [s, e) into *v, within [min, max]. */
static int one_size(const char *s, size_t len, uint64_t min, uint64_t max, uint64_t *v, char *why,
		    size_t n)
{
	char buf[32];
	if (len == 0 || len >= sizeof(buf)) {
		snprintf(why, n,
			 "expected a size like 4K, sizes with weights like "
			 "{ 4K: 60, 64K: 40 } or a range like 4K-64K");
		return -EINVAL;
	}
	memcpy(buf, s, len);
	buf[len] = '\0';
	int r = cb_parse_size(buf, v);
	if (r == -EINVAL) {
		snprintf(why, n, "'%s' is not a size like 4K or 1M", buf);
		return r;
	}
	if (r == 0 && *v == 0) {
		snprintf(why, n, "a size of 0 moves nothing: give sizes of 1 byte or more");
		return -ERANGE;
	}
	if (r < 0 || *v < min || (max && *v > max)) {
		char a[32], b[32];
		snprintf(why, n, "size %s is outside %s-%s", buf, cb_format_size(min, a, sizeof(a)),
			 cb_format_size(max, b, sizeof(b)));
		return -ERANGE;
	}
	return 0;
}

static int parse_weights(const char *s, uint64_t min, uint64_t max, struct cb_sizes *z, char *why,
			 size_t n)
{
	unsigned sum = 0;
	z->kind = CB_SIZES_WEIGHTS;
	for (const char *p = s; *p;) {
		const char *comma = strchr(p, ','), *end = comma ? comma : p + strlen(p);
		const char *colon = memchr(p, ':', (size_t)(end - p));
		int r;
		if (z->n == CB_SIZES_MAX) {
			snprintf(why, n, "at most %d sizes", CB_SIZES_MAX);
			return -EINVAL;
		}
		if (!colon) {
			snprintf(why, n, "give every size a weight: SIZE: PERCENT");
			return -EINVAL;
		}
		if ((r = one_size(p, (size_t)(colon - p), min, max, &z->size[z->n], why, n)) < 0)
			return r;
		for (unsigned i = 0; i < z->n; i++)
			if (z->size[i] == z->size[z->n]) {
				char a[32];
				snprintf(why, n, "size %s is given twice",
					 cb_format_size(z->size[i], a, sizeof(a)));
				return -EINVAL;
			}
		char *e;
		unsigned long w = strtoul(colon + 1, &e, 10);
		if (*e == '%')
			e++;
		if (e == colon + 1 || e != end || colon[1] == '-' || w > 100) {
			snprintf(why, n, "a weight is a percent from 1 to 100, got '%.*s'",
				 (int)(end - colon - 1), colon + 1);
			return -EINVAL;
		}
		if (w == 0) {
			char a[32];
			snprintf(why, n, "size %s has weight 0: drop it",
				 cb_format_size(z->size[z->n], a, sizeof(a)));
			return -EINVAL;
		}
		z->weight[z->n++] = (unsigned)w;
		sum += (unsigned)w;
		p = comma ? comma + 1 : end;
	}
	if (sum != 100) {
		snprintf(why, n, "the weights sum to %u, not 100", sum);
		return -EINVAL;
	}
	return 0;
}

int cb_sizes_parse(const char *s, uint64_t min, uint64_t max, struct cb_sizes *z, char *why,
		   size_t n)
{
	struct cb_sizes t = {0};
	const char *dash = strchr(s, '-');
	int r;
	if (strchr(s, ':')) {
		r = parse_weights(s, min, max, &t, why, n);
	} else if (dash) {
		t.kind = CB_SIZES_RANGE;
		if ((r = one_size(s, (size_t)(dash - s), min, max, &t.size[0], why, n)) == 0 &&
		    (r = one_size(dash + 1, strlen(dash + 1), min, max, &t.size[1], why, n)) == 0 &&
		    t.size[0] >= t.size[1]) {
			snprintf(why, n,
				 "a range goes from the smaller size to the larger: 4K-64K");
			r = -EINVAL;
		}
	} else {
		r = one_size(s, strlen(s), min, max, &t.size[0], why, n);
	}
	if (r == 0)
		*z = t;
	return r;
}

void cb_sizes_format(const struct cb_sizes *z, char *buf, size_t n)
{
	char a[32], b[32];
	if (z->kind == CB_SIZES_FIXED) {
		cb_format_size(z->size[0], buf, n);
	} else if (z->kind == CB_SIZES_RANGE) {
		snprintf(buf, n, "%s-%s", cb_format_size(z->size[0], a, sizeof(a)),
			 cb_format_size(z->size[1], b, sizeof(b)));
	} else {
		size_t off = 0;
		buf[0] = '\0';
		for (unsigned i = 0; i < z->n && off < n; i++)
			off += (size_t)snprintf(buf + off, n - off, "%s%s:%u", i ? "," : "",
						cb_format_size(z->size[i], a, sizeof(a)),
						z->weight[i]);
	}
}

uint64_t cb_sizes_min(const struct cb_sizes *z)
{
	uint64_t m = z->size[0];
	for (unsigned i = 1; z->kind == CB_SIZES_WEIGHTS && i < z->n; i++)
		m = z->size[i] < m ? z->size[i] : m;
	return m;
}

uint64_t cb_sizes_max(const struct cb_sizes *z)
{
	if (z->kind == CB_SIZES_RANGE)
		return z->size[1];
	uint64_t m = z->size[0];
	for (unsigned i = 1; z->kind == CB_SIZES_WEIGHTS && i < z->n; i++)
		m = z->size[i] > m ? z->size[i] : m;
	return m;
}

double cb_sizes_mean(const struct cb_sizes *z, uint64_t align)
{
	if (z->kind == CB_SIZES_FIXED)
		return (double)z->size[0];
	if (z->kind == CB_SIZES_RANGE) /* the multiples of align, evenly */
		return (double)(z->size[0] + z->size[0] +
				(z->size[1] - z->size[0]) / align * align) /
		       2.0;
	double m = 0;
	for (unsigned i = 0; i < z->n; i++)
		m += (double)z->size[i] * z->weight[i] / 100.0;
	return m;
}

int cb_sizes_check_align(const struct cb_sizes *z, uint64_t align, char *why, size_t n)
{
	unsigned k = z->kind == CB_SIZES_WEIGHTS ? z->n : z->kind == CB_SIZES_RANGE ? 2 : 1;
	for (unsigned i = 0; i < k; i++)
		if (z->size[i] % align) {
			char a[32], b[32];
			snprintf(why, n, "size %s is not a multiple of block_align %s",
				 cb_format_size(z->size[i], a, sizeof(a)),
				 cb_format_size(align, b, sizeof(b)));
			return -EINVAL;
		}
	return 0;
}

uint64_t cb_sizes_pick(const struct cb_sizes *z, uint64_t align, uint64_t x)
{
	if (z->kind == CB_SIZES_RANGE)
		return z->size[0] + x % ((z->size[1] - z->size[0]) / align + 1) * align;
	if (z->kind == CB_SIZES_FIXED)
		return z->size[0];
	unsigned p = (unsigned)(x % 100), at = 0, i = 0;
	while (i + 1 < z->n && p >= at + z->weight[i])
		at += z->weight[i++];
	return z->size[i];
}

uint64_t cb_sizes_next(const struct cb_sizes *z, uint64_t align, uint64_t *rng)
{
	return z->kind == CB_SIZES_FIXED ? z->size[0] : cb_sizes_pick(z, align, cb_rng_next(rng));
}
