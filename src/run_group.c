/* A group's round: its members' prefills one after another, then every
 * member in a thread of its own, all at one start line (group.c), each on
 * its own slice of the run's completion queues. A member's rows go to a
 * result of its own while the threads run (adding a row moves the run's),
 * and join the run's in the members' order after. */
#include "group.h"
#include "ranks.h"
#include "run_priv.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct member {
	struct run *rn;
	size_t i;
	unsigned k;
	bool runs; /* has round k */
	struct cb_round c;
	struct cb_result res;
	size_t row[CB_MAX_STEPS]; /* the run's rows of its steps, while they are its own */
	struct cb_err e;
	int r;
	pthread_t tid;
	bool started;
};

static bool member_of(const struct cb_workload *wl, const char *group)
{
	return wl->together && strcmp(wl->together, group) == 0;
}

size_t cb_run_queues(const struct cb_profile *p)
{
	size_t n = 1;
	for (size_t i = 0; i < p->n; i++) {
		const struct cb_workload *wl = &p->items[i].wl;
		size_t sum = wl->clients;
		for (size_t j = i + 1; wl->together && j < p->n; j++)
			if (member_of(&p->items[j].wl, wl->together))
				sum += p->items[j].wl.clients;
		n = sum > n ? sum : n;
	}
	return n;
}

static void *member_main(void *arg)
{
	struct member *m = arg;
	const struct cb_workload *wl = &m->rn->p->items[m->i].wl;
	m->r = cb_run_wl_round(m->rn, m->i, m->k, &m->c, &m->e);
	/* a member that never came to the line (out of memory before its
	 * first phase) must not keep the others waiting; after the line
	 * opened this is nothing */
	cb_group_leave(m->c.ro.group, (unsigned)wl->clients, false);
	cb_group_done(m->c.ro.group, wl->role == CB_ROLE_LOAD);
	return NULL;
}

/* The member's rows into the run's: a step's first row moved there, a
 * later round's merged into it. -ENOMEM. */
static int join_rows(struct member *m)
{
	struct wl_run *w = &m->rn->wls[m->i];
	struct cb_result *run = &m->rn->res;
	int r = 0;
	for (size_t s = 0; s < w->nsteps; s++) {
		size_t own = w->row[s];
		w->row[s] = m->row[s];
		if (own == SIZE_MAX)
			continue;
		struct cb_phase_result *pr = &m->res.phases[own];
		if (m->row[s] != SIZE_MAX) {
			if (cb_run_merge_row(&run->phases[m->row[s]], pr) < 0)
				r = -ENOMEM;
			cb_phase_release(pr);
			continue;
		}
		struct cb_phase_result *to = cb_result_add_phase(run);
		if (!to) {
			r = -ENOMEM;
			cb_phase_release(pr);
			continue;
		}
		cb_phase_release(to);
		*to = *pr; /* the row's memory is the run's now */
		memset(pr, 0, sizeof(*pr));
		w->row[s] = run->nphases - 1;
	}
	free(m->res.phases);
	m->res.phases = NULL;
	m->res.nphases = 0;
	return r;
}

/* Start member m's thread on its queues from *q on. 0, or -errno with
 * m->e set (its clients then leave the line). */
static int start(struct member *m, struct cb_group *g, size_t *q, bool tm, bool progress)
{
	struct run *rn = m->rn;
	struct wl_run *w = &rn->wls[m->i];
	unsigned clients = (unsigned)rn->p->items[m->i].wl.clients;
	m->c = (struct cb_round){
	    .res = &m->res, .ro = rn->ro, .tm = tm, .which = CB_STEPS_MAIN, .outer_row = m->row};
	m->c.ro.group = g;
	m->c.ro.cqs = rn->cqs + *q;
	m->c.ro.ncqs = clients;
	if (!progress) /* one member's per-second lines, not several interleaved */
		m->c.ro.progress = NULL;
	*q += clients;
	for (size_t s = 0; s < w->nsteps; s++) {
		m->row[s] = w->row[s];
		w->row[s] = SIZE_MAX;
	}
	if (pthread_create(&m->tid, NULL, member_main, m) == 0) {
		m->started = true;
		return 0;
	}
	memcpy(w->row, m->row, sizeof(m->row[0]) * w->nsteps);
	cb_group_leave(g, clients, false);
	return m->r = cb_err_cluster(&m->e, -EAGAIN, "cannot start a thread for workload '%s'",
				     rn->p->items[m->i].wl.name);
}

