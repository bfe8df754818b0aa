/* Flag handling shared by the subcommands (git-style: each command parses
 * its own flags; the ones every connecting command takes are handled here). */
#ifndef CB_CLI_H
#define CB_CLI_H

#include "cli_ids.h"
#include "commands.h"
#include "run.h"

#include <getopt.h>

#define CB_CLI_CLUSTER_OPTIONS                                                                     \
	{"conf", required_argument, NULL, CB_OPT_CONF},                                            \
	    {"client", required_argument, NULL, CB_OPT_CLIENT},                                    \
	    {"id", required_argument, NULL, CB_OPT_CLIENT},                                        \
	    {"name", required_argument, NULL, CB_OPT_CLIENT},                                      \
	    {"keyring", required_argument, NULL, CB_OPT_KEYRING},                                  \
	    {"timeout", required_argument, NULL, CB_OPT_TIMEOUT},                                  \
	    {"ceph-debug-defaults", no_argument, NULL, CB_OPT_CEPH_DEBUG},                         \
	    {"quiet", no_argument, NULL, CB_OPT_QUIET},                                            \
	{                                                                                          \
		"help", no_argument, NULL, CB_OPT_HELP                                             \
	}

#define CB_CLI_RUN_OPTIONS                                                                         \
	{"run-name", required_argument, NULL, CB_OPT_RUN_NAME},                                    \
	    {"format", required_argument, NULL, CB_OPT_FORMAT},                                    \
	    {"json", required_argument, NULL, CB_OPT_JSON},                                        \
	    {"html", required_argument, NULL, CB_OPT_HTML},                                        \
	    {"allow-destructive", no_argument, NULL, CB_OPT_ALLOW_DESTRUCTIVE},                    \
	    {"wait", no_argument, NULL, CB_OPT_WAIT}, CB_CLI_HEALTH_OPTIONS,                       \
	    {"preflight", required_argument, NULL, CB_OPT_PREFLIGHT},                              \
	    {"no-preflight", no_argument, NULL, CB_OPT_NO_PREFLIGHT},                              \
	    {"progress", required_argument, NULL, CB_OPT_PROGRESS},                                \
	    {"detail", no_argument, NULL, CB_OPT_DETAIL},                                          \
	{                                                                                          \
		"no-cleanup", no_argument, NULL, CB_OPT_NO_CLEANUP                                 \
	}

#define CB_CLI_ERROR (-2)
#define CB_CLI_HELP  (-3)

/* The flags one parse has seen: a flag that takes a value is given once
 * (a second would silently replace the first: `cleanup --pool A --pool B`
 * cleaned B alone), unless the command lists it in repeat (0-terminated,
 * or NULL), where each occurrence adds. A switch may repeat: it says the
 * same again. Zero it (but repeat) before the first flag. */
#define CB_CLI_SEEN_MAX 96
struct cb_cli_seen {
	const int *repeat;
	int opt[CB_CLI_SEEN_MAX];
	size_t n;
};

/* Note the flag getopt_long just returned (longindex as it set it, -1 for
 * a short flag). Returns 0, or -EINVAL with e set ("--run-name given
 * twice; give it once", naming every alias) for a second of a once-flag. */
int cb_cli_once(struct cb_cli_seen *s, int opt, int longindex, const char *shortopts,
		const struct option *longopts, struct cb_err *e);

/* getopt_long for a subcommand, with the shared flags handled here. Set
 * optind = 0 before the first call: glibc then forgets all of an earlier
 * parse, also a short-flag cluster it stopped inside (optind = 1 would not,
 * and a second argv in one process, as the CLI fuzz target runs, would be
 * read through the first one's pointers). Returns the next flag that is the
 * command's own (or '?' for an unknown one), -1 at the end, or CB_CLI_ERROR
 * with e set for a bad value of a shared flag or a once-flag given again
 * (cb_cli_once, over seen). */
int cb_cli_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts,
		  struct cb_run_opts *o, struct cb_cli_seen *seen, struct cb_err *e);

/* Run p with the stop signals (SIGINT, SIGTERM, SIGUSR2) routed to the
 * runner. Returns the exit code. */
int cb_cli_run(struct cb_profile *p, struct cb_run_opts *o, struct cb_err *e);

/* Block the stop signals in this thread and every thread it starts later
 * (cb_cli_run reads them from a signalfd). 0 or -EINVAL with e set. */
int cb_cli_block_signals(struct cb_err *e);

/* Handle one of the shared flags. Returns 1 when handled, 0 when opt is not
 * a shared flag, -EINVAL with e set for a bad value. */
int cb_cli_common(int opt, const char *arg, struct cb_run_opts *o, struct cb_err *e);

/* The error for getopt's '?' (unknown flag or missing argument), with a
 * did-you-mean from the command's long options; shortopts is the optstring
 * the command gave getopt_long. Returns -EINVAL. */
int cb_cli_bad_flag(const char *cmd, const char *shortopts, int argc, char **argv,
		    const struct option *longopts, struct cb_err *e);

/* The KEY=VALUE pairs an ad-hoc layer command (`cephbench rados`, `rbd`,
 * `fs`) builds its one-workload profile from, each with the flag it came
 * from: room for every flag of the largest (fs's 25) and what it adds. */
