/* The start line and the stop of a group's members. */
#include "group.h"
#include "engine.h"
#include "result.h"

#include <errno.h>
#include <stdio.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct cb_group {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	unsigned n, arrived;
	bool failed;
	atomic_bool stop, sig;
};

struct cb_group *cb_group_new(unsigned clients)
{
	struct cb_group *g = calloc(1, sizeof(*g));
	if (!g)
		return NULL;
	pthread_mutex_init(&g->mu, NULL);
	pthread_cond_init(&g->cv, NULL);
	g->n = clients;
	return g;
}

void cb_group_free(struct cb_group *g)
{
	if (!g)
		return;
	pthread_cond_destroy(&g->cv);
	pthread_mutex_destroy(&g->mu);
	free(g);
}

static void arrive(struct cb_group *g, unsigned count, bool ok)
{
	g->arrived += count;
	g->failed |= !ok;
	if (g->arrived >= g->n)
		pthread_cond_broadcast(&g->cv);
}

bool cb_group_arrive(struct cb_group *g, bool ok)
{
	pthread_mutex_lock(&g->mu);
	arrive(g, 1, ok);
	while (g->arrived < g->n)
		pthread_cond_wait(&g->cv, &g->mu);
	ok = !g->failed;
	pthread_mutex_unlock(&g->mu);
	return ok;
}

void cb_group_leave(struct cb_group *g, unsigned count, bool ok)
{
	pthread_mutex_lock(&g->mu);
	arrive(g, count, ok);
	pthread_mutex_unlock(&g->mu);
}

void cb_group_stop(struct cb_group *g)
{
	atomic_store(&g->stop, true);
}

bool cb_group_poll(struct cb_group *g, bool *sig)
{
	if (*sig)
		atomic_store(&g->sig, true);
	*sig = atomic_load(&g->sig);
	return *sig || atomic_load(&g->stop);
}

int cb_group_check(const struct cb_workload *wl, char *why, size_t n)
{
	if (!wl->together && !wl->alone && wl->role == CB_ROLE_MEASURE)
		return 0;
	/* refused, not ignored: workloads meant to run together would run
	 * one after another */
	snprintf(why, n,
		 "%s: workloads running together are not in this version of cephbench yet: "
		 "leave together, role and alone out",
		 wl->together ? "together"
		 : wl->alone  ? "alone"
			      : "role");
	return -EINVAL;
}

int cb_group_row_json(const struct cb_phase_result *p, json_t *o)
{
	(void)p, (void)o;
	return 0;
}

int cb_group_json(const struct cb_result *r, json_t *root)
{
	(void)r, (void)root;
	return 0;
}

void cb_group_text(const struct cb_result *r, FILE *out)
{
	(void)r, (void)out;
}
