/* Pools and OSDs in the record's context, from `osd dump` (asked once),
 * the crush rules' names and erasure-code profiles. */
#include "context.h"

#include <stdlib.h>
#include <string.h>

const json_t *cb_ctx_osd_dump(struct cb_ctx *x)
{
	if (!x->dump_tried) {
		x->dump_tried = true;
		cb_ctx_mon(x, "pools and OSDs (osd dump)", json_pack("{s:s}", "prefix", "osd dump"),
			   &x->osd_dump);
	}
	return x->osd_dump;
}

static json_t *rule_name(struct cb_ctx *x, json_int_t id)
{
	if (!x->rules_tried) {
		x->rules_tried = true;
		cb_ctx_mon(x, "crush rule names (osd crush rule dump)",
			   json_pack("{s:s}", "prefix", "osd crush rule dump"), &x->rules);
	}
	size_t i;
	json_t *r;
	json_array_foreach(x->rules, i,
			   r) if (json_integer_value(json_object_get(r, "rule_id")) ==
				  id) return json_copy(json_object_get(r, "rule_name"));
	return json_null();
}

/* v, or null where the dump lacks it */
static json_t *or_null(const json_t *v)
{
	return v ? json_incref((json_t *)v) : json_null();
}

/* "2" as 2: the profile's values are all strings */
static json_t *profile_int(const json_t *prof, const char *key)
{
	const char *s = json_string_value(json_object_get(prof, key));
	char *end;
	long long v = s ? strtoll(s, &end, 10) : 0;
	return s && *s && !*end ? json_integer(v) : json_null();
}

static json_t *ec_profile(struct cb_ctx *x, const char *name)
{
	json_t *prof;
	if (cb_ctx_mon(
		x, "erasure-code profiles (osd erasure-code-profile get)",
		json_pack("{s:s, s:s}", "prefix", "osd erasure-code-profile get", "name", name),
		&prof) < 0)
		return json_pack("{s:s, s:n, s:n, s:n}", "name", name, "k", "m", "plugin");
	json_t *j =
	    json_pack("{s:s, s:o, s:o, s:o}", "name", name, "k", profile_int(prof, "k"), "m",
		      profile_int(prof, "m"), "plugin", or_null(json_object_get(prof, "plugin")));
	json_decref(prof);
	return j;
}

/* A pool option set on the pool itself, or null: the OSDs' default. */
static json_t *pool_option(const json_t *pool, const char *key)
{
	const json_t *v = json_object_get(json_object_get(pool, "options"), key);
	return json_is_string(v) && json_string_length(v) ? json_copy((json_t *)v) : json_null();
}

/* The applications enabled on it, sorted: ["rbd"]. */
static json_t *applications(const json_t *pool)
{
	json_t *a = json_array();
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)json_object_get(pool, "application_metadata"), k, v)
	{
		size_t i = 0;
		while (i < json_array_size(a) &&
		       strcmp(json_string_value(json_array_get(a, i)), k) < 0)
			i++;
		json_array_insert_new(a, i, json_string(k));
	}
	return a;
}

json_t *cb_ctx_pool(struct cb_ctx *x, const char *name)
{
	const json_t *pools = json_object_get(cb_ctx_osd_dump(x), "pools"), *p = NULL, *q;
	size_t i;
	json_array_foreach(pools, i, q)
	{
		const char *n = json_string_value(json_object_get(q, "pool_name"));
		if (n && strcmp(n, name) == 0)
			p = q;
	}
	if (!p)
		return json_null();
	/* osd dump's pool types: 1 replicated, 3 erasure */
	json_int_t type = json_integer_value(json_object_get(p, "type"));
	const char *ecp = json_string_value(json_object_get(p, "erasure_code_profile"));
	return json_pack(
	    "{s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "type",
	    type == 3	? "erasure"
	    : type == 1 ? "replicated"
			: "other",
	    "size", or_null(json_object_get(p, "size")), "min_size",
	    or_null(json_object_get(p, "min_size")), "pg_num",
	    or_null(json_object_get(p, "pg_num")), "crush_rule",
	    rule_name(x, json_integer_value(json_object_get(p, "crush_rule"))),
	    "erasure_code_profile", type == 3 && ecp && *ecp ? ec_profile(x, ecp) : json_null(),
	    "compression_mode", pool_option(p, "compression_mode"), "compression_algorithm",
	    pool_option(p, "compression_algorithm"), "application", applications(p));
}

json_t *cb_ctx_osds(struct cb_ctx *x)
{
	const json_t *osds = json_object_get(cb_ctx_osd_dump(x), "osds"), *o;
	json_int_t up = 0, in = 0;
	size_t i;
	if (!osds)
		return json_null();
	json_array_foreach(osds, i, o)
	{
		up += json_integer_value(json_object_get(o, "up")) != 0;
		in += json_integer_value(json_object_get(o, "in")) != 0;
	}
	return json_pack("{s:I, s:I, s:I}", "total", (json_int_t)json_array_size(osds), "up", up,
			 "in", in);
}
