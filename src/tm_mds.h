/* Telemetry's MDS counters for CephFS phases (part of tm_osd): the `perf
 * dump` of the file system's rank 0 before and after the phase, through a
 * CephFS client of its own that never mounts. */
#ifndef CB_TM_MDS_H
#define CB_TM_MDS_H

#include "telemetry.h"

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

struct cb_tm_mds_run;
struct cb_tm_mds;

/* The run's MDS client, made at its first CephFS phase. 0 or -ENOMEM. */
int cb_tm_mds_open(struct cb_tm *tm, struct cb_tm_mds_run **out);
void cb_tm_mds_close(struct cb_tm_mds_run *run);
/* At START (*x made) and END (*x completed, or freed and NULL when the
 * second dump failed); x NULL at END: nothing to complete. */
void cb_tm_mds_mark(struct cb_tm *tm, struct cb_tm_mds_run *run, struct cb_tm_mds **x,
		    enum cb_mark m);
/* *dst += src; src NULL: nothing; *dst NULL: a copy of src. 0 or -ENOMEM. */
int cb_tm_mds_merge(struct cb_tm_mds **dst, const struct cb_tm_mds *src);
json_t *cb_tm_mds_json(const struct cb_tm_mds *x);
/* Its line under row name, from the section cb_tm_mds_json wrote; mine:
 * cephbench's ops beside it (a metadata phase's, each one MDS request), 0
 * none. */
void cb_tm_mds_text(const json_t *mds, const char *name, uint64_t mine, FILE *out);
void cb_tm_mds_free(struct cb_tm_mds *x);

#endif
