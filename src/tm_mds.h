/* Telemetry's MDS counters for CephFS phases (part of tm_osd): the `perf
 * dump` of each active rank of the phase's file system before and after
 * the phase, through a CephFS client of its own that never mounts; each
 * ask bounded by the run's timeout, a daemon that did not answer left out
 * until it does. */
#ifndef CB_TM_MDS_H
#define CB_TM_MDS_H

#include "tm_core.h"

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

struct cb_tm_mds_run;
struct cb_tm_mds;

/* The run's MDS client, made at its first CephFS phase. 0 or -ENOMEM. */
int cb_tm_mds_open(struct cb_tm *tm, struct cb_tm_mds_run **out);
void cb_tm_mds_close(struct cb_tm_mds_run *run);
/* At START (*x made, for the ranks of file system fs active then) and END
 * (*x completed with the ranks read both times, or freed and NULL when
 * none was); x NULL at END: nothing to complete. */
void cb_tm_mds_mark(struct cb_tm *tm, struct cb_tm_mds_run *run, const char *fs,
		    struct cb_tm_mds **x, enum cb_mark m);
/* *dst += src, rank by rank; src NULL: nothing; *dst NULL: a copy of src.
 * 0 or -ENOMEM. */
int cb_tm_mds_merge(struct cb_tm_mds **dst, const struct cb_tm_mds *src);
/* The ranks' sums and, under "ranks", each rank's own figures. */
json_t *cb_tm_mds_json(const struct cb_tm_mds *x);
/* Its line (and with several ranks one a rank) under row name, from the
 * section cb_tm_mds_json wrote; mine:
 * cephbench's ops beside it (a metadata phase's, each one MDS request), 0
 * none. */
void cb_tm_mds_text(const json_t *mds, const char *name, uint64_t mine, FILE *out);
void cb_tm_mds_free(struct cb_tm_mds *x);

#endif
