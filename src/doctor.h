/* `cephbench doctor`: what a run needs, checked one thing at a time, each
 * check a line with what to do when it fails. The checks (doctor.c) fill a
 * list; cmd_doctor.c renders it as text or JSON. */
#ifndef CB_DOCTOR_H
#define CB_DOCTOR_H

#include "conn.h"
#include "preflight_opts.h"
#include "probe.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct cb_profile;

struct cb_check {
	enum cb_check_status st;
	char *check, *detail, *hint; /* hint NULL: none */
};

/* The checks made, in order; what cb_doctor_run fills. */
struct cb_doctor {
	struct cb_check *v;
	size_t n, cap;
	bool nomem; /* a line was lost: the result says so */
};

/* Check what a run of p (NULL: any run; then the connection, the monitors'
 * status and the run directory only) needs with the cluster options co
 * (flags first, then the profile's cluster: section, as a run takes them)
 * and the pre-flight gate pf (the profile's, or the flag's). Lines go into
 * d (the caller's: cb_doctor_release). Returns the exit code: 0 when a run
 * would start (warnings allowed), 3 when a check failed. */
int cb_doctor_run(const struct cb_cluster_opts *co, const struct cb_profile *p,
		  const struct cb_preflight_opts *pf, struct cb_doctor *d);

void cb_doctor_release(struct cb_doctor *d);

/* How many checks have status st. */
size_t cb_doctor_count(const struct cb_doctor *d, enum cb_check_status st);

/* The lines as text: "ok    conf: /etc/ceph/ceph.conf", "FAIL  pool 'b':
 * does not exist (create it: ...)"; every word from the cluster or the user
 * escaped for a terminal. */
void cb_doctor_text(const struct cb_doctor *d, FILE *out);

/* The lines as a JSON array of {check, ok, status, detail, hint}; NULL on
 * ENOMEM. */
json_t *cb_doctor_json(const struct cb_doctor *d);

#endif
