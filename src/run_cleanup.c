/* The end of a run, rank 0's: what its phases made removed (every phase is
 * tried even if one fails), and what it keeps said with the command that
 * removes it by hand. */
#include "run_priv.h"

#include <stdio.h>
#include <string.h>

bool cb_run_late_signal(const struct run *rn, const char *when)
{
	if (!cb_signal_pending(rn->o->sigfd))
		return false;
	fprintf(stderr, "cephbench: a stop signal came %s, which was completed first\n", when);
	return true;
}

/* "cephbench cleanup --pool P --run-name R [--conf ...]": the same target
 * and cluster flags as the run, so the printed command works as it stands.
 * A target that fills the phase's field may have been cut there (a pool
 * name fits; a krbd device path may not): a command naming it would clean
 * another pool, so none is printed. */
void cb_run_note_target(struct run *rn, size_t i, const struct cb_engine *eng,
			const struct cb_phase *ph)
{
	char *buf = rn->left[i].cmd, flag[72];
	size_t n = sizeof(rn->left[i].cmd), k = 6;
	const struct cb_cluster_opts *co = &rn->co;
	if (!eng->target || strlen(ph->out->target) + 1 >= sizeof(ph->out->target)) {
		snprintf(buf, n, "%s", CB_SH_TOO_LONG);
		return;
	}
	snprintf(flag, sizeof(flag), "--%s", eng->target->flag);
	const char *w[13] = {"cephbench", "cleanup", flag, ph->out->target, "--run-name", rn->name};
	if (co->conf) {
		w[k++] = "--conf";
		w[k++] = co->conf;
	}
	if (co->client) {
		w[k++] = "--client";
		w[k++] = co->client;
	}
	if (co->keyring) {
		w[k++] = "--keyring";
		w[k++] = co->keyring;
	}
	cb_sh_join(buf, n, w);
}

/* A cleanup failure after an earlier error still gets its own line: the
 * operator must learn that something was left behind. */
static void cleanup_one(struct run *rn, size_t i, struct cb_err *e)
{
	const struct cb_plan_item *it = &rn->p->items[i];
	bool quiet = rn->o->quiet;
	struct cb_err ce = {0};
	struct cb_cleanup_req req = {.conn = rn->conn,
				     .lopts = it->lopts,
				     .run_name = rn->name,
				     .run_id = rn->id,
				     .err = &ce};
	int r = it->engine->cleanup(&req);
	if (req.note[0] && !quiet)
		fprintf(stderr, "cleanup: %s\n", req.note);
	if (r == 0 && !quiet && req.removed)
		fprintf(stderr, "cleanup: removed %llu %s %s of run '%s'\n",
			(unsigned long long)req.removed, it->engine->name, it->engine->removes,
			rn->name);
	if (r == 0)
		return;
	if (cb_err_isset(e))
		fprintf(stderr,
			"cephbench: cleanup failed too: %s; remove the leftovers later with: %s\n",
			ce.msg, rn->left[i].cmd);
	else
		cb_err_set(e, ce.exit, ce.code, "cleanup: %s; remove the leftovers later with: %s",
			   ce.msg, rn->left[i].cmd);
}

void cb_run_cleanup(struct run *rn, struct cb_err *e)
{
	const struct cb_profile *p = rn->p;
	bool late = cb_run_late_signal(rn, "while the result was written");
	/* a second phase on the same target simply finds nothing left */
	for (size_t i = 0; i < p->n && !rn->o->no_cleanup; i++)
		if (rn->left[i].created && p->items[i].engine->cleanup)
			cleanup_one(rn, i, e);
	if (!rn->o->no_cleanup)
		late |= cb_run_late_signal(rn, "during the cleanup");
	rn->interrupted |= late;
	for (size_t i = 0; i < p->n && !rn->o->quiet; i++) {
		if (rn->left[i].kept || (rn->o->no_cleanup && rn->left[i].created))
			fprintf(stderr, "kept what workload '%s' wrote (%s); remove it with: %s\n",
				p->items[i].wl.name,
				rn->left[i].kept ? "reuse: true" : "--no-cleanup", rn->left[i].cmd);
	}
}
