/* Rendering a comparison: a block per pair of phases (text) or one JSON
 * document, "cephbench-compare/1" (docs/compare.md). */
#include "compare.h"
#include "term_esc.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Text units: the records' figures scaled for reading. */
static const struct {
	const char *name, *fmt;
	double scale;
} text_unit[CB_CMP_NMETRICS] = {
    [CB_CMP_IOPS] = {"IOPS", "%12.1f", 1},
    [CB_CMP_BW] = {"MiB/s", "%12.2f", 1.0 / 1048576},
    [CB_CMP_LAT] = {"mean ms", "%12.3f", 1e-3},
    [CB_CMP_P99] = {"p99 ms", "%12.3f", 1e-3},
};

const char *cb_cmp_pct(double pct, char *buf, size_t n)
{
	/* beyond a million per cent, digits say nothing: a baseline near 0 */
	snprintf(buf, n, fabs(pct) < 1e6 ? "%+.1f" : "%+.3g", pct);
	return buf;
}

static void verdict_text(char *buf, size_t len, const char *label_b, int i,
			 const struct cb_cmp_metric *m, double confidence)
{
	char lb[64], est[32], lo[32], hi[32];
	if (!cb_cmp_metrics[i].tested) {
		snprintf(buf, len, "change only, not tested");
		return;
	}
	if (!m->tested) {
		snprintf(buf, len, "not tested: %s", m->untested);
		return;
	}
	if (!m->verdict) {
		snprintf(buf, len, "no significant difference");
		return;
	}
	snprintf(buf, len, "%s %s %% %s (%g %% CI %s…%s %%), %s",
		 cb_esc_str(label_b, lb, sizeof(lb)), cb_cmp_pct(m->est_pct, est, sizeof(est)),
		 cb_cmp_metrics[i].label, 100 * confidence, cb_cmp_pct(m->lo_pct, lo, sizeof(lo)),
		 cb_cmp_pct(m->hi_pct, hi, sizeof(hi)), m->verdict > 0 ? "better" : "worse");
}

/* Names come from the files: escaped (term_esc.h), as every text below. */
static void print_names(FILE *out, const char *what, const char **names, size_t n)
{
	if (!n)
		return;
	fprintf(out, "%s:", what);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ", " : " ", out);
		cb_esc_fputs(out, names[i], 0);
	}
	fputc('\n', out);
}

/* A phase cut short is still compared (its figures are real, only fewer),
 * but a reader must not take its verdicts at face value. */
static void print_partial(FILE *out, const char *label, const struct cb_cmp_phase *p)
{
	char l[64];
	cb_esc_str(label, l, sizeof(l));
	if (p->failed)
		fprintf(out,
			"  note: %s's phase failed after %" JSON_INTEGER_FORMAT
			" errors%s (partial figures)\n",
			l, p->errors, p->interrupted ? " and was interrupted" : "");
	else if (p->interrupted)
		fprintf(out, "  note: %s's phase was interrupted (partial figures)\n", l);
	if (p->cached)
		fprintf(out,
			"  note: %s's row was served by the client's cache: not the cluster's "
			"speed\n",
			l);
}

/* How a difference's target is named: "pool bench", "OSDs". */
static const char *target_noun(const struct cb_cmp_diff *d)
{
	if (strcmp(d->kind, "cluster") == 0)
		return strcmp(d->a_name, "osds") == 0 ? "OSDs" : "Ceph versions";
	return strcmp(d->kind, "filesystem") == 0 ? "file system" : d->kind;
}

/* A parameter a line each ("concurrency: 16 (A: 4)"); a target's
 * properties on one line ("B's pool bench: size 2 (A: 3), pg_num 8 (A:
 * 16)"), its name in A beside it when that differs. */
static void print_diffs(FILE *out, const char *la, const char *lb, const struct cb_cmp_diff *d,
			size_t n)
{
	char va[256], vb[256], ea[256], eb[256], k[128];
	for (size_t i = 0; i < n;) {
		const struct cb_cmp_diff *t = &d[i];
		cb_esc_str(t->key, k, sizeof(k));
		if (strcmp(t->kind, "params") == 0) {
			fprintf(
			    out, "  differs: %s: %s (%s: %s)\n", k,
			    cb_esc_str(cb_cmp_value_text(t->b, vb, sizeof(vb)), eb, sizeof(eb)), la,
			    cb_esc_str(cb_cmp_value_text(t->a, va, sizeof(va)), ea, sizeof(ea)));
			i++;
			continue;
		}
		bool named = strcmp(t->kind, "cluster") != 0;
		fprintf(out, "  differs: %s's %s", lb, target_noun(t));
		if (named) {
			fprintf(out, " %s", cb_esc_str(t->b_name, eb, sizeof(eb)));
			if (strcmp(t->a_name, t->b_name) != 0)
				fprintf(out, " (%s: %s)", la,
					cb_esc_str(t->a_name, ea, sizeof(ea)));
		}
		fputc(':', out);
		size_t j = i;
		for (; j < n && strcmp(d[j].kind, t->kind) == 0 &&
		       strcmp(d[j].a_name, t->a_name) == 0 && strcmp(d[j].b_name, t->b_name) == 0;
		     j++) {
			cb_esc_str(d[j].key, k, sizeof(k));
			fprintf(
			    out, "%s %s %s (%s: %s)", j > i ? "," : "", k,
			    cb_esc_str(cb_cmp_value_text(d[j].b, vb, sizeof(vb)), eb, sizeof(eb)),
			    la,
			    cb_esc_str(cb_cmp_value_text(d[j].a, va, sizeof(va)), ea, sizeof(ea)));
		}
		i = j;
		fputc('\n', out);
	}
}

