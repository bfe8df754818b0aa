/* Telemetry's host part: the host beside the run, once a second: CPU, load, memory, network, the
 * disks a phase used. */
#include "tm_host.h"

#include <stdlib.h>

struct cb_tm_host {
	int unused;
};

void cb_tm_host_mark(struct cb_tm_host **x, enum cb_mark m, const struct cb_tm_phase *tp)
{
	(void)x;
	(void)m;
	(void)tp;
}

int cb_tm_host_merge(struct cb_tm_host *dst, const struct cb_tm_host *src)
{
	(void)dst;
	(void)src;
	return 0;
}

void cb_tm_host_json(const struct cb_tm_host *x, const struct cb_phase_result *pr, json_t *phase)
{
	(void)x;
	(void)pr;
	(void)phase;
}

void cb_tm_host_text(const struct cb_tm_host *x, const struct cb_phase_result *pr, FILE *out)
{
	(void)x;
	(void)pr;
	(void)out;
}

void cb_tm_host_free(struct cb_tm_host *x)
{
	free(x);
}
