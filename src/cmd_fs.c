/* `cephbench fs`: mdtest's flags (the tree test) or fio's (file I/O) on a
 * CephFS file system, turned into a one-workload profile and run through
 * the same path as `cephbench run`, so an mdtest or fio user need not
 * write a profile. */
#include "cli.h"
#include "commands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char fs_help[] =
    "usage: cephbench fs [mdtest flags]            (mdtest's tree test)\n"
    "       cephbench fs --rw OP [fio flags]        (file I/O, as fio's)\n"
    "\n"
    "CephFS bench through libcephfs, no kernel mount. What the run makes is below\n"
    "/cephbench/<run-name>/ of the file system and removed at the end.\n"
    "\n"
    "  --fs FS      file system (default cephfs)\n"
    "  --clients N  clients, each with its own mount (mdtest's ranks, fio's numjobs)\n"
    "  --run-name N names the run's tree (default: bench)\n"
    "  --cold       reads first drop the OSDs' caches, buffered reads remount\n"
    "               (the tree's stat and read phases run cold by default)\n"
    "  --warm       the tree's stat and read phases on this client's own items,\n"
    "               as its cache holds them (cold: false)\n"
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
    "  -C  create   -T  stat   -E  read   -r  remove: only these phases (default all)\n"
    "\n"
    "fio's flags:\n"
    "  --rw OP      read, write, randread or randwrite  --bs SIZE   bytes per op (4K)\n"
    "  --size SIZE  of each file (256M)                 --nrfiles N files per client\n"
    "  --fsync N, --fdatasync N   a sync after every N writes\n"
    "  --end-fsync  a sync of what was written at the end\n"
    "  --buffered   through the client's cache (default: O_DIRECT)\n"
    "  --prefill    write the files in full first (reads always do)\n"
    "\n"
    "  --duration T, --ramp T, --ops N, --max-errors N: as in a profile\n";

enum {
	OPT_FS = CB_OPT_CMD_BASE,
	OPT_CLIENTS,
	OPT_RW,
	OPT_BS,
	OPT_SIZE,
	OPT_NRFILES,
	OPT_FSYNC,
	OPT_FDATASYNC,
	OPT_END_FSYNC,
	OPT_BUFFERED,
	OPT_PREFILL,
	OPT_DURATION,
	OPT_RAMP,
	OPT_OPS,
	OPT_MAX_ERRORS,
	OPT_COLD,
	OPT_WARM,
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
	static const char shortopts[] = "c:hz:b:I:n:FDuLi:w:e:N:W:CTEr";
	static const struct option longopts[] = {
	    CB_CLI_CLUSTER_OPTIONS,
	    CB_CLI_RUN_OPTIONS,
	    {"fs", required_argument, NULL, OPT_FS},
	    {"clients", required_argument, NULL, OPT_CLIENTS},
	    {"rw", required_argument, NULL, OPT_RW},
	    {"bs", required_argument, NULL, OPT_BS},
	    {"size", required_argument, NULL, OPT_SIZE},
	    {"nrfiles", required_argument, NULL, OPT_NRFILES},
	    {"fsync", required_argument, NULL, OPT_FSYNC},
	    {"fdatasync", required_argument, NULL, OPT_FDATASYNC},
	    {"end-fsync", no_argument, NULL, OPT_END_FSYNC},
	    {"buffered", no_argument, NULL, OPT_BUFFERED},
	    {"prefill", no_argument, NULL, OPT_PREFILL},
	    {"duration", required_argument, NULL, OPT_DURATION},
	    {"ramp", required_argument, NULL, OPT_RAMP},
	    {"ops", required_argument, NULL, OPT_OPS},
	    {"max-errors", required_argument, NULL, OPT_MAX_ERRORS},
	    {"cold", no_argument, NULL, OPT_COLD},
	    {"warm", no_argument, NULL, OPT_WARM},
	    {NULL, 0, NULL, 0},
	};
	static const struct cb_adhoc_flag map[] = {
	    {'z', "-z", "depth"},
	    {'b', "-b", "branch"},
	    {'I', "-I", "items"},
	    {'n', "-n", "total_items"},
	    {'F', "-F", "files_only"},
	    {'D', "-D", "dirs_only"},
	    {'u', "-u", "unique_dir"},
	    {'L', "-L", "leaf_only"},
	    {'i', "-i", "iterations"},
	    {'w', "-w", "write_bytes"},
	    {'e', "-e", "read_bytes"},
	    {'N', "-N", "stride"},
	    {OPT_FS, "--fs", "fs"},
	    {OPT_CLIENTS, "--clients", "clients"},
	    {OPT_BS, "--bs", "block_size"},
	    {OPT_SIZE, "--size", "file_size"},
	    {OPT_NRFILES, "--nrfiles", "files"},
	    {OPT_FSYNC, "--fsync", "fsync"},
	    {OPT_FDATASYNC, "--fdatasync", "fdatasync"},
	    {OPT_END_FSYNC, "--end-fsync", "end_fsync"},
	    {OPT_PREFILL, "--prefill", "prefill"},
	    {OPT_DURATION, "--duration", "duration"},
	    {OPT_RAMP, "--ramp", "ramp"},
	    {OPT_OPS, "--ops", "ops"},
	    {OPT_MAX_ERRORS, "--max-errors", "max_errors"},
	    {OPT_COLD, "--cold", "cold"},
	};
	struct cb_run_opts o = {.sigfd = -1, .run_name = "bench"};
	struct cb_adhoc a = {0};
	const char *rw = NULL;
	char phases[160] = "", wall[48];
	int opt, rc = CB_EXIT_USAGE;
	bool buffered = false;

	const struct cb_adhoc_cmd cmd = {.name = "fs",
					 .help = fs_help,
					 .shortopts = shortopts,
					 .longopts = longopts,
					 .map = map,
					 .nmap = sizeof(map) / sizeof(map[0])};
	optind = 0;
	while ((opt = cb_adhoc_getopt(&cmd, argc, argv, &a, &o, e)) != -1) {
		if (opt == CB_CLI_HELP || opt == CB_CLI_ERROR) {
			rc = opt == CB_CLI_HELP ? 0 : CB_EXIT_USAGE;
			goto out;
		}
		if (opt == OPT_RW) {
			rw = optarg;
		} else if (opt == OPT_BUFFERED) {
			buffered = true;
		} else if (opt == OPT_WARM) {
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
