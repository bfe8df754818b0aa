/* One call for the plan's checks of how the load is applied. */
#include "load_check.h"
#include "group.h"
#include "rate.h"
#include "search.h"
#include "steady.h"

int cb_load_check(const struct cb_workload *wl, char *why, size_t n)
{
	int r = cb_rate_check(wl, why, n);
	if (r == 0)
		r = cb_steady_check(wl, why, n);
	if (r == 0)
		r = cb_search_check(wl, why, n);
	if (r == 0)
		r = cb_group_check(wl, why, n);
	return r;
}
