/* `cephbench history FILE`: the trend of the stored runs, or --add a result
 * file (a run made elsewhere with --json), judged like a live run. */
#include "cli.h"
#include "result_load.h"
#include "commands.h"
#include "health.h"
#include "history_db.h"
#include "html.h"
#include "infile.h"
#include "options.h"
#include "outfile.h"
#include "report.h"
#include "result_check.h"
#include "term_esc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>

static const char history_help[] =
    "usage: cephbench history FILE [--profile P] [--workload W] [--last N]\n"
    "                              [--format text|json|csv] [--html PAGE]\n"
    "       cephbench history FILE --add RESULT.json [--regression PCT] [--baseline N]\n"
    "                              [--prom FILE] [--quiet] [--html PAGE]\n"
    "\n"
    "Lists the runs stored in the history FILE (made by --history), one line per run\n"
    "and phase, oldest first; or stores the result RESULT.json (written by --json) in\n"
    "it, with the regression check a live run gets (exit 1 on a regression).\n"
    "\n"
    "      --profile P      only runs of profile P\n"
    "      --workload W     only phase W (and W.prefill, W.PHASE, its kinds W:read,\n"
    "                       W:write, W:sync, and the rows of a matrix W:\n"
    "                       W_KEY-VALUE...)\n"
    "      --last N         only the last N runs\n"
    "      --format F       text (default), json or csv\n"
    "      --html PAGE      also write the listing as one self-contained HTML page:\n"
    "                       IOPS and p99 per phase over the runs, regressions and\n"
    "                       skipped runs marked (with --add: the whole history,\n"
    "                       after the result is stored)\n"
    "      --add RESULT.json  store that result\n"
    "      --regression PCT, --baseline N, --prom FILE, --quiet: as for `cephbench run`\n";

enum {
	OPT_PROFILE = CB_OPT_CMD_BASE,
	OPT_WORKLOAD,
	OPT_LAST,
	OPT_FORMAT,
	OPT_ADD,
	OPT_QUIET,
	OPT_HTML,
	OPT_HELP,
};

enum out_format { OUT_TEXT, OUT_JSON, OUT_CSV };

struct args {
	const char *file, *add, *html;
	struct cb_hdb_filter filter;
	enum out_format format;
	bool listing_flag; /* a flag that only listing takes */
	bool quiet;
	struct cb_health_opts health;
};

static int parse_args(int argc, char **argv, struct args *a, struct cb_err *e)
{
	static const char shortopts[] = "h";
	static const struct option longopts[] = {
	    {"profile", required_argument, NULL, OPT_PROFILE},
	    {"workload", required_argument, NULL, OPT_WORKLOAD},
	    {"last", required_argument, NULL, OPT_LAST},
	    {"format", required_argument, NULL, OPT_FORMAT},
	    {"add", required_argument, NULL, OPT_ADD},
	    {"regression", required_argument, NULL, CB_OPT_REGRESSION},
	    {"baseline", required_argument, NULL, CB_OPT_BASELINE},
	    {"prom", required_argument, NULL, CB_OPT_PROM},
	    {"quiet", no_argument, NULL, OPT_QUIET},
	    {"html", required_argument, NULL, OPT_HTML},
	    {"help", no_argument, NULL, OPT_HELP},
	    {NULL, 0, NULL, 0},
	};
	char *end;
	int opt;
	struct cb_cli_seen seen = {0};
	int li = -1;
	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, shortopts, longopts, &li)) != -1) {
		if (cb_cli_once(&seen, opt, li, shortopts, longopts, e) < 0)
			return -EINVAL;
		li = -1;
		int h = cb_health_flag(opt, optarg, &a->health, e);
		if (h < 0)
			return -EINVAL;
		if (h > 0)
			continue;
		switch (opt) {
		case OPT_PROFILE:
			a->filter.profile = optarg;
			a->listing_flag = true;
			break;
		case OPT_WORKLOAD:
			a->filter.workload = optarg;
			a->listing_flag = true;
			break;
		case OPT_LAST: {
			errno = 0;
			unsigned long n = strtoul(optarg, &end, 10);
			if (errno || end == optarg || *end || optarg[0] == '-' || n < 1 ||
			    n > 1000000)
				return cb_err_usage(e,
						    "--last '%s': expected a number of runs, "
						    "like 30",
						    CB_ECHO(optarg));
			a->filter.last = (unsigned)n;
			a->listing_flag = true;
			break;
		}
		case OPT_FORMAT:
			if (strcmp(optarg, "text") == 0)
				a->format = OUT_TEXT;
			else if (strcmp(optarg, "json") == 0)
				a->format = OUT_JSON;
			else if (strcmp(optarg, "csv") == 0)
				a->format = OUT_CSV;
			else
				return cb_err_usage(e, "--format '%s': use text, json or csv",
						    CB_ECHO(optarg));
			a->listing_flag = true;
			break;
		case OPT_ADD:
			a->add = optarg;
			break;
		case OPT_QUIET:
			a->quiet = true;
			break;
		case OPT_HTML:
			a->html = optarg;
			if (cb_err_rule(e, "--html", optarg, cb_path_rule(optarg)) < 0)
				return -EINVAL;
			break;
		case 'h':
		case OPT_HELP:
			printf("%s", history_help);
			return CB_CLI_HELP;
		default:
			return cb_cli_bad_flag("history", shortopts, argc, argv, longopts, e);
		}
	}
	if (optind != argc - 1)
		return cb_err_usage(e, optind >= argc ? "no history file given (cephbench history "
							"FILE)"
						      : "give exactly one history file");
	a->file = argv[optind];
	if (cb_err_rule(e, "history file", a->file, cb_path_rule(a->file)) < 0)
		return -EINVAL;
	if (a->add && a->listing_flag)
		return cb_err_usage(e, "--add stores a result; --profile, --workload, --last and "
				       "--format are for listing");
	if (!a->add && (a->health.regression_pct || a->health.baseline || a->health.prom))
		return cb_err_usage(e, "--regression, --baseline and --prom go with --add "
				       "RESULT.json");
	return 0;
}

