/* The steady-state stop rule (stubs until it lands). */
#include "steady.h"
#include "engine.h"
#include "result.h"

#include <errno.h>
#include <stdio.h>

int cb_steady_check(const struct cb_workload *wl, char *why, size_t n)
{
	if (wl->steady.metric == CB_STEADY_OFF)
		return 0;
	/* refused, not ignored: a phase with a rule nobody judges would run
	 * to its max */
	snprintf(why, n,
		 "steady: the steady-state rule is not in this version of cephbench yet: leave "
		 "steady out and give duration");
	return -EINVAL;
}

int cb_steady_begin(struct cb_steady_state *s, const struct cb_workload *wl)
{
	(void)wl;
	s->priv = NULL;
	return 0;
}

void cb_steady_op(struct cb_steady_state *s, uint64_t lat_ns)
{
	(void)s, (void)lat_ns;
}

bool cb_steady_wants_ops(const struct cb_steady_state *s)
{
	(void)s;
	return false;
}

bool cb_steady_tick(struct cb_steady_state *s, struct cb_phase_result *res, uint64_t sec)
{
	(void)s, (void)res, (void)sec;
	return false;
}

void cb_steady_end(struct cb_steady_state *s, struct cb_phase_result *res)
{
	(void)s, (void)res;
}

int cb_steady_json(const struct cb_phase_result *p, json_t *o)
{
	(void)p, (void)o;
	return 0;
}

void cb_steady_text(const struct cb_phase_result *p, FILE *out)
{
	(void)p, (void)out;
}
