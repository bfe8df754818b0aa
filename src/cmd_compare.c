/* `cephbench compare A.json B.json...` and `cephbench compare --by KEY
 * FILE`: flags, pairing into sets, the report, and the exit code. */
#include "cli.h"
#include "commands.h"
#include "compare.h"
#include "html.h"
#include "outfile.h"
#include "term_esc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char compare_help[] =
    "usage: cephbench compare [flags] A.json B.json [C.json...]\n"
    "       cephbench compare [flags] --by KEY FILE.json\n"
    "\n"
    "Compares cephbench results: each later file with A (the baseline), phase by\n"
    "phase (matched by name); or, with --by, the rows of one matrix run that\n"
    "differ only in KEY, each against its group's first row. For IOPS, bandwidth\n"
    "and mean latency it tells whether the change is real with Welch's t-test\n"
    "(on per-repeat rates when both sides ran 2+ repeats, else on per-second\n"
    "samples); the p99 change is shown without a test. Each block names what\n"
    "differed besides the figures: parameters (concurrency: 16 (A: 4)), the\n"
    "pools, image and file system used, the clusters' OSDs and versions.\n"
    "See docs/compare.md.\n"
    "\n"
    "      --confidence PCT    confidence level of the intervals (default 95)\n"
    "      --fail-if-worse PCT exit 1 when IOPS or bandwidth is lower, or mean\n"
    "                          latency higher, by more than PCT % with the whole\n"
    "                          confidence interval beyond it; a pair with an\n"
    "                          interrupted or failed phase is not judged\n"
    "      --by KEY            compare the rows of one file by matrix key KEY\n"
    "      --format F          text (default) or json\n"
    "      --html FILE         also write the comparison as one self-contained HTML\n"
    "                          page: the table of --format json, the phases' IOPS\n"
    "                          and latency percentile curves overlaid\n"
    "\n"
    "Exit codes: 0 compared, 1 --fail-if-worse crossed, 2 bad input (an --html\n"
    "FILE that cannot be written too).\n";

/* A percentage flag's value; confidence must leave a two-sided tail. */
static int parse_pct(const char *flag, const char *arg, double lo, bool lo_open, double hi,
		     double *out, struct cb_err *e)
{
	char *end;
	errno = 0;
	double v = strtod(arg, &end);
	if (end == arg || *end || errno || !isfinite(v) || (lo_open ? v <= lo : v < lo) || v >= hi)
		return cb_err_usage(e, "%s '%s': give a percentage %s %g and below %g, like %s",
				    flag, CB_ECHO(arg), lo_open ? "above" : "from", lo, hi,
				    lo_open ? "95" : "5");
	*out = v;
	return 0;
}

/* What the sets point into, freed together. */
struct compare_state {
	struct cb_cmp_file *files;
	size_t nfiles;
	struct cb_cmp_set *sets;
	size_t nsets;
	char **strings; /* labels and titles made here */
	size_t nstrings;
	const char **alone;
	size_t nalone;
};

static char *keep(struct compare_state *st, char *s)
{
	if (s)
		st->strings[st->nstrings++] = s;
	return s;
}

static int file_sets(struct compare_state *st, const struct cb_cmp_opts *o, struct cb_err *e)
{
	const struct cb_cmp_file *a = &st->files[0];
	for (size_t k = 1; k < st->nfiles; k++) {
		const struct cb_cmp_file *b = &st->files[k];
		struct cb_cmp_set *s = &st->sets[st->nsets++];
		struct cb_cmp_match m;
		if (cb_cmp_match(a, b, &m) < 0)
			return cb_err_set(e, CB_EXIT_USAGE, -ENOMEM, "out of memory");
		s->c = calloc(m.npairs + 1, sizeof(*s->c));
		s->only_a = calloc(m.n_only_a + 1, sizeof(char *));
		s->only_b = calloc(m.n_only_b + 1, sizeof(char *));
		char *lb = NULL;
		if (k < 26 ? asprintf(&lb, "%c", (char)('A' + k)) < 0
			   : asprintf(&lb, "#%zu", k + 1) < 0)
			lb = NULL;
		if (!s->c || !s->only_a || !s->only_b || !keep(st, lb)) {
			cb_cmp_match_free(&m);
			return cb_err_set(e, CB_EXIT_USAGE, -ENOMEM, "out of memory");
		}
		s->label_a = "A";
		s->label_b = lb;
		if (cb_cmp_context_diffs(json_object_get(a->root, "context"),
					 json_object_get(b->root, "context"), &s->cdiffs,
					 &s->ncdiffs) < 0) {
			cb_cmp_match_free(&m);
			return cb_err_set(e, CB_EXIT_USAGE, -ENOMEM, "out of memory");
		}
		s->file_a = a->path;
		s->file_b = b->path;
		for (size_t i = 0; i < m.npairs; i++)
			if (cb_cmp_phases(&a->ph[m.pair_a[i]], &b->ph[m.pair_b[i]], o->confidence,
					  &s->c[s->n]) < 0 ||
			    cb_cmp_diffs(&s->c[s->n++], NULL) < 0) {
				cb_cmp_match_free(&m);
				return cb_err_set(e, CB_EXIT_USAGE, -ENOMEM, "out of memory");
			}
		for (size_t i = 0; i < m.n_only_a; i++)
			s->only_a[s->n_only_a++] = a->ph[m.only_a[i]].name;
		for (size_t i = 0; i < m.n_only_b; i++)
			s->only_b[s->n_only_b++] = b->ph[m.only_b[i]].name;
		cb_cmp_match_free(&m);
	}
	return 0;
}

