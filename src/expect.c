/* Acceptance thresholds: parsing tables and judging a report row. */
#include "expect.h"
#include "served.h"
#include "engine.h"
#include "result.h"
#include "search.h"
#include "telemetry.h"
#include "tm_osd.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define X_OFF(m) (offsetof(struct cb_expect, v) + (m) * sizeof(uint64_t))

/* In enum order: cb_expect_mark finds a key's bit by its index here. */
const struct cb_option cb_expect_options[] = {
    {"min_iops", CB_OPT_UINT, X_OFF(CB_EXPECT_MIN_IOPS), NULL, 0, 0, NULL,
     "lowest acceptable ops per second"},
    {"min_bw", CB_OPT_SIZE, X_OFF(CB_EXPECT_MIN_BW), NULL, 0, 0, NULL,
     "lowest acceptable bandwidth per second, e.g. 100M (or 100M/s)"},
    {"max_mean_latency", CB_OPT_DURATION, X_OFF(CB_EXPECT_MAX_MEAN_LATENCY), NULL, 0, 0, NULL,
     "highest acceptable mean latency"},
    {"max_p99", CB_OPT_DURATION, X_OFF(CB_EXPECT_MAX_P99), NULL, 0, 0, NULL,
     "highest acceptable 99th percentile latency"},
    {"max_p999", CB_OPT_DURATION, X_OFF(CB_EXPECT_MAX_P999), NULL, 0, 0, NULL,
     "highest acceptable 99.9th percentile latency"},
    {"max_errors", CB_OPT_UINT, X_OFF(CB_EXPECT_MAX_ERRORS), NULL, 0, 0, NULL,
     "most op errors acceptable"},
    {"slow_osds", CB_OPT_UINT, X_OFF(CB_EXPECT_MAX_SLOW_OSDS), NULL, 0, 0, NULL,
     "most slow OSDs acceptable (telemetry's finder; not measured fails)"},
    {"min_capacity", CB_OPT_UINT, X_OFF(CB_EXPECT_MIN_CAPACITY), NULL, 0, 0, NULL,
     "lowest acceptable capacity a search found, ops/s at its latency target"},
    {NULL, 0, 0, NULL, 0, 0, NULL, NULL},
};

void cb_expect_mark(struct cb_expect *x, const char *key)
{
	for (unsigned m = 0; m < CB_EXPECT_NMETRICS; m++)
		if (strcmp(cb_expect_options[m].name, key) == 0)
			x->set |= 1u << m;
}

static double measured(enum cb_expect_metric m, const struct cb_phase_result *p)
{
	switch (m) {
	case CB_EXPECT_MIN_IOPS:
		return cb_phase_iops(p);
	case CB_EXPECT_MIN_BW:
		return cb_phase_bw(p);
	case CB_EXPECT_MAX_MEAN_LATENCY:
		return cb_hist_mean(p->hist);
	case CB_EXPECT_MAX_P99:
		return (double)cb_hist_percentile(p->hist, 99);
	case CB_EXPECT_MAX_P999:
		return (double)cb_hist_percentile(p->hist, 99.9);
	case CB_EXPECT_MAX_SLOW_OSDS:
		return (double)cb_tm_osd_slow_count(p->tm ? p->tm->osd : NULL); /* -1: none */
	case CB_EXPECT_MIN_CAPACITY: {
		double ops;
		return cb_search_capacity(p, &ops) ? ops : -1;
	}
	case CB_EXPECT_MAX_ERRORS:
	case CB_EXPECT_NMETRICS:
		break;
	}
	return (double)p->errors;
}

size_t cb_expect_judge(const struct cb_expect *x, const struct cb_phase_result *p,
		       struct cb_verdict *out)
{
	size_t n = 0;
	struct cb_served sv = {.by = CB_SERVED_NONE};
	if (x && !(p->wl && p->wl->cached))
		cb_served_of(p, &sv);
	for (unsigned m = 0; x && m < CB_EXPECT_NMETRICS; m++) {
		if (!(x->set & (1u << m)))
			continue;
		struct cb_verdict *v = &out[n++];
		bool min = cb_expect_is_min((enum cb_expect_metric)m);
		v->metric = (enum cb_expect_metric)m;
		v->key = cb_expect_options[m].name;
		/* a figure the client's cache served is not the cluster's: not
		 * measured, so not a pass, unless the workload says cached: ok */
		v->cached = sv.by == CB_SERVED_CACHE;
		v->measured = v->cached ? -1 : measured(v->metric, p);
		v->expected = (double)x->v[m];
		v->margin = v->measured < 0   ? 0
			    : v->expected > 0 ? v->measured / v->expected - 1
			    : v->measured > 0 ? INFINITY
					      : 0;
		/* a check asked for and not measured (the OSDs' counters
		 * refused) is not a pass */
		v->pass = !p->failed && v->measured >= 0 &&
			  (min ? v->measured >= v->expected : v->measured <= v->expected);
	}
	return n;
}

const struct cb_expect *cb_expect_of(const struct cb_phase_result *p)
{
	/* load beside a group's measured members is not judged */
	if (!p->wl || !p->wl->expect.set || cb_phase_is_prefill(p) || p->load)
		return NULL;
	return &p->wl->expect;
}

void cb_expect_count(const struct cb_result *r, size_t *passed, size_t *failed)
{
	struct cb_verdict v[CB_EXPECT_NMETRICS];
	*passed = *failed = 0;
	for (size_t i = 0; i < r->nphases; i++) {
		size_t n = cb_expect_judge(cb_expect_of(&r->phases[i]), &r->phases[i], v);
		for (size_t k = 0; k < n; k++)
			*(v[k].pass ? passed : failed) += 1;
	}
}

bool cb_expect_is_min(enum cb_expect_metric m)
{
	return m == CB_EXPECT_MIN_IOPS || m == CB_EXPECT_MIN_BW || m == CB_EXPECT_MIN_CAPACITY;
}

const char *cb_expect_format(enum cb_expect_metric m, double v, char *buf, size_t n)
{
	switch (m) {
	case CB_EXPECT_MIN_IOPS:
		snprintf(buf, n, "%.1f IOPS", v);
		break;
	case CB_EXPECT_MIN_CAPACITY:
		if (v < 0)
			snprintf(buf, n, "not searched");
		else
			snprintf(buf, n, "%.0f ops/s", v);
		break;
	case CB_EXPECT_MIN_BW: {
		static const char *const u[] = {"B/s", "KiB/s", "MiB/s", "GiB/s", "TiB/s"};
		unsigned i = 0;
		for (; v >= 1024 && i < 4; i++)
			v /= 1024;
		snprintf(buf, n, "%.2f %s", v, u[i]);
		break;
	}
	case CB_EXPECT_MAX_ERRORS:
		snprintf(buf, n, "%.0f errors", v);
		break;
	case CB_EXPECT_MAX_SLOW_OSDS:
		if (v < 0)
			snprintf(buf, n, "not measured");
		else
			snprintf(buf, n, "%.0f slow OSDs", v);
		break;
	default: /* latencies in ns, in the unit that reads best */
		if (v < 1e6)
			snprintf(buf, n, "%.1f us", v / 1e3);
		else if (v < 1e9)
			snprintf(buf, n, "%.3f ms", v / 1e6);
		else
			snprintf(buf, n, "%.3f s", v / 1e9);
		break;
	}
	return buf;
}
