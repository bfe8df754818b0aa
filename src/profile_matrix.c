/* Matrix rows: a workload whose keys are lists (in YAML, or -o KEY=[a, b])
 * becomes one plan item per combination of their values. */
#include "engines.h"
#include "profile_item.h"
#include "profile_matrix.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MATRIX_MAX_DIMS 8
#define MATRIX_MAX_ROWS 1024

/* Whether a list from the defaults varies this workload: only when its
 * layer has the key, or a default for other layers would multiply rows. */
static bool list_applies(const struct kvs *k, const struct kv *kv)
{
	if (kv->src == KV_WORKLOAD || kv->src == KV_OVERRIDE ||
	    cb_opt_find(cb_workload_options, kv->key) || strncmp(kv->key, "expect.", 7) == 0)
		return true;
	const struct cb_engine *eng = cb_engine_find(pf_kvs_get(k, "layer") ?: "");
	return !eng || cb_opt_find(eng->options, kv->key);
}

/* A value as part of a row name: the characters names allow, others '-'. */
static void name_part(const char *v, char *out, size_t n)
{
	size_t i = 0;
	for (; v[i] && i + 1 < n; i++)
		out[i] = (isalnum((unsigned char)v[i]) || v[i] == '_' || v[i] == '-') ? v[i] : '-';
	out[i] = '\0';
}

/* Record on the item just added which matrix row it is. */
static int item_matrix(struct loader *l, const char *base, const struct kv *const *dims,
		       const char *const *vals, size_t nd)
{
	struct cb_workload *w = &l->p->items[l->p->n - 1].wl;
	if (!(w->base = strdup(base)) || !(w->matrix = calloc(nd, sizeof(*w->matrix))))
		return cb_err_usage(l->e, "out of memory");
	for (size_t d = 0; d < nd; d++, w->nmatrix++)
		if (!(w->matrix[d].key = strdup(dims[d]->key)) ||
		    !(w->matrix[d].val = strdup(vals[d])))
			return cb_err_usage(l->e, "out of memory");
	return 0;
}

/* The values of a list kv: a YAML sequence, or "[a, b]" given with -o. */
static size_t kv_nitems(const struct kv *kv)
{
	if (kv->seq)
		return (size_t)(kv->seq->data.sequence.items.top -
				kv->seq->data.sequence.items.start);
	size_t n = 1;
	for (const char *c = kv->val; *c; c++)
		n += *c == ',';
	return n;
}

/* Item j of list kv, with where it was written; NULL on ENOMEM. */
static const char *kv_item(struct loader *l, const struct kv *kv, size_t j, char *where, size_t wn)
{
	if (kv->seq) {
		yaml_node_t *n =
		    yaml_document_get_node(&l->doc, kv->seq->data.sequence.items.start[j]);
		pf_where_node(l, n, where, wn);
		return pf_node_scalar(n);
	}
	const char *c = kv->val + 1; /* past '[' */
	for (; j; c++)
		j -= *c == ',';
	c += strspn(c, " ");
	size_t len = strcspn(c, ",]");
	while (len && c[len - 1] == ' ')
		len--;
	snprintf(where, wn, "%s", kv->where);
	return pf_loader_str(l, "%.*s", (int)len, c);
}

/* Add the workload of keys k: one item, or, when keys are lists, one per
 * combination of their values (the first list varying slowest), each named
 * NAME_KEY-VALUE_... after the values it takes. */
int pf_add_items(struct loader *l, const struct kvs *k, const char *wwhere)
{
	const struct kv *dims[MATRIX_MAX_DIMS];
	size_t nd = 0, rows = 1, len[MATRIX_MAX_DIMS];
	/* in the order keys first appear, whichever value counts */
	for (size_t i = 0; i < k->n; i++) {
		size_t j = k->n, f = 0;
		while (f < i && strcmp(k->v[f].key, k->v[i].key) != 0)
			f++;
		while (strcmp(k->v[--j].key, k->v[i].key) != 0)
			;
		if (f < i || !k->v[j].list || !list_applies(k, &k->v[j]))
			continue;
		if (nd == MATRIX_MAX_DIMS)
			return cb_err_usage(l->e, "%s: more than %d keys given as lists",
					    k->v[j].where, MATRIX_MAX_DIMS);
		len[nd] = kv_nitems(&k->v[j]);
		rows *= len[nd];
		dims[nd++] = &k->v[j];
		if (rows > MATRIX_MAX_ROWS)
			return cb_err_usage(l->e,
					    "%s: the lists make more than %d rows: shorten them",
					    k->v[j].where, MATRIX_MAX_ROWS);
	}
	struct kvs row = {.v = malloc((k->n ? k->n : 1) * sizeof(*row.v)), .cap = k->n};
	const char *base = pf_kvs_get(k, "name");
	int r = row.v ? 0 : cb_err_usage(l->e, "out of memory");
	for (size_t c = 0; c < rows && r == 0; c++) {
		const char *vals[MATRIX_MAX_DIMS];
		char name[512], wh[MATRIX_MAX_DIMS][320];
		size_t off = (size_t)snprintf(name, sizeof(name), "%s", base ? base : "");
		row.n = 0;
		for (size_t d = nd, rest = c; d-- > 0; rest /= len[d])
			if (!(vals[d] = kv_item(l, dims[d], rest % len[d], wh[d], sizeof(wh[d]))))
				r = cb_err_usage(l->e, "out of memory");
		for (size_t d = 0; d < nd && r == 0; d++) {
			char part[128];
			/* a name cut short (the base's too) is refused below */
			if (off >= sizeof(name))
				off = sizeof(name) - 1;
			name_part(vals[d], part, sizeof(part));
			off += (size_t)snprintf(name + off, sizeof(name) - off, "_%s-%s",
						dims[d]->key, part);
		}
		for (size_t i = 0; i < k->n && r == 0; i++) {
			const struct kv *kv = &k->v[i];
			size_t d = 0;
			while (d < nd && dims[d] != kv)
				d++;
			if (kv->list && d == nd) /* overridden, or a default this layer lacks */
				continue;
			row.v[row.n] = *kv;
			if (d < nd) {
				row.v[row.n].val = vals[d];
				row.v[row.n].list = false;
				snprintf(row.v[row.n].where, sizeof(row.v[row.n].where), "%s",
					 wh[d]);
			} else if (nd && base && cb_name_valid(base) &&
				   strcmp(kv->key, "name") == 0) {
				/* an invalid base name is reported as such by build_item */
				if (strlen(name) > 64)
					r = cb_err_usage(
					    l->e,
					    "%s: matrix row name '%s' is longer than 64 "
					    "characters: shorten the workload's name",
					    kv->where, name);
				else if (!(row.v[row.n].val = pf_loader_str(l, "%s", name)))
					r = cb_err_usage(l->e, "out of memory");
			}
			row.n++;
		}
		if (r == 0 && (r = pf_add_item(l, &row, wwhere)) == 0 && nd)
			r = item_matrix(l, base, dims, vals, nd);
	}
	free(row.v);
	return r;
}