/* "w.prefill [block_size=4K]": the group's workload, step and other keys */
static char *group_title(const struct cb_cmp_phase *p, const char *key)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	fprintf(f, "%s%s%s", p->workload ? p->workload : p->name, p->step ? "." : "",
		p->step ? p->step : "");
	const char *k, *sep = " [";
	const json_t *v;
	json_object_foreach((json_t *)p->matrix, k, v)
	{
		if (strcmp(k, key) == 0)
			continue;
		fprintf(f, "%s%s=%s", sep, k, json_string_value(v));
		sep = ", ";
	}
	if (strcmp(sep, ", ") == 0)
		fputc(']', f);
	return fclose(f) == 0 ? buf : (free(buf), NULL);
}

static char *row_label(const struct cb_cmp_phase *p, const char *key)
{
	char *s;
	return asprintf(&s, "%s=%s", key, json_string_value(json_object_get(p->matrix, key))) < 0
		   ? NULL
		   : s;
}

static int by_sets(struct compare_state *st, const struct cb_cmp_opts *o, struct cb_err *e)
{
	const struct cb_cmp_file *f = &st->files[0];
	struct cb_cmp_groups gs;
	if (cb_cmp_group_by(f, o->by, &gs, e) < 0)
		return -EINVAL;
	for (size_t g = 0; g < gs.n; g++) {
		const size_t *rows = gs.g[g].rows;
		const struct cb_cmp_phase *base = &f->ph[rows[0]];
		if (gs.g[g].n < 2)
			continue;
		const char *title = keep(st, group_title(base, o->by));
		const char *la = keep(st, row_label(base, o->by));
		if (!title || !la)
			goto nomem;
		for (size_t r = 1; r < gs.g[g].n; r++) {
			struct cb_cmp_set *s = &st->sets[st->nsets++];
			const struct cb_cmp_phase *p = &f->ph[rows[r]];
			char *lb = row_label(p, o->by);
			s->c = calloc(1, sizeof(*s->c));
			if (!keep(st, lb) || !s->c)
				goto nomem;
			s->label_a = la;
			s->label_b = lb;
			s->file_a = s->file_b = f->path;
			s->title = title;
			/* the rows differ in the key by design: not said again */
			if (cb_cmp_phases(base, p, o->confidence, &s->c[s->n]) < 0 ||
			    cb_cmp_diffs(&s->c[s->n++], o->by) < 0)
				goto nomem;
		}
	}
	for (size_t i = 0; i < gs.nalone; i++)
		st->alone[st->nalone++] = f->ph[gs.alone[i]].name;
	cb_cmp_groups_free(&gs);
	return 0;
nomem:
	cb_cmp_groups_free(&gs);
	return cb_err_set(e, CB_EXIT_USAGE, -ENOMEM, "out of memory");
}

static void state_free(struct compare_state *st)
{
	for (size_t i = 0; i < st->nsets; i++) {
		for (size_t k = 0; st->sets[i].c && k < st->sets[i].n; k++)
			free(st->sets[i].c[k].diffs);
		free(st->sets[i].cdiffs);
		free(st->sets[i].c);
		free(st->sets[i].only_a);
		free(st->sets[i].only_b);
	}
	free(st->sets);
	for (size_t i = 0; i < st->nstrings; i++)
		free(st->strings[i]);
	free(st->strings);
	free(st->alone);
	for (size_t i = 0; i < st->nfiles; i++)
		cb_cmp_free(&st->files[i]);
	free(st->files);
}

