/* Reporters: each renders the same result record in its own format, in its
 * own file (report_text.c, report_json.c). */
#ifndef CB_REPORT_H
#define CB_REPORT_H

#include "engine.h"
#include "result.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

/* One per-second progress line, as rados bench prints them. */
struct cb_progress {
	uint64_t sec;
	uint64_t inflight, started, finished;
	uint64_t elapsed_ns; /* since the end of the ramp */
	uint64_t bytes;	     /* measured so far */
	uint64_t tick_bytes; /* measured in the last second */
	uint64_t last_lat_ns, avg_lat_ns;
	bool ramping;
};

/* block_size: the phase's effective one (the plan's or its step's own). */
void cb_report_progress_header(FILE *out, const struct cb_phase *ph, const char *layer,
			       uint64_t block_size, uint64_t depth);
void cb_report_progress(FILE *out, const struct cb_progress *p);

/* The end-of-run table, ending with the verdicts when there are any. */
void cb_report_text(FILE *out, const struct cb_result *r);

/* The PASS/FAIL table of the thresholds (nothing when none were given);
 * only_failed: only the failing rows, and nothing when all passed. */
void cb_report_verdicts(FILE *out, const struct cb_result *r, bool only_failed);

/* The per-layer bottleneck breakdown (src/bottleneck.h): the section below the
 * table (nothing when no group), and the record's "layers" array (NULL on
 * ENOMEM). */
void cb_report_bottleneck_text(FILE *out, const struct cb_result *r);
json_t *cb_bottleneck_json(const struct cb_result *r);

struct cb_hist;
/* A histogram's summary (min, mean, max, stddev, p50 ... p99.99 in us) and
 * its sparse buckets, as the record holds them. NULL on ENOMEM. */
json_t *cb_latency_json(const struct cb_hist *h);
json_t *cb_histogram_json(const struct cb_hist *h);

/* A phase's figures into its record object o (set, or replaced): clients,
 * duration_s, the counts, iops, bandwidth, latency_us, histogram, samples,
 * window_start_unix_s, per_client, ranks and open_loop; what a merge of
 * result files (cmd_merge.c) writes over the rows it read. 0 or -ENOMEM. */
int cb_phase_figures_json(json_t *o, const struct cb_phase_result *p);

/* The JSON record of DESIGN.md section 5 (schema docs/result.schema.json).
 * Returns 0 or -errno. */
int cb_report_json(FILE *out, const struct cb_result *r);

/* The same record as a JSON tree, for the consumers that annotate or store
 * it (history, regression, prom); the caller owns it. NULL on ENOMEM. */
json_t *cb_result_json(const struct cb_result *r);

/* Print a record as cb_report_json does. 0 or -EIO. */
int cb_report_json_dump(FILE *out, const json_t *root);

#endif
