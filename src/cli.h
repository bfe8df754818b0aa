/* Flag handling shared by the subcommands (git-style: each command parses
 * its own flags; the ones every connecting command takes are handled here). */
#ifndef CB_CLI_H
#define CB_CLI_H

#include "commands.h"
#include "run.h"

#include <getopt.h>

enum {
	CB_OPT_CONF = 1000,
	CB_OPT_CLIENT,
	CB_OPT_KEYRING,
	CB_OPT_TIMEOUT,
	CB_OPT_RUN_NAME,
	CB_OPT_FORMAT,
	CB_OPT_JSON,
	CB_OPT_HTML,
	CB_OPT_NO_CLEANUP,
	CB_OPT_QUIET,
	CB_OPT_ALLOW_DESTRUCTIVE,
	CB_OPT_WAIT,
	CB_OPT_CEPH_DEBUG,
	CB_OPT_HELP,
	CB_OPT_DETAIL,
	CB_OPT_CMD_BASE = 1100, /* commands number their own long options from here */
};

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
#define CB_ADHOC_MAX 32
struct cb_adhoc {
	char *kv[CB_ADHOC_MAX];
	const char *origin[CB_ADHOC_MAX];
	size_t n;
	struct cb_cli_seen seen; /* the flags parsed so far: every one is given once */
};

/* Append key=val given by origin. 0, or -EINVAL with e set. */
int cb_adhoc_add(struct cb_adhoc *a, const char *origin, const char *key, const char *val,
		 struct cb_err *e);
void cb_adhoc_free(struct cb_adhoc *a);

/* A flag of an ad-hoc command that sets one profile key. */
struct cb_adhoc_flag {
	int opt;
	const char *origin, *key;
};

/* Record flag opt with value arg (NULL: a switch, "true") when map has it.
 * Returns 1 when recorded, 0 when opt is not in map, -EINVAL with e set. */
int cb_adhoc_flag(struct cb_adhoc *a, const struct cb_adhoc_flag *map, size_t n, int opt,
		  const char *arg, struct cb_err *e);

/* An ad-hoc layer command's flags. */
struct cb_adhoc_cmd {
	const char *name; /* "rados": messages say `cephbench rados` */
	const char *help;
	const char *shortopts;
	const struct option *longopts;
	const struct cb_adhoc_flag *map; /* the flags that are one profile key each */
	size_t nmap;
};

/* The flag loop of an ad-hoc command (optind = 0 first): shared flags go to
 * o, mapped ones to a. Returns the next flag the command handles itself, -1
 * at the end, CB_CLI_HELP once the help is printed, or CB_CLI_ERROR with e
 * set (an unknown flag too). */
int cb_adhoc_getopt(const struct cb_adhoc_cmd *c, int argc, char **argv, struct cb_adhoc *a,
		    struct cb_run_opts *o, struct cb_err *e);

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