/* A history that exists must be a regular file we can read before SQLite
 * opens it (it would block on a FIFO: infile.h); a missing one is left to
 * cb_hdb_open, which makes it on --add or names it. No size bound: a
 * history grows with every run stored. */
static int check_history(const char *path, struct cb_err *e)
{
	struct stat st;
	if (stat(path, &st) < 0)
		return 0;
	return cb_infile_check(path, "history file (made by --history)", SIZE_MAX, e);
}

/* --add: the record is checked like any input, its old verdicts dropped
 * (they were against another history), then judged and stored. */
static int add_result(const struct args *a, struct cb_err *e)
{
	json_t *rec;
	if (check_history(a->file, e) < 0 || cb_result_load(a->add, &rec, e) < 0)
		return CB_EXIT_USAGE;
	if (cb_result_check(rec, a->add, e) < 0) {
		json_decref(rec);
		return CB_EXIT_USAGE;
	}
	json_t *ph;
	size_t i;
	json_array_foreach(json_object_get(rec, "phases"), i, ph) json_object_del(ph, "regression");
	struct cb_health_opts ho = a->health;
	struct cb_health *h = NULL;
	ho.history = a->file;
	ho.history_label = a->file;
	int nreg = 0;
	if (cb_health_open(&ho, &h, e) == 0)
		nreg = cb_health_record(h, rec, e);
	if (!cb_err_isset(e)) {
		if (!a->quiet) {
			cb_esc_fputs(stdout, a->file, 0);
			fputs(": added run '", stdout);
			cb_esc_fputs(stdout, json_string_value(json_object_get(rec, "run_name")),
				     0);
			fputs("' of profile '", stdout);
			cb_esc_fputs(stdout,
				     json_string_value(
					 json_object_get(json_object_get(rec, "profile"), "name")),
				     0);
			printf("' (%zu phases)\n", json_array_size(json_object_get(rec, "phases")));
		}
		cb_health_print(rec, stdout, !a->quiet);
	}
	cb_health_close(h);
	json_decref(rec);
	if (cb_err_isset(e))
		return (int)e->exit;
	return nreg > 0 ? CB_EXIT_FAILED : CB_EXIT_OK;
}

static const char *verdict_of(const json_t *row)
{
	const char *v =
	    json_string_value(json_object_get(json_object_get(row, "regression"), "verdict"));
	return v ? v : "";
}

/* A figure in its column; one stored before cephbench checked imported
 * files (1e308 IOPS) takes 4 significant digits, not 300. */
static void figure(double v, int width, int prec)
{
	if (fabs(v) < 1e12)
		printf(" %*.*f", width, prec, v);
	else
		printf(" %*.4g", width, v);
}

