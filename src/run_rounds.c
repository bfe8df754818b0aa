/* The workloads of a run, round after round: each workload's steps as
 * phases, their rows in the result, its clients' sessions across rounds. */
#include "run_priv.h"
#include "group.h"
#include "search.h"
#include "telemetry.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One phase of a step, with its telemetry (unless a group's other member
 * has it: telemetry follows one phase at a time). */
struct step_run {
	struct run *rn;
	const struct cb_plan_item *it;
	struct cb_phase *ph;
	struct cb_workload *w; /* ph->wl, the step's own copy */
	const struct cb_round *c;
};

static int phase_tm(struct step_run *sr, struct cb_phase_result *pr)
{
	struct cb_runner_opts ro = sr->c->ro;
	if (!sr->c->tm)
		return cb_run_phase(sr->ph, sr->it->engine, &ro, pr);
	struct cb_tm_phase tp;
	/* without memory for its telemetry the phase runs without it */
	if (cb_tm_phase_begin(sr->rn->tm, sr->ph, sr->it->engine, &tp, &ro) < 0)
		cb_tm_note(sr->rn->tm, "out of memory: a phase ran without telemetry");
	int r = cb_run_phase(sr->ph, sr->it->engine, &ro, pr);
	pr->tm = cb_tm_phase_end(&tp);
	return r;
}

/* A search's step: the step's phase at rate ops/s. */
static int search_step(void *arg, uint64_t rate, struct cb_phase_result *pr)
{
	struct step_run *sr = arg;
	sr->w->rate.ops = rate;
	return phase_tm(sr, pr);
}

/* Run one step of workload i as a phase into pr, through conn. Returns 0,
 * -EINTR on a signal, or -errno with e set. */
static int run_step(struct run *rn, size_t i, const struct cb_step *st, struct cb_conn *conn,
		    void **sessions, const struct cb_round *c, struct cb_phase_result *pr,
		    struct cb_err *e)
{
	const struct cb_plan_item *it = &rn->p->items[i];
	struct cb_workload w = it->wl;
	char name[96];
	struct cb_phase_out out = {0};
	struct cb_phase ph = {.wl = &w,
			      .lopts = it->lopts,
			      .conn = conn,
			      .run_name = rn->name,
			      .run_id = rn->id,
			      .clients = (unsigned)it->wl.clients,
			      .step = st->id,
			      .session = sessions,
			      .allow_destructive = rn->o->allow_destructive,
			      .err = e,
			      .out = &out};
	if (st->suffix) {
		snprintf(name, sizeof(name), "%s.%s", it->wl.name, st->suffix);
		w.name = name;
	}
	if (st->op)
		w.op = (char *)st->op;
	if (st->own_limits) {
		/* the engine ends it when its work is done, or the time limit */
		w.ramp_ns = w.ops = w.bytes = 0;
		w.duration_ns = st->duration_ns;
	}
	struct step_run sr = {.rn = rn, .it = it, .ph = &ph, .w = &w, .c = c};
	int r = cb_search_given(&w.search) ? cb_search_run(&w, search_step, &sr, pr, e)
					   : phase_tm(&sr, pr);
	rn->left[i].created |= out.created;
	rn->left[i].kept |= out.kept;
	/* a namesake's leftovers removed, or old data read: never silently */
	if (out.note[0] && !rn->o->quiet && rn->root)
		fprintf(stderr, "workload '%s': %s\n", w.name, out.note);
	pr->cold = out.cold;
	pr->cold_osds = out.cold_osds;
	if (out.cold_osds.note[0] && !rn->o->quiet && rn->root)
		fprintf(stderr, "workload '%s': cold: %s\n", w.name, out.cold_osds.note);
	if (out.target[0]) /* a step that failed before its setup names no target */
		cb_run_note_target(rn, i, it->engine, &ph);
	return r;
}

