/* The start line and the stop of a group's members. */
#include "group.h"
#include "engine.h"
#include "result.h"
#include "load_opts.h"
#include "search.h"

#include <errno.h>
#include <stdio.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

struct cb_group {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	unsigned n, arrived, measure;
	bool failed, open;
	atomic_bool stop, sig;
};

struct cb_group *cb_group_new(unsigned clients, unsigned measure)
{
	struct cb_group *g = calloc(1, sizeof(*g));
	if (!g)
		return NULL;
	pthread_mutex_init(&g->mu, NULL);
	pthread_cond_init(&g->cv, NULL);
	g->n = clients;
	g->measure = measure;
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
	if (g->arrived >= g->n) {
		g->open = true;
		pthread_cond_broadcast(&g->cv);
	}
}

bool cb_group_arrive(struct cb_group *g, bool ok)
{
	pthread_mutex_lock(&g->mu);
	if (g->open) { /* a later phase of a member, or one late after a failure */
		ok = ok && !g->failed;
		pthread_mutex_unlock(&g->mu);
		return ok;
	}
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
	if (!g->open)
		arrive(g, count, ok);
	pthread_mutex_unlock(&g->mu);
}

void cb_group_done(struct cb_group *g, bool load)
{
	pthread_mutex_lock(&g->mu);
	if (!load && g->measure && --g->measure == 0)
		atomic_store(&g->stop, true);
	pthread_mutex_unlock(&g->mu);
}

bool cb_group_stopped(struct cb_group *g)
{
	return atomic_load(&g->stop) || atomic_load(&g->sig);
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
	const char *key = wl->role == CB_ROLE_LOAD ? "role: load" : wl->alone ? "alone" : NULL;
	if (!wl->together && key) {
		snprintf(why, n, "%s is for a group's member: give together: NAME too", key);
		return -EINVAL;
	}
	if (wl->together && cb_search_given(&wl->search)) {
		/* a search is many phases one after another, at rates of its
		 * own choosing: the others' load would not be the same */
		snprintf(why, n, "search: runs alone; leave it out of group '%s'", wl->together);
		return -EINVAL;
	}
	if (wl->together && wl->role == CB_ROLE_LOAD && wl->alone) {
		snprintf(why, n,
			 "alone: a load member is not measured; give alone on a measured one");
		return -EINVAL;
	}
	return 0;
}

int cb_group_check_members(const struct cb_workload *wl, const struct cb_workload *const *above,
			   size_t n, char *why, size_t len)
{
	if (!wl->together)
		return 0;
	size_t first = n; /* the group runs at its first member's place */
	for (size_t i = 0; i < n && first == n; i++)
		if (above[i]->together && strcmp(above[i]->together, wl->together) == 0)
			first = i;
	if (first < n && above[first]->repeat != wl->repeat) {
		snprintf(why, len,
			 "repeat: %llu, but '%s' of group '%s' repeats %llu: a group's members "
			 "repeat alike",
			 (unsigned long long)wl->repeat, above[first]->name, wl->together,
			 (unsigned long long)above[first]->repeat);
		return -EINVAL;
	}
	if (!wl->alone)
		return 0;
	for (size_t i = 0; i < n; i++) {
		const struct cb_workload *a = above[i];
		if (strcmp(a->name, wl->alone) != 0)
			continue;
		if (a->together && strcmp(a->together, wl->together) == 0) {
			snprintf(why, len,
				 "alone: '%s' is in group '%s' too: name a workload that ran alone",
				 a->name, wl->together);
			return -EINVAL;
		}
		if (i > first) {
			snprintf(why, len,
				 "alone: '%s' runs after group '%s' (which runs at '%s'): name a "
				 "workload above the group",
				 a->name, wl->together, above[first]->name);
			return -EINVAL;
		}
		if (strcmp(a->op, wl->op) != 0) {
			snprintf(why, len,
				 "alone: '%s' runs op %s, this one %s: name one of the same op",
				 a->name, a->op, wl->op);
			return -EINVAL;
		}
		return 0;
	}
	snprintf(why, len,
		 "alone: no workload '%s' above this one: name the workload that ran the same op "
		 "alone, before the group",
		 wl->alone);
	return -EINVAL;
}
