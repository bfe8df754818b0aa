/* Telemetry's state part: the cluster's state during the run (PGs, OSDs up/in, scrubs): a phase
 * during which it changed is disturbed. */
#include "tm_state.h"

#include <stdlib.h>

struct cb_tm_state {
	int unused;
};

void cb_tm_state_mark(struct cb_tm_state **x, enum cb_mark m, const struct cb_tm_phase *tp)
{
	(void)x;
	(void)m;
	(void)tp;
}

int cb_tm_state_merge(struct cb_tm_state *dst, const struct cb_tm_state *src)
{
	(void)dst;
	(void)src;
	return 0;
}

void cb_tm_state_json(const struct cb_tm_state *x, const struct cb_phase_result *pr, json_t *phase)
{
	(void)x;
	(void)pr;
	(void)phase;
}

void cb_tm_state_text(const struct cb_tm_state *x, const struct cb_phase_result *pr, FILE *out)
{
	(void)x;
	(void)pr;
	(void)out;
}

void cb_tm_state_free(struct cb_tm_state *x)
{
	free(x);
}

int cb_tm_state_open(struct cb_tm *tm)
{
	(void)tm;
	return 0;
}

void cb_tm_state_close(struct cb_tm *tm)
{
	(void)tm;
}
