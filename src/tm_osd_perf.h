/* An OSD's and an MDS's perf counters as `perf dump` gives them (JSON),
 * reduced to what a phase's figures need, and the difference of two
 * snapshots. Pure: no cluster, so the unit tests read saved dumps. */
#ifndef CB_TM_OSD_PERF_H
#define CB_TM_OSD_PERF_H

#include <jansson.h>
#include <stdint.h>

/* The OSD command whose answer cb_osd_perf_parse reads (telemetry, and
 * doctor's check of the caps it needs: osd 'allow *'). */
#define CB_OSD_PERF_DUMP_CMD                                                                       \
	"{\"prefix\": \"perf dump\", \"logger\": \"osd\", \"format\": \"json\"}"

/* A latency counter: how many were timed, and their sum in seconds. */
struct cb_perf_lat {
	uint64_t count;
	double sum_s;
};

enum cb_osd_lat {
	CB_OSD_LAT_OP, /* op_latency: every client op, the cluster's mean */
	CB_OSD_LAT_R,
	CB_OSD_LAT_W,
	CB_OSD_LAT_RW, /* ops that read and write (a guarded write) */
	CB_OSD_LAT_W_PROCESS,
	CB_OSD_LAT_BEFORE_QUEUE, /* every message, sub-ops too */
	CB_OSD_LAT_SUBOP_W,	 /* this OSD as a replica */
	CB_OSD_NLAT
};

/* The counters' names in perf dump's osd section, by enum cb_osd_lat. */
extern const char *const cb_osd_lat_names[CB_OSD_NLAT];

/* One OSD's client-op counters (the osd section), cumulative or a delta.
 * op counts client ops this OSD served as primary; replication is the
 * subop counters'. */
struct cb_osd_perf {
	uint64_t op, op_r, op_w, op_rw, in_bytes, out_bytes;
	struct cb_perf_lat lat[CB_OSD_NLAT];
};

/* The MDS's request counters (mds and mds_server sections). */
struct cb_mds_perf {
	uint64_t request, reply, handle_client_request;
	struct cb_perf_lat reply_latency;
};

/* Parse a perf dump ({"osd": {...}, ...}) into *out. 0, or -EBADMSG when
 * the osd section or one of its counters is missing. */
int cb_osd_perf_parse(const json_t *dump, struct cb_osd_perf *out);
/* out = b - a, b taken after a. A counter that went back (the OSD
 * restarted between them) gives -ERANGE: the delta means nothing. */
int cb_osd_perf_delta(const struct cb_osd_perf *a, const struct cb_osd_perf *b,
		      struct cb_osd_perf *out);
/* dst += src. */
void cb_osd_perf_add(struct cb_osd_perf *dst, const struct cb_osd_perf *src);

int cb_mds_perf_parse(const json_t *dump, struct cb_mds_perf *out);
int cb_mds_perf_delta(const struct cb_mds_perf *a, const struct cb_mds_perf *b,
		      struct cb_mds_perf *out);
void cb_mds_perf_add(struct cb_mds_perf *dst, const struct cb_mds_perf *src);

/* A latency counter's mean in ms; -1 when it timed nothing. */
double cb_perf_lat_ms(const struct cb_perf_lat *l);
/* Two latency counters as one (a write's w and rw). */
struct cb_perf_lat cb_perf_lat_sum(const struct cb_perf_lat *a, const struct cb_perf_lat *b);

#endif
