/* Rendering of the per-layer bottleneck breakdown (bottleneck.h): the text
 * section below the table and the JSON "layers" array. The figures are the
 * rows' own, printed as the table and the phases' JSON print them. */
#include "bottleneck.h"
#include "report.h"
#include "telemetry.h"
#include "tm_client.h"
#include "units.h"
#include "jget.h"

#include <stdint.h>
#include <string.h>

/* The layer a phase of the record ran on ("" when not found). */
static const char *layer_of(const json_t *rec, const char *phase)
{
	const json_t *p;
	size_t i;
	json_array_foreach(json_object_get(rec, "phases"), i, p)
	{
		if (strcmp(cb_jstr(p, "name", ""), phase) == 0)
			return cb_jstr(p, "layer", "");
	}
	return "";
}

static void group_text(FILE *out, const json_t *rec, const json_t *g)
{
	const json_t *rows = json_object_get(g, "rows"), *worst = json_object_get(g, "most_lost");
	const json_t *w, *x;
	size_t i;
	char bs[32], qd[48];
	const char *op = cb_jstr(g, "op", "");
	cb_format_size(cb_jcount(g, "block_size"), bs, sizeof(bs));
	const char *wl = cb_jstr(worst, "layer", NULL);
	w = NULL;
	json_array_foreach(rows, i, x)
	{
		if (wl && strcmp(cb_jstr(x, "layer", ""), wl) == 0)
			w = x;
	}
	if (w)
		fprintf(out, "%s %s: most lost in %s over %s (%+.1f %% IOPS, %+.3f ms p99)\n", bs,
			op, wl, cb_jstr(worst, "base", ""), -cb_jnum(w, "iops_lost_pct"),
			cb_jnum(w, "p99_added_us") / 1e3);
	else
		fprintf(out, "%s %s: no layer loses IOPS over the one beneath it\n", bs, op);
	int nw = 5;
	json_array_foreach(rows, i, x)
	{
		int n = (int)strlen(cb_jstr(x, "phase", ""));
		nw = n > nw ? n : nw;
	}
	fprintf(out, "  %-6s %-*s %7s %10s %9s %9s | %-6s %8s %9s %9s\n", "layer", nw, "phase",
		"qd", "IOPS", "p50 ms", "p99 ms", "over", "IOPS", "p50 ms", "p99 ms");
	json_array_foreach(rows, i, x)
	{
		cb_report_depth(x, qd, sizeof(qd));
		fprintf(out, "  %-6s %-*s %7s %10.1f %9.3f %9.3f |", cb_jstr(x, "layer", ""), nw,
			cb_jstr(x, "phase", ""), qd, cb_jnum(x, "iops"), cb_jnum(x, "p50_us") / 1e3,
			cb_jnum(x, "p99_us") / 1e3);
		if (json_object_get(x, "base"))
			fprintf(out, " %-6s %+6.1f %% %+9.3f %+9.3f", cb_jstr(x, "base", ""),
				-cb_jnum(x, "iops_lost_pct"), cb_jnum(x, "p50_added_us") / 1e3,
				cb_jnum(x, "p99_added_us") / 1e3);
		fputs(cb_jtrue(x, "client_bound") ? " (client-bound)\n" : "\n", out);
	}
	if (json_is_false(json_object_get(g, "same_in_flight")))
		fprintf(out,
			"  note: ops in flight differ (qd): a fair comparison needs the same\n");
	if (json_is_false(json_object_get(g, "same_pool")))
		fprintf(out, "  note: the rows ran on different pools: the costs include the "
			     "pools' differences\n");
	json_array_foreach(json_object_get(g, "not_compared"), i, x)
	{
		const char *ph = json_string_value(x) ? json_string_value(x) : "";
		fprintf(out, "  note: %s not compared: an earlier %s row stands for its layer\n",
			ph, layer_of(rec, ph));
	}
	json_array_foreach(json_object_get(g, "cached"), i, x)
	{
		const char *ph = json_string_value(x) ? json_string_value(x) : "";
		fprintf(out, "  note: %s left out: the client's cache served it, not the cluster\n",
			ph);
	}
}

