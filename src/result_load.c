/* Result files back in (result_load.h). */
#include "result_load.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int cb_result_load(const char *path, json_t **out, struct cb_err *e)
{
	*out = NULL;
	FILE *in = fopen(path, "r");
	if (!in)
		return cb_err_usage(e, "%s: cannot read: %s", path, strerror(errno));
	json_error_t je;
	json_t *root = json_loadf(in, 0, &je);
	fclose(in);
	if (!root)
		return cb_err_usage(e, "%s: not JSON (line %d column %d: %s)", path, je.line,
				    je.column, je.text);
	const char *schema = json_string_value(json_object_get(root, "schema"));
	int r = 0;
	if (!schema)
		r = cb_err_usage(e, "%s: not a cephbench result (no 'schema'; expected %s)", path,
				 CB_RESULT_SCHEMA);
	else if (strcmp(schema, CB_RESULT_SCHEMA) != 0)
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
