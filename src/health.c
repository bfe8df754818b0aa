/* The health flags and what happens to a run's record after it ran:
 * regression verdicts, history, textfile. */
#include "health.h"
#include "served.h"
#include "history_db.h"
#include "prom.h"
#include "options.h"
#include "regression.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct cb_health {
	struct cb_health_opts o;
	struct cb_hdb *db;
	struct cb_out *prom; /* --prom, checked and held before the run */
};

int cb_health_flag(int opt, const char *arg, struct cb_health_opts *o, struct cb_err *e)
{
	char *end;
	double pct;
	unsigned long n;
	switch (opt) {
	case CB_OPT_HISTORY:
		o->history = arg;
		return cb_err_rule(e, "--history", arg, cb_path_rule(arg)) ?: 1;
	case CB_OPT_PROM:
		o->prom = arg;
		return cb_err_rule(e, "--prom", arg, cb_path_rule(arg)) ?: 1;
	case CB_OPT_REGRESSION:
		errno = 0;
		pct = strtod(arg, &end);
		if (*end == '%')
			end++;
		if (errno || end == arg || *end || !isfinite(pct) || pct <= 0 || pct > 1000)
			return cb_err_usage(e,
					    "--regression '%s': expected a percentage above 0 and "
					    "at most 1000, like 10",
					    arg);
		o->regression_pct = pct;
		return 1;
	case CB_OPT_BASELINE:
		errno = 0;
		n = strtoul(arg, &end, 10);
		/* fewer than CB_REG_MIN_RUNS could never give a verdict */
		if (errno || end == arg || *end || arg[0] == '-' || n < CB_REG_MIN_RUNS || n > 1000)
			return cb_err_usage(e,
					    "--baseline '%s': expected a number of earlier runs "
					    "from %d (the fewest a verdict needs) to 1000, like 7",
					    arg, CB_REG_MIN_RUNS);
		o->baseline = (unsigned)n;
		return 1;
	}
	return 0;
}

int cb_health_check(const struct cb_health_opts *o, struct cb_err *e)
{
	if (o->regression_pct && !o->history)
		return cb_err_usage(e, "--regression needs --history FILE (the earlier runs to "
				       "compare with)");
	if (o->baseline && !o->regression_pct)
		return cb_err_usage(e, "--baseline needs --regression PCT");
	return 0;
}

int cb_health_open(const struct cb_health_opts *o, struct cb_health **out, struct cb_err *e)
{
	*out = NULL;
	if (!o->history && !o->prom && !o->regression_pct && !o->baseline)
		return 0;
	if (cb_health_check(o, e) < 0)
		return -EINVAL;
	struct cb_health *h = calloc(1, sizeof(*h));
	if (!h)
		return cb_err_usage(e, "out of memory");
	h->o = *o;
	if (!h->o.baseline)
		h->o.baseline = CB_BASELINE_DEFAULT;
	char label[1100];
	int r = 0;
	if (o->prom) {
		snprintf(label, sizeof(label), "--prom %s", o->prom);
		r = cb_out_open(label, o->prom, CB_OUT_REPORT, &h->prom, e);
	}
	if (r == 0 && o->history) {
		snprintf(label, sizeof(label), "--history %s", o->history);
		r = cb_hdb_open(o->history, true, o->history_label ? o->history_label : label,
				&h->db, e);
	}
	if (r < 0) {
		cb_health_close(h);
		return -EINVAL;
	}
	*out = h;
	return 0;
}

/* Why a phase gets no verdict whatever its baseline, or NULL. */
static const char *skip_reason(const json_t *rec, const json_t *ph)
{
	if (json_is_true(json_object_get(rec, "interrupted")))
		return "the run was interrupted";
	if (json_is_true(json_object_get(ph, "interrupted")))
		return "the phase was interrupted";
	if (json_is_true(json_object_get(ph, "failed")))
		return "the phase failed";
	/* the cluster changed under it (telemetry's state part): its figures
	 * say what the cluster did then, not how fast it is */
	if (json_array_size(json_object_get(ph, "disturbed")) > 0)
		return "the phase was disturbed";
	/* not the cluster's figures (served.h): neither judged nor a baseline */
	if (cb_row_cached(ph))
		return "served by the client's cache";
	return NULL;
}

static int annotate(struct cb_health *h, json_t *rec, int *nreg, struct cb_err *e)
{
	json_t *phases = json_object_get(rec, "phases"), *ph;
	size_t i;
	json_array_foreach(phases, i, ph)
	{
		double *rows;
		size_t n;
		const char *name = json_string_value(json_object_get(ph, "name"));
		if (cb_hdb_baseline(h->db, rec, name, h->o.baseline, &rows, &n, e) < 0)
			return -EIO;
		json_t *a =
		    cb_regression_judge(ph, rows, n, h->o.regression_pct, skip_reason(rec, ph));
		free(rows);
		if (!a || json_object_set_new(ph, "regression", a) < 0)
			return cb_err_usage(e, "out of memory");
		*nreg +=
		    strcmp(json_string_value(json_object_get(a, "verdict")), "regression") == 0;
	}
	return 0;
}