/* --fail-if-worse: the first phase crossing it is the error line */
static bool check_worse(const struct cb_cmp_doc *d, const struct cb_cmp_opts *o, struct cb_err *e)
{
	size_t crossed = 0;
	for (size_t k = 0; k < d->n; k++)
		for (size_t i = 0; i < d->s[k].n; i++) {
			const struct cb_cmp *c = &d->s[k].c[i];
			int m = cb_cmp_worse_beyond(c, o->fail_pct);
			if (m < 0 || ++crossed > 1)
				continue;
			const struct cb_cmp_metric *x = &c->m[m];
			char name[160], lb[64], est[32], lo[32], hi[32];
			cb_err_set(e, CB_EXIT_FAILED, -EDOM,
				   "%s: %s %s %s %% (%g %% CI %s…%s %%), worse than "
				   "--fail-if-worse %g %%",
				   cb_esc_str(d->s[k].title ? d->s[k].title : c->a->name, name,
					      sizeof(name)),
				   cb_esc_str(d->s[k].label_b, lb, sizeof(lb)),
				   cb_cmp_metrics[m].label,
				   cb_cmp_pct(x->est_pct, est, sizeof(est)), 100 * o->confidence,
				   cb_cmp_pct(x->lo_pct, lo, sizeof(lo)),
				   cb_cmp_pct(x->hi_pct, hi, sizeof(hi)), o->fail_pct);
		}
	if (crossed > 1) {
		size_t len = strlen(e->msg);
		snprintf(e->msg + len, sizeof(e->msg) - len, " (and %zu more)", crossed - 1);
	}
	return crossed > 0;
}

/* The page's data: the cephbench-compare/1 document doc, as --format json
 * prints it, and beside it what the overlaid curves draw: each input's
 * phases' per-second samples and histograms (borrowed from the files).
 * NULL on ENOMEM. */
static json_t *page_data(const struct compare_state *st, const struct cb_cmp_opts *o, json_t *doc)
{
	json_t *inputs = json_array();
	bool bad = !inputs;
	for (size_t i = 0; !bad && i < st->nfiles; i++) {
		json_t *phases = json_array(), *p;
		size_t k;
		bad = !phases;
		json_array_foreach(json_object_get(st->files[i].root, "phases"), k, p)
		{
			bad |= json_array_append_new(
				   phases, json_pack("{s:O, s:O*, s:O*, s:O*}", "name",
						     json_object_get(p, "name"), "samples",
						     json_object_get(p, "samples"), "histogram",
						     json_object_get(p, "histogram"), "latency_us",
						     json_object_get(p, "latency_us"))) < 0;
		}
		/* files: the first is A, the later ones their sets' B labels */
		const char *label = o->by ? NULL : i ? st->sets[i - 1].label_b : "A";
		bad |= json_array_append_new(inputs, json_pack("{s:s, s:s*, s:o}", "file",
							       st->files[i].path, "label", label,
							       "phases", phases)) < 0;
	}
	if (bad) { /* a page missing a file's curves would mislead */
		json_decref(inputs);
		return NULL;
	}
	return json_pack("{s:O, s:o}", "compare", doc, "inputs", inputs);
}

/* Load, pair, test, print; then the page. Returns the exit code. */
static int compare(char **paths, size_t nfiles, const struct cb_cmp_opts *opts,
		   const struct cb_run_opts *ro, struct cb_out *html, struct cb_html *page,
		   struct cb_err *e)
{
	const struct cb_cmp_opts o = *opts;
	struct compare_state st = {0};
	st.files = calloc(nfiles, sizeof(*st.files));
	if (!st.files)
		return cb_err_set(e, CB_EXIT_USAGE, -ENOMEM, "out of memory"), CB_EXIT_USAGE;
	size_t rows = 0;
	int rc = 0;
	for (size_t i = 0; i < nfiles && rc == 0; i++) {
		rc = cb_cmp_load(paths[i], &st.files[i], e);
		st.nfiles++;
		rows += st.files[i].n;
	}
	if (rc == 0) {
		/* at most a set per later file, or per row; a label or title per set,
		 * plus a title per group */
		st.sets = calloc(nfiles + rows + 1, sizeof(*st.sets));
		st.strings = calloc(2 * (nfiles + rows) + 2, sizeof(char *));
		st.alone = calloc(rows + 1, sizeof(char *));
		if (!st.sets || !st.strings || !st.alone)
			rc = cb_err_set(e, CB_EXIT_USAGE, -ENOMEM, "out of memory");
	}
	if (rc == 0)
		rc = o.by ? by_sets(&st, &o, e) : file_sets(&st, &o, e);
	if (rc < 0) {
		state_free(&st);
		return (int)e->exit;
	}

