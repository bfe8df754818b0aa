/* The pre-flight gate: before the first phase, the cluster must be in the
 * state the profile requires (preflight_opts.h), or the run waits for it
 * (up to its wait) or is refused, exit 3, with one line naming the cause.
 * Rank 0 decides; run.c has the ranks agree. */
#ifndef CB_PREFLIGHT_H
#define CB_PREFLIGHT_H

#include "err.h"
#include "preflight_opts.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

struct cb_conn;

/* Judge the cluster through c (NULL: no cluster, the gate is off) as o
 * asks. *out is the record's top-level preflight object, the caller's
 * (NULL only on ENOMEM). Returns 0 when the run may go on (ready, waited,
 * off; a status the monitors will not give is one note on stderr, unless
 * quiet, and the gate off), -EAGAIN when refused (e set, exit 3), -EINTR
 * when a stop signal on sigfd ended the wait. */
int cb_preflight_run(struct cb_conn *c, const struct cb_preflight_opts *o, bool quiet, int sigfd,
		     json_t **out, struct cb_err *e);

/* The verdict's one line at the top of the text report. */
void cb_preflight_text(const json_t *pf, FILE *out);

/* Whether a record's preflight object says the run was refused, and why
 * (its reasons joined, into buf). */
bool cb_preflight_refused(const json_t *rec, char *buf, size_t len);

#endif