/* A failure of its own: the first error keeps its exit code, this one is
 * still told (cron must learn that the history or textfile is stale). */
static void own_error(struct cb_err *e, const struct cb_err *mine)
{
	if (cb_err_isset(e))
		fprintf(stderr, "cephbench: %s\n", mine->msg);
	else
		*e = *mine;
}

int cb_health_record(struct cb_health *h, json_t *rec, struct cb_err *e)
{
	struct cb_err he = {0}, pe = {0};
	int nreg = 0, r = 0;
	if (!h)
		return 0;
	if (h->db) {
		r = cb_hdb_begin(h->db, &he);
		if (r == 0 && h->o.regression_pct > 0)
			r = annotate(h, rec, &nreg, &he);
		if (r == 0)
			r = cb_hdb_store(h->db, rec, &he);
		if (r == 0)
			r = cb_hdb_commit(h->db, &he);
		else if (cb_err_isset(&he))
			cb_hdb_rollback(h->db);
		if (r < 0)
			own_error(e, &he);
	}
	/* a run stored already is an input refused whole (exit 2): nothing
	 * is written, the textfile neither */
	if (r == -EEXIST)
		return 0;
	if (h->prom && cb_prom_write(h->prom, rec, &pe) < 0)
		own_error(e, &pe);
	return nreg;
}

static void print_metric(FILE *out, const char *phase, const char *key, const json_t *m,
			 size_t runs)
{
	double v = json_number_value(json_object_get(m, "value"));
	double med = json_number_value(json_object_get(m, "baseline_median"));
	const char *label = "IOPS", *fmt = "%.0f", *unit = "";
	double scale = 1;
	if (strcmp(key, "bw_bytes_per_s") == 0)
		label = "MiB/s", fmt = "%.2f", scale = 1.0 / (1 << 20);
	else if (strcmp(key, "p99_us") == 0)
		label = "p99", fmt = "%.3f", unit = " ms", scale = 1e-3;
	fprintf(out, "regression: %s: %s ", phase, label);
	fprintf(out, fmt, v * scale);
	fprintf(out, "%s vs median ", unit);
	fprintf(out, fmt, med * scale);
	fprintf(out, "%s of %zu runs (%+.1f %%, limit %+g %%, baseline spread ±%.1f %%)\n", unit,
		runs, json_number_value(json_object_get(m, "change_pct")),
		json_number_value(json_object_get(m, "limit_pct")),
		json_number_value(json_object_get(m, "spread_pct")));
}

/* The phases whose annotation says verdict (and reason, when given) in one
 * line, the first time that pair is met: a profile of 13 phases with no
 * history yet says so in one line, not 13. */
static void print_group(FILE *out, const json_t *phases, size_t first, const char *verdict,
			const char *reason)
{
	const json_t *ph;
	size_t i;
	json_array_foreach(phases, i, ph)
	{
		const json_t *a = json_object_get(ph, "regression");
		const char *v = json_string_value(json_object_get(a, "verdict"));
		const char *r = json_string_value(json_object_get(a, "reason"));
		bool same =
		    v && strcmp(v, verdict) == 0 && (!reason || (r && strcmp(r, reason) == 0));
		if (same && i < first)
			return; /* printed with an earlier phase */
		if (!same)
			continue;
		if (i == first && reason)
			fprintf(out, "regression check: no verdict (%s):", reason);
		else if (i == first)
			fprintf(out, "regression check: ok against the median of earlier runs:");
		fprintf(out, " %s", json_string_value(json_object_get(ph, "name")));
	}
	fputc('\n', out);
}

void cb_health_print(const json_t *rec, FILE *out, bool verbose)
{
	const json_t *phases = json_object_get(rec, "phases"), *ph;
	size_t i;
	json_array_foreach(phases, i, ph)
	{
		const json_t *a = json_object_get(ph, "regression");
		const char *name = json_string_value(json_object_get(ph, "name"));
		const char *verdict = json_string_value(json_object_get(a, "verdict"));
		if (!verdict)
			continue;
		if (strcmp(verdict, "regression") != 0) {
			if (verbose)
				print_group(out, phases, i, verdict,
					    json_string_value(json_object_get(a, "reason")));
			continue;
		}
		const char *key;
		const json_t *m;
		size_t runs = (size_t)json_integer_value(json_object_get(a, "baseline_runs"));
		json_object_foreach((json_t *)json_object_get(a, "metrics"), key,
				    m) if (json_is_true(json_object_get(m, "regression")))
		    print_metric(out, name, key, m, runs);
	}
	fflush(out);
}

void cb_health_close(struct cb_health *h)
{
	if (!h)
		return;
	cb_hdb_close(h->db);
	cb_out_close(h->prom);
	free(h);
}