void cb_report_bottleneck_text(FILE *out, const json_t *rec)
{
	const json_t *layers = json_object_get(rec, "layers"), *g;
	size_t i;
	if (!json_array_size(layers))
		return;
	fprintf(out, "\nLayer breakdown: the same op and block size on several layers, each "
		     "over the layer beneath it\n");
	json_array_foreach(layers, i, g)
	{
		group_text(out, rec, g);
	}
}

/* Microseconds as the phases' latency_us has them: truncated. */
static json_int_t us(uint64_t ns)
{
	return (json_int_t)(ns / 1000);
}

static json_t *group_json(const struct cb_result *r, const struct cb_layer_group *g)
{
	json_t *rows = json_array(), *skipped = json_array(), *worst = json_null();
	bool ok = rows && skipped && worst;
	for (int l = 0; l < CB_L_COUNT; l++) {
		const struct cb_layer_row *w = &g->row[l];
		if (w->phase == SIZE_MAX)
			continue;
		const struct cb_phase_result *p = &r->phases[w->phase];
		json_t *o =
		    json_pack("{s:s, s:s, s:s, s:I, s:I, s:f, s:I, s:I}", "layer",
			      cb_layer_names[l], "phase", p->name, "op", p->op, "clients",
			      (json_int_t)p->clients, "concurrency", (json_int_t)p->concurrency,
			      "iops", w->iops, "p50_us", us(w->p50_ns), "p99_us", us(w->p99_ns));
		char why[128];
		const struct cb_phase_tm *tm = p->tm;
		if (o)
			json_object_set_new(o, "client_bound",
					    json_boolean(cb_tm_client_bound(tm ? tm->client : NULL,
									    tm ? tm->host : NULL,
									    why, sizeof(why))));
		if (o && w->has_base) {
			const struct cb_layer_row *u = &g->row[w->base];
			json_object_set_new(o, "base", json_string(cb_layer_names[w->base]));
			json_object_set_new(o, "iops_lost_pct", json_real(w->iops_lost_pct));
			json_object_set_new(o, "p50_added_us",
					    json_integer(us(w->p50_ns) - us(u->p50_ns)));
			json_object_set_new(o, "p99_added_us",
					    json_integer(us(w->p99_ns) - us(u->p99_ns)));
		}
		ok = ok && o && json_array_append_new(rows, o) == 0;
	}
	if (g->has_worst)
		worst = json_pack("{s:s, s:s}", "layer", cb_layer_names[g->worst], "base",
				  cb_layer_names[g->row[g->worst].base]);
	for (size_t k = 0; ok && k < g->nshadowed; k++)
		ok = json_array_append_new(skipped, json_string(r->phases[g->shadowed[k]].name)) ==
		     0;
	if (!ok) { /* a group without all its rows would mislead */
		json_decref(rows);
		json_decref(skipped);
		json_decref(worst);
		return NULL;
	}
	json_t *cached = json_array();
	for (size_t k = 0; cached && k < g->ncached; k++)
		json_array_append_new(cached, json_string(r->phases[g->cached[k]].name));
	return json_pack("{s:s, s:I, s:o, s:o, s:b, s:b, s:o, s:o}", "op", g->op, "block_size",
			 (json_int_t)g->block_size, "rows", rows, "most_lost", worst,
			 "same_in_flight", !g->depth_differs, "same_pool", !g->pools_differ,
			 "not_compared", skipped, "cached", cached);
}

json_t *cb_bottleneck_json(const struct cb_result *r)
{
	struct cb_bottleneck l;
	json_t *a = NULL;
	if (cb_bottleneck_find(r, &l) == 0 && (a = json_array()))
		for (size_t i = 0; i < l.n; i++)
			if (json_array_append_new(a, group_json(r, &l.groups[i])) < 0) {
				json_decref(a);
				a = NULL;
				break;
			}
	cb_bottleneck_free(&l);
	return a;
}
