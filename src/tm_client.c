/* Telemetry's client part: what the benchmark itself cost over the measured window: CPU, context
 * switches, peak RSS, per thread. */
#include "tm_client.h"

#include <stdlib.h>

struct cb_tm_client {
	int unused;
};

void cb_tm_client_mark(struct cb_tm_client **x, enum cb_mark m, const struct cb_tm_phase *tp)
{
	(void)x;
	(void)m;
	(void)tp;
}

int cb_tm_client_merge(struct cb_tm_client *dst, const struct cb_tm_client *src)
{
	(void)dst;
	(void)src;
	return 0;
}

void cb_tm_client_json(const struct cb_tm_client *x, const struct cb_phase_result *pr,
		       json_t *phase)
{
	(void)x;
	(void)pr;
	(void)phase;
}

void cb_tm_client_text(const struct cb_tm_client *x, const struct cb_phase_result *pr, FILE *out)
{
	(void)x;
	(void)pr;
	(void)out;
}

void cb_tm_client_free(struct cb_tm_client *x)
{
	free(x);
}
