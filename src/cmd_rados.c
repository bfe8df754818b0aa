/* `cephbench rados write|seq|rand`: the flags a rados bench user knows,
 * turned into a one-workload profile and run through the same path. */
#include "cli.h"
#include "commands.h"
#include "units.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char rados_usage[] =
    "usage: cephbench rados write|seq|rand [SECONDS] -p POOL [flags]\n"
    "\n"
    "RADOS object bench through librados, as rados bench does it, with latency\n"
    "percentiles. Objects go to the namespace 'cephbench' of POOL; seq and rand\n"
    "read what an earlier write of the same --run-name left (write with --no-cleanup).\n"
    "\n";

static const struct cb_adhoc_flag rados_flags[] = {
    {"-p", "pool", "POOL", "pool", "pool to run in (required)"},
    {"-t", "concurrent-ios", "N", "concurrency", "ops in flight (default 16; per client)"},
    CB_ADHOC_CLIENTS("clients, each with its own connection and its own\n"
		     "ops in flight (default 1); limits are per client"),
    {"-b", "block-size", "SIZE", "block_size",
     "bytes per op (default 4M; seq/rand: what was written)"},
    {"-O", "object-size", "SIZE", "object_size", "object size for write (default: the block size)"},
    CB_ADHOC_DURATION("measured time (default 10s; also SECONDS)"),
    CB_ADHOC_RAMP(CB_ADHOC_RAMP_HELP),
    {"--max-objects", NULL, "N", "max_objects", "write: stop after N objects"},
    CB_ADHOC_LIMITS,
    {"--run-name", NULL, "N", NULL, "names the objects (default: bench)"},
};

int cb_cmd_rados(int argc, char **argv, enum cb_cmd_mode mode, struct cb_err *e)
{
	struct cb_run_opts o = {.sigfd = -1, .run_name = "bench"};
	struct cb_adhoc a = {0};
	const char *bench = NULL, *secs = NULL;
	int opt, rc = CB_EXIT_USAGE;

	static const struct cb_adhoc_cmd cmd = CB_ADHOC_CMD("rados", rados_usage, rados_flags, 22);
	/* Flags may come before or after the mode, as with rados bench; every
	 * flag is shared or sets a key, so anything returned ends the loop. */
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
