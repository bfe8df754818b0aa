/* `cephbench compare`: result files read for comparison, phases paired (by
 * name across files, or by one matrix key within a file) and each pair's
 * metrics tested (docs/compare.md). */
#ifndef CB_COMPARE_H
#define CB_COMPARE_H

#include "err.h"
#include "welch.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* One phase of a result file; strings and matrix point into the file's
 * JSON tree. */
struct cb_cmp_phase {
	const char *name;
	/* what shaped the figures, NULL in older records: the row's params,
	 * what it ran on ("uses") and its file's "context" */
	const json_t *params, *uses, *context;
	const char *workload, *step; /* matrix rows; NULL when absent */
	const json_t *matrix;	     /* varied key -> value string; NULL when absent */
	double iops, bw, lat_mean_us, lat_p99_us;
	double bytes_per_op;
	double *ops_s, *bytes_s; /* per second, the trailing partial second dropped */
	size_t nsec;
	double *lat_s; /* per-second mean latency, seconds with ops only */
	size_t nlat;
	double *reps; /* iterations.iops: per-repeat rates */
	size_t nreps;
	json_int_t errors;	       /* failed ops */
	char *own_name, *own_workload; /* a kind's row (by_op): its names, owned */
	bool interrupted, failed;      /* cut by a signal / stopped by max_errors: partial */
	bool cached; /* served by the client's cache (served.h): not the cluster's speed */
};

struct cb_cmp_file {
	const char *path;
	json_t *root;
	struct cb_cmp_phase *ph;
	size_t n;
};

/* Read a cephbench-result/2 (or /1) file and check it (cb_result_check, as
 * history --add does). 0, or -errno with e set (exit 2) naming the file and
 * the culprit. */
int cb_cmp_load(const char *path, struct cb_cmp_file *f, struct cb_err *e);
void cb_cmp_free(struct cb_cmp_file *f);

enum cb_cmp_metric_id { CB_CMP_IOPS, CB_CMP_BW, CB_CMP_LAT, CB_CMP_P99, CB_CMP_NMETRICS };

struct cb_cmp_metric_desc {
	const char *key;   /* JSON key: "iops" */
	const char *label; /* verdict text: "IOPS" */
	bool higher_better;
	bool tested; /* false: the change is shown without a verdict (p99) */
};
extern const struct cb_cmp_metric_desc cb_cmp_metrics[CB_CMP_NMETRICS];

struct cb_cmp_metric {
	double a, b;	      /* the records' figures */
	double change_pct;    /* (b - a) / a in %; NAN when a is 0 */
	bool tested;	      /* Welch ran: enough values on each side and a mean above 0 */
	const char *untested; /* why not, for a metric that is tested normally */
	struct cb_welch w;
	double est_pct, lo_pct, hi_pct; /* w.diff and its CI as % of w.mean_a */
	int verdict;			/* +1 B significantly better, -1 worse, 0 neither */
};

/* A difference beside the figures: a parameter (kind "params"), a property
 * of a target the rows used ("pool", "image", "filesystem", a_name and
 * b_name its names in A and B), or of the cluster ("cluster": versions,
 * OSDs). Everything points into the files' trees; a or b NULL: absent. */
struct cb_cmp_diff {
	const char *kind;
	const char *a_name, *b_name;
	const char *key;
	const json_t *a, *b;
};

struct cb_cmp {
	const struct cb_cmp_phase *a, *b;
	struct cb_cmp_diff *diffs; /* cb_cmp_diffs; owned, freed with free() */
	size_t ndiffs;
	bool repeats;	 /* IOPS and bandwidth tested on per-repeat rates */
	size_t n_a, n_b; /* values behind the IOPS test */
	/* false when either phase was interrupted or failed: its figures are
	 * partial, so a drop may be the cut rather than a regression (and a
	 * rise may hide one); verdicts are shown but --fail-if-worse skips it */
	bool judged;
	struct cb_cmp_metric m[CB_CMP_NMETRICS];
};

