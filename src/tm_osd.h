/* Telemetry's osd part (telemetry.h): the OSDs' (and MDS's) perf counters before and after each
 * phase: the cluster's count of ops, bytes and latencies, and the slow OSD. */
#ifndef CB_TM_OSD_H
#define CB_TM_OSD_H

#include "tm_core.h"

/* At each of the phase's marks; *x is made at the first one it needs. */
void cb_tm_osd_mark(struct cb_tm_osd **x, enum cb_mark m, const struct cb_tm_phase *tp);
/* dst += src, a later run of the same step. 0 or -ENOMEM. */
int cb_tm_osd_merge(struct cb_tm_osd *dst, const struct cb_tm_osd *src);
/* Its keys into the phase's JSON object; x NULL: it measured nothing. */
void cb_tm_osd_json(const struct cb_tm_osd *x, const struct cb_phase_result *pr, json_t *phase);
/* Its lines under the phase's row in the text report, from its section
 * of the row's record (row); none when the section is absent. */
void cb_tm_osd_text(const json_t *row, FILE *out);
void cb_tm_osd_free(struct cb_tm_osd *x);

/* How many slow OSDs a row's OSD part x (its tm->osd) had (tm_slow.h's
 * finder over its counters), or -1 when they were not measured (x NULL): a
 * pure function of the row, for expect's slow_osds. */
int cb_tm_osd_slow_count(const struct cb_tm_osd *x);

/* A row's osd part made from per-OSD deltas over a phase (ids[i]'s d[i],
 * host "unknown"), as the marks would make it: for tests. NULL on ENOMEM. */
struct cb_osd_perf;
struct cb_tm_osd *cb_tm_osd_from(const int *ids, const struct cb_osd_perf *d, size_t n);
/* Row osd's intervals as the sampler would have cut them (judged in
 * `judged`, slow in `slow`, for every kind of op): from then on x's slow
 * OSDs must be slow throughout. For tests. */
void cb_tm_osd_set_intervals(struct cb_tm_osd *x, int osd, unsigned judged, unsigned slow);

/* What lives across the run's phases (tm->osd). 0 or -ENOMEM; a refused
 * command is a note. */
int cb_tm_osd_open(struct cb_tm *tm);
void cb_tm_osd_close(struct cb_tm *tm);

#endif