	struct cb_cmp_doc d = {st.sets, st.nsets, st.alone, st.nalone, false};
	struct cb_err worse = {0};
	d.worse = !isnan(o.fail_pct) && check_worse(&d, &o, &worse);
	/* one document for both renderings: the JSON and the page */
	json_t *j = ro->format == CB_FORMAT_JSON || html ? cb_cmp_json(&d, &o) : NULL;
	if ((ro->format == CB_FORMAT_JSON || html) && !j)
		rc = cb_err_usage(e, "out of memory");
	else if (ro->format == CB_FORMAT_JSON) {
		if (json_dumpf(j, stdout, JSON_INDENT(2)) < 0)
			rc = cb_err_set(e, CB_EXIT_USAGE, -EIO, "cannot write the JSON report");
		else
			fputc('\n', stdout);
	} else {
		cb_cmp_print_text(stdout, &d, &o);
	}
	if (rc == 0 && fflush(stdout) != 0)
		rc = cb_err_usage(e, "standard output: %s", strerror(errno));
	if (rc == 0 && html) {
		json_t *data = page_data(&st, &o, j);
		page->data = data;
		rc = data ? cb_out_write(html, cb_html_render, page, e)
			  : cb_err_usage(e, "out of memory");
		page->data = NULL;
		json_decref(data);
	}
	json_decref(j);
	state_free(&st);
	if (rc < 0)
		return (int)e->exit;
	if (d.worse) {
		*e = worse;
		return CB_EXIT_FAILED;
	}
	return 0;
}

int cb_cmd_compare(int argc, char **argv, enum cb_cmd_mode mode, struct cb_err *e)
{
	enum { OPT_CONFIDENCE = CB_OPT_CMD_BASE, OPT_FAIL, OPT_BY };
	static const char shortopts[] = "h";
	static const struct option longopts[] = {
	    {"confidence", required_argument, NULL, OPT_CONFIDENCE},
	    {"fail-if-worse", required_argument, NULL, OPT_FAIL},
	    {"by", required_argument, NULL, OPT_BY},
	    {"format", required_argument, NULL, CB_OPT_FORMAT},
	    {"html", required_argument, NULL, CB_OPT_HTML},
	    {"help", no_argument, NULL, CB_OPT_HELP},
	    {NULL, 0, NULL, 0},
	};
	struct cb_run_opts ro = {.sigfd = -1};
	struct cb_cli_seen seen = {0};
	struct cb_cmp_opts o = {.confidence = 0.95, .fail_pct = NAN};
	double pct;
	int opt;

	optind = 0;
	while ((opt = cb_cli_getopt(argc, argv, shortopts, longopts, &ro, &seen, e)) != -1) {
		switch (opt) {
		case CB_CLI_ERROR:
			return CB_EXIT_USAGE;
		case OPT_CONFIDENCE:
			if (parse_pct("--confidence", optarg, 0, true, 100, &pct, e) < 0)
				return CB_EXIT_USAGE;
			o.confidence = pct / 100;
			break;
		case OPT_FAIL:
			if (parse_pct("--fail-if-worse", optarg, 0, false, 100, &o.fail_pct, e) < 0)
				return CB_EXIT_USAGE;
			break;
		case OPT_BY:
			o.by = optarg;
			break;
		case 'h':
		case CB_OPT_HELP:
			printf("%s", compare_help);
			return 0;
		default:
			cb_cli_bad_flag("compare", shortopts, argc, argv, longopts, e);
			return CB_EXIT_USAGE;
		}
	}
	size_t nfiles = (size_t)(argc - optind);
	if (o.by && nfiles != 1)
		return cb_err_usage(e, "--by %s compares the rows of one file; give exactly one",
				    o.by),
		       CB_EXIT_USAGE;
	if (!o.by && nfiles < 2)
		return cb_err_usage(e, "give two result files or more (A.json B.json...), or one "
				       "with --by KEY (see cephbench compare --help)"),
		       CB_EXIT_USAGE;
	if (mode == CB_CMD_PARSE)
		return CB_EXIT_OK;

	/* a page that cannot be written is refused before any file is read */
	struct cb_out *html = NULL;
	struct cb_html page = {.kind = "compare", .title = "cephbench compare"};
	if (ro.html_path && cb_html_target(ro.html_path, &html, &page, e) < 0)
		return CB_EXIT_USAGE;
	int rc = compare(argv + optind, nfiles, &o, &ro, html, &page, e);
	cb_out_close(html);
	cb_html_close(&page);
	return rc;
}