#define CB_ADHOC_MAX	  32
#define CB_ADHOC_OPTS_MAX 80
struct cb_adhoc {
	char *kv[CB_ADHOC_MAX];
	const char *origin[CB_ADHOC_MAX];
	size_t n;
	struct cb_cli_seen seen; /* the flags parsed so far: every one is given once */
	/* getopt's options, made from the command's table by the first
	 * cb_adhoc_getopt: the shared flags', then the table's */
	struct option longopts[CB_ADHOC_OPTS_MAX + 1];
	char shortopts[2 * CB_ADHOC_OPTS_MAX + 1];
};

/* Append key=val given by origin. 0, or -EINVAL with e set. */
int cb_adhoc_add(struct cb_adhoc *a, const char *origin, const char *key, const char *val,
		 struct cb_err *e);
void cb_adhoc_free(struct cb_adhoc *a);

/* One row of an ad-hoc command's flag table, the one place a flag is
 * written: getopt's options, the profile key it sets and its help line are
 * all made from it, so they cannot disagree. */
struct cb_adhoc_flag {
	const char *flag;  /* "--duration" or "-p", as messages name it; NULL: help text */
	const char *alias; /* a short flag's long name ("pool": -p is also --pool) */
	const char *arg;   /* the value's name in the help ("T"); NULL: a switch */
	const char *key;   /* the profile key it sets (a switch: true); NULL: the
			    * command reads it (cb_adhoc_getopt returns it) */
	const char *help;  /* its help, lines split by '\n' (flag NULL: printed as
			    * is); NULL: another row's text says it. A row of a
			    * shared flag (--run-name) only places its help. */
};

/* The limit flags of the ad-hoc commands, defined here once; help NULL
 * where a command's text row names them together. */
#define CB_ADHOC_LIMIT(flag, arg, key, help)                                                       \
	{                                                                                          \
		flag, NULL, arg, key, help                                                         \
	}
#define CB_ADHOC_CLIENTS(help)	  CB_ADHOC_LIMIT("--clients", "N", "clients", help)
#define CB_ADHOC_DURATION(help)	  CB_ADHOC_LIMIT("--duration", "T", "duration", help)
#define CB_ADHOC_RAMP(help)	  CB_ADHOC_LIMIT("--ramp", "T", "ramp", help)
#define CB_ADHOC_OPS(help)	  CB_ADHOC_LIMIT("--ops", "N", "ops", help)
#define CB_ADHOC_MAX_ERRORS(help) CB_ADHOC_LIMIT("--max-errors", "N", "max_errors", help)
#define CB_ADHOC_COLD(help)	  CB_ADHOC_LIMIT("--cold", NULL, "cold", help)
#define CB_ADHOC_RAMP_HELP	  "run first for T without counting"
/* The limits after --ramp, as rados and rbd both say them. */
#define CB_ADHOC_LIMITS                                                                            \
	CB_ADHOC_OPS("stop after N ops"), CB_ADHOC_MAX_ERRORS("op errors tolerated (default 0)"),  \
	    CB_ADHOC_LIMIT(                                                                        \
		"--op-timeout", "T", "op_timeout",                                                 \
		"fail an OSD op stuck for T and count it as an error\n(default: --timeout)"),      \
	    CB_ADHOC_LIMIT("--rate", "R", "rate",                                                  \
			   "open loop: R ops/s (or a bandwidth, 200MiB/s) for all\nclients; "      \
			   "latency from each op's scheduled start"),                              \
	    CB_ADHOC_COLD("reads: the OSDs of the pool drop their caches first")

/* An ad-hoc layer command's flags. */
struct cb_adhoc_cmd {
	const char *name;  /* "rados": messages say `cephbench rados` */
	const char *usage; /* the help above the table's */
	const struct cb_adhoc_flag *flags;
	size_t nflags;
	int width; /* of the help's flag column */
};
#define CB_ADHOC_CMD(name, usage, flags, width)                                                    \
	{                                                                                          \
		name, usage, flags, sizeof(flags) / sizeof((flags)[0]), width                      \
	}

/* The flag loop of an ad-hoc command; its first call (a zeroed) makes
 * getopt's options and starts the parse (optind = 0, as cb_cli_getopt
 * wants). Shared flags go to o, those with a key to a. Returns the next
 * flag the command reads itself (cb_adhoc_row says which), -1 at the end,
 * CB_CLI_HELP once the help is printed, or CB_CLI_ERROR with e set (an
 * unknown flag too). */
int cb_adhoc_getopt(const struct cb_adhoc_cmd *c, int argc, char **argv, struct cb_adhoc *a,
		    struct cb_run_opts *o, struct cb_err *e);

/* The row of c that getopt id opt stands for, or NULL. */
const struct cb_adhoc_flag *cb_adhoc_row(const struct cb_adhoc_cmd *c, int opt);

/* True when a holds key. */
bool cb_adhoc_has(const struct cb_adhoc *a, const char *key);

/* Build the one-workload profile `name` from a's pairs, validated like a
 * file, and run it (CB_CMD_PARSE: only build it). Returns the exit code. */
int cb_adhoc_run(const char *name, const struct cb_adhoc *a, struct cb_run_opts *o,
		 enum cb_cmd_mode mode, struct cb_err *e);

/* The help paragraph on the shared flags. */
extern const char cb_cli_cluster_help[];
extern const char cb_cli_run_help[];

#endif
