/* `cephbench cleanup`: remove what runs left (crashed, interrupted or kept
 * with --no-cleanup), one run by name or every run, in every layer. */
#include "cli.h"
#include "commands.h"
#include "engines.h"
#include "options.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the flags of the layers' target kinds name; a kind's flag appears
 * once however many layers work in it (a pool: rados, rbd, krbd). */
#define MAX_KINDS 8

struct kinds {
	const struct cb_target_kind *k[MAX_KINDS];
	size_t n;
};

/* The places to clean, in the order the flags name them: each --pool,
 * --fs, --image given adds one (argv owns the names). */
struct target {
	size_t kind; /* index into kinds.k */
	const char *name;
};

/* -E2BIG when the layers name more kinds than fit: a kind left out would
 * leave its layers' leftovers uncleaned without a word. */
static int kinds_gather(struct kinds *ks)
{
	ks->n = 0;
	for (int i = 0; cb_engines[i]; i++) {
		const struct cb_target_kind *k = cb_engines[i]->target;
		size_t j = 0;
		if (!k || !cb_engines[i]->cleanup)
			continue;
		while (j < ks->n && ks->k[j] != k)
			j++;
		if (j < ks->n)
			continue;
		if (ks->n == MAX_KINDS)
			return -E2BIG;
		ks->k[ks->n++] = k;
	}
	return 0;
}

static const char cleanup_about[] =
    "Removes what cephbench runs made, also after a run was killed: in POOL, the\n"
    "objects of run N (or of every run) in the namespace 'cephbench', the RBD\n"
    "images cephbench.N.<n> (a killed run's watch on them is cleared first) and\n"
    "the krbd layer's images cephbench.N.<workload>.<n> (unmapped first with\n"
    "rbd device unmap when a killed run of this host mapped them); in the file\n"
    "system FS, the tree /cephbench/N when it carries a run's mark. Images a\n"
    "run still going has open or mapped, and the tree of a run still going on\n"
    "this host, are kept. Nothing outside those names is touched, nor anything\n"
    "without cephbench's mark: an object named like a run's that cephbench did\n"
    "not make is left and counted; a pool whose namespace 'cephbench' RBD uses\n"
    "is refused.\n"
    "\n";

static void print_help(const struct kinds *ks)
{
	printf("usage: cephbench cleanup (");
	for (size_t j = 0; j < ks->n; j++)
		printf("%s--%s %s", j ? " | " : "", ks->k[j]->flag, ks->k[j]->metavar);
	printf(")... (--run-name N | --all) [flags]\n\n%s", cleanup_about);
	printf("Each target flag may be given again for another place; each is cleaned\n"
	       "and reported in the order given. Every other flag is given once.\n\n");
	for (size_t j = 0; j < ks->n; j++) {
		char fl[64];
		snprintf(fl, sizeof(fl), "--%s %s", ks->k[j]->flag, ks->k[j]->metavar);
		if (ks->k[j]->short_flag)
			printf("  -%c, %-17s%s to clean\n", ks->k[j]->short_flag, fl,
			       ks->k[j]->noun);
		else
			printf("      %-17s%s to clean\n", fl, ks->k[j]->noun);
	}
	printf("      --run-name N     one run\n"
	       "      --all            every run\n\n%s",
	       cb_cli_cluster_help);
}

/* "give --pool POOL, --fs FS or both" */
static int no_target(const struct kinds *ks, struct cb_err *e)
{
	char buf[512] = "";
	size_t len = 0;
	for (size_t j = 0; j < ks->n && len < sizeof(buf); j++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s--%s %s", j ? ", " : "",
					ks->k[j]->flag, ks->k[j]->metavar);
	return cb_err_usage(e, "give %s%s", buf,
			    ks->n == 2	? " or both"
			    : ks->n > 2 ? " or several"
					: "");
}

/* Nothing can be left in a place that is not there: say so once, and never
 * suggest creating it (the run's hint, in cb_conn_ioctx). A cluster-side
 * absence, exit 3 as for a run: a typo in a cron job's --pool must not pass
 * as a clean pool. The value is dropped: no layer cleans it. */
static void drop_missing(const struct kinds *ks, struct target *t, size_t nt, struct cb_conn *conn,
			 struct cb_err *e)
{
	for (size_t j = 0; j < nt; j++) {
		const struct cb_target_kind *k = ks->k[t[j].kind];
		if (!k->exists || k->exists(conn, t[j].name) != -ENOENT)
			continue;
		if (!cb_err_isset(e))
			cb_err_cluster(
			    e, -ENOENT,
			    "%s '%s' does not exist: nothing to clean up in it (check --%s)",
			    k->noun, t[j].name, k->flag);
		t[j].name = NULL;
	}
}

/* One layer cleans one place, and says what it removed. */
static void clean_one(const struct cb_engine *eng, const char *target, struct cb_conn *conn,
		      const char *run, bool all, bool quiet, struct cb_err *e)
{
	struct cb_cleanup_req req = {
	    .conn = conn, .target = target, .run_name = run, .all = all, .err = e};
	int r = eng->cleanup(&req);
	if (r >= 0 && !quiet)
		printf("%s: removed %llu %s of %s%s%s from %s %s\n", eng->name,
		       (unsigned long long)req.removed, eng->removes, all ? "every run" : "run '",
		       all ? "" : run, all ? "" : "'", eng->target->noun, target);
	/* what it left alone is part of the report, not an error: stdout,
	 * beside its line (stderr holds only what went wrong) */
	if (req.note[0] && !quiet)
		printf("%s: %s\n", eng->name, req.note);
}

