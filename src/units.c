/* Sizes and durations as people write them in profiles and on the command
 * line, parsed strictly (a typo is an error, never a silent default) and
 * printed back in the same notation. */
#include "units.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define NS_PER_US  UINT64_C(1000)
#define NS_PER_MS  UINT64_C(1000000)
#define NS_PER_SEC UINT64_C(1000000000)
#define NS_PER_MIN (60 * NS_PER_SEC)
#define NS_PER_H   (3600 * NS_PER_SEC)

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static char to_lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* Read the leading run of decimal digits. *end is set past all of them even on
 * overflow, so the caller can tell "too big" from "malformed" and report
 * malformed first: "99999999999999999999x" is a typo, not a range problem. */
static int parse_digits(const char *s, uint64_t *out, const char **end)
{
	uint64_t v = 0;
	int overflow = 0;
	const char *p = s;

	for (; is_digit(*p); p++) {
		if (__builtin_mul_overflow(v, 10, &v) ||
		    __builtin_add_overflow(v, (uint64_t)(*p - '0'), &v))
			overflow = 1;
	}
	*end = p;
	if (p == s)
		return -EINVAL;
	*out = v;
	return overflow ? -ERANGE : 0;
}

int cb_parse_uint(const char *s, uint64_t *out)
{
	const char *end;
	uint64_t v;
	int r;

	if (!s)
		return -EINVAL;
	r = parse_digits(s, &v, &end);
	if (*end != '\0')
		return -EINVAL;
	if (r < 0)
		return r;
	*out = v;
	return 0;
}

/* Binary multiplier for a size suffix, or 0 when the suffix is not one we
 * accept. Case-insensitive throughout, so "4kb" and "4KIB" work too: a
 * benchmark size is never in bits, and refusing "kb" would only annoy. */
static uint64_t size_multiplier(const char *suf)
{
	uint64_t mult;

	switch (to_lower(suf[0])) {
	case '\0':
		return 1;
	case 'b':
		return suf[1] == '\0' ? 1 : 0;
	case 'k':
		mult = 1ULL << 10;
		break;
	case 'm':
		mult = 1ULL << 20;
		break;
	case 'g':
		mult = 1ULL << 30;
		break;
	case 't':
		mult = 1ULL << 40;
		break;
	default:
		return 0;
	}
	suf++;
	if (to_lower(suf[0]) == 'i' && to_lower(suf[1]) == 'b')
		suf += 2;
	else if (to_lower(suf[0]) == 'b')
		suf++;
	return suf[0] == '\0' ? mult : 0;
}

/* Digits, then a unit that mult() turns into a multiplier (0: unknown).
 * Malformed text wins over overflow: "99999999999999999999x" is -EINVAL. */
static int parse_scaled(const char *s, uint64_t (*mult)(const char *), uint64_t *out)
{
	const char *end;
	uint64_t v, m;
	int r;

	if (!s)
		return -EINVAL;
	r = parse_digits(s, &v, &end);
	if (end == s)
		return -EINVAL;
	m = mult(end);
	if (m == 0)
		return -EINVAL;
	if (r < 0)
		return r;
	if (__builtin_mul_overflow(v, m, &v))
		return -ERANGE;
	*out = v;
	return 0;
}

int cb_parse_size(const char *s, uint64_t *out)
{
	return parse_scaled(s, size_multiplier, out);
}

int cb_parse_percent(const char *s, uint64_t *ppm)
{
	const char *end;
	uint64_t whole, frac = 0, scale = 10000; /* ppm per whole percent */
	if (!s)
		return -EINVAL;
	int r = parse_digits(s, &whole, &end);
	if (end == s)
		return -EINVAL;
	if (*end == '.') {
		const char *f = ++end;
		for (; is_digit(*end) && end - f < 4; end++) {
			scale /= 10;
			frac += (uint64_t)(*end - '0') * scale;
		}
		if (end == f || is_digit(*end))
			return -EINVAL;
	}
	if (end[0] != '%' || end[1] != '\0')
		return -EINVAL;
	if (r < 0 || whole > 1000000)
		return -ERANGE;
	*ppm = whole * 10000 + frac;
	return 0;
}

int cb_parse_rate(const char *s, uint64_t *ops, uint64_t *bytes)
{
	char buf[64];
	size_t n = s ? strlen(s) : sizeof(buf);
	if (n >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, n + 1);
	bool per_s = n > 2 && strcmp(buf + n - 2, "/s") == 0;
	if (per_s)
		buf[n -= 2] = '\0';
	bool ops_unit = per_s && n > 4 && strcmp(buf + n - 4, " ops") == 0;
	if (ops_unit)
		buf[n - 4] = '\0';
	*ops = *bytes = 0;
	int r = cb_parse_uint(buf, ops);
	if (r != -EINVAL || !per_s || ops_unit)
		return r;
	return cb_parse_size(buf, bytes);
}

