/* Open-loop schedules: checks and rendering (stubs until the rate mode
 * lands). */
#include "rate.h"
#include "engine.h"
#include "result.h"

int cb_rate_check(const struct cb_workload *wl, char *why, size_t n)
{
	(void)wl, (void)why, (void)n;
	return 0;
}

int cb_rate_json(const struct cb_phase_result *p, json_t *o)
{
	(void)p, (void)o;
	return 0;
}

void cb_rate_text(const struct cb_phase_result *p, FILE *out)
{
	(void)p, (void)out;
}
