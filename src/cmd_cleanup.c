/* `cephbench cleanup`: remove what runs left (crashed, interrupted or kept
 * with --no-cleanup), one run by name or every run, in every layer. */
#include "cli.h"
#include "commands.h"
#include "engines.h"

#include <stdio.h>
#include <string.h>

static const char cleanup_help[] =
    "usage: cephbench cleanup --pool POOL (--run-name N | --all) [flags]\n"
    "\n"
    "Removes what cephbench runs made in POOL, also after a run was killed: the\n"
    "objects of run N (or of every run) in the namespace 'cephbench', and the RBD\n"
    "images cephbench.N.<n> (a killed run's watch on them is cleared first).\n"
    "Nothing outside those names is touched.\n"
    "\n"
    "  -p, --pool POOL      pool to clean\n"
    "      --run-name N     one run\n"
    "      --all            every run\n";

int cb_cmd_cleanup(int argc, char **argv, struct cb_err *e)
{
	enum { OPT_ALL = CB_OPT_CMD_BASE };
	static const char shortopts[] = "c:p:h";
	static const struct option longopts[] = {
	    CB_CLI_CLUSTER_OPTIONS,
	    {"run-name", required_argument, NULL, CB_OPT_RUN_NAME},
	    {"pool", required_argument, NULL, 'p'},
	    {"all", no_argument, NULL, OPT_ALL},
	    {NULL, 0, NULL, 0},
	};
	struct cb_run_opts o = {.sigfd = -1};
	const char *pool = NULL;
	bool all = false;
	int opt;

	optind = 1;
	while ((opt = cb_cli_getopt(argc, argv, shortopts, longopts, &o, e)) != -1) {
		switch (opt) {
		case CB_CLI_ERROR:
			return CB_EXIT_USAGE;
		case 'p':
			pool = optarg;
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
		return cb_err_usage(e, "unexpected argument '%s'", argv[optind]), CB_EXIT_USAGE;
	if (!pool)
		return cb_err_usage(e, "--pool POOL is required"), CB_EXIT_USAGE;
	if (all == (o.run_name != NULL))
		return cb_err_usage(e, "give either --run-name N or --all"), CB_EXIT_USAGE;

	struct cb_conn *conn;
	if (cb_conn_open(&o.cluster, &conn, e) < 0)
		return (int)e->exit;
	for (int i = 0; cb_engines[i]; i++) {
		struct cb_cleanup_req req = {
		    .conn = conn, .pool = pool, .run_name = o.run_name, .all = all, .err = e};
		if (!cb_engines[i]->cleanup || cb_engines[i]->cleanup(&req) < 0)
			continue;
		if (!o.quiet)
			printf("%s: removed %llu %s of %s%s%s from pool %s\n", cb_engines[i]->name,
			       (unsigned long long)req.removed, cb_engines[i]->removes,
			       all ? "every run" : "run '", all ? "" : o.run_name, all ? "" : "'",
			       pool);
	}
	cb_conn_close(conn);
	return cb_err_isset(e) ? (int)e->exit : 0;
}
