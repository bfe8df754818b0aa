/* `cephbench fs`: mdtest's flags (the tree test) or fio's (file I/O) on a
 * CephFS file system, turned into a one-workload profile and run through
 * the same path as `cephbench run`, so an mdtest or fio user need not
 * write a profile. */
#include "cli.h"
#include "commands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char fs_usage[] =
    "usage: cephbench fs [mdtest flags]            (mdtest's tree test)\n"
    "       cephbench fs --rw OP [fio flags]        (file I/O, as fio's)\n"
    "\n"
    "CephFS bench through libcephfs, no kernel mount. What the run makes is below\n"
    "/cephbench/<run-name>/ of the file system and removed at the end.\n"
    "\n";

/* mdtest's and fio's flags are said in columns of text rows, as mdtest and
 * fio users read them; the flags without a key are read below. */
static const struct cb_adhoc_flag fs_flags[] = {
    {"--fs", NULL, "FS", "fs", "file system (default cephfs)"},
    CB_ADHOC_CLIENTS("clients, each with its own mount (mdtest's ranks, fio's numjobs)"),
    {"--run-name", NULL, "N", NULL, "names the run's tree (default: bench)"},
    CB_ADHOC_COLD("reads first drop the OSDs' caches, buffered reads remount\n"
		  "(the tree's stat and read phases run cold by default)"),
    {"--warm", NULL, NULL, NULL,
     "the tree's stat and read phases on this client's own items,\n"
     "as its cache holds them (cold: false)"},
    {.help =
	 "\n"
	 "mdtest's flags, as mdtest means them:\n"
	 "  -z DEPTH     levels below the tree's root     -b BRANCH   subdirectories of each\n"
	 "  -I ITEMS     items per directory, per client   -n ITEMS    items per client\n"
	 "  -F           files only                        -D          directories only\n"
	 "  -u           a tree per client                 -L          items in the leaves only\n"
	 "  -i N         iterations                        -w BYTES    written to each file\n"
	 "  -e BYTES     read from each file               -N STRIDE   stat, read and remove\n"
	 "  -W SECONDS   stonewall: time limit of the                  client + STRIDE's items\n"
	 "               create phases\n"
	 "  -C  create   -T  stat   -E  read   -r  remove: only these phases (default all)\n"},
    {"-z", NULL, "DEPTH", "depth", NULL},
    {"-b", NULL, "BRANCH", "branch", NULL},
    {"-I", NULL, "ITEMS", "items", NULL},
    {"-n", NULL, "ITEMS", "total_items", NULL},
    {"-F", NULL, NULL, "files_only", NULL},
    {"-D", NULL, NULL, "dirs_only", NULL},
    {"-u", NULL, NULL, "unique_dir", NULL},
    {"-L", NULL, NULL, "leaf_only", NULL},
    {"-i", NULL, "N", "iterations", NULL},
    {"-w", NULL, "BYTES", "write_bytes", NULL},
    {"-e", NULL, "BYTES", "read_bytes", NULL},
    {"-N", NULL, "STRIDE", "stride", NULL},
    {"-W", NULL, "SECONDS", NULL, NULL},
    {"-C", NULL, NULL, NULL, NULL},
    {"-T", NULL, NULL, NULL, NULL},
    {"-E", NULL, NULL, NULL, NULL},
    {"-r", NULL, NULL, NULL, NULL},
    {.help = "\n"
	     "fio's flags:\n"
	     "  --rw OP      read, write, randread or randwrite  --bs SIZE   bytes per op (4K)\n"
	     "  --size SIZE  of each file (256M)                 --nrfiles N files per client\n"
	     "  --fsync N, --fdatasync N   a sync after every N writes\n"
	     "  --end-fsync  a sync of what was written at the end\n"
	     "  --buffered   through the client's cache (default: O_DIRECT)\n"
	     "  --prefill    write the files in full first (reads always do)\n"},
    {"--rw", NULL, "OP", NULL, NULL},
    {"--bs", NULL, "SIZE", "block_size", NULL},
    {"--size", NULL, "SIZE", "file_size", NULL},
    {"--nrfiles", NULL, "N", "files", NULL},
    {"--fsync", NULL, "N", "fsync", NULL},
    {"--fdatasync", NULL, "N", "fdatasync", NULL},
    {"--end-fsync", NULL, NULL, "end_fsync", NULL},
    {"--buffered", NULL, NULL, NULL, NULL},
    {"--prefill", NULL, NULL, "prefill", NULL},
    {.help = "\n  --duration T, --ramp T, --ops N, --max-errors N: as in a profile\n"},
    CB_ADHOC_DURATION(NULL),
    CB_ADHOC_RAMP(NULL),
    CB_ADHOC_OPS(NULL),
    CB_ADHOC_MAX_ERRORS(NULL),
};

