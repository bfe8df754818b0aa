/* Rendering of the per-layer bottleneck breakdown (bottleneck.h): the text
 * section below the table and the JSON "layers" array. The figures are the
 * rows' own, printed as the table and the phases' JSON print them. */
#include "bottleneck.h"
#include "report.h"
#include "tm_client.h"
#include "units.h"

#include <stdint.h>
#include <string.h>

static double ms(int64_t ns)
{
	return (double)ns / 1e6;
}

static void depth(const struct cb_phase_result *p, char *buf, size_t n)
{
	if (p->clients > 1)
		snprintf(buf, n, "%llux%llu", (unsigned long long)p->clients,
			 (unsigned long long)p->concurrency);
	else
		snprintf(buf, n, "%llu", (unsigned long long)p->concurrency);
}

static void group_text(FILE *out, const struct cb_result *r, const struct cb_layer_group *g)
{
	char bs[32], qd[48];
	cb_format_size(g->block_size, bs, sizeof(bs));
	if (g->has_worst) {
		const struct cb_layer_row *w = &g->row[g->worst];
		fprintf(out, "%s %s: most lost in %s over %s (%+.1f %% IOPS, %+.3f ms p99)\n", bs,
			g->op, cb_layer_names[g->worst], cb_layer_names[w->base], -w->iops_lost_pct,
			ms(w->p99_added_ns));
	} else {
		fprintf(out, "%s %s: no layer loses IOPS over the one beneath it\n", bs, g->op);
	}
	int nw = 5;
	for (int l = 0; l < CB_L_COUNT; l++)
		if (g->row[l].phase != SIZE_MAX) {
			int n = (int)strlen(r->phases[g->row[l].phase].name);
			nw = n > nw ? n : nw;
		}
	fprintf(out, "  %-6s %-*s %7s %10s %9s %9s | %-6s %8s %9s %9s\n", "layer", nw, "phase",
		"qd", "IOPS", "p50 ms", "p99 ms", "over", "IOPS", "p50 ms", "p99 ms");
	for (int l = 0; l < CB_L_COUNT; l++) {
		const struct cb_layer_row *w = &g->row[l];
		if (w->phase == SIZE_MAX)
			continue;
		const struct cb_phase_result *p = &r->phases[w->phase];
		depth(p, qd, sizeof(qd));
		fprintf(out, "  %-6s %-*s %7s %10.1f %9.3f %9.3f |", cb_layer_names[l], nw, p->name,
			qd, w->iops, ms((int64_t)w->p50_ns), ms((int64_t)w->p99_ns));
		if (w->has_base)
			fprintf(out, " %-6s %+6.1f %% %+9.3f %+9.3f", cb_layer_names[w->base],
				-w->iops_lost_pct, ms(w->p50_added_ns), ms(w->p99_added_ns));
		char why[128];
		fputs(cb_tm_client_bound(p->tm, why, sizeof(why)) ? " (client-bound)\n" : "\n",
		      out);
	}
	if (g->depth_differs)
		fprintf(out,
			"  note: ops in flight differ (qd): a fair comparison needs the same\n");
	if (g->pools_differ)
		fprintf(out, "  note: the rows ran on different pools: the costs include the "
			     "pools' differences\n");
	for (size_t k = 0; k < g->nshadowed; k++)
		fprintf(out, "  note: %s not compared: an earlier %s row stands for its layer\n",
			r->phases[g->shadowed[k]].name, r->phases[g->shadowed[k]].layer);
}

void cb_report_bottleneck_text(FILE *out, const struct cb_result *r)
{
	struct cb_bottleneck l;
	if (cb_bottleneck_find(r, &l) < 0) {
		fprintf(out, "\n(layer breakdown left out: out of memory)\n");
	} else if (l.n) {
		fprintf(out,
			"\nLayer breakdown: the same op and block size on several layers, each "
			"over the layer beneath it\n");
		for (size_t i = 0; i < l.n; i++)
			group_text(out, r, &l.groups[i]);
	}
	cb_bottleneck_free(&l);
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
		if (o)
			json_object_set_new(
			    o, "client_bound",
			    json_boolean(cb_tm_client_bound(p->tm, why, sizeof(why))));
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
	return json_pack("{s:s, s:I, s:o, s:o, s:b, s:b, s:o}", "op", g->op, "block_size",
			 (json_int_t)g->block_size, "rows", rows, "most_lost", worst,
			 "same_in_flight", !g->depth_differs, "same_pool", !g->pools_differ,
			 "not_compared", skipped);
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