static void print_pair(FILE *out, const struct cb_cmp_set *s, const struct cb_cmp *c,
		       const struct cb_cmp_opts *o)
{
	char la[64], lb[64];
	fputc('\n', out);
	cb_esc_fputs(out, s->title ? s->title : c->a->name, 0);
	if (c->a->own_name) /* a kind of a row (by_op) */
		fprintf(out, " (one kind of the row's ops: its figures, not tested)\n");
	else
		fprintf(out, " (%s: %zu vs %zu)\n",
			c->repeats ? "per-repeat rates" : "per-second samples", c->n_a, c->n_b);
	cb_esc_str(s->label_a, la, sizeof(la));
	cb_esc_str(s->label_b, lb, sizeof(lb));
	bool short_labels = strlen(la) <= 12 && strlen(lb) <= 12;
	fprintf(out, "  %-8s %12s %12s %9s  verdict\n", "", short_labels ? la : "baseline",
		short_labels ? lb : "other", "change");
	for (int i = 0; i < CB_CMP_NMETRICS; i++) {
		const struct cb_cmp_metric *m = &c->m[i];
		char verdict[256], pct[32];
		verdict_text(verdict, sizeof(verdict), s->label_b, i, m, o->confidence);
		fprintf(out, "  %-8s ", text_unit[i].name);
		fprintf(out, text_unit[i].fmt, m->a * text_unit[i].scale);
		fputc(' ', out);
		fprintf(out, text_unit[i].fmt, m->b * text_unit[i].scale);
		if (isnan(m->change_pct))
			fprintf(out, " %9s", "n/a");
		else
			fprintf(out, " %7s %%", cb_cmp_pct(m->change_pct, pct, sizeof(pct)));
		fprintf(out, "  %s\n", verdict);
	}
	/* op errors within max_errors leave the phase whole and judged: the
	 * counts are all there is to say about them */
	if (c->a->errors || c->b->errors)
		fprintf(out,
			"  op errors: %s %" JSON_INTEGER_FORMAT ", %s %" JSON_INTEGER_FORMAT "\n",
			la, c->a->errors, lb, c->b->errors);
	print_diffs(out, la, lb, c->diffs, c->ndiffs);
	print_partial(out, s->label_a, c->a);
	print_partial(out, s->label_b, c->b);
	if (!c->judged && !isnan(o->fail_pct))
		fprintf(out, "  note: not judged by --fail-if-worse\n");
}

void cb_cmp_print_text(FILE *out, const struct cb_cmp_doc *d, const struct cb_cmp_opts *o)
{
	const struct cb_cmp_set *s = d->s;
	if (o->by) {
		fputs("== rows by ", out);
		cb_esc_fputs(out, o->by, 0);
		fprintf(out, ", each against its group's first (%g %% confidence)\n",
			100 * o->confidence);
	}
	for (size_t k = 0; k < d->n; k++) {
		if (!s[k].title) {
			fprintf(out, "%s== ", k ? "\n" : "");
			const char *const parts[] = {s[k].label_b, ": ", s[k].file_b, " against ",
						     s[k].label_a, ": ", s[k].file_a};
			for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
				if (i % 2)
					fputs(parts[i], out);
				else
					cb_esc_fputs(out, parts[i], 0);
			fprintf(out, " (%g %% confidence)\n", 100 * o->confidence);
			char la[64], lb[64];
			print_diffs(out, cb_esc_str(s[k].label_a, la, sizeof(la)),
				    cb_esc_str(s[k].label_b, lb, sizeof(lb)), s[k].cdiffs,
				    s[k].ncdiffs);
		}
		for (size_t i = 0; i < s[k].n; i++)
			print_pair(out, &s[k], &s[k].c[i], o);
		if (s[k].n_only_a || s[k].n_only_b)
			fputc('\n', out);
		print_names(out, "only in A", s[k].only_a, s[k].n_only_a);
		print_names(out, "only in B", s[k].only_b, s[k].n_only_b);
	}
	if (d->nalone)
		fputc('\n', out);
	print_names(out, "nothing to compare with", d->alone, d->nalone);
}

