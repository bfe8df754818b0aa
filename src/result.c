/* Result record ownership and the figures derived from it. */
#include "result.h"

#include <stdlib.h>
#include <string.h>

struct cb_phase_result *cb_result_add_phase(struct cb_result *r)
{
	struct cb_phase_result *p = realloc(r->phases, (r->nphases + 1) * sizeof(*p));
	if (!p)
		return NULL;
	r->phases = p;
	p = &r->phases[r->nphases];
	memset(p, 0, sizeof(*p));
	p->hist = cb_hist_new();
	if (!p->hist)
		return NULL;
	r->nphases++;
	return p;
}

static void phase_release(struct cb_phase_result *p)
{
	free(p->name);
	free(p->layer);
	free(p->op);
	cb_hist_free(p->hist);
	free(p->samples);
}

void cb_result_drop_last(struct cb_result *r)
{
	if (r->nphases)
		phase_release(&r->phases[--r->nphases]);
}

double cb_phase_iops(const struct cb_phase_result *p)
{
	return p->elapsed_ns ? (double)p->ops * 1e9 / (double)p->elapsed_ns : 0.0;
}

double cb_phase_bw(const struct cb_phase_result *p)
{
	return p->elapsed_ns ? (double)p->bytes * 1e9 / (double)p->elapsed_ns : 0.0;
}

void cb_result_release(struct cb_result *r)
{
	for (size_t i = 0; i < r->nphases; i++)
		phase_release(&r->phases[i]);
	free(r->phases);
	free(r->run_name);
	free(r->profile_name);
	memset(r, 0, sizeof(*r));
}