static void print_text(const json_t *rows)
{
	const json_t *r;
	size_t i;
	printf("%-20s  %-16s %-24s %10s %9s %9s %9s %7s\n", "started", "run", "phase", "IOPS",
	       "MiB/s", "mean ms", "p99 ms", "errors");
	json_array_foreach(rows, i, r)
	{
		const json_t *l = json_object_get(r, "latency_us");
		const char *v = verdict_of(r);
		/* the history's text may come from anywhere: escaped */
		cb_esc_fputs(stdout, json_string_value(json_object_get(r, "started")), 20);
		fputs("  ", stdout);
		cb_esc_fputs(stdout, json_string_value(json_object_get(r, "run_name")), 16);
		fputc(' ', stdout);
		cb_esc_fputs(stdout, json_string_value(json_object_get(r, "phase")), 24);
		figure(json_number_value(json_object_get(r, "iops")), 10, 1);
		figure(json_number_value(json_object_get(r, "bw_bytes_per_s")) / (1 << 20), 9, 2);
		figure(json_number_value(json_object_get(l, "mean")) / 1000, 9, 3);
		figure(json_number_value(json_object_get(l, "p99")) / 1000, 9, 3);
		const char *by = json_string_value(json_object_get(r, "served_by"));
		printf(" %7lld%s%s%s%s%s\n",
		       (long long)json_integer_value(json_object_get(r, "errors")),
		       json_is_true(json_object_get(r, "interrupted")) ? " interrupted" : "",
		       json_is_true(json_object_get(r, "failed")) ? " failed" : "",
		       json_is_true(json_object_get(r, "disturbed")) ? " disturbed" : "",
		       by && strcmp(by, "client cache") == 0 ? " cached" : "",
		       strcmp(v, "regression") == 0 ? " REGRESSION" : "");
	}
}

/* One CSV field (cb_esc_csv_json), then its separator. */
static void csv_field(const json_t *v, bool last)
{
	cb_esc_csv_json(stdout, v);
	putchar(last ? '\n' : ',');
}

static void print_csv(const json_t *rows)
{
	static const char *const cols[] = {
	    "started", "run_name",   "profile",	       "phase",	  "layer",	 "op",
	    "pool",    "block_size", "concurrency",    "clients", "duration_s",	 "ops",
	    "bytes",   "iops",	     "bw_bytes_per_s", "errors",  "interrupted", "failed"};
	static const char *const lat[] = {"min", "mean", "p50", "p90", "p99", "p99.9", "max"};
	const size_t nc = sizeof(cols) / sizeof(cols[0]), nl = sizeof(lat) / sizeof(lat[0]);
	const json_t *r;
	size_t i;
	for (size_t k = 0; k < nc; k++)
		printf("%s,", cols[k]);
	for (size_t k = 0; k < nl; k++)
		printf("lat_%s_us,", lat[k]);
	/* schema 2's figures after the older columns, so a reader of those
	 * finds them where it did */
	static const char *const tm[] = {"client_cpu_us_per_op", "cluster_lat_mean_us", "slow_osds",
					 "disturbed", "served_by"};
	const size_t nt = sizeof(tm) / sizeof(tm[0]);
	printf("regression");
	for (size_t k = 0; k < nt; k++)
		printf(",%s", tm[k]);
	putchar('\n');
	json_array_foreach(rows, i, r)
	{
		for (size_t k = 0; k < nc; k++)
			csv_field(json_object_get(r, cols[k]), false);
		for (size_t k = 0; k < nl; k++)
			csv_field(json_object_get(json_object_get(r, "latency_us"), lat[k]), false);
		json_t *v = json_string(verdict_of(r));
		csv_field(v, false);
		json_decref(v);
		for (size_t k = 0; k < nt; k++)
			csv_field(json_object_get(r, tm[k]), k + 1 == nt);
	}
}

/* One line per run the pre-flight gate refused. */
static void print_skipped(const json_t *rows)
{
	const json_t *r;
	size_t i;
	json_array_foreach(rows, i, r)
	{
		cb_esc_fputs(stdout, json_string_value(json_object_get(r, "started")), 20);
		fputs("  ", stdout);
		cb_esc_fputs(stdout, json_string_value(json_object_get(r, "run_name")), 16);
		fputs(" skipped: ", stdout);
		cb_esc_fputs(stdout, json_string_value(json_object_get(r, "reason")), 0);
		putchar('\n');
	}
}

/* The page (--html): the rows as --format json prints them and, beside
 * them, the runs the pre-flight gate refused (by --profile and --last,
 * with --workload too: a refused run ran none of its workloads). */
struct page {
	struct cb_out *out;
	struct cb_html html;
};

