/* What tm_osd.c (the marks, the sampler) and tm_osd_report.c (the row's
 * figures, rendered) share: a row's osd part. Not for other files. */
#ifndef CB_TM_OSD_PRIV_H
#define CB_TM_OSD_PRIV_H

#include "tm_core.h"
#include "tm_osd_perf.h"

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

/* The kinds of op an OSD is judged on (find_slow). */
enum slow_kind { K_READ, K_WRITE, K_REPLICA, K_N };

/* An OSD's intervals (tm_slow.h): in how many it was judged, and slow,
 * for each kind. */
struct steady {
	unsigned judged[K_N], slow[K_N];
};

struct osd_row {
	int osd;
	char host[64];
	struct cb_osd_perf d; /* over the phase */
	struct steady st;
};

struct cb_tm_osd {
	struct osd_row *rows;
	size_t n;
	/* the rows' intervals were measured (not a row made by
	 * cb_tm_osd_from): the slow OSD must be slow throughout */
	bool intervals;
	/* between START and END: each run OSD's first snapshot, if it had
	 * one; the last cut's (prev), and its intervals so far */
	struct cb_osd_perf *start, *prev;
	bool *have, *have_prev;
	struct steady *st;
	/* the sampler that cuts the intervals, START to END */
	struct cb_tm *tm;
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool started, stop;
	struct cb_tm_mds *mds; /* NULL: not a CephFS phase, or not measured */
};

/* An OSD's latency of kind k over a delta. */
static inline struct cb_perf_lat osd_kind_lat(const struct cb_osd_perf *d, enum slow_kind k)
{
	return k == K_READ    ? d->lat[CB_OSD_LAT_R]
	       : k == K_WRITE ? cb_perf_lat_sum(&d->lat[CB_OSD_LAT_W], &d->lat[CB_OSD_LAT_RW])
			      : d->lat[CB_OSD_LAT_SUBOP_W];
}

#endif
