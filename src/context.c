/* The record's context (context.h): the daemons' versions, then each row's
 * targets through its layer's context hook (or as a pool), then every pool
 * named, once. */
#include "context.h"
#include "conn.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

json_t *cb_ctx_section(struct cb_ctx *x, const char *name)
{
	json_t *s = json_object_get(x->root, name);
	if (!s && json_object_set_new(x->root, name, json_object()) == 0)
		s = json_object_get(x->root, name);
	return s;
}

void cb_ctx_use_pool(struct cb_context_req *req, const char *pool)
{
	json_t *a = json_object_get(req->uses, "pools");
	size_t i;
	json_t *v;
	if (!pool || !pool[0] || !a)
		return;
	json_array_foreach(a, i, v) if (strcmp(json_string_value(v), pool) == 0) return;
	json_array_append_new(a, json_string(pool));
}

const char *cb_ctx_pool_name(struct cb_ctx *x, int64_t id)
{
	const json_t *pools = json_object_get(cb_ctx_osd_dump(x), "pools");
	size_t i;
	json_t *p;
	json_array_foreach(pools, i,
			   p) if (json_integer_value(json_object_get(p, "pool")) ==
				  id) return json_string_value(json_object_get(p, "pool_name"));
	return NULL;
}

json_t *cb_ctx_versions_of(const json_t *v)
{
	json_t *out = json_object();
	static const char *const kinds[] = {"mon", "osd", "mds", "mgr", NULL};
	for (int k = 0; out && kinds[k]; k++) {
		json_t *by = json_object_get(v, kinds[k]), *short_by = json_object();
		const char *text;
		json_t *n;
		json_object_foreach(by, text, n)
		{
			char ver[64];
			/* "ceph version 16.2.15 (hash) pacific (stable)" */
			if (sscanf(text, "ceph version %63s", ver) != 1)
				snprintf(ver, sizeof(ver), "%s", text);
			/* two builds of one version: one count */
			json_int_t had = json_integer_value(json_object_get(short_by, ver));
			json_object_set_new(short_by, ver,
					    json_integer(had + json_integer_value(n)));
		}
		if (by)
			json_object_set_new(out, kinds[k], short_by);
		else
			json_decref(short_by);
	}
	return out;
}

static json_t *versions(struct cb_ctx *x)
{
	json_t *v;
	if (cb_ctx_mon(x, "daemon versions", json_pack("{s:s}", "prefix", "versions"), &v) < 0)
		return json_null();
	json_t *out = cb_ctx_versions_of(v);
	json_decref(v);
	return out ? out : json_null();
}

/* One row's targets: its layer's hook, or its target as a pool. */
static void row_context(struct cb_ctx *x, struct cb_phase_result *p, const char *run_name)
{
	const struct cb_engine *eng = p->engine;
	if (!eng || eng->no_cluster || !p->wl || !p->target[0])
		return;
	json_t *uses = json_pack("{s:[]}", "pools");
	struct cb_context_req req = {.ctx = x,
				     .conn = x->conn,
				     .wl = p->wl,
				     .lopts = p->lopts,
				     .run_name = run_name,
				     .target = p->target,
				     .uses = uses};
	if (!uses)
		return;
	if (eng->context)
		eng->context(&req);
	else if (eng->target == &cb_target_pool)
		cb_ctx_use_pool(&req, p->target);
	json_decref(p->uses);
	p->uses = uses;
}

int cb_context_record(struct cb_conn *conn, struct cb_result *r, const char *run_name, bool quiet)
{
	struct cb_ctx x = {.conn = conn, .quiet = quiet};
	x.root = json_object();
	if (!x.root)
		return -ENOMEM;
	json_object_set_new(x.root, "versions", versions(&x));
	for (size_t i = 0; i < r->nphases; i++)
		row_context(&x, &r->phases[i], run_name);
	json_t *pools = cb_ctx_section(&x, "pools");
	for (size_t i = 0; pools && i < r->nphases; i++) {
		size_t k;
		json_t *name;
		json_array_foreach(json_object_get(r->phases[i].uses, "pools"), k, name)
		{
			const char *n = json_string_value(name);
			if (!json_object_get(pools, n))
				json_object_set_new(pools, n, cb_ctx_pool(&x, n));
		}
	}
	json_object_set_new(x.root, "osds", cb_ctx_osds(&x));
	json_decref(x.osd_dump);
	json_decref(x.rules);
	json_decref(r->context);
	r->context = x.root;
	return 0;
}
