/* The run fields of a result record built in a unit test, the same in
 * every test that renders or judges one. */
#ifndef CB_UNIT_RESULT_H
#define CB_UNIT_RESULT_H

#include "result.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline void unit_result_init(struct cb_result *r, const char *profile)
{
	memset(r, 0, sizeof(*r));
	r->run_name = strdup("unit");
	r->profile_name = strdup(profile);
	memset(r->profile_sha256, 'a', 64);
	snprintf(r->fsid, sizeof(r->fsid), "00000000-0000-0000-0000-000000000000");
	snprintf(r->ceph_version, sizeof(r->ceph_version), "16.2.15");
	snprintf(r->host, sizeof(r->host), "host");
	r->started = 1700000000;
}

#endif