static int wl_start(struct run *rn, size_t i, struct wl_run *w, struct cb_err *e)
{
	const struct cb_plan_item *it = &rn->p->items[i];
	w->nsteps = 1;
	w->iters = 1;
	if (it->engine->steps)
		w->nsteps = it->engine->steps(&it->wl, it->lopts, w->steps, &w->iters);
	for (size_t s = 0; s < w->nsteps; s++)
		w->row[s] = SIZE_MAX;
	w->sessions = calloc(it->wl.clients, sizeof(*w->sessions));
	if (!w->sessions)
		return cb_err_usage(e, "out of memory");
	if (!it->wl.op_timeout_ns || it->engine->no_cluster)
		return 0;
	struct cb_cluster_opts co = rn->co;
	co.op_timeout_ns = it->wl.op_timeout_ns;
	return cb_ranks_agree(rn->o->ranks, cb_conn_open(&co, &w->conn, e), e);
}

static void wl_end(struct run *rn, size_t i, struct wl_run *w)
{
	const struct cb_plan_item *it = &rn->p->items[i];
	for (uint64_t c = 0; w->sessions && c < it->wl.clients; c++)
		if (w->sessions[c] && it->engine->release)
			it->engine->release(w->sessions[c]);
	free(w->sessions);
	w->sessions = NULL;
	/* after the sessions: a CephFS mount lives on its connection */
	cb_conn_close(w->conn);
	w->conn = NULL;
}

void cb_run_end_workloads(struct run *rn)
{
	for (size_t i = 0; i < rn->p->n; i++)
		wl_end(rn, i, &rn->wls[i]);
}

int cb_run_merge_row(struct cb_phase_result *row, struct cb_phase_result *pr)
{
	/* a run of the step that never started measured nothing of it; the
	 * row's telemetry short of a later run's (no memory) is not the run's
	 * failure */
	if (pr->ran)
		cb_tm_merge(&row->tm, pr->tm);
	else
		cb_phase_tm_free(pr->tm);
	pr->tm = NULL;
	if (!row->cold) /* the first run's way of running cold is the row's */
		row->cold = pr->cold, row->cold_osds = pr->cold_osds;
	if (pr->ran)
		return cb_phase_merge_iteration(row, pr) < 0 ? -ENOMEM : 0;
	row->interrupted |= pr->interrupted;
	row->failed |= pr->failed;
	return 0;
}

/* A group member's load stops once the measured members are done. */
static bool load_stopped(const struct cb_plan_item *it, const struct cb_round *c)
{
	return c->ro.group && it->wl.role == CB_ROLE_LOAD && cb_group_stopped(c->ro.group);
}

/* A new row of a group's member names its group, role and alone. */
static int group_row(const struct cb_workload *wl, struct cb_phase_result *pr)
{
	if (!wl->together)
		return 0;
	pr->group = strdup(wl->together);
	pr->load = wl->role == CB_ROLE_LOAD;
	pr->alone = wl->alone ? strdup(wl->alone) : NULL;
	return !pr->group || (wl->alone && !pr->alone) ? -ENOMEM : 0;
}

/* One round of workload i: its steps in order (those c->which asks for),
 * the list repeated for the engine's iterations; one row per step in
 * c->res, later runs merged into it. A prefill runs only the first time:
 * the data is there after it. */
int cb_run_wl_round(struct run *rn, size_t i, unsigned round, const struct cb_round *c,
		    struct cb_err *e)
{
	const struct cb_plan_item *it = &rn->p->items[i];
	struct wl_run *w = &rn->wls[i];
	int r = 0;
	for (unsigned k = 0; k < w->iters && r == 0; k++) {
		for (size_t s = 0; s < w->nsteps && r == 0 && !load_stopped(it, c); s++) {
			struct cb_phase_result one, *pr;
			bool first = w->row[s] == SIZE_MAX;
			bool prefill = cb_step_is_prefill(&w->steps[s]);
			if (((round > 0 || k > 0) && prefill) ||
			    (c->which == CB_STEPS_PREFILL && !prefill) ||
			    (c->which == CB_STEPS_MAIN && prefill))
				continue;
			pr = first ? cb_result_add_phase(c->res)
				   : (cb_phase_init(&one) == 0 ? &one : NULL);
			if (!pr) {
				r = cb_err_usage(e, "out of memory");
				break;
			}
			r = run_step(rn, i, &w->steps[s], w->conn ? w->conn : rn->conn, w->sessions,
				     c, pr, e);
			pr->wl = &it->wl;
			pr->step = w->steps[s].suffix;
			pr->engine = it->engine;
			pr->lopts = it->lopts;
			if (first && !prefill && group_row(&it->wl, pr) < 0 && r == 0)
				r = cb_err_usage(e, "out of memory");
			bool marks = c->outer_row && c->outer_row[s] != SIZE_MAX;
			if (first && (pr->ran || marks))
				w->row[s] = c->res->nphases - 1;
			else if (first)
				cb_result_drop_last(c->res);
			else {
				if (cb_run_merge_row(&c->res->phases[w->row[s]], pr) < 0 && r == 0)
					r = cb_err_usage(e, "out of memory");
				cb_phase_release(&one);
			}
		}
	}
	return r;
}

