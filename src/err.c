/* The single place error text is composed; printing happens in main(). */
#include "err.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

static int err_vset(struct cb_err *e, enum cb_exit ex, int code, const char *fmt, va_list ap)
{
	if (e->exit != CB_EXIT_OK)
		return code;
	e->code = code;
	e->exit = ex;
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
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
	return rule ? cb_err_usage(e, "%s '%s': %s", what, value, rule) : 0;
}

int cb_err_isset(const struct cb_err *e)
{
	return e->exit != CB_EXIT_OK;
}
