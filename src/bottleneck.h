/* The per-layer bottleneck breakdown: rows of a result that ran the same op
 * and block size on several layers, grouped, with the cost of each layer
 * over the one beneath it (RADOS -> RBD -> krbd, RADOS -> CephFS file I/O).
 * docs/bottleneck.md is the user's version of these rules. */
#ifndef CB_BOTTLENECK_H
#define CB_BOTTLENECK_H

#include "result.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The layers in chain order; a layer's base is the nearest present one
 * beneath it: krbd over rbd (else rados), rbd and cephfs over rados. */
enum cb_layer { CB_L_RADOS, CB_L_RBD, CB_L_KRBD, CB_L_CEPHFS, CB_L_COUNT };

extern const char *const cb_layer_names[CB_L_COUNT];

/* Why a phase is in no group (CB_LAYERS_USED when it is in one). */
enum cb_bottleneck_why {
	CB_LAYERS_USED,
	CB_LAYERS_PREFILL,   /* a fill step: NAME.prefill */
	CB_LAYERS_LOAD,	     /* a group's load (role: load), beside what is measured */
	CB_LAYERS_OTHER_OP,  /* no counterpart on another layer (tree phases, unknown layers) */
	CB_LAYERS_FAILED,    /* stopped by errors: its figures are not the layer's */
	CB_LAYERS_CACHED,    /* mostly served by the client's cache (served.h) */
	CB_LAYERS_NO_OPS,    /* measured nothing */
	CB_LAYERS_DUPLICATE, /* an earlier row of its layer stands for it in the group */
	CB_LAYERS_ALONE,     /* no other layer ran its op and block size */
};

/* One layer's row in a group, and its cost over its base (when has_base). */
struct cb_layer_row {
	size_t phase; /* index in cb_result.phases; SIZE_MAX: the layer is absent */
	double iops;
	uint64_t p50_ns, p99_ns;
	bool has_base;
	enum cb_layer base;
	double iops_lost_pct;		    /* (base - this) / base * 100; negative: a gain */
	int64_t p50_added_ns, p99_added_ns; /* this - base */
};

struct cb_layer_group {
	const char *op; /* normalized: read, write, randread, randwrite, rw, randrw */
	uint64_t block_size;
	struct cb_layer_row row[CB_L_COUNT];
	size_t nlayers;
	bool has_worst; /* some layer loses IOPS over its base */
	enum cb_layer worst;
	bool depth_differs; /* clients x concurrency not the same on every layer */
	bool pools_differ;  /* the rados, rbd and krbd rows ran on different pools */
	size_t *shadowed;   /* phases left out as CB_LAYERS_DUPLICATE of this group */
	size_t nshadowed;
	size_t *cached; /* phases of its op and size left out as CB_LAYERS_CACHED */
	size_t ncached;
};

struct cb_bottleneck {
	struct cb_layer_group *groups;
	size_t n;
	enum cb_bottleneck_why *why; /* one per phase of the result */
};

/* Group r's rows. 0 or -ENOMEM; free with cb_bottleneck_free even on failure. */
int cb_bottleneck_find(const struct cb_result *r, struct cb_bottleneck *out);
void cb_bottleneck_free(struct cb_bottleneck *l);

#endif
