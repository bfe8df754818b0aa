/* The subcommands; each parses its own flags and returns an exit code,
 * leaving a failure's one line in e for main() to print. */
#ifndef CB_COMMANDS_H
#define CB_COMMANDS_H

#include "err.h"

#include <stddef.h>

/* How far a command goes. CB_CMD_PARSE stops once its arguments are
 * checked (flags, their values, the profile ad-hoc flags make), before it
 * reads a file, connects or prints a report: what the CLI fuzz target
 * drives. --help still prints. */
enum cb_cmd_mode { CB_CMD_RUN, CB_CMD_PARSE };

typedef int (*cb_cmd_fn)(int argc, char **argv, enum cb_cmd_mode mode, struct cb_err *e);

int cb_cmd_run(int argc, char **argv, enum cb_cmd_mode mode, struct cb_err *e);
int cb_cmd_rados(int argc, char **argv, enum cb_cmd_mode mode, struct cb_err *e);
int cb_cmd_rbd(int argc, char **argv, enum cb_cmd_mode mode, struct cb_err *e);
int cb_cmd_fs(int argc, char **argv, enum cb_cmd_mode mode, struct cb_err *e);
int cb_cmd_cleanup(int argc, char **argv, enum cb_cmd_mode mode, struct cb_err *e);
int cb_cmd_doctor(int argc, char **argv, enum cb_cmd_mode mode, struct cb_err *e);
int cb_cmd_compare(int argc, char **argv, enum cb_cmd_mode mode, struct cb_err *e);
int cb_cmd_history(int argc, char **argv, enum cb_cmd_mode mode, struct cb_err *e);
int cb_cmd_merge(int argc, char **argv, enum cb_cmd_mode mode, struct cb_err *e);
int cb_cmd_report(int argc, char **argv, enum cb_cmd_mode mode, struct cb_err *e);

/* The command table, in --help order. */
struct cb_command {
	const char *name;
	cb_cmd_fn fn;
	const char *help;
};
extern const struct cb_command cb_commands[];
extern const size_t cb_ncommands;

/* The command called name, or NULL. */
const struct cb_command *cb_command_find(const char *name);

#endif
