/* Acceptance thresholds: a workload's `expect:` mapping, judged against
 * each of its report rows. Judging is a pure function of a row, so the
 * text and JSON reports and the exit code always agree. */
#ifndef CB_EXPECT_H
#define CB_EXPECT_H

#include "options.h"
#include "thresholds.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The keys of an `expect:` mapping (offsets into struct cb_expect). */
extern const struct cb_option cb_expect_options[];

/* Record that key (one of cb_expect_options) was given. */
void cb_expect_mark(struct cb_expect *x, const char *key);

struct cb_phase_result;

struct cb_verdict {
	enum cb_expect_metric metric;
	const char *key; /* "min_iops" */
	double measured; /* in the metric's unit: ops/s, bytes/s, ns, errors, OSDs;
			    -1: not measured (slow_osds without the counters) */
	double expected;
	double margin; /* measured/expected - 1; +inf when expected is 0 */
	bool pass;
	/* not judged: the client's cache served the row (served.h) and its
	 * workload did not say cached: ok; measured is then -1 */
	bool cached;
};

/* Judge row p against x: one verdict per metric set, into out (room for
 * CB_EXPECT_NMETRICS). Returns how many. A bound is inclusive: a row exactly
 * at its limit passes. A row that failed (ended on an error) fails every
 * threshold: its figures are not the cluster's. */
size_t cb_expect_judge(const struct cb_expect *x, const struct cb_phase_result *p,
		       struct cb_verdict *out);

/* The expectations that apply to row p (NULL when none): its workload's,
 * except on a prefill step, which only prepares data. */
const struct cb_expect *cb_expect_of(const struct cb_phase_result *p);

/* Verdict counts over a whole result. */
struct cb_result;
void cb_expect_count(const struct cb_result *r, size_t *passed, size_t *failed);

/* Whether m is a lower bound (min_*), not an upper one. */
bool cb_expect_is_min(enum cb_expect_metric m);

/* Render a value of metric m ("1523.4 IOPS", "12.300 ms", "100 MiB/s"). */
const char *cb_expect_format(enum cb_expect_metric m, double v, char *buf, size_t n);

#endif
