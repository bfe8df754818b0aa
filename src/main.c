/* cephbench: usage, dispatch to the subcommands and the one place errors are
 * printed. */
#include "client_lib.h"
#include "commands.h"
#include "profiles_dir.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

static void usage(FILE *out)
{
	fprintf(out, "usage: cephbench COMMAND [ARGS]\n\nCommands:\n");
	for (size_t i = 0; i < cb_ncommands; i++)
		fprintf(out, "  %-8s %s\n", cb_commands[i].name, cb_commands[i].help);
	fprintf(out, "\n'cephbench COMMAND --help' describes a command. --version prints the "
		     "version.\nExit codes: 0 ok, 1 thresholds failed, 2 bad input, 3 cluster "
		     "error, 130 interrupted.\n");
}

static void examples(FILE *out)
{
	char dir[4096];
	fprintf(
	    out,
	    "\nExamples:\n"
	    "  cephbench doctor --conf /etc/ceph/ceph.conf      can this client run a bench?\n"
	    "  cephbench run quick --conf /etc/ceph/ceph.conf   the default profile, ~70 s\n"
	    "  cephbench rados write -p bench --duration 30     rados bench, with percentiles\n");
	if (cb_profiles_dir(dir, sizeof(dir)))
		fprintf(out, "\nProfiles (run them by name): %s\n", dir);
	else
		fprintf(out, "\nProfiles: none installed here; give a profile's path\n");
}

int main(int argc, char **argv)
{
	struct cb_err e = {0};
	/* A write to a closed socket or pipe is an error to handle, not the
	 * end of the run: the Ceph client's admin socket thread answers
	 * `ceph daemon ... | head` with one, and a run killed there leaves
	 * everything it made. */
	signal(SIGPIPE, SIG_IGN);
	if (argc < 2) { /* a newcomer's first try: where to start */
		usage(stderr);
		examples(stderr);
		return CB_EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
		printf("cephbench %s\nceph client libraries %s\n", CB_VERSION,
		       cb_client_lib_version(NULL));
		return 0;
	}
	const struct cb_command *c = cb_command_find(argv[1]);
	if (c) {
		int rc = c->fn(argc - 1, argv + 1, CB_CMD_RUN, &e);
		/* an error without text was said by another process (rank 0) */
		if (cb_err_isset(&e) && e.msg[0])
			fprintf(stderr, "cephbench %s: %s\n", c->name, e.msg);
		return rc;
	}
	fprintf(stderr, "cephbench: unknown command '%s' (see cephbench --help)\n",
		CB_ECHO(argv[1]));
	return CB_EXIT_USAGE;
}
