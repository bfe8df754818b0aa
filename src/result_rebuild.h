/* A phase of a record read back from a file into the struct the runner
 * fills (result.h), so that records from several hosts merge through the
 * runner's own merge (cb_phase_merge_host) and are written again by its
 * own JSON writers (report_json.c). */
#ifndef CB_RESULT_REBUILD_H
#define CB_RESULT_REBUILD_H

#include "err.h"
#include "result.h"

#include <jansson.h>

/* h (empty) from a record's "histogram" object and its "latency_us"
 * summary: the buckets exactly, min and max within the first and last
 * bucket from the summary's microseconds, mean and variance from its mean
 * and stddev. where names the object in messages ("r.json: phases[2]
 * histogram"). 0, or -EINVAL with e set (exit 2). */
int cb_hist_rebuild(struct cb_hist *h, const json_t *hist, const json_t *lat, const char *where,
		    struct cb_err *e);

/* p (cb_phase_init'ed, empty) from phase object o of a record that
 * cb_result_check passed: names, counts, time, wall-clock start, histogram,
 * samples, per_client rows and the open loop's figures; not the workload
 * it came from (wl, engine: NULL). where: "r.json: phases[2]". 0, or
 * -EINVAL / -ENOMEM with e set (exit 2); p is then the caller's to release. */
int cb_phase_rebuild(struct cb_phase_result *p, const json_t *o, const char *where,
		     struct cb_err *e);

#endif