/* 0, or -ENOMEM. */
int cb_cmp_phases(const struct cb_cmp_phase *a, const struct cb_cmp_phase *b, double confidence,
		  struct cb_cmp *c);

/* compare_diff.c: c's differences of params (but skip, the --by key, or
 * NULL) and of the targets both rows used, into c->diffs. 0 or -ENOMEM. */
int cb_cmp_diffs(struct cb_cmp *c, const char *skip);
/* The cluster's differences (versions, OSDs) of two files' contexts (NULL
 * in older records: none) into *out (the caller frees it). 0 or -ENOMEM. */
int cb_cmp_context_diffs(const json_t *a, const json_t *b, struct cb_cmp_diff **out, size_t *n);
/* A difference's value as text: "3", "erasure", "layering,exclusive-lock",
 * "k=2 m=1"; "none" when absent. Returns buf. */
const char *cb_cmp_value_text(const json_t *v, char *buf, size_t n);

/* The first tested metric of c whose whole CI is worse than pct % (IOPS or
 * bandwidth: upper bound below -pct; mean latency: lower bound above +pct),
 * or -1; always -1 when c is not judged. */
int cb_cmp_worse_beyond(const struct cb_cmp *c, double pct);

/* Phases of a and b with equal names, in a's order (a name given twice
 * pairs in order of occurrence); the rest are only_a / only_b. */
struct cb_cmp_match {
	size_t *pair_a, *pair_b, npairs;
	size_t *only_a, n_only_a;
	size_t *only_b, n_only_b;
};
int cb_cmp_match(const struct cb_cmp_file *a, const struct cb_cmp_file *b, struct cb_cmp_match *m);
void cb_cmp_match_free(struct cb_cmp_match *m);

/* --by KEY: matrix rows of f that carry KEY, grouped when workload, step
 * and every other matrix key agree; rows[0] (first in file order) is the
 * baseline. Rows outside every group of two or more are in alone (their
 * groups of one stay in g, with n 1). 0, or
 * -EINVAL with e set when f has no matrix row or none varies key. */
struct cb_cmp_group {
	size_t *rows, n;
};
struct cb_cmp_groups {
	struct cb_cmp_group *g;
	size_t n;
	size_t *alone, nalone;
};
int cb_cmp_group_by(const struct cb_cmp_file *f, const char *key, struct cb_cmp_groups *gs,
		    struct cb_err *e);
void cb_cmp_groups_free(struct cb_cmp_groups *gs);

/* One baseline against one contender, as rendered: the files' A against B
 * (labels "A", "B", title NULL), or two rows of a --by group (labels
 * "pool=ssd", title the group: "w [block_size=4K]"). */
struct cb_cmp_set {
	const char *label_a, *label_b, *file_a, *file_b, *title;
	struct cb_cmp_diff *cdiffs; /* the cluster's (files only), owned */
	size_t ncdiffs;
	struct cb_cmp *c; /* matched phases */
	size_t n;
	const char **only_a, **only_b; /* unmatched phase names */
	size_t n_only_a, n_only_b;
};

struct cb_cmp_opts {
	double confidence; /* 0.95 */
	double fail_pct;   /* --fail-if-worse, NAN when not given */
	const char *by;	   /* --by KEY or NULL */
};

/* Everything one `cephbench compare` reports. */
struct cb_cmp_doc {
	const struct cb_cmp_set *s;
	size_t n;
	const char **alone; /* --by: rows with nothing to compare with */
	size_t nalone;
	bool worse; /* --fail-if-worse was crossed */
};

/* A percentage as text, with its sign: "+12.3", or "+1.2e+07" beyond a
 * million (a baseline near 0). Returns buf. */
const char *cb_cmp_pct(double pct, char *buf, size_t n);

/* compare_report.c: the comparison as text, and as a JSON document
 * (schema "cephbench-compare/1", docs/compare.md); NULL on ENOMEM. */
void cb_cmp_print_text(FILE *out, const struct cb_cmp_doc *d, const struct cb_cmp_opts *o);
json_t *cb_cmp_json(const struct cb_cmp_doc *d, const struct cb_cmp_opts *o);

#endif
