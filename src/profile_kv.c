/* The profile loader's shared helpers: strings that live as long as the
 * loader, where a YAML node was written, and the gathered keys. */
#include "profile_kv.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A string that lives as long as the loader; NULL on ENOMEM. */
const char *pf_loader_str(struct loader *l, const char *fmt, ...)
{
	char **v = realloc(l->strs, (l->nstrs + 1) * sizeof(*v));
	if (!v)
		return NULL;
	l->strs = v;
	va_list ap;
	va_start(ap, fmt);
	int r = vasprintf(&v[l->nstrs], fmt, ap);
	va_end(ap);
	return r < 0 ? NULL : v[l->nstrs++];
}

void pf_where_node(const struct loader *l, const yaml_node_t *n, char *buf, size_t len)
{
	snprintf(buf, len, "%s:%zu:%zu", l->path, n->start_mark.line + 1, n->start_mark.column + 1);
}

const char *pf_node_scalar(const yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* " (did you mean 'S'?)" when there is a suggestion, else " (ALT)", else "". */
const char *pf_hint(const char *s, const char *alt, char *buf, size_t n)
{
	if (s)
		snprintf(buf, n, " (did you mean '%s'?)", s);
	else if (alt)
		snprintf(buf, n, " (%s)", alt);
	else
		buf[0] = '\0';
	return buf;
}

int pf_kvs_add(struct kvs *k, const char *key, const char *val, const char *where,
	       const char *kwhere, enum kv_src src)
{
	if (k->n == k->cap) {
		size_t cap = k->cap ? k->cap * 2 : 16;
		struct kv *v = realloc(k->v, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		k->v = v;
		k->cap = cap;
	}
	struct kv *e = &k->v[k->n++];
	e->key = key;
	e->val = val;
	e->seq = NULL;
	e->list = false;
	e->src = src;
	snprintf(e->where, sizeof(e->where), "%s", where);
	snprintf(e->kwhere, sizeof(e->kwhere), "%s", kwhere);
	return 0;
}

const char *pf_kvs_get(const struct kvs *k, const char *key)
{
	const char *v = NULL;
	for (size_t i = 0; i < k->n; i++)
		if (strcmp(k->v[i].key, key) == 0)
			v = k->v[i].val;
	return v;
}

static const struct {
	const char *prefix, *example;
} nested[] = {
    {"expect.", "expect: { min_iops: 1000, max_p99: 20ms }"},
    {"steady.", "steady: { metric: iops, window: 30s, within: 5%, max: 10m }"},
    {"search.", "search: { p99: 5ms }"},
    {"mix.", "mix: { read: 70, write: 20, stat: 10 }"},
};

const char *pf_nested_prefix(const char *key)
{
	for (size_t i = 0; i < sizeof(nested) / sizeof(nested[0]); i++) {
		size_t n = strlen(nested[i].prefix) - 1;
		if (strncmp(key, nested[i].prefix, n) == 0 && key[n] == '\0')
			return nested[i].prefix;
	}
	return NULL;
}

const char *pf_nested_example(const char *key)
{
	for (size_t i = 0; i < sizeof(nested) / sizeof(nested[0]); i++)
		if (pf_nested_prefix(key) == nested[i].prefix)
			return nested[i].example;
	return "";
}
