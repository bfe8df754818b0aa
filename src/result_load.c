/* Result files back in (result_load.h). */
#include "result_load.h"
#include "infile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cb_result_load(const char *path, json_t **out, struct cb_err *e)
{
	*out = NULL;
	char *buf;
	size_t len;
	int r = cb_infile_read(path, "result file", CB_RESULT_MAX_BYTES, &buf, &len, e);
	if (r < 0)
		return r;
	json_error_t je;
	json_t *root = json_loadb(buf, len, 0, &je);
	free(buf);
	if (!root)
		return cb_err_usage(e, "%s: not JSON (line %d column %d: %s)", path, je.line,
				    je.column, je.text);
	const char *schema = json_string_value(json_object_get(root, "schema"));
	if (!schema)
		r = cb_err_usage(e, "%s: not a cephbench result (no 'schema'; expected %s)", path,
				 CB_RESULT_SCHEMA);
	else if (strcmp(schema, CB_RESULT_SCHEMA) != 0 && strcmp(schema, CB_RESULT_SCHEMA_V1) != 0)
		r = cb_err_usage(e, "%s: not a cephbench result (schema '%s'; expected %s)", path,
				 schema, CB_RESULT_SCHEMA);
	else if (!json_is_array(json_object_get(root, "phases")))
		r = cb_err_usage(
		    e, "%s: no 'phases' array (not a complete " CB_RESULT_SCHEMA " record)", path);
	if (r < 0)
		json_decref(root);
	else
		*out = root;
	return r;
}
