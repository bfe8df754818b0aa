/* One call for the plan's checks of how the load is applied. */
#include "load_check.h"
#include "group.h"
#include "rate.h"
#include "search.h"
#include "steady.h"
#include "engine.h"

#include <errno.h>
#include <stdio.h>

/* until steady.c judges the rule, a phase with one would run to its max */
#define STEADY_REFUSED 1

int cb_load_check(const struct cb_workload *wl, char *why, size_t n)
{
	int r = cb_rate_check(wl, why, n);
	if (r == 0)
		r = cb_steady_check(wl, why, n);
	if (r == 0 && STEADY_REFUSED && wl->steady.metric != CB_STEADY_OFF) {
		snprintf(why, n,
			 "steady: the steady-state rule is not in this version of cephbench yet: "
			 "leave steady out and give duration");
		r = -EINVAL;
	}
	if (r == 0)
		r = cb_search_check(wl, why, n);
	if (r == 0)
		r = cb_group_check(wl, why, n);
	return r;
}
