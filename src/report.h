/* Reporters: each renders the same result record in its own format, in its
 * own file (report_text.c, report_json.c). */
#ifndef CB_REPORT_H
#define CB_REPORT_H

#include "engine.h"
#include "result.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

/* A row whose ops moved no data (a tree test's, a stat's): neither a block
 * size nor a bandwidth applies, and the tables print '-' for both. */
bool cb_report_no_data(const json_t *phase);

/* The end-of-run report, ending with the verdicts when there are any. It
 * is drawn from the result record (cb_result_json), not from the run's
 * structures, so that `cephbench report` prints a saved record's report
 * byte for byte as the run printed it; each part renders the section of
 * the record its module writes. Under the table the findings (findings.h);
 * detail (--detail): all of them, and each phase's telemetry lines. */
void cb_report_text(FILE *out, const json_t *rec, bool detail);

/* The PASS/FAIL table of the record's thresholds (nothing when none were
 * given); only_failed: only the failing rows, and nothing when all passed. */
void cb_report_verdicts(FILE *out, const json_t *rec, bool only_failed);

/* The lines under the table: read shares, iterations, ranks, each row's
 * open loop, steady state and (detail) telemetry, the groups, the skipped
 * workloads, the layer breakdown. */
void cb_report_notes(FILE *out, const json_t *rec, bool detail);

/* One verdict of a row (an entry of its "expect") as the tables print it. */
struct cb_verdict_text {
	const char *phase, *key; /* borrowed from the record */
	char measured[48], bound[64], margin[32];
	char why[128]; /* " (the phase failed)", " (client-bound)", the cache or "" */
	bool pass;
};
void cb_report_verdict_row(const json_t *row, const json_t *v, struct cb_verdict_text *t);

/* One CSV row per phase of the records recs[0..n) (report_csv.c). 0 or
 * -ENOMEM. */
int cb_report_csv(FILE *out, json_t *const *recs, size_t n);

/* The record as Markdown: a line on the run, the table, the verdicts, the
 * notes in a code block (report_md.c). 0 or -ENOMEM. */
int cb_report_markdown(FILE *out, const json_t *rec);

/* A row's depth as the tables print it: "4x1" for clients x in flight,
 * "16" for one client. */
void cb_report_depth(const json_t *row, char *buf, size_t n);

/* The per-layer bottleneck breakdown (src/bottleneck.h): the section below
 * the table from the record's "layers" (nothing when none), and that array
 * (NULL on ENOMEM). */
void cb_report_bottleneck_text(FILE *out, const json_t *rec);
json_t *cb_bottleneck_json(const struct cb_result *r);

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
