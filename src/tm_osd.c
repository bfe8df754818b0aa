/* Telemetry's osd part: the OSDs' (and MDS's) perf counters before and after each phase: the
 * cluster's count of ops, bytes and latencies, and the slow OSD. */
#include "tm_osd.h"

#include <stdlib.h>

struct cb_tm_osd {
	int unused;
};

void cb_tm_osd_mark(struct cb_tm_osd **x, enum cb_mark m, const struct cb_tm_phase *tp)
{
	(void)x;
	(void)m;
	(void)tp;
}

int cb_tm_osd_merge(struct cb_tm_osd *dst, const struct cb_tm_osd *src)
{
	(void)dst;
	(void)src;
	return 0;
}

void cb_tm_osd_json(const struct cb_tm_osd *x, const struct cb_phase_result *pr, json_t *phase)
{
	(void)x;
	(void)pr;
	(void)phase;
}

void cb_tm_osd_text(const struct cb_tm_osd *x, const struct cb_phase_result *pr, FILE *out)
{
	(void)x;
	(void)pr;
	(void)out;
}

void cb_tm_osd_free(struct cb_tm_osd *x)
{
	free(x);
}

int cb_tm_osd_open(struct cb_tm *tm)
{
	(void)tm;
	return 0;
}

void cb_tm_osd_close(struct cb_tm *tm)
{
	(void)tm;
}
