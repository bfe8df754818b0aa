/* The -o overrides: parsed once into (kind, target, key, value), added to
 * each workload's keys at their precedence, and checked that each named
 * workload exists. */
#include "profile_override.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Append the overrides of one kind (for workload wname) at precedence src. */
int pf_add_overrides(struct loader *l, enum ov_kind kind, const char *wname, enum kv_src src,
		     struct kvs *k)
{
	for (size_t i = 0; i < l->nov; i++) {
		struct override *o = &l->ov[i];
		if (o->kind != kind || (kind == OV_WORKLOAD && strcmp(o->target, wname)))
			continue;
		char w[300];
		snprintf(w, sizeof(w), "-o %s", CB_ECHO(o->raw));
		o->used = true;
		if (pf_kvs_add(k, o->key, o->val, w, w, src) < 0)
			return cb_err_usage(l->e, "out of memory");
		k->v[k->n - 1].list = o->val[0] == '[';
	}
	return 0;
}

/* -o KEY=[a, b]: a matrix dimension, like a YAML list; one level, no
 * empty values, not for names or cluster keys. */
static int check_override_list(struct loader *l, const struct override *o)
{
	const char *v = o->val;
	size_t n = strlen(v);
	if (o->kind == OV_CLUSTER || strcmp(o->key, "name") == 0 ||
	    strncmp(o->key, "expect.", 7) == 0)
		return cb_err_usage(l->e, "-o %s: %s takes a single value, not a list",
				    CB_ECHO(o->raw), CB_ECHO(o->key));
	if (n < 2 || v[n - 1] != ']' || strpbrk(v + 1, "[") || strchr(v, ']') != v + n - 1)
		return cb_err_usage(l->e, "-o %s: a list is written [a, b, c]", CB_ECHO(o->raw));
	for (const char *c = v + 1; c < v + n;) {
		size_t len = strcspn(c, ",]");
		if (strspn(c, " ") >= len)
			return cb_err_usage(l->e, "-o %s: the list has an empty value",
					    CB_ECHO(o->raw));
		c += len + 1;
	}
	return 0;
}

int pf_parse_overrides(struct loader *l, char *const *ov, size_t n)
{
	l->ov = calloc(n ? n : 1, sizeof(*l->ov));
	if (!l->ov)
		return cb_err_usage(l->e, "out of memory");
	for (size_t i = 0; i < n; i++) {
		struct override *o = &l->ov[i];
		l->nov = i + 1; /* so overrides_free sees this one even on error */
		o->raw = strdup(ov[i]);
		char *eq = strchr(ov[i], '=');
		if (!o->raw || !eq || eq == ov[i] || !eq[1])
			return cb_err_usage(l->e,
					    "-o %s: expected KEY=VALUE, e.g. -o "
					    "workloads.NAME.concurrency=32",
					    CB_ECHO(ov[i]));
		char *path = strndup(ov[i], (size_t)(eq - ov[i]));
		o->val = strdup(eq + 1);
		if (!path || !o->val) {
			free(path);
			return cb_err_usage(l->e, "out of memory");
		}
		char *p = path, *dot;
		bool wl_prefix = strncmp(p, "workloads.", 10) == 0;
		if (wl_prefix)
			p += 10;
		dot = strrchr(p, '.');
		/* expect.KEY (steady.KEY, search.KEY) is one key: the dot before
		 * it splits */
		if (dot) {
			char *prev = dot;
			while (prev > p && prev[-1] != '.')
				prev--;
			char name[16];
			snprintf(name, sizeof(name), "%.*s", (int)(dot - prev), prev);
			if (pf_nested_prefix(name))
				dot = prev == p ? NULL : prev - 1;
		}
		if (!dot) {
			o->kind = wl_prefix ? OV_WORKLOAD : OV_ALL;
			o->key = strdup(p);
			o->target = strdup("");
		} else {
			*dot = '\0';
			if (!wl_prefix && strcmp(p, "defaults") == 0)
				o->kind = OV_DEFAULT;
			else if (!wl_prefix && strcmp(p, "cluster") == 0)
				o->kind = OV_CLUSTER;
			else
				o->kind = OV_WORKLOAD;
			o->target = strdup(p);
			o->key = strdup(dot + 1);
		}
		free(path);
		if (!o->target || !o->key)
			return cb_err_usage(l->e, "out of memory");
		if (o->kind == OV_WORKLOAD && !*o->target)
			return cb_err_usage(l->e,
					    "-o %s: name a workload: workloads.NAME.KEY=VALUE",
					    CB_ECHO(ov[i]));
		if (o->val[0] == '[' && check_override_list(l, o) < 0)
			return -EINVAL;
	}
	return 0;
}

int pf_check_overrides_used(struct loader *l)
{
	const char *names[64];
	size_t n = 0;
	/* -o names a workload as written: a matrix row's base, once */
	for (size_t i = 0; i < l->p->n && n < 63; i++) {
		const struct cb_workload *w = &l->p->items[i].wl;
		const char *nm = w->base ? w->base : w->name;
		if (!n || strcmp(names[n - 1], nm) != 0)
			names[n++] = nm;
	}
	names[n] = NULL;
	for (size_t i = 0; i < l->nov; i++) {
		if (l->ov[i].used || l->ov[i].kind != OV_WORKLOAD)
			continue;
		char h[128];
		return cb_err_usage(
		    l->e, "-o %s: no workload named '%s'%s", CB_ECHO(l->ov[i].raw),
		    CB_ECHO(l->ov[i].target),
		    pf_hint(cb_closest(l->ov[i].target, names), NULL, h, sizeof(h)));
	}
	return 0;
}

void pf_overrides_free(struct loader *l)
{
	for (size_t i = 0; i < l->nov; i++) {
		free(l->ov[i].raw);
		free(l->ov[i].target);
		free(l->ov[i].key);
		free(l->ov[i].val);
	}
	free(l->ov);
}
