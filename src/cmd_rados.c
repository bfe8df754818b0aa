/* `cephbench rados write|seq|rand`: the flags a rados bench user knows,
 * turned into a one-workload profile and run through the same path. */
#include "cli.h"
#include "commands.h"
#include "units.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char rados_help[] =
    "usage: cephbench rados write|seq|rand [SECONDS] -p POOL [flags]\n"
    "\n"
    "RADOS object bench through librados, as rados bench does it, with latency\n"
    "percentiles. Objects go to the namespace 'cephbench' of POOL; seq and rand\n"
    "read what an earlier write of the same --run-name left (write with --no-cleanup).\n"
    "\n"
    "  -p, --pool POOL        pool to run in (required)\n"
    "  -t, --concurrent-ios N ops in flight (default 16; per client)\n"
    "      --clients N        clients, each with its own connection and its own\n"
    "                         ops in flight (default 1); limits are per client\n"
    "  -b, --block-size SIZE  bytes per op (default 4M; seq/rand: what was written)\n"
    "  -O, --object-size SIZE object size for write (default: the block size)\n"
    "      --duration T       measured time (default 10s; also SECONDS)\n"
    "      --ramp T           run first for T without counting\n"
    "      --max-objects N    write: stop after N objects\n"
    "      --ops N            stop after N ops\n"
    "      --max-errors N     op errors tolerated (default 0)\n"
    "      --op-timeout T     fail an OSD op stuck for T and count it as an error\n"
    "                         (default: --timeout)\n"
    "      --rate R           open loop: R ops/s (or a bandwidth, 200MiB/s) for all\n"
    "                         clients; latency from each op's scheduled start\n"
    "      --cold             reads: the OSDs of the pool drop their caches first\n"
    "      --run-name N       names the objects (default: bench)\n";

enum {
	OPT_DURATION = CB_OPT_CMD_BASE,
	OPT_RAMP,
	OPT_MAX_OBJECTS,
	OPT_OPS,
	OPT_MAX_ERRORS,
	OPT_CLIENTS,
	OPT_OP_TIMEOUT,
	OPT_RATE,
	OPT_COLD,
};

int cb_cmd_rados(int argc, char **argv, enum cb_cmd_mode mode, struct cb_err *e)
{
	static const char shortopts[] = "c:p:t:b:O:h";
	static const struct option longopts[] = {
	    CB_CLI_CLUSTER_OPTIONS,
	    CB_CLI_RUN_OPTIONS,
	    {"pool", required_argument, NULL, 'p'},
	    {"concurrent-ios", required_argument, NULL, 't'},
	    {"block-size", required_argument, NULL, 'b'},
	    {"object-size", required_argument, NULL, 'O'},
	    {"duration", required_argument, NULL, OPT_DURATION},
	    {"ramp", required_argument, NULL, OPT_RAMP},
	    {"max-objects", required_argument, NULL, OPT_MAX_OBJECTS},
	    {"ops", required_argument, NULL, OPT_OPS},
	    {"max-errors", required_argument, NULL, OPT_MAX_ERRORS},
	    {"clients", required_argument, NULL, OPT_CLIENTS},
	    {"op-timeout", required_argument, NULL, OPT_OP_TIMEOUT},
	    {"rate", required_argument, NULL, OPT_RATE},
	    {"cold", no_argument, NULL, OPT_COLD},
	    {NULL, 0, NULL, 0},
	};
	static const struct cb_adhoc_flag map[] = {
	    {'p', "-p", "pool"},
	    {'t', "-t", "concurrency"},
	    {'b', "-b", "block_size"},
	    {'O', "-O", "object_size"},
	    {OPT_DURATION, "--duration", "duration"},
	    {OPT_RAMP, "--ramp", "ramp"},
	    {OPT_MAX_OBJECTS, "--max-objects", "max_objects"},
	    {OPT_OPS, "--ops", "ops"},
	    {OPT_MAX_ERRORS, "--max-errors", "max_errors"},
	    {OPT_CLIENTS, "--clients", "clients"},
	    {OPT_OP_TIMEOUT, "--op-timeout", "op_timeout"},
	    {OPT_RATE, "--rate", "rate"},
	    {OPT_COLD, "--cold", "cold"},
	};
	struct cb_run_opts o = {.sigfd = -1, .run_name = "bench"};
	struct cb_adhoc a = {0};
	const char *bench = NULL, *secs = NULL;
	int opt, rc = CB_EXIT_USAGE;

	const struct cb_adhoc_cmd cmd = {.name = "rados",
					 .help = rados_help,
					 .shortopts = shortopts,
					 .longopts = longopts,
					 .map = map,
					 .nmap = sizeof(map) / sizeof(map[0])};
	optind = 0;
	/* Flags may come before or after the mode, as with rados bench; every
	 * flag is shared or mapped, so anything returned ends the loop. */
	if ((opt = cb_adhoc_getopt(&cmd, argc, argv, &a, &o, e)) != -1) {
		rc = opt == CB_CLI_HELP ? 0 : CB_EXIT_USAGE;
		goto out;
	}
	for (int i = optind; i < argc; i++) {
		if (!bench && (!strcmp(argv[i], "write") || !strcmp(argv[i], "seq") ||
			       !strcmp(argv[i], "rand")))
			bench = argv[i];
		else if (!secs && strspn(argv[i], "0123456789") == strlen(argv[i]))
			secs = argv[i];
		else {
			cb_err_usage(e, "unexpected argument '%s' (modes: write, seq, rand)",
				     CB_ECHO(argv[i]));
			goto out;
		}
	}
	if (!bench) {
		cb_err_usage(e, "give a mode: write, seq or rand (see cephbench rados --help)");
		goto out;
	}
	if (!cb_adhoc_has(&a, "pool")) {
		cb_err_usage(e, "-p POOL is required");
		goto out;
	}
	if (secs && cb_adhoc_has(&a, "duration")) {
		cb_err_usage(e, "give the duration once: SECONDS (%s) or --duration", secs);
		goto out;
	}
	if ((secs && cb_adhoc_add(&a, "SECONDS", "duration", secs, e) < 0) ||
	    cb_adhoc_add(&a, "mode", "layer", "rados", e) < 0 ||
	    cb_adhoc_add(&a, "mode", "op", bench, e) < 0 ||
	    cb_adhoc_add(&a, "mode", "name", bench, e) < 0)
		goto out;
	rc = cb_adhoc_run("rados", &a, &o, mode, e);
out:
	cb_adhoc_free(&a);
	return rc;
}
