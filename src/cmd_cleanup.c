/* `cephbench cleanup`: remove what runs left (crashed, interrupted or kept
 * with --no-cleanup), one run by name or every run, in every layer. */
#include "cli.h"
#include "commands.h"
#include "engines.h"
#include "options.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const char cleanup_help[] =
    "usage: cephbench cleanup (--pool POOL | --fs FS)... (--run-name N | --all) [flags]\n"
    "\n"
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
    "\n"
    "  -p, --pool POOL      pool to clean\n"
    "      --fs FS          CephFS file system to clean\n"
    "      --run-name N     one run\n"
    "      --all            every run\n";

int cb_cmd_cleanup(int argc, char **argv, enum cb_cmd_mode mode, struct cb_err *e)
{
	enum { OPT_ALL = CB_OPT_CMD_BASE, OPT_FS };
	static const char shortopts[] = "c:p:h";
	static const struct option longopts[] = {
	    CB_CLI_CLUSTER_OPTIONS,
	    {"run-name", required_argument, NULL, CB_OPT_RUN_NAME},
	    {"pool", required_argument, NULL, 'p'},
	    {"all", no_argument, NULL, OPT_ALL},
	    {"fs", required_argument, NULL, OPT_FS},
	    {NULL, 0, NULL, 0},
	};
	struct cb_run_opts o = {.sigfd = -1};
	const char *pool = NULL, *fs = NULL;
	bool all = false;
	int opt;

	optind = 0;
	while ((opt = cb_cli_getopt(argc, argv, shortopts, longopts, &o, e)) != -1) {
		switch (opt) {
		case CB_CLI_ERROR:
			return CB_EXIT_USAGE;
		case 'p':
			pool = optarg;
			if (cb_err_rule(e, "--pool", pool, cb_ceph_name_rule(pool)) < 0)
				return CB_EXIT_USAGE;
			break;
		case OPT_FS:
			fs = optarg;
			if (cb_err_rule(e, "--fs", fs, cb_ceph_name_rule(fs)) < 0)
				return CB_EXIT_USAGE;
			break;
		case OPT_ALL:
			all = true;
			break;
		case 'h':
		case CB_OPT_HELP:
			printf("%s\n%s", cleanup_help, cb_cli_cluster_help);
			return 0;
		default:
			cb_cli_bad_flag("cleanup", shortopts, argc, argv, longopts, e);
			return CB_EXIT_USAGE;
		}
	}
	if (optind < argc)
		return cb_err_usage(e, "unexpected argument '%s'", CB_ECHO(argv[optind])),
		       CB_EXIT_USAGE;
	if (!pool && !fs)
		return cb_err_usage(e, "give --pool POOL, --fs FS or both"), CB_EXIT_USAGE;
	if (all == (o.run_name != NULL))
		return cb_err_usage(e, "give either --run-name N or --all"), CB_EXIT_USAGE;
	if (mode == CB_CMD_PARSE)
		return CB_EXIT_OK;

	struct cb_conn *conn;
	if (cb_conn_open(&o.cluster, &conn, e) < 0)
		return (int)e->exit;
	/* Nothing can be left in a pool that is not there: say so once, and
	 * never suggest creating it (the run's hint, in cb_conn_ioctx). A
	 * cluster-side absence, exit 3 as for a run: a typo in a cron job's
	 * --pool must not pass as a clean pool. */
	if (pool && rados_pool_lookup(cb_conn_rados(conn), pool) == -ENOENT) {
		cb_err_cluster(e, -ENOENT,
			       "pool '%s' does not exist: nothing to clean up in it (check --pool)",
			       pool);
		pool = NULL;
	}
	for (int i = 0; cb_engines[i]; i++) {
		const struct cb_engine *eng = cb_engines[i];
		/* a layer that makes nothing (noop) has no target to clean */
		if (!eng->cleanup)
			continue;
		/* each layer cleans the target its own flag names */
		bool by_fs = strcmp(eng->cleanup_flag, "--fs") == 0;
		const char *target = by_fs ? fs : pool;
		if (!target)
			continue;
		struct cb_cleanup_req req = {.conn = conn,
					     .pool = by_fs ? NULL : pool,
					     .fs = by_fs ? fs : NULL,
					     .run_name = o.run_name,
					     .all = all,
					     .err = e};
		int r = eng->cleanup(&req);
		if (r >= 0 && !o.quiet)
			printf("%s: removed %llu %s of %s%s%s from %s %s\n", eng->name,
			       (unsigned long long)req.removed, eng->removes,
			       all ? "every run" : "run '", all ? "" : o.run_name, all ? "" : "'",
			       by_fs ? "file system" : "pool", target);
		/* what it left alone is part of the report, not an error: stdout,
		 * beside its line (stderr holds only what went wrong) */
		if (req.note[0] && !o.quiet)
			printf("%s: %s\n", eng->name, req.note);
	}
	cb_conn_close(conn);
	return cb_err_isset(e) ? (int)e->exit : 0;
}
