/* Error context carried up the call chain: the first failure sets one line of
 * text and an exit class; the top level prints it once and exits with it. */
#ifndef CB_ERR_H
#define CB_ERR_H

#include <stddef.h>

enum cb_exit {
	CB_EXIT_OK = 0,
	CB_EXIT_FAILED = 1,  /* thresholds failed / regression found */
	CB_EXIT_USAGE = 2,   /* bad flag, bad profile, bad input */
	CB_EXIT_CLUSTER = 3, /* cannot connect, auth, pool missing, I/O errors */
	CB_EXIT_INTERRUPTED = 130,
};

struct cb_err {
	int code;	   /* negative errno of the first failure, 0 when none */
	enum cb_exit exit; /* exit class of the first failure */
	char msg[1024];
};

/* Record a usage/input error (exit 2) unless one is already recorded.
 * Returns -EINVAL so callers can `return cb_err_usage(...)`. */
int cb_err_usage(struct cb_err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Record a cluster error (exit 3) with errno `code` (negative) unless one is
 * already recorded. Returns `code`. */
int cb_err_cluster(struct cb_err *e, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Same, with an explicit exit class. Returns `code`. */
int cb_err_set(struct cb_err *e, enum cb_exit ex, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* True once an error has been recorded. */
int cb_err_isset(const struct cb_err *e);

/* A usage error "WHAT 'VALUE': RULE" when rule is set (a broken rule, as
 * options.h's cb_*_rule return it), else 0. */
int cb_err_rule(struct cb_err *e, const char *what, const char *value, const char *rule);

/* How much of a value from the user an error message shows: enough to
 * recognise it, not a 100 KB -o value echoed back whole. */
#define CB_ECHO_MAX 128
/* Room for CB_ECHO_MAX bytes each escaped (\xHH, or \u00HH for two), the
 * ellipsis and NUL. */
#define CB_ECHO_SIZE (CB_ECHO_MAX * 4 + 8)

/* s as a message shows it, into buf (n bytes): escaped as term_esc.h says
 * (a control character as \xHH: a value cannot clear the screen or forge
 * a line), cut after CB_ECHO_MAX bytes (never inside a UTF-8 character) and
 * then ending in "...". Returns buf. */
const char *cb_echo(char *buf, size_t n, const char *s);

/* cb_echo into a buffer of its own, for a message's argument list:
 * cb_err_usage(e, "--timeout '%s': ...", CB_ECHO(arg)). */
#define CB_ECHO(s) cb_echo((char[CB_ECHO_SIZE]){""}, CB_ECHO_SIZE, (s))

#endif
