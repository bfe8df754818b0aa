/* The per-layer bottleneck breakdown (bottleneck.h): which rows compare, and the
 * cost of each layer over the one beneath it. */
#include "bottleneck.h"
#include "blk_ops.h"
#include "served.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

const char *const cb_layer_names[CB_L_COUNT] = {"rados", "rbd", "krbd", "cephfs"};

static int layer_of(const char *name)
{
	for (int l = 0; l < CB_L_COUNT; l++)
		if (strcmp(name, cb_layer_names[l]) == 0)
			return l;
	return -1;
}

/* The block layers' ops (blk/blk_ops.h) a row stands for, as a mask of
 * 1 << enum cb_blk_op; 0 when none. */
static unsigned ops_of(int layer, const char *op)
{
	if (layer == CB_L_RADOS) {
		/* write makes new objects, so it never seeks: the nearest RADOS has to
		 * both a sequential and a random write */
		if (strcmp(op, "write") == 0)
			return 1u << CB_BLK_WRITE | 1u << CB_BLK_RANDWRITE;
		if (strcmp(op, "seq") == 0)
			return 1u << CB_BLK_READ;
		if (strcmp(op, "rand") == 0)
			return 1u << CB_BLK_RANDREAD;
		return 0;
	}
	enum cb_blk_op b = cb_blk_op_of(op); /* CB_BLK_PREFILL: not a block op */
	/* cephfs's other ops are tree phases; mixed ops are the block layers' */
	if (b == CB_BLK_PREFILL || (layer == CB_L_CEPHFS && b >= CB_BLK_RW))
		return 0;
	return 1u << b;
}

static struct cb_layer_group *group_of(struct cb_bottleneck *l, const char *op, uint64_t bs)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->groups[i].op == op && l->groups[i].block_size == bs)
			return &l->groups[i];
	return NULL;
}

static struct cb_layer_group *group_for(struct cb_bottleneck *l, const char *op, uint64_t bs)
{
	struct cb_layer_group *g = group_of(l, op, bs);
	if (g)
		return g;
	g = realloc(l->groups, (l->n + 1) * sizeof(*g));
	if (!g)
		return NULL;
	l->groups = g;
	g = &l->groups[l->n++];
	memset(g, 0, sizeof(*g));
	g->op = op;
	g->block_size = bs;
	for (int k = 0; k < CB_L_COUNT; k++)
		g->row[k].phase = SIZE_MAX;
	return g;
}

static int append(size_t **v, size_t *n, size_t x)
{
	size_t *s = realloc(*v, (*n + 1) * sizeof(*s));
	if (!s)
		return -ENOMEM;
	*v = s;
	s[(*n)++] = x;
	return 0;
}

static bool cached(const struct cb_phase_result *p)
{
	struct cb_served s;
	cb_served_of(p, &s);
	return s.by == CB_SERVED_CACHE;
}

static int add_row(struct cb_layer_group *g, int layer, size_t phase)
{
	if (g->row[layer].phase == SIZE_MAX) {
		g->row[layer].phase = phase;
		g->nlayers++;
		return 0;
	}
	return append(&g->shadowed, &g->nshadowed, phase);
}

/* The nearest layer present beneath l in its chain, or -1. */
static int base_of(const struct cb_layer_group *g, int l)
{
	static const int below[CB_L_COUNT] = {[CB_L_RADOS] = -1,
					      [CB_L_RBD] = CB_L_RADOS,
					      [CB_L_KRBD] = CB_L_RBD,
					      [CB_L_CEPHFS] = CB_L_RADOS};
	for (int b = below[l]; b >= 0; b = below[b])
		if (g->row[b].phase != SIZE_MAX)
			return b;
	return -1;
}

