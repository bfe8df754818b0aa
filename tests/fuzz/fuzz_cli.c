/* libFuzzer target: each subcommand's argument parsing on arbitrary argv.
 * The input is split on NUL bytes into words: the first names the command
 * (as argv[1] does), the rest are its arguments. Commands run in
 * CB_CMD_PARSE mode: flags and values are checked (an ad-hoc command's
 * profile built) but nothing is read, connected to or run. */
#include "commands.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *argv[MAX_ARGS + 1];
	int argc = 0;
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	for (size_t i = 0; i <= size && argc < MAX_ARGS; i += strlen(buf + i) + 1)
		argv[argc++] = buf + i;
	argv[argc] = NULL;

	const struct cb_command *c = cb_command_find(argv[0]);
	if (c) {
		struct cb_err e = {0};
		c->fn(argc, argv, CB_CMD_PARSE, &e);
	}
	free(buf);
	return 0;
}