/* The members' side-by-side part: the line's clients, the threads, their
 * rows. The first error, in the members' order, into e. */
static int side_by_side(struct run *rn, struct member *m, size_t n, struct cb_err *e)
{
	unsigned clients = 0, measure = 0;
	for (size_t j = 0; j < n; j++)
		if (m[j].runs) {
			const struct cb_workload *wl = &rn->p->items[m[j].i].wl;
			clients += (unsigned)wl->clients;
			measure += wl->role != CB_ROLE_LOAD;
		}
	if (!clients)
		return 0;
	if (!measure) { /* load beside nothing measures nothing */
		if (!rn->o->quiet && rn->root)
			fprintf(stderr,
				"group '%s': no measured member runs: its load does not run\n",
				rn->p->items[m[0].i].wl.together);
		return 0;
	}
	struct cb_group *g = cb_group_new(clients, measure);
	if (!g)
		return cb_err_usage(e, "out of memory");
	size_t q = 0;
	bool tm = true;
	for (size_t j = 0; j < n; j++) {
		if (!m[j].runs)
			continue;
		/* telemetry and the progress lines follow the first measured
		 * member: its cluster and host figures are those of the whole
		 * group's load */
		bool this_tm = tm && rn->p->items[m[j].i].wl.role != CB_ROLE_LOAD;
		start(&m[j], g, &q, this_tm, this_tm);
		tm &= !this_tm;
	}
	int r = 0;
	for (size_t j = 0; j < n; j++) {
		if (m[j].started)
			pthread_join(m[j].tid, NULL);
		/* a member whose thread never started has the run's rows back */
		if (m[j].started && join_rows(&m[j]) < 0 && m[j].r == 0)
			m[j].r = cb_err_usage(&m[j].e, "out of memory");
		/* a member's own error outranks being stopped or cancelled by
		 * another's */
		bool weak = r == -EINTR || r == -ECANCELED;
		bool real = m[j].r != -EINTR && m[j].r != -ECANCELED;
		if (m[j].r < 0 && (r == 0 || (weak && real))) {
			r = m[j].r;
			*e = m[j].e;
		}
	}
	cb_group_free(g);
	return r;
}

int cb_run_group(struct run *rn, size_t i, unsigned k, struct cb_err *e)
{
	const struct cb_profile *p = rn->p;
	const char *name = p->items[i].wl.together;
	if (cb_ranks_size(rn->o->ranks) > 1)
		return cb_err_usage(e,
				    "together: group '%s' runs its members in one process: run it "
				    "without MPI",
				    name);
	struct member *m = calloc(p->n - i, sizeof(*m));
	if (!m)
		return cb_err_usage(e, "out of memory");
	size_t n = 0;
	int r = 0;
	for (size_t j = i; j < p->n && r == 0; j++) {
		if (!member_of(&p->items[j].wl, name))
			continue;
		m[n] = (struct member){.rn = rn, .i = j, .k = k};
		int b = cb_run_wl_begin(rn, j, k, e);
		m[n++].runs = b == 0;
		if (b < 0)
			r = b;
	}
	/* the prefills first, each alone: the data is there when the line opens */
	struct cb_round pre = {
	    .res = &rn->res, .ro = rn->ro, .tm = true, .which = CB_STEPS_PREFILL};
	for (size_t j = 0; j < n && r == 0; j++)
		if (m[j].runs)
			r = cb_run_wl_round(rn, m[j].i, k, &pre, e);
	if (r == 0)
		r = side_by_side(rn, m, n, e);
	for (size_t j = 0; j < n; j++)
		if (m[j].runs)
			cb_run_wl_finish(rn, m[j].i, k);
	free(m);
	return r;
}
