/* `cephbench report --format csv`: one row per phase of each record, every
 * figure of the phase a column. A column is the figure's path in the
 * phase's record ("latency_us.p99", "telemetry.client.cpu_us_per_op",
 * "open_loop.late_ops", "expect.max_p99.pass"), so a spreadsheet's header
 * reads as docs/result.md does; the header holds every column any row has,
 * in the order they first appear, and a row lacks what its phase lacks. */
#include "report.h"
#include "term_esc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The series and the lists of things in a phase: not one figure each. */
static bool is_series(const char *key)
{
	static const char *const keys[] = {"samples", "histogram", "service_histogram",
					   "threads", "osds",	   "per_client",
					   "ranks",   "steps",	   NULL};
	for (size_t i = 0; keys[i]; i++)
		if (strcmp(key, keys[i]) == 0)
			return true;
	return false;
}

static int put(json_t *row, const char *path, json_t *v)
{
	return json_object_set_new(row, path, v);
}

/* A list of words (disturbed, uses.pools) into row as one field, "; "
 * between; a list of anything else is left out. 0 or -ENOMEM. */
static int put_joined(json_t *row, const char *path, const json_t *a)
{
	size_t i, n = 1;
	const json_t *v;
	json_array_foreach(a, i, v)
	{
		if (!json_is_string(v))
			return 0;
		n += strlen(json_string_value(v)) + 2;
	}
	char *s = calloc(1, n);
	if (!s)
		return -ENOMEM;
	json_array_foreach(a, i, v)
	{
		if (i)
			strcat(s, "; ");
		strcat(s, json_string_value(v));
	}
	int r = put(row, path, json_string(s));
	free(s);
	return r;
}

/* o's figures into row under prefix: objects by their paths, verdicts by
 * their threshold, lists of words joined, series left out. */
static int flatten(json_t *row, const char *prefix, const json_t *o)
{
	const char *key;
	json_t *v;
	int r = 0;
	json_object_foreach((json_t *)o, key, v)
	{
		char path[512];
		snprintf(path, sizeof(path), "%s%s%s", prefix, prefix[0] ? "." : "", key);
		if (is_series(key))
			continue;
		if (json_is_object(v)) {
			r = flatten(row, path, v);
		} else if (json_is_array(v) && strcmp(key, "expect") == 0 && !prefix[0]) {
			size_t i;
			const json_t *x;
			json_array_foreach(v, i, x)
			{
				char sub[600];
				snprintf(sub, sizeof(sub), "expect.%s",
					 json_string_value(json_object_get(x, "threshold")));
				json_t *copy = json_deep_copy(x);
				json_object_del(copy, "threshold");
				r = copy ? flatten(row, sub, copy) : -ENOMEM;
				json_decref(copy);
				if (r < 0)
					break;
			}
		} else if (json_is_array(v)) {
			r = put_joined(row, path, v);
		} else {
			r = put(row, path, json_incref(v));
		}
		if (r < 0)
			return -ENOMEM;
	}
	return 0;
}

int cb_report_csv(FILE *out, json_t *const *recs, size_t n)
{
	json_t *rows = json_array(), *cols = json_object();
	int r = rows && cols ? 0 : -ENOMEM;
	for (size_t k = 0; r == 0 && k < n; k++) {
		const json_t *rec = recs[k], *p;
		const json_t *cl = json_object_get(rec, "cluster");
		size_t i;
		json_array_foreach(json_object_get(rec, "phases"), i, p)
		{
			/* which run a row is of, first */
			json_t *row = json_pack(
			    "{s:O?, s:O?, s:O?, s:O?, s:O?}", "run_name",
			    json_object_get(rec, "run_name"), "started",
			    json_object_get(rec, "started"), "profile",
			    json_object_get(json_object_get(rec, "profile"), "name"), "host",
			    json_object_get(rec, "host"), "fsid", json_object_get(cl, "fsid"));
			if (!row || flatten(row, "", p) < 0 ||
			    json_array_append_new(rows, row) < 0) {
				r = -ENOMEM;
				break;
			}
			const char *key;
			json_t *v;
			json_object_foreach(row, key, v)
			{
				if (!json_object_get(cols, key) &&
				    json_object_set_new(cols, key, json_true()) < 0)
					r = -ENOMEM;
			}
		}
	}
	if (r == 0) {
		const char *key;
		json_t *v, *row;
		size_t i, c = 0;
		json_object_foreach(cols, key, v)
		{
			fputs(c++ ? "," : "", out);
			cb_esc_csv(out, key);
		}
		fputc('\n', out);
		json_array_foreach(rows, i, row)
		{
			c = 0;
			json_object_foreach(cols, key, v)
			{
				fputs(c++ ? "," : "", out);
				cb_esc_csv_json(out, json_object_get(row, key));
			}
			fputc('\n', out);
		}
	}
	json_decref(rows);
	json_decref(cols);
	return r;
}
