/* `cephbench cleanup`: remove what runs left (crashed, interrupted or kept
 * with --no-cleanup), one run by name or every run, in every layer. */
#include "cli.h"
#include "commands.h"
#include "engines.h"
#include "options.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* What the flags of the layers' target kinds name; a kind's flag appears
 * once however many layers work in it (a pool: rados, rbd, krbd). */
#define MAX_KINDS 8

struct kinds {
	const struct cb_target_kind *k[MAX_KINDS];
	const char *val[MAX_KINDS];
	size_t n;
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
static void drop_missing(struct kinds *ks, struct cb_conn *conn, struct cb_err *e)
{
	for (size_t j = 0; j < ks->n; j++) {
		const struct cb_target_kind *k = ks->k[j];
		if (!ks->val[j] || !k->exists || k->exists(conn, ks->val[j]) != -ENOENT)
			continue;
		if (!cb_err_isset(e))
			cb_err_cluster(
			    e, -ENOENT,
			    "%s '%s' does not exist: nothing to clean up in it (check --%s)",
			    k->noun, ks->val[j], k->flag);
		ks->val[j] = NULL;
	}
}

/* Each layer cleans what its kind's flag names. */
static void clean_layers(const struct kinds *ks, struct cb_conn *conn, const char *run, bool all,
			 bool quiet, struct cb_err *e)
{
	for (int i = 0; cb_engines[i]; i++) {
		const struct cb_engine *eng = cb_engines[i];
		size_t j = 0;
		while (j < ks->n && ks->k[j] != eng->target)
			j++;
		if (!eng->cleanup || j == ks->n || !ks->val[j])
			continue;
		struct cb_cleanup_req req = {
		    .conn = conn, .target = ks->val[j], .run_name = run, .all = all, .err = e};
		int r = eng->cleanup(&req);
		if (r >= 0 && !quiet)
			printf("%s: removed %llu %s of %s%s%s from %s %s\n", eng->name,
			       (unsigned long long)req.removed, eng->removes,
			       all ? "every run" : "run '", all ? "" : run, all ? "" : "'",
			       eng->target->noun, ks->val[j]);
		/* what it left alone is part of the report, not an error: stdout,
		 * beside its line (stderr holds only what went wrong) */
		if (req.note[0] && !quiet)
			printf("%s: %s\n", eng->name, req.note);
	}
}

int cb_cmd_cleanup(int argc, char **argv, enum cb_cmd_mode mode, struct cb_err *e)
{
	enum { OPT_ALL = CB_OPT_CMD_BASE, OPT_KIND };
	static const struct option fixed[] = {
	    CB_CLI_CLUSTER_OPTIONS,
	    {"run-name", required_argument, NULL, CB_OPT_RUN_NAME},
	    {"all", no_argument, NULL, OPT_ALL},
	};
	size_t nfixed = sizeof(fixed) / sizeof(fixed[0]);
	struct option longopts[sizeof(fixed) / sizeof(fixed[0]) + MAX_KINDS + 1];
	char shortopts[8 + 2 * MAX_KINDS] = "c:";
	struct kinds ks;
	struct cb_run_opts o = {.sigfd = -1};
	bool all = false, any = false;
	int opt;

	if (kinds_gather(&ks) < 0)
		return cb_err_usage(e, "internal error: more than %d kinds of cleanup target",
				    MAX_KINDS),
		       CB_EXIT_USAGE;
	memcpy(longopts, fixed, sizeof(fixed));
	for (size_t j = 0; j < ks.n; j++) {
		const struct cb_target_kind *k = ks.k[j];
		int id = k->short_flag ? k->short_flag : OPT_KIND + (int)j;
		longopts[nfixed + j] = (struct option){k->flag, required_argument, NULL, id};
		if (k->short_flag)
			snprintf(shortopts + strlen(shortopts), 3, "%c:", k->short_flag);
		ks.val[j] = NULL;
	}
	longopts[nfixed + ks.n] = (struct option){NULL, 0, NULL, 0};
	strcat(shortopts, "h");

	optind = 0;
	while ((opt = cb_cli_getopt(argc, argv, shortopts, longopts, &o, e)) != -1) {
		size_t j = 0;
		while (j < ks.n &&
		       opt != (ks.k[j]->short_flag ? ks.k[j]->short_flag : OPT_KIND + (int)j))
			j++;
		if (j < ks.n) {
			char what[72];
			snprintf(what, sizeof(what), "--%s", ks.k[j]->flag);
			ks.val[j] = optarg;
			any = true;
			if (cb_err_rule(e, what, optarg, ks.k[j]->rule(optarg)) < 0)
				return CB_EXIT_USAGE;
			continue;
		}
		switch (opt) {
		case CB_CLI_ERROR:
			return CB_EXIT_USAGE;
		case OPT_ALL:
			all = true;
			break;
		case 'h':
		case CB_OPT_HELP:
			print_help(&ks);
			return 0;
		default:
			cb_cli_bad_flag("cleanup", shortopts, argc, argv, longopts, e);
			return CB_EXIT_USAGE;
		}
	}
	if (optind < argc)
		return cb_err_usage(e, "unexpected argument '%s'", CB_ECHO(argv[optind])),
		       CB_EXIT_USAGE;
	if (!any)
		return no_target(&ks, e), CB_EXIT_USAGE;
	if (all == (o.run_name != NULL))
		return cb_err_usage(e, "give either --run-name N or --all"), CB_EXIT_USAGE;
	if (mode == CB_CMD_PARSE)
		return CB_EXIT_OK;

	struct cb_conn *conn;
	if (cb_conn_open(&o.cluster, &conn, e) < 0)
		return (int)e->exit;
	drop_missing(&ks, conn, e);
	clean_layers(&ks, conn, o.run_name, all, o.quiet, e);
	cb_conn_close(conn);
	return cb_err_isset(e) ? (int)e->exit : 0;
}