/* Figures, costs, the worst layer and the depth note of a kept group. */
static void measure(const struct cb_result *r, struct cb_layer_group *g)
{
	uint64_t depth = 0;
	const char *pool = NULL;
	for (int l = 0; l < CB_L_COUNT; l++) {
		struct cb_layer_row *w = &g->row[l];
		if (w->phase == SIZE_MAX)
			continue;
		const struct cb_phase_result *p = &r->phases[w->phase];
		w->iops = cb_phase_iops(p);
		w->p50_ns = cb_hist_percentile(p->hist, 50);
		w->p99_ns = cb_hist_percentile(p->hist, 99);
		uint64_t d = p->clients * p->concurrency;
		if (depth && d != depth)
			g->depth_differs = true;
		depth = d;
		/* a pool's replication and devices would pass for a layer's cost;
		 * cephfs writes to its file system's data pool, named nowhere here */
		if (l != CB_L_CEPHFS && pool && strcmp(pool, p->target) != 0)
			g->pools_differ = true;
		if (l != CB_L_CEPHFS)
			pool = p->target;
	}
	double worst = 0;
	for (int l = 0; l < CB_L_COUNT; l++) {
		struct cb_layer_row *w = &g->row[l];
		int b = w->phase == SIZE_MAX ? -1 : base_of(g, l);
		if (b < 0)
			continue;
		const struct cb_layer_row *u = &g->row[b];
		w->has_base = true;
		w->base = (enum cb_layer)b;
		w->iops_lost_pct = u->iops > 0 ? (u->iops - w->iops) / u->iops * 100.0 : 0.0;
		w->p50_added_ns = (int64_t)w->p50_ns - (int64_t)u->p50_ns;
		w->p99_added_ns = (int64_t)w->p99_ns - (int64_t)u->p99_ns;
		/* ties: the lower layer, where the loss shows first */
		if (w->iops_lost_pct > worst) {
			worst = w->iops_lost_pct;
			g->has_worst = true;
			g->worst = (enum cb_layer)l;
		}
	}
}

int cb_bottleneck_find(const struct cb_result *r, struct cb_bottleneck *out)
{
	memset(out, 0, sizeof(*out));
	out->why = calloc(r->nphases ? r->nphases : 1, sizeof(*out->why));
	if (!out->why)
		return -ENOMEM;
	for (size_t i = 0; i < r->nphases; i++) {
		const struct cb_phase_result *p = &r->phases[i];
		int layer = layer_of(p->layer);
		unsigned ops = layer < 0 ? 0 : ops_of(layer, p->op);
		if (cb_phase_is_prefill(p))
			out->why[i] = CB_LAYERS_PREFILL;
		else if (p->load)
			out->why[i] = CB_LAYERS_LOAD;
		else if (!ops)
			out->why[i] = CB_LAYERS_OTHER_OP;
		else if (p->failed)
			out->why[i] = CB_LAYERS_FAILED;
		else if (p->ops && cached(p))
			out->why[i] = CB_LAYERS_CACHED;
		else if (p->ops == 0)
			out->why[i] = CB_LAYERS_NO_OPS;
		else
			out->why[i] = CB_LAYERS_ALONE; /* until a group keeps it */
		if (out->why[i] != CB_LAYERS_ALONE)
			continue;
		for (int o = CB_BLK_READ; o <= CB_BLK_RANDRW; o++) {
			if (!(ops & 1u << o))
				continue;
			struct cb_layer_group *g = group_for(out, cb_blk_ops[o - 1], p->block_size);
			if (!g || add_row(g, layer, i) < 0)
				return -ENOMEM;
		}
	}
	/* a group needs two layers; what is left, in order of first appearance */
	size_t kept = 0;
	for (size_t i = 0; i < out->n; i++) {
		if (out->groups[i].nlayers < 2) {
			free(out->groups[i].shadowed);
			continue;
		}
		out->groups[kept++] = out->groups[i];
	}
	out->n = kept;
	for (size_t i = 0; i < out->n; i++) {
		struct cb_layer_group *g = &out->groups[i];
		measure(r, g);
		for (int l = 0; l < CB_L_COUNT; l++)
			if (g->row[l].phase != SIZE_MAX)
				out->why[g->row[l].phase] = CB_LAYERS_USED;
	}
	for (size_t i = 0; i < out->n; i++)
		for (size_t k = 0; k < out->groups[i].nshadowed; k++)
			if (out->why[out->groups[i].shadowed[k]] != CB_LAYERS_USED)
				out->why[out->groups[i].shadowed[k]] = CB_LAYERS_DUPLICATE;
	/* a cached row of a group's op and size is named under it: the
	 * reader sees why its layer is missing or stands on another row */
	for (size_t i = 0; i < r->nphases; i++) {
		if (out->why[i] != CB_LAYERS_CACHED)
			continue;
		const struct cb_phase_result *p = &r->phases[i];
		unsigned ops = ops_of(layer_of(p->layer), p->op);
		for (int o = CB_BLK_READ; o <= CB_BLK_RANDRW; o++) {
			struct cb_layer_group *g =
			    ops & 1u << o ? group_of(out, cb_blk_ops[o - 1], p->block_size) : NULL;
			if (g && append(&g->cached, &g->ncached, i) < 0)
				return -ENOMEM;
		}
	}
	return 0;
}

void cb_bottleneck_free(struct cb_bottleneck *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->groups[i].shadowed);
		free(l->groups[i].cached);
	}
	free(l->groups);
	free(l->why);
	memset(l, 0, sizeof(*l));
}
