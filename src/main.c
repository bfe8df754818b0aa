/* cephbench: the subcommand table and the one place errors are printed. */
#include "commands.h"

#include <stdio.h>
#include <string.h>

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv, struct cb_err *e);
	const char *help;
} commands[] = {
    {"run", cb_cmd_run, "run a YAML profile"},
    {"rados", cb_cmd_rados, "ad-hoc RADOS object bench (write | seq | rand), like rados bench"},
    {"rbd", cb_cmd_rbd, "ad-hoc RBD image bench through librbd, like rbd bench"},
    {"cleanup", cb_cmd_cleanup, "remove what runs left behind (also crashed ones)"},
    {"compare", cb_cmd_compare, "compare result files (is a change real?), or a matrix's rows"},
    {"history", cb_cmd_history, "the trend of runs stored with --history; --add a result"},
};

static void usage(FILE *out)
{
	fprintf(out, "usage: cephbench COMMAND [ARGS]\n\nCommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].help);
	fprintf(out, "\n'cephbench COMMAND --help' describes a command. --version prints the "
		     "version.\nExit codes: 0 ok, 1 thresholds failed, 2 bad input, 3 cluster "
		     "error, 130 interrupted.\n");
}

int main(int argc, char **argv)
{
	struct cb_err e = {0};
	if (argc < 2) {
		usage(stderr);
		return CB_EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
		printf("cephbench %s\n", CB_VERSION);
		return 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(argv[1], commands[i].name) != 0)
			continue;
		int rc = commands[i].fn(argc - 1, argv + 1, &e);
		if (cb_err_isset(&e))
			fprintf(stderr, "cephbench %s: %s\n", commands[i].name, e.msg);
		return rc;
	}
	fprintf(stderr, "cephbench: unknown command '%s' (see cephbench --help)\n", argv[1]);
	return CB_EXIT_USAGE;
}
