/* The subcommand table, shared by main() and the CLI fuzz target. */
#include "commands.h"

#include <string.h>

const struct cb_command cb_commands[] = {
    {"run", cb_cmd_run, "run a YAML profile"},
    {"rados", cb_cmd_rados, "ad-hoc RADOS object bench (write | seq | rand), like rados bench"},
    {"rbd", cb_cmd_rbd, "ad-hoc RBD image bench through librbd, like rbd bench"},
    {"fs", cb_cmd_fs, "ad-hoc CephFS bench through libcephfs: mdtest's flags, or fio's"},
    {"cleanup", cb_cmd_cleanup, "remove what runs left behind (also crashed ones)"},
    {"doctor", cb_cmd_doctor, "check what a run needs: conf, key, caps, pools, lock"},
    {"compare", cb_cmd_compare, "compare result files (is a change real?), or a matrix's rows"},
    {"history", cb_cmd_history, "the trend of runs stored with --history; --add a result"},
    {"merge", cb_cmd_merge, "merge result files of one profile run at once from several hosts"},
    {"report", cb_cmd_report, "render saved results again: text, json, csv, markdown, --html"},
};
const size_t cb_ncommands = sizeof(cb_commands) / sizeof(cb_commands[0]);

const struct cb_command *cb_command_find(const char *name)
{
	for (size_t i = 0; i < cb_ncommands; i++)
		if (strcmp(name, cb_commands[i].name) == 0)
			return &cb_commands[i];
	return NULL;
}
