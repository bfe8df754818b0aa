/* Served by whom: a row's reads or stats against the cluster's counters
 * (served.h). Judged from the record's row, so a saved record is judged
 * as the run judged it. */
#include "served.h"
#include "engines.h"
#include "jget.h"
#include "result.h"
#include "telemetry.h"

#include <stdio.h>
#include <string.h>

const char *cb_served_name(enum cb_served_by by)
{
	switch (by) {
	case CB_SERVED_CLUSTER:
		return "cluster";
	case CB_SERVED_CACHE:
		return "client cache";
	case CB_SERVED_UNKNOWN:
		return "unknown";
	case CB_SERVED_NONE:
		break;
	}
	return NULL;
}

/* The client's figure over telemetry's span (every op, the ramp's too:
 * client_ops, client_bytes), its read share taken from the measured
 * window's split. */
static double span_share(const json_t *row, const json_t *c, const char *all, const char *part,
			 const char *whole)
{
	double w = cb_jnum(row, whole);
	return w > 0 ? cb_jnum(c, all) * cb_jnum(row, part) / w : 0;
}

static double osd_sum(const json_t *c, const char *key)
{
	double t = 0;
	size_t i;
	const json_t *o;
	json_array_foreach(json_object_get(c, "osds"), i, o) t += cb_jnum(o, key);
	return t;
}

void cb_served_judge(const json_t *row, struct cb_served *s)
{
	*s = (struct cb_served){CB_SERVED_NONE, NULL, NULL, NULL, 0, 0};
	const struct cb_engine *eng = cb_engine_find(cb_jstr(row, "layer", ""));
	if ((eng && eng->no_cluster) || cb_jcount(row, "read_ops") == 0)
		return;
	const json_t *c = json_object_get(json_object_get(row, "telemetry"), "cluster");
	bool data = cb_jcount(row, "read_bytes") > 0;
	const json_t *mds = json_object_get(c, "mds");
	s->by = CB_SERVED_UNKNOWN;
	if (!cb_jhas(c, "client_ops"))
		return; /* no telemetry of the cluster */
	if (!data && eng && eng->mds_fs) {
		/* a metadata op (stat, readdir) moves no data: the MDS answers
		 * it, or the client's caps do */
		s->what = "stats";
		if (!cb_jhas(mds, "client_requests"))
			return;
		s->counter = "MDS client requests";
		s->unit = "requests";
		s->cluster = cb_jnum(mds, "client_requests");
		s->client = span_share(row, c, "client_ops", "read_ops", "ops");
	} else {
		s->what = "reads";
		if (!json_array_size(json_object_get(c, "osds")))
			return;
		if (data) {
			/* by bytes: readahead, a cache's fills and the OSDs' splits
			 * change the op counts, not what was read from the OSDs */
			s->counter = "OSD read bytes";
			s->unit = "bytes";
			s->cluster = osd_sum(c, "out_bytes");
			s->client = span_share(row, c, "client_bytes", "read_bytes", "bytes");
		} else {
			s->counter = "OSD read ops";
			s->unit = "ops";
			s->cluster = osd_sum(c, "read_ops");
			s->client = span_share(row, c, "client_ops", "read_ops", "ops");
		}
	}
	if (s->client <= 0)
		s->by = CB_SERVED_CLUSTER; /* nothing the client read in the span */
	else
		s->by = s->cluster >= CB_SERVED_CLUSTER_MIN * s->client ? CB_SERVED_CLUSTER
									: CB_SERVED_CACHE;
}

void cb_served_of(const struct cb_phase_result *pr, struct cb_served *s)
{
	json_t *row = json_pack("{s:s, s:I, s:I, s:I, s:I}", "layer", pr->layer ? pr->layer : "",
				"ops", (json_int_t)pr->ops, "bytes", (json_int_t)pr->bytes,
				"read_ops", (json_int_t)(pr->ops - pr->write_ops), "read_bytes",
				(json_int_t)(pr->bytes - pr->write_bytes));
	if (row)
		cb_tm_json(pr, row);
	/* out of memory: judged as a row with no counters */
	cb_served_judge(row ? row : json_null(), s);
	json_decref(row);
}

json_t *cb_served_json(const struct cb_served *s)
{
	if (s->by == CB_SERVED_NONE)
		return NULL;
	json_t *o = json_pack("{s:s, s:s}", "by", cb_served_name(s->by), "judged", s->what);
	if (o && s->counter) {
		json_object_set_new(o, "counter", json_string(s->counter));
		json_object_set_new(o, "unit", json_string(s->unit));
		json_object_set_new(o, "cluster", json_real(s->cluster));
		json_object_set_new(o, "client", json_real(s->client));
		json_object_set_new(
		    o, "fraction", s->client > 0 ? json_real(s->cluster / s->client) : json_null());
	}
	return o;
}

bool cb_row_cached(const json_t *row)
{
	const char *by = cb_jstr(json_object_get(row, "served"), "by", "");
	return strcmp(by, "client cache") == 0;
}

void cb_served_why(const json_t *row, char *buf, size_t n)
{
	const json_t *s = json_object_get(row, "served");
	const char *counter = cb_jstr(s, "counter", NULL);
	if (!counter) {
		snprintf(buf, n, "the cluster's counters were not read");
		return;
	}
	const char *unit = cb_jstr(s, "unit", "");
	bool mds = strncmp(counter, "MDS", 3) == 0;
	if (strcmp(unit, "bytes") == 0)
		snprintf(buf, n, "the OSDs sent %.1f KiB for %.1f KiB read",
			 cb_jnum(s, "cluster") / 1024, cb_jnum(s, "client") / 1024);
	else
		snprintf(buf, n, "the %s counted %.0f %s for %.0f %s", mds ? "MDS" : "OSDs",
			 cb_jnum(s, "cluster"), mds ? "client requests" : "read ops",
			 cb_jnum(s, "client"), cb_jstr(s, "judged", "reads"));
}
