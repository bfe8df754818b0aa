/* preflight: { require: ok | warn | any, wait: DURATION, allow: [CHECK, ...] }
 * read from its YAML node, each error one line naming where. */
#include "options.h"
#include "profile_preflight.h"
#include "units.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* A day: a gate that waits longer is a cron job that never ends. */
#define PF_MAX_WAIT_NS (24ULL * 3600 * 1000000000ULL)

/* A health check's name as the monitors give it: OSDMAP_FLAGS. */
static bool check_name_valid(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > 63 || !isupper((unsigned char)s[0]))
		return false;
	for (; *s; s++)
		if (!isupper((unsigned char)*s) && !isdigit((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

static int load_allow(struct loader *l, yaml_node_t *v)
{
	struct cb_preflight_opts *o = &l->p->preflight;
	char w[300];
	pf_where_node(l, v, w, sizeof(w));
	if (v->type != YAML_SEQUENCE_NODE)
		return cb_err_usage(l->e,
				    "%s: preflight allow must be a list of health checks, e.g. "
				    "allow: [OSDMAP_FLAGS]",
				    w);
	for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top;
	     it++) {
		yaml_node_t *n = yaml_document_get_node(&l->doc, *it);
		const char *s = pf_node_scalar(n);
		pf_where_node(l, n, w, sizeof(w));
		if (!s || !check_name_valid(s))
			return cb_err_usage(l->e,
					    "%s: preflight allow: '%s' is not a health check name "
					    "(capitals, digits and '_', like OSDMAP_FLAGS)",
					    w, s ? s : "(not a single value)");
		if (o->nallow == CB_PF_MAX_ALLOW)
			return cb_err_usage(l->e, "%s: preflight allow: more than %d checks", w,
					    CB_PF_MAX_ALLOW);
		if (!(o->allow[o->nallow] = strdup(s)))
			return cb_err_usage(l->e, "out of memory");
		o->nallow++;
	}
	return 0;
}

int pf_load_preflight(struct loader *l, yaml_node_t *v)
{
	static const char *const keys[] = {"require", "wait", "allow", NULL};
	struct cb_preflight_opts *o = &l->p->preflight;
	char w[300], h[128];
	pf_where_node(l, v, w, sizeof(w));
	if (v->type != YAML_MAPPING_NODE)
		return cb_err_usage(
		    l->e,
		    "%s: preflight must be a mapping, e.g. preflight: { require: ok, "
		    "wait: 60s, allow: [OSDMAP_FLAGS] }",
		    w);
	for (yaml_node_pair_t *pr = v->data.mapping.pairs.start; pr < v->data.mapping.pairs.top;
	     pr++) {
		yaml_node_t *k = yaml_document_get_node(&l->doc, pr->key);
		yaml_node_t *val = yaml_document_get_node(&l->doc, pr->value);
		const char *key = pf_node_scalar(k), *s = pf_node_scalar(val);
		pf_where_node(l, k, w, sizeof(w));
		if (!key)
			return cb_err_usage(l->e, "%s: keys must be plain names", w);
		for (yaml_node_pair_t *q = v->data.mapping.pairs.start; q < pr; q++)
			if (strcmp(pf_node_scalar(yaml_document_get_node(&l->doc, q->key)) ?: "",
				   key) == 0)
				return cb_err_usage(l->e, "%s: duplicate key '%s'", w, key);
		if (strcmp(key, "allow") == 0) {
			int r = load_allow(l, val);
			if (r < 0)
				return r;
			continue;
		}
		if (strcmp(key, "require") != 0 && strcmp(key, "wait") != 0)
			return cb_err_usage(l->e, "%s: unknown preflight key '%s'%s", w, key,
					    pf_hint(cb_closest(key, keys),
						    "expected require, wait, allow", h, sizeof(h)));
		pf_where_node(l, val, w, sizeof(w));
		if (!s || !*s)
			return cb_err_usage(l->e, "%s: preflight %s must be a single value", w,
					    key);
		if (strcmp(key, "require") == 0) {
			static const char *const levels[] = {"ok", "warn", "any", NULL};
			o->require = cb_pf_require_parse(s);
			if (!o->require)
				return cb_err_usage(
				    l->e, "%s: preflight require '%s': use ok, warn or any%s", w, s,
				    pf_hint(cb_closest(s, levels), NULL, h, sizeof(h)));
		} else if (cb_parse_duration(s, &o->wait_ns) < 0 || o->wait_ns > PF_MAX_WAIT_NS) {
			return cb_err_usage(
			    l->e,
			    "%s: preflight wait '%s': expected a duration up to 24h, "
			    "like 60s or 10m",
			    w, s);
		}
	}
	return 0;
}