/* jansson refuses NaN and infinities */
static json_t *num(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

static json_t *names_json(const char **names, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; a && i < n; i++)
		json_array_append_new(a, json_string(names[i]));
	return a;
}

static json_t *metric_json(const struct cb_cmp_set *s, int i, const struct cb_cmp_metric *m,
			   const struct cb_cmp_opts *o)
{
	char verdict[256];
	verdict_text(verdict, sizeof(verdict), s->label_b, i, m, o->confidence);
	json_t *j =
	    json_pack("{s:o, s:o, s:o, s:b, s:s}", "a", num(m->a), "b", num(m->b), "change_pct",
		      num(m->change_pct), "tested", m->tested, "text", verdict);
	if (j && m->tested)
		json_object_update_new(
		    j, json_pack("{s:o, s:[o, o], s:o, s:o, s:o, s:s}", "estimate_pct",
				 num(m->est_pct), "ci_pct", num(m->lo_pct), num(m->hi_pct), "t",
				 num(m->w.t), "df", num(m->w.df), "p", num(m->w.p), "verdict",
				 m->verdict > 0	  ? "better"
				 : m->verdict < 0 ? "worse"
						  : "none"));
	return j;
}

/* [{"kind": "params", "key": "concurrency", "a": 4, "b": 16}, {"kind":
 * "pool", "a_name": "rep", "b_name": "ec", "key": "type", ...}] */
static json_t *diffs_json(const struct cb_cmp_diff *d, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; a && i < n; i++) {
		json_t *j =
		    json_pack("{s:s, s:s, s:O, s:O}", "kind", d[i].kind, "key", d[i].key, "a",
			      d[i].a ? d[i].a : json_null(), "b", d[i].b ? d[i].b : json_null());
		if (j && d[i].a_name && strcmp(d[i].kind, "params") != 0) {
			json_object_set_new(j, "a_name", json_string(d[i].a_name));
			json_object_set_new(j, "b_name", json_string(d[i].b_name));
		}
		json_array_append_new(a, j);
	}
	return a;
}

static json_t *pair_json(const struct cb_cmp_set *s, const struct cb_cmp *c,
			 const struct cb_cmp_opts *o)
{
	json_t *j = json_pack(
	    "{s:s, s:s, s:s, s:I, s:I, s:I, s:b, s:b, s:b, s:I, s:b, s:b, s:b, s:b}", "a_name",
	    c->a->name, "b_name", c->b->name, "data",
	    c->a->own_name ? "kind"
	    : c->repeats   ? "repeats"
			   : "seconds",
	    "n_a", (json_int_t)c->n_a, "n_b", (json_int_t)c->n_b, "a_errors", c->a->errors,
	    "a_interrupted", c->a->interrupted, "a_failed", c->a->failed, "a_cached", c->a->cached,
	    "b_errors", c->b->errors, "b_interrupted", c->b->interrupted, "b_failed", c->b->failed,
	    "b_cached", c->b->cached, "judged", c->judged);
	for (int i = 0; j && i < CB_CMP_NMETRICS; i++)
		json_object_set_new(j, cb_cmp_metrics[i].key, metric_json(s, i, &c->m[i], o));
	if (j)
		json_object_set_new(j, "differences", diffs_json(c->diffs, c->ndiffs));
	return j;
}

json_t *cb_cmp_json(const struct cb_cmp_doc *d, const struct cb_cmp_opts *o)
{
	const struct cb_cmp_set *s = d->s;
	json_t *sets = json_array();
	for (size_t k = 0; sets && k < d->n; k++) {
		json_t *phases = json_array();
		for (size_t i = 0; phases && i < s[k].n; i++)
			json_array_append_new(phases, pair_json(&s[k], &s[k].c[i], o));
		json_array_append_new(
		    sets, json_pack("{s:o, s:{s:s, s:s}, s:{s:s, s:s}, s:o, s:o, s:o, s:o}",
				    "context_differences", diffs_json(s[k].cdiffs, s[k].ncdiffs),
				    "a", "label", s[k].label_a, "file", s[k].file_a, "b", "label",
				    s[k].label_b, "file", s[k].file_b, "group",
				    s[k].title ? json_string(s[k].title) : json_null(), "phases",
				    phases, "only_a", names_json(s[k].only_a, s[k].n_only_a),
				    "only_b", names_json(s[k].only_b, s[k].n_only_b)));
	}
	return json_pack("{s:s, s:o, s:o, s:o, s:b, s:o, s:o}", "schema", "cephbench-compare/1",
			 "confidence_pct", num(100 * o->confidence), "by",
			 o->by ? json_string(o->by) : json_null(), "fail_if_worse_pct",
			 num(o->fail_pct), "worse", d->worse, "comparisons", sets, "alone",
			 names_json(d->alone, d->nalone));
}