/* Each target in turn, by every layer of its kind. */
static void clean_layers(const struct kinds *ks, const struct target *t, size_t nt,
			 struct cb_conn *conn, const char *run, bool all, bool quiet,
			 struct cb_err *e)
{
	for (size_t j = 0; j < nt; j++)
		for (int i = 0; cb_engines[i] && t[j].name; i++) {
			const struct cb_engine *eng = cb_engines[i];
			if (eng->cleanup && eng->target == ks->k[t[j].kind])
				clean_one(eng, t[j].name, conn, run, all, quiet, e);
		}
}

/* A target flag's value: checked, and not a second of the same place. */
static int add_target(const struct kinds *ks, size_t kind, const char *name, struct target *t,
		      size_t *nt, struct cb_err *e)
{
	const struct cb_target_kind *k = ks->k[kind];
	char what[72];
	snprintf(what, sizeof(what), "--%s", k->flag);
	if (cb_err_rule(e, what, name, k->rule(name)) < 0)
		return -EINVAL;
	for (size_t j = 0; j < *nt; j++)
		if (t[j].kind == kind && strcmp(t[j].name, name) == 0)
			return cb_err_usage(e, "--%s '%s' given twice; give each %s once", k->flag,
					    CB_ECHO(name), k->noun);
	t[(*nt)++] = (struct target){kind, name};
	return 0;
}

int cb_cmd_cleanup(int argc, char **argv, enum cb_cmd_mode mode, struct cb_err *e)
{
	enum { OPT_ALL = CB_OPT_CMD_BASE, OPT_KIND };
	static const struct option fixed[] = {
	    CB_CLI_CLUSTER_OPTIONS,
	    {"run-name", required_argument, NULL, CB_OPT_RUN_NAME},
	    {"all", no_argument, NULL, OPT_ALL},
	};
	size_t nfixed = sizeof(fixed) / sizeof(fixed[0]), nt = 0;
	struct option longopts[sizeof(fixed) / sizeof(fixed[0]) + MAX_KINDS + 1];
	char shortopts[8 + 2 * MAX_KINDS] = "c:";
	int ids[MAX_KINDS + 1];
	struct kinds ks;
	struct cb_run_opts o = {.sigfd = -1};
	struct cb_cli_seen seen = {.repeat = ids};
	struct target *t = NULL;
	bool all = false;
	int opt, rc = CB_EXIT_USAGE;

	if (kinds_gather(&ks) < 0)
		return cb_err_usage(e, "internal error: more than %d kinds of cleanup target",
				    MAX_KINDS),
		       CB_EXIT_USAGE;
	/* at most one target per argument */
	if (!(t = calloc((size_t)argc + 1, sizeof(*t))))
		return cb_err_usage(e, "out of memory"), CB_EXIT_USAGE;
	memcpy(longopts, fixed, sizeof(fixed));
	for (size_t j = 0; j < ks.n; j++) {
		const struct cb_target_kind *k = ks.k[j];
		ids[j] = k->short_flag ? k->short_flag : OPT_KIND + (int)j;
		longopts[nfixed + j] = (struct option){k->flag, required_argument, NULL, ids[j]};
		if (k->short_flag)
			snprintf(shortopts + strlen(shortopts), 3, "%c:", k->short_flag);
	}
	ids[ks.n] = 0; /* the target flags repeat: each names one more place */
	longopts[nfixed + ks.n] = (struct option){NULL, 0, NULL, 0};
	strcat(shortopts, "h");

	optind = 0;
	while ((opt = cb_cli_getopt(argc, argv, shortopts, longopts, &o, &seen, e)) != -1) {
		size_t j = 0;
		while (j < ks.n && opt != ids[j])
			j++;
		if (j < ks.n) {
			if (add_target(&ks, j, optarg, t, &nt, e) < 0)
				goto out;
			continue;
		}
		switch (opt) {
		case CB_CLI_ERROR:
			goto out;
		case OPT_ALL:
			all = true;
			break;
		case 'h':
		case CB_OPT_HELP:
			print_help(&ks);
			rc = 0;
			goto out;
		default:
			cb_cli_bad_flag("cleanup", shortopts, argc, argv, longopts, e);
			goto out;
		}
	}
	if (optind < argc) {
		cb_err_usage(e, "unexpected argument '%s'", CB_ECHO(argv[optind]));
		goto out;
	}
	if (!nt) {
		no_target(&ks, e);
		goto out;
	}
	if (all == (o.run_name != NULL)) {
		cb_err_usage(e, "give either --run-name N or --all");
		goto out;
	}
	rc = CB_EXIT_OK;
	if (mode == CB_CMD_PARSE)
		goto out;

	struct cb_conn *conn;
	if (cb_conn_open(&o.cluster, &conn, e) < 0) {
		rc = (int)e->exit;
		goto out;
	}
	drop_missing(&ks, t, nt, conn, e);
	clean_layers(&ks, t, nt, conn, o.run_name, all, o.quiet, e);
	cb_conn_close(conn);
	rc = cb_err_isset(e) ? (int)e->exit : 0;
out:
	free(t);
	return rc;
}
