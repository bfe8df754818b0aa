/* The single place error text is composed; printing happens in main(). */
#include "err.h"

#include "term_esc.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static int err_vset(struct cb_err *e, enum cb_exit ex, int code, const char *fmt, va_list ap)
{
	if (e->exit != CB_EXIT_OK)
		return code;
	e->code = code;
	e->exit = ex;
	int len = vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	if (len >= (int)sizeof(e->msg)) {
		/* a cut message says so: a command it suggests ends in "...",
		 * not in what looks like a whole, shorter command */
		size_t at = sizeof(e->msg) - 4;
		while (at > 0 && ((unsigned char)e->msg[at] & 0xc0) == 0x80)
			at--;
		memcpy(e->msg + at, "...", 4);
	}
	/* a value quoted from the user may hold a newline or an escape
	 * sequence; the error stays one plain line */
	for (char *c = e->msg; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	return code;
}

int cb_err_set(struct cb_err *e, enum cb_exit ex, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	err_vset(e, ex, code, fmt, ap);
	va_end(ap);
	return code;
}

int cb_err_usage(struct cb_err *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	err_vset(e, CB_EXIT_USAGE, -EINVAL, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int cb_err_cluster(struct cb_err *e, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	err_vset(e, CB_EXIT_CLUSTER, code, fmt, ap);
	va_end(ap);
	return code;
}

int cb_err_rule(struct cb_err *e, const char *what, const char *value, const char *rule)
{
	return rule ? cb_err_usage(e, "%s '%s': %s", what, CB_ECHO(value), rule) : 0;
}

const char *cb_echo(char *buf, size_t n, const char *s)
{
	if (n < 4) /* not even room for the ellipsis */
		return n ? (buf[0] = '\0', buf) : "";
	/* the first CB_ECHO_MAX bytes, cut back to the start of a character
	 * that does not fit whole */
	char head[CB_ECHO_MAX + 1];
	size_t len = strnlen(s, CB_ECHO_MAX + 1);
	bool cut = len > CB_ECHO_MAX;
	if (cut) {
		len = CB_ECHO_MAX;
		while (len > 0 && ((unsigned char)s[len] & 0xc0) == 0x80 &&
		       (unsigned char)s[len - 1] >= 0x80)
			len--;
	}
	memcpy(head, s, len);
	head[len] = '\0';
	/* one escaping rule for everything shown on a terminal (term_esc.h) */
	cb_esc_str(head, buf, n);
	size_t at = strlen(buf);
	if (cut && at + 4 <= n)
		memcpy(buf + at, "...", 4);
	return buf;
}

int cb_err_isset(const struct cb_err *e)
{
	return e->exit != CB_EXIT_OK;
}
