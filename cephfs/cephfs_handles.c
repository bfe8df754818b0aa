/* The replay's handle table (cephfs_handles.h): linear probing, kept at
 * most half full. A number once used keeps its slot after its Close
 * (dbench reuses numbers), so there is never a deletion to probe past. */
#include "cephfs_handles.h"

#include <stdlib.h>

enum { FIRST_CAP = 16 };

static size_t slot_of(uint64_t fnum, size_t cap)
{
	/* Fibonacci hashing: consecutive numbers spread over the table */
	return (size_t)((fnum * 0x9E3779B97F4A7C15ULL) >> 32) & (cap - 1);
}

static struct cfs_handle *probe(struct cfs_handle *v, size_t cap, uint64_t fnum)
{
	size_t i = slot_of(fnum, cap);
	while (v[i].used && v[i].fnum != fnum)
		i = (i + 1) & (cap - 1);
	return &v[i];
}

static int grow(struct cfs_handles *t)
{
	size_t cap = t->cap ? t->cap * 2 : FIRST_CAP;
	struct cfs_handle *v = calloc(cap, sizeof(*v));
	if (!v)
		return -1;
	for (size_t i = 0; i < t->cap; i++)
		if (t->v[i].used)
			*probe(v, cap, t->v[i].fnum) = t->v[i];
	free(t->v);
	t->v = v;
	t->cap = cap;
	return 0;
}

struct cfs_handle *cfs_handles_get(struct cfs_handles *t, uint64_t fnum, bool add)
{
	if (!t->cap) {
		if (!add || grow(t) < 0)
			return NULL;
	}
	struct cfs_handle *h = probe(t->v, t->cap, fnum);
	if (h->used)
		return add || h->path ? h : NULL;
	if (!add)
		return NULL;
	if (2 * (t->n + 1) > t->cap) {
		if (grow(t) < 0)
			return NULL;
		h = probe(t->v, t->cap, fnum);
	}
	*h = (struct cfs_handle){.fnum = fnum, .used = true, .fd = -1};
	t->n++;
	return h;
}

struct cfs_handle *cfs_handles_at(struct cfs_handles *t, size_t i)
{
	return i < t->cap && t->v[i].used && t->v[i].path ? &t->v[i] : NULL;
}

void cfs_handles_release(struct cfs_handles *t)
{
	free(t->v);
	*t = (struct cfs_handles){0};
}
