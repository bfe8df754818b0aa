/* `cephbench report RESULT.json [MORE.json...]`: saved results rendered
 * again, as warp's analyze does: the text the run printed, the record as
 * JSON, one CSV row per phase, Markdown for a ticket, or the run's page. */
#include "cli.h"
#include "commands.h"
#include "health.h"
#include "html.h"
#include "options.h"
#include "outfile.h"
#include "report.h"
#include "result_check.h"
#include "result_load.h"
#include "term_esc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char report_help[] =
    "usage: cephbench report [--format text|json|csv|markdown] [--detail] RESULT.json "
    "[MORE.json...]\n"
    "       cephbench report --html FILE RESULT.json\n"
    "\n"
    "Renders saved results (written by --json) again: the report the run printed\n"
    "(text, byte for byte, with its regression lines), the record itself (json;\n"
    "an array for several files), one CSV row per phase with every figure\n"
    "(csv; a header of every column any row has), or Markdown tables for a\n"
    "ticket or a wiki (markdown). --html writes the run's page (docs/result.md).\n"
    "Several results are rendered one after another, in the order given; to\n"
    "set them side by side use cephbench compare, to add up the results of\n"
    "clients on several hosts cephbench merge.\n"
    "\n"
    "      --format F   text (default), json, csv or markdown\n"
    "      --detail     text: every finding and each phase's telemetry lines, as the\n"
    "                   run printed them with --detail\n"
    "      --html FILE  write one self-contained HTML page of the result\n"
    "\n"
    "Exit codes: 0 rendered, 2 bad input (nothing is written).\n";

enum fmt { FMT_TEXT, FMT_JSON, FMT_CSV, FMT_MD };

struct args {
	enum fmt fmt;
	bool fmt_given;
	bool detail; /* --detail: the text's telemetry lines, every finding */
	const char *html;
	char **files;
	size_t nfiles;
};

enum { OPT_FORMAT = CB_OPT_CMD_BASE, OPT_HTML, OPT_DETAIL, OPT_HELP };

static int parse_args(int argc, char **argv, struct args *a, struct cb_err *e)
{
	static const char shortopts[] = "h";
	static const struct option longopts[] = {
	    {"format", required_argument, NULL, OPT_FORMAT},
	    {"html", required_argument, NULL, OPT_HTML},
	    {"detail", no_argument, NULL, OPT_DETAIL},
	    {"help", no_argument, NULL, OPT_HELP},
	    {NULL, 0, NULL, 0},
	};
	static const char *const names[] = {"text", "json", "csv", "markdown"};
	int opt;
	struct cb_cli_seen seen = {0};
	int li = -1;
	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, shortopts, longopts, &li)) != -1) {
		if (cb_cli_once(&seen, opt, li, shortopts, longopts, e) < 0)
			return -EINVAL;
		li = -1;
		switch (opt) {
		case OPT_FORMAT: {
			size_t k = 0;
			while (k < 4 && strcmp(optarg, names[k]) != 0)
				k++;
			if (k == 4)
				return cb_err_usage(
				    e, "--format '%s': use text, json, csv or markdown",
				    CB_ECHO(optarg));
			a->fmt = (enum fmt)k;
			a->fmt_given = true;
			break;
		}
		case OPT_HTML:
			a->html = optarg;
			if (cb_err_rule(e, "--html", optarg, cb_path_rule(optarg)) < 0)
				return -EINVAL;
			break;
		case OPT_DETAIL:
			a->detail = true;
			break;
		case 'h':
		case OPT_HELP:
			printf("%s", report_help);
			return CB_CLI_HELP;
		default:
			return cb_cli_bad_flag("report", shortopts, argc, argv, longopts, e);
		}
	}
	a->files = argv + optind;
	a->nfiles = (size_t)(argc - optind);
	if (a->nfiles == 0)
		return cb_err_usage(e, "no result file given (cephbench report RESULT.json)");
	if (a->html && a->fmt_given)
		return cb_err_usage(e, "--html writes a page, --format prints: give one of them");
	if (a->html && a->nfiles > 1)
		return cb_err_usage(e,
				    "--html draws one result, and %zu were given: to set results "
				    "side by side use cephbench compare A.json B.json --html FILE",
				    a->nfiles);
	return 0;
}

static int render_json(FILE *f, const void *rec)
{
	return cb_report_json_dump(f, rec);
}

static int print(const struct args *a, json_t **recs, struct cb_err *e)
{
	int r = 0;
	switch (a->fmt) {
	case FMT_TEXT:
		for (size_t i = 0; i < a->nfiles; i++) {
			cb_report_text(stdout, recs[i], a->detail);
			cb_health_print(recs[i], stdout, true);
		}
		break;
	case FMT_JSON:
		if (a->nfiles == 1) {
			r = render_json(stdout, recs[0]);
			break;
		}
		json_t *all = json_array();
		for (size_t i = 0; all && i < a->nfiles; i++)
			json_array_append(all, recs[i]);
		r = all ? render_json(stdout, all) : -ENOMEM;
		json_decref(all);
		break;
	case FMT_CSV:
		r = cb_report_csv(stdout, recs, a->nfiles);
		break;
	case FMT_MD:
		for (size_t i = 0; r == 0 && i < a->nfiles; i++)
			r = cb_report_markdown(stdout, recs[i]);
		break;
	}
	if (r == -ENOMEM)
		return cb_err_usage(e, "out of memory");
	if (fflush(stdout) != 0 || ferror(stdout) || r < 0)
		return cb_err_usage(e, "cannot write the report to standard output");
	return 0;
}

int cb_cmd_report(int argc, char **argv, enum cb_cmd_mode mode, struct cb_err *e)
{
	struct args a = {.fmt = FMT_TEXT};
	int r = parse_args(argc, argv, &a, e);
	if (r == CB_CLI_HELP)
		return CB_EXIT_OK;
	if (r < 0)
		return CB_EXIT_USAGE;
	if (mode == CB_CMD_PARSE)
		return CB_EXIT_OK;
	struct cb_out *page = NULL;
	struct cb_html html = {0};
	/* the target and Chart.js looked at first: a bad one costs no reading */
	if (a.html && cb_html_target(a.html, &page, &html, e) < 0)
		return CB_EXIT_USAGE;
	json_t **recs = calloc(a.nfiles, sizeof(*recs));
	r = recs ? 0 : cb_err_usage(e, "out of memory");
	/* every file read and checked before a word is printed */
	for (size_t i = 0; r == 0 && i < a.nfiles; i++) {
		if ((r = cb_result_load(a.files[i], &recs[i], e)) == 0)
			r = cb_result_check(recs[i], a.files[i], e);
		/* what the checks leave free (reasons, notes, a disk's name)
		 * reaches the terminal as text, not as its commands */
		if (r == 0 && (a.fmt == FMT_TEXT || a.fmt == FMT_MD) && !page &&
		    cb_esc_json(recs[i]) < 0)
			r = cb_err_usage(e, "out of memory");
	}
	if (r == 0 && page)
		r = cb_html_run_write(page, &html, recs[0],
				      json_string_value(json_object_get(recs[0], "run_name")), e);
	else if (r == 0)
		r = print(&a, recs, e);
	for (size_t i = 0; recs && i < a.nfiles; i++)
		json_decref(recs[i]);
	free(recs);
	cb_out_close(page);
	cb_html_close(&html);
	return r < 0 ? CB_EXIT_USAGE : CB_EXIT_OK;
}
