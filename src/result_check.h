/* What a result record read back from a file must hold before `compare`
 * or `history --add` uses a word of it: the keys both read, the names under
 * the rules the profile loader applies, every figure finite and within what
 * a real run can give (docs/result.md#reading-a-record-back). */
#ifndef CB_RESULT_CHECK_H
#define CB_RESULT_CHECK_H

#include "err.h"

#include <jansson.h>
#include <time.h>

/* The bounds on figures: a run of 31 years, an op of 11.6 days, 10^18 ops
 * or bytes a second. Counts are JSON integers from 0 (at most 2^63 - 1,
 * as jansson reads them). */
#define CB_RESULT_MAX_SECONDS 1e9
#define CB_RESULT_MAX_US      1e12
#define CB_RESULT_MAX_RATE    1e18

/* Check rec, a record cb_result_load read from path. 0, or -EINVAL with e
 * set (exit 2) to one line naming path and the key ("r.json:
 * phases[2].ops: expected a count (a whole number from 0), got -5"), the
 * culprit shown escaped (term_esc.h) and cut short. */
int cb_result_check(const json_t *rec, const char *path, struct cb_err *e);

/* A record's "started": exactly YYYY-MM-DDTHH:MM:SSZ, a real UTC date and
 * time from 1970 to 9999 (no 2026-13-01, no February 30, no second 60).
 * 0 with *out the Unix time, or -EINVAL. */
int cb_result_time(const char *s, time_t *out);

#endif
