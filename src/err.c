/* The single place error text is composed; printing happens in main(). */
#include "err.h"

#include <errno.h>
#include <stdarg.h>
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
	size_t at = 0, i = 0;
	if (n < 4) /* not even room for the ellipsis */
		return n ? (buf[0] = '\0', buf) : "";
	/* buf[0, at) shows s[0, i); room is kept for "..." and the NUL */
	for (; s[i] && i < CB_ECHO_MAX; i++) {
		unsigned char c = (unsigned char)s[i];
		char esc[5] = {(char)c, '\0'};
		if (c == '\n' || c == '\t' || c == '\r')
			snprintf(esc, sizeof(esc), "\\%c", c == '\n' ? 'n' : c == '\t' ? 't' : 'r');
		else if (c < 0x20 || c == 0x7f)
			snprintf(esc, sizeof(esc), "\\x%02x", c);
		size_t len = strlen(esc);
		if (at + len > n - 4)
			break;
		memcpy(buf + at, esc, len);
		at += len;
	}
	if (s[i]) {
		/* a cut inside a UTF-8 character goes back to its first byte
		 * (bytes from 0x80 up are copied as they are, one for one) */
		while (i > 0 && ((unsigned char)s[i] & 0xc0) == 0x80 &&
		       (unsigned char)s[i - 1] >= 0x80) {
			i--;
			at--;
		}
		memcpy(buf + at, "...", 3);
		at += 3;
	}
	buf[at] = '\0';
	return buf;
}

int cb_err_isset(const struct cb_err *e)
{
	return e->exit != CB_EXIT_OK;
}