/* An optional workload whose layer this host lacks is skipped, with a note
 * and a record in the result. Returns 1 when skipped, 0 to run it, or
 * -ENOMEM with e set. */
static int skip_unavailable(struct run *rn, size_t i, struct cb_err *e)
{
	const struct cb_plan_item *it = &rn->p->items[i];
	char why[256] = "";
	bool skip = it->wl.optional && it->engine->available &&
		    it->engine->available(&it->wl, it->lopts, why, sizeof(why)) != 0;
	/* over ranks: skipped everywhere when a host lacks the layer, or the
	 * ranks would part ways */
	if (!cb_ranks_any(rn->o->ranks, skip))
		return 0;
	if (!why[0])
		snprintf(why, sizeof(why), "unavailable on another rank's host");
	if (cb_result_add_skip(&rn->res, it->wl.name, why) < 0)
		return cb_err_usage(e, "out of memory");
	if (!rn->o->quiet && rn->root)
		fprintf(stderr, "skipped workload '%s' (optional): %s\n", it->wl.name, why);
	return 1;
}

int cb_run_wl_begin(struct run *rn, size_t i, unsigned k, struct cb_err *e)
{
	const struct cb_plan_item *it = &rn->p->items[i];
	struct wl_run *w = &rn->wls[i];
	int r;
	if (k >= it->wl.repeat || (k > 0 && !w->sessions))
		return 1;
	if (k == 0 && (r = skip_unavailable(rn, i, e)) != 0)
		return r;
	if (k == 0 && (r = wl_start(rn, i, w, e)) < 0)
		return r;
	return 0;
}

void cb_run_wl_finish(struct run *rn, size_t i, unsigned k)
{
	if (k + 1 == rn->p->items[i].wl.repeat)
		wl_end(rn, i, &rn->wls[i]);
}

/* Round k of workload i: its first round starts it (or skips it), its last
 * ends it. 0, -EINTR, or -errno with e set. */
static int wl_turn(struct run *rn, size_t i, unsigned k, struct cb_err *e)
{
	int r = cb_run_wl_begin(rn, i, k, e);
	if (r != 0)
		return r > 0 ? 0 : r;
	struct cb_round c = {.res = &rn->res, .ro = rn->ro, .tm = true, .which = CB_STEPS_ALL};
	r = cb_run_wl_round(rn, i, k, &c, e);
	cb_run_wl_finish(rn, i, k);
	return r;
}

/* Whether workload i is a group's member after its first: the group runs
 * at its first member's place. */
static bool later_member(const struct cb_profile *p, size_t i)
{
	const char *g = p->items[i].wl.together;
	for (size_t j = 0; g && j < i; j++)
		if (p->items[j].wl.together && strcmp(p->items[j].wl.together, g) == 0)
			return true;
	return false;
}

/* Rounds: every workload once, in order, then again those with repeats
 * left: the rows of a comparison alternate (A B A B), so a cluster's drift
 * during the run spreads over both sides instead of one. */
int cb_run_rounds(struct run *rn, struct cb_err *e)
{
	const struct cb_profile *p = rn->p;
	uint64_t rounds = 0;
	for (size_t i = 0; i < p->n; i++)
		rounds = p->items[i].wl.repeat > rounds ? p->items[i].wl.repeat : rounds;
	for (unsigned k = 0; k < rounds; k++)
		for (size_t i = 0; i < p->n; i++) {
			if (later_member(p, i))
				continue;
			int r = p->items[i].wl.together ? cb_run_group(rn, i, k, e)
							: wl_turn(rn, i, k, e);
			if (r < 0)
				return r;
		}
	return 0;
}
