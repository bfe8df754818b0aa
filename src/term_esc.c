/* Escaping text for a terminal (term_esc.h). */
#include "term_esc.h"

#include <errno.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static bool cont(unsigned char c)
{
	return c >= 0x80 && c <= 0xbf;
}

/* The length of the valid UTF-8 sequence at s (2-4), or 0 when s starts
 * none (an ASCII byte, a stray continuation, an overlong form, a surrogate,
 * a code point past U+10FFFF). The NUL ending s is no continuation byte, so
 * nothing is read past it. */
static size_t utf8_len(const unsigned char *s)
{
	unsigned char c = s[0];
	if (c >= 0xc2 && c <= 0xdf)
		return cont(s[1]) ? 2 : 0;
	if (c >= 0xe0 && c <= 0xef) {
		bool ok = cont(s[1]) && cont(s[2]) && (c != 0xe0 || s[1] >= 0xa0) &&
			  (c != 0xed || s[1] <= 0x9f);
		return ok ? 3 : 0;
	}
	if (c >= 0xf0 && c <= 0xf4) {
		bool ok = cont(s[1]) && cont(s[2]) && cont(s[3]) && (c != 0xf0 || s[1] >= 0x90) &&
			  (c != 0xf4 || s[1] <= 0x8f);
		return ok ? 4 : 0;
	}
	return 0;
}

/* The text that shows the character at s (at most 6 bytes and a NUL, in
 * out) and how many bytes of s it stands for (*used). */
static size_t one(const unsigned char *s, char out[8], size_t *used)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = utf8_len(s);
	*used = n ? n : 1;
	if (n == 2 && s[0] == 0xc2 && s[1] < 0xa0) {
		memcpy(out, "\\u00", 4);
		out[4] = hex[s[1] >> 4];
		out[5] = hex[s[1] & 15];
		return 6;
	}
	if (n) {
		memcpy(out, s, n);
		return n;
	}
	if (s[0] == '\\') {
		memcpy(out, "\\\\", 2);
		return 2;
	}
	if (s[0] >= 0x20 && s[0] < 0x7f) {
		out[0] = (char)s[0];
		return 1;
	}
	out[0] = '\\';
	out[1] = 'x';
	out[2] = hex[s[0] >> 4];
	out[3] = hex[s[0] & 15];
	return 4;
}

size_t cb_esc_fputs(FILE *out, const char *s, size_t width)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t shown = 0;
	while (*p) {
		char buf[8];
		size_t used, len = one(p, buf, &used);
		fwrite(buf, 1, len, out);
		p += used;
		/* a multi-byte character takes one column */
		shown += len > 1 && used == len ? 1 : len;
	}
	for (size_t k = shown; k < width; k++)
		fputc(' ', out);
	return shown;
}

const char *cb_esc_str(const char *s, char *buf, size_t n)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t at = 0, fit = 0; /* fit: the last character boundary "..." fits after */
	if (!n)
		return buf;
	while (*p) {
		char c[8];
		size_t used, len = one(p, c, &used);
		if (at + len >= n) {
			snprintf(buf + fit, n - fit, "...");
			return buf;
		}
		memcpy(buf + at, c, len);
		at += len;
		p += used;
		if (at + 4 <= n)
			fit = at;
	}
	buf[at] = '\0';
	return buf;
}

void cb_esc_csv(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	/* OWASP's rule for CSV injection: a spreadsheet runs a cell that
	 * starts so as a formula (=HYPERLINK(...), +cmd|...), and a quote
	 * first makes it text; tab and CR come out escaped, guarded all the same */
	bool formula = *p && strchr("=+-@\t\r", *p);
	bool quote = formula || strpbrk((const char *)p, ",\"") != NULL;
	if (quote)
		fputc('"', out);
	if (formula)
		fputc('\'', out);
	while (*p) {
		char buf[8];
		size_t used, len = one(p, buf, &used);
		if (*p == '"')
			fputc('"', out);
		fwrite(buf, 1, len, out);
		p += used;
	}
	if (quote)
		fputc('"', out);
}

void cb_esc_csv_json(FILE *out, const json_t *v)
{
	if (json_is_string(v))
		cb_esc_csv(out, json_string_value(v));
	else if (json_is_integer(v))
		fprintf(out, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		fprintf(out, "%.15g", json_real_value(v));
	else if (json_is_boolean(v))
		fputs(json_is_true(v) ? "1" : "0", out);
}

/* Whether a terminal could act on something in s: a character one()
 * changes, the backslash aside. */
static bool needs_esc(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		char buf[8];
		size_t used, len = one(p, buf, &used);
		if (*p != '\\' && (len != used || memcmp(buf, p, len) != 0))
			return true;
		p += used;
	}
	return false;
}

/* s escaped whole (cb_esc_fputs), as a new JSON string; NULL on ENOMEM. */
static json_t *escaped(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return NULL;
	cb_esc_fputs(m, s, 0);
	json_t *j = fclose(m) == 0 ? json_string(buf) : NULL;
	free(buf);
	return j;
}

int cb_esc_json(json_t *v)
{
	if (json_is_array(v)) {
		for (size_t i = 0; i < json_array_size(v); i++) {
			json_t *x = json_array_get(v, i);
			if (json_is_string(x) && needs_esc(json_string_value(x))) {
				if (json_array_set_new(v, i, escaped(json_string_value(x))) < 0)
					return -ENOMEM;
			} else if (cb_esc_json(x) < 0) {
				return -ENOMEM;
			}
		}
		return 0;
	}
	if (!json_is_object(v))
		return 0;
	const char *key;
	json_t *x;
	void *tmp;
	json_object_foreach_safe(v, tmp, key, x)
	{
		if (json_is_string(x) && needs_esc(json_string_value(x))) {
			if (json_object_set_new(v, key, escaped(json_string_value(x))) < 0)
				return -ENOMEM;
			x = json_object_get(v, key); /* the old one is freed */
		} else if (cb_esc_json(x) < 0) {
			return -ENOMEM;
		}
		if (!needs_esc(key))
			continue;
		/* a key shown by a printer (an interface's, a disk's name):
		 * moved to its escaped name */
		json_t *k = escaped(key);
		int r = k ? json_object_set(v, json_string_value(k), x) : -1;
		json_decref(k);
		if (r < 0)
			return -ENOMEM;
		json_object_del(v, key);
	}
	return 0;
}
