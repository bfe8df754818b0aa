/* The context's access to the cluster (context.h): a monitor command for
 * one part of the record, and the note said once when a part is missing.
 * Its own file so that the record (context.c) and its pool part
 * (context_pool.c) both use it without using each other. */
#include "context.h"
#include "conn.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cb_ctx_note(struct cb_ctx *x, const char *part, const char *why)
{
	char key[80];
	snprintf(key, sizeof(key), "\n%s\n", part);
	if (strstr(x->noted, key))
		return;
	/* the parts between newlines: "\na\nb\n" */
	size_t len = strlen(x->noted);
	snprintf(x->noted + len, sizeof(x->noted) - len, "%s", len ? key + 1 : key);
	if (!x->quiet)
		fprintf(stderr, "context: %s not recorded: %s\n", part, why);
}

int cb_ctx_mon(struct cb_ctx *x, const char *part, json_t *cmd, json_t **out)
{
	char why[512] = "out of memory";
	*out = NULL;
	char *text = NULL;
	int r = -ENOMEM;
	if (x->unreachable) { /* said once, by the command that found it */
		json_decref(cmd);
		return -ETIMEDOUT;
	}
	if (cmd && json_object_set_new(cmd, "format", json_string("json")) == 0 &&
	    (text = json_dumps(cmd, JSON_COMPACT)))
		r = cb_conn_mon_json(x->conn, text, out, why, sizeof(why));
	free(text);
	json_decref(cmd);
	/* refused (caps), or not a command this Ceph has: only this part */
	if (r < 0 && r != -EACCES && r != -EPERM && r != -EINVAL && r != -ENOENT && r != -EBADMSG &&
	    r != -ENOMEM)
		x->unreachable = true;
	if (r < 0)
		cb_ctx_note(x, x->unreachable ? "the cluster's context" : part, why);
	return r;
}
