/* The capacity search (stubs until it lands). */
#include "search.h"
#include "engine.h"
#include "result.h"

#include <errno.h>
#include <stdio.h>

void cb_search_result_free(struct cb_search_result *s)
{
	(void)s;
}

int cb_search_check(const struct cb_workload *wl, char *why, size_t n)
{
	if (!cb_search_given(&wl->search))
		return 0;
	/* refused, not ignored: a key that did nothing would be a surprise */
	snprintf(why, n,
		 "search: the capacity search is not in this version of cephbench yet: leave "
		 "search out and give rate: for one rate");
	return -EINVAL;
}

int cb_search_run(const struct cb_workload *wl, cb_search_step_fn step, void *arg,
		  struct cb_phase_result *row, struct cb_err *e)
{
	(void)e;
	return step(arg, wl->rate.ops, row);
}

bool cb_search_capacity(const struct cb_phase_result *p, double *ops)
{
	(void)p, (void)ops;
	return false;
}

int cb_search_json(const struct cb_phase_result *p, json_t *o)
{
	(void)p, (void)o;
	return 0;
}

void cb_search_text(const struct cb_result *r, FILE *out)
{
	(void)r, (void)out;
}