/* Nanoseconds per unit, or 0 for an unknown unit. Case-sensitive on purpose:
 * "M" vs "m" vs "ms" must not be guessed at. A bare number means seconds. */
static uint64_t duration_multiplier(const char *u)
{
	static const struct {
		const char *name;
		uint64_t ns;
	} units[] = {
	    {"", NS_PER_SEC},  {"ns", 1},	  {"us", NS_PER_US}, {"ms", NS_PER_MS},
	    {"s", NS_PER_SEC}, {"m", NS_PER_MIN}, {"h", NS_PER_H},
	};

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		const char *a = units[i].name, *b = u;

		while (*a && *a == *b) {
			a++;
			b++;
		}
		if (*a == '\0' && *b == '\0')
			return units[i].ns;
	}
	return 0;
}

int cb_parse_duration(const char *s, uint64_t *ns)
{
	return parse_scaled(s, duration_multiplier, ns);
}

char *cb_format_size(uint64_t bytes, char *buf, size_t len)
{
	static const char suffixes[] = "TGMK";

	if (len == 0)
		return buf;
	for (int i = 0; bytes != 0 && i < 4; i++) {
		unsigned shift = (unsigned)(40 - 10 * i);

		if ((bytes & ((1ULL << shift) - 1)) == 0) {
			snprintf(buf, len, "%" PRIu64 "%c", bytes >> shift, suffixes[i]);
			return buf;
		}
	}
	snprintf(buf, len, "%" PRIu64, bytes);
	return buf;
}

/* Whole hours or minutes print as such so a profile's "5m" comes back as
 * "5m". Anything else prints in the largest of s/ms/us/ns that is at least 1,
 * with up to three decimals (rounded, trailing zeros dropped): this is for
 * reading, and beyond four significant digits it is lossy. */
char *cb_format_duration(uint64_t ns, char *buf, size_t len)
{
	static const struct {
		const char *name;
		uint64_t ns;
	} units[] = {{"s", NS_PER_SEC}, {"ms", NS_PER_MS}, {"us", NS_PER_US}, {"ns", 1}};
	uint64_t whole, frac;
	size_t i;
	char digits[5];
	int nd;

	if (len == 0)
		return buf;
	if (ns == 0) {
		snprintf(buf, len, "0s");
		return buf;
	}
	if (ns % NS_PER_H == 0) {
		snprintf(buf, len, "%" PRIu64 "h", ns / NS_PER_H);
		return buf;
	}
	if (ns % NS_PER_MIN == 0) {
		snprintf(buf, len, "%" PRIu64 "m", ns / NS_PER_MIN);
		return buf;
	}
	for (i = 0; i < 3 && ns < units[i].ns; i++)
		;
	whole = ns / units[i].ns;
	/* Round to 3 decimals in integers; the remainder is < unit <= 1e9 so
	 * rem * 1000 cannot overflow. */
	frac = ((ns % units[i].ns) * 1000 + units[i].ns / 2) / units[i].ns;
	if (frac == 1000) {
		whole++;
		frac = 0;
		/* 999.9996ms rounds to 1000ms: say 1s instead. */
		if (whole == 1000 && i > 0) {
			i--;
			whole = 1;
		}
	}
	if (frac == 0) {
		snprintf(buf, len, "%" PRIu64 "%s", whole, units[i].name);
		return buf;
	}
	nd = snprintf(digits, sizeof(digits), "%03" PRIu64, frac);
	while (nd > 0 && digits[nd - 1] == '0')
		digits[--nd] = '\0';
	snprintf(buf, len, "%" PRIu64 ".%s%s", whole, digits, units[i].name);
	return buf;
}

const char *cb_format_count(uint64_t v, char *buf, size_t n)
{
	char d[32];
	int len = snprintf(d, sizeof(d), "%llu", (unsigned long long)v);
	size_t k = 0;
	for (int i = 0; i < len && k + 2 < n; i++) {
		if (i > 0 && (len - i) % 3 == 0)
			buf[k++] = ',';
		buf[k++] = d[i];
	}
	buf[k] = '\0';
	return buf;
}

int cb_parse_named(const char *s, const char *const *names, const char **param)
{
	const char *colon = strchr(s, ':');
	size_t len = colon ? (size_t)(colon - s) : strlen(s);
	*param = colon ? colon + 1 : NULL;
	for (int k = 0; names[k]; k++)
		if (strlen(names[k]) == len && strncmp(names[k], s, len) == 0)
			return k;
	return -1;
}