static int write_page(const struct args *a, const json_t *rows, const json_t *skipped,
		      struct page *pg, struct cb_err *e)
{
	json_t *data = json_pack("{s:s, s:{s:s?, s:s?, s:I}, s:O, s:O}", "file", a->file, "filter",
				 "profile", a->filter.profile, "workload", a->filter.workload,
				 "last", (json_int_t)a->filter.last, "rows", (json_t *)rows,
				 "skipped", (json_t *)skipped);
	if (!data)
		return cb_err_usage(e, "out of memory");
	pg->html.data = data;
	int r = cb_out_write(pg->out, cb_html_render, &pg->html, e);
	pg->html.data = NULL;
	json_decref(data);
	return r;
}

/* The trend (and the skipped runs when wanted) of a->file. 0 or -errno
 * with e set. */
static int read_history(const struct args *a, const struct cb_hdb_filter *f, bool want_skipped,
			json_t **rows, json_t **skipped, struct cb_err *e)
{
	struct cb_hdb *db;
	*rows = *skipped = NULL;
	if (check_history(a->file, e) < 0 || cb_hdb_open(a->file, false, a->file, &db, e) < 0)
		return -EINVAL;
	int r = cb_hdb_trend(db, f, rows, e);
	if (r == 0 && want_skipped && (r = cb_hdb_skipped(db, f, skipped, e)) < 0) {
		json_decref(*rows);
		*rows = NULL;
	}
	cb_hdb_close(db);
	return r;
}

static int list_runs(const struct args *a, struct page *pg, struct cb_err *e)
{
	json_t *rows, *skipped;
	/* the text says which runs the gate refused (they have no phase row) */
	bool text_skipped = a->format == OUT_TEXT && !a->filter.workload;
	if (read_history(a, &a->filter, text_skipped || pg, &rows, &skipped, e) < 0)
		return (int)e->exit;
	const json_t *listed = text_skipped ? skipped : NULL;
	int r = 0;
	if (a->format == OUT_JSON)
		r = cb_report_json_dump(stdout, rows);
	else if (a->format == OUT_CSV)
		print_csv(rows);
	else
		print_text(rows);
	print_skipped(listed);
	if (a->format == OUT_TEXT && json_array_size(rows) + json_array_size(listed) == 0 &&
	    !a->quiet)
		fprintf(stderr, "cephbench history: no runs in %s match\n", a->file);
	if ((fflush(stdout) != 0 || ferror(stdout) || r < 0) && !cb_err_isset(e))
		cb_err_usage(e, "cannot write to standard output");
	if (!cb_err_isset(e) && pg)
		write_page(a, rows, skipped, pg, e);
	json_decref(skipped);
	json_decref(rows);
	return cb_err_isset(e) ? (int)e->exit : CB_EXIT_OK;
}

/* --add --html: the page of the whole history, the run just stored in it;
 * the exit code stays the store's unless the page cannot be written. */
static int add_and_draw(const struct args *a, struct page *pg, struct cb_err *e)
{
	int rc = add_result(a, e);
	if (!pg || (rc != CB_EXIT_OK && rc != CB_EXIT_FAILED))
		return rc;
	struct cb_err pe = {0};
	const struct cb_hdb_filter all = {0};
	json_t *rows, *skipped;
	if (read_history(a, &all, true, &rows, &skipped, &pe) == 0)
		write_page(a, rows, skipped, pg, &pe);
	json_decref(skipped);
	json_decref(rows);
	if (!cb_err_isset(&pe))
		return rc;
	*e = pe;
	return (int)e->exit;
}

int cb_cmd_history(int argc, char **argv, enum cb_cmd_mode mode, struct cb_err *e)
{
	struct args a = {.format = OUT_TEXT};
	int r = parse_args(argc, argv, &a, e);
	if (r == CB_CLI_HELP)
		return CB_EXIT_OK;
	if (r < 0)
		return CB_EXIT_USAGE;
	if (mode == CB_CMD_PARSE)
		return CB_EXIT_OK;
	/* a page that cannot be written is refused before anything is read
	 * or stored */
	struct page pg = {.html = {.kind = "history", .title = a.file}};
	if (a.html && cb_html_target(a.html, &pg.out, &pg.html, e) < 0)
		return CB_EXIT_USAGE;
	struct page *p = a.html ? &pg : NULL;
	int rc = a.add ? add_and_draw(&a, p, e) : list_runs(&a, p, e);
	cb_out_close(pg.out);
	cb_html_close(&pg.html);
	return rc;
}
