/* The subcommands; each parses its own flags and returns an exit code,
 * leaving a failure's one line in e for main() to print. */
#ifndef CB_COMMANDS_H
#define CB_COMMANDS_H

#include "err.h"

int cb_cmd_run(int argc, char **argv, struct cb_err *e);
int cb_cmd_rados(int argc, char **argv, struct cb_err *e);
int cb_cmd_rbd(int argc, char **argv, struct cb_err *e);
int cb_cmd_cleanup(int argc, char **argv, struct cb_err *e);
int cb_cmd_compare(int argc, char **argv, struct cb_err *e);
int cb_cmd_history(int argc, char **argv, struct cb_err *e);

#endif