/* mdtest's -C -T -E -r: the phases each selects. */
static const struct {
	int flag;
	const char *phases;
} only[] = {
    {'C', "tree-create,dir-create,file-create"},
    {'T', "dir-stat,file-stat"},
    {'E', "file-read"},
    {'r', "dir-remove,file-remove,tree-remove"},
};

int cb_cmd_fs(int argc, char **argv, enum cb_cmd_mode mode, struct cb_err *e)
{
	struct cb_run_opts o = {.sigfd = -1, .run_name = "bench"};
	struct cb_adhoc a = {0};
	const char *rw = NULL;
	char phases[160] = "", wall[48];
	int opt, rc = CB_EXIT_USAGE;
	bool buffered = false;

	static const struct cb_adhoc_cmd cmd = CB_ADHOC_CMD("fs", fs_usage, fs_flags, 12);
	while ((opt = cb_adhoc_getopt(&cmd, argc, argv, &a, &o, e)) != -1) {
		if (opt == CB_CLI_HELP || opt == CB_CLI_ERROR) {
			rc = opt == CB_CLI_HELP ? 0 : CB_EXIT_USAGE;
			goto out;
		}
		const char *flag = cb_adhoc_row(&cmd, opt)->flag;
		if (!strcmp(flag, "--rw")) {
			rw = optarg;
		} else if (!strcmp(flag, "--buffered")) {
			buffered = true;
		} else if (!strcmp(flag, "--warm")) {
			if (cb_adhoc_add(&a, "--warm", "cold", "false", e) < 0)
				goto out;
		} else if (opt == 'W') { /* mdtest's seconds, as a duration */
			snprintf(wall, sizeof(wall), "%s%s", optarg,
				 optarg[strspn(optarg, "0123456789")] ? "" : "s");
			if (cb_adhoc_add(&a, "-W", "stonewall", wall, e) < 0)
				goto out;
		} else {
			for (size_t i = 0; i < sizeof(only) / sizeof(only[0]); i++)
				if (opt == only[i].flag && !strstr(phases, only[i].phases))
					snprintf(phases + strlen(phases),
						 sizeof(phases) - strlen(phases), "%s%s",
						 phases[0] ? "," : "", only[i].phases);
		}
	}
	if (optind < argc) {
		cb_err_usage(e, "unexpected argument '%s' (see cephbench fs --help)",
			     CB_ECHO(argv[optind]));
		goto out;
	}
	const char *op = rw ? rw : "tree";
	if ((phases[0] && cb_adhoc_add(&a, "-C/-T/-E/-r", "phases", phases, e) < 0) ||
	    (buffered && cb_adhoc_add(&a, "--buffered", "direct", "false", e) < 0) ||
	    cb_adhoc_add(&a, rw ? "--rw" : "mdtest flags", "layer", "cephfs", e) < 0 ||
	    cb_adhoc_add(&a, rw ? "--rw" : "mdtest flags", "op", op, e) < 0 ||
	    cb_adhoc_add(&a, rw ? "--rw" : "mdtest flags", "name", rw ? "fio" : "mdtest", e) < 0)
		goto out;
	rc = cb_adhoc_run("fs", &a, &o, mode, e);
out:
	cb_adhoc_free(&a);
	return rc;
}
