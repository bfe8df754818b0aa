/* Reading a result record written by --json or --format json back in, for
 * the commands that work on results (compare, history --add). */
#ifndef CB_RESULT_LOAD_H
#define CB_RESULT_LOAD_H

#include "err.h"

#include <jansson.h>

#define CB_RESULT_SCHEMA "cephbench-result/2"
/* Records of the version before telemetry, context and params: still read
 * (compare, history --add), their missing parts absent. */
#define CB_RESULT_SCHEMA_V1 "cephbench-result/1"

/* Parse path and check it is a cephbench-result/2 (or /1) record with a phases
 * array; what each phase holds is the caller's to check. 0 with *out the
 * caller's, or -errno with e set (exit 2) naming the file. */
int cb_result_load(const char *path, json_t **out, struct cb_err *e);

#endif
