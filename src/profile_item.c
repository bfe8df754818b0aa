/* A plan item from one workload's keys, and the defaults settled there,
 * once: no layer and no runner step resolves them again. */
#include "cost.h"
#include "engines.h"
#include "expect.h"
#include "group.h"
#include "load_check.h"
#include "profile_item.h"
#include "steady.h"
#include "units.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Plan items (workloads and matrix rows): each holds memory and a run. */
#define PROFILE_MAX_ITEMS 1024
/* A week: long enough for any soak, short enough that clock sums never wrap. */
#define CB_MAX_PHASE_NS (7ULL * 24 * 3600 * 1000000000ULL)

static const char *const arrivals[] = {"uniform", "poisson", NULL};
static const char *const roles[] = {"measure", "load", NULL};
static const char *const cached_words[] = {"no", "ok", NULL};
/* enum cb_cold's order */
static const char *const cold_words[] = {"auto", "false", "true", NULL};

const struct cb_option cb_workload_options[] = {
    {"name", CB_OPT_NAME, offsetof(struct cb_workload, name), NULL, 0, 0, NULL,
     "unique name of the workload; names its report row"},
    {"layer", CB_OPT_STR, offsetof(struct cb_workload, layer), NULL, 0, 0, NULL,
     "which layer runs it, by its name in the registry (src/engines.c); an unknown name is refused "
     "with the list"},
    {"op", CB_OPT_STR, offsetof(struct cb_workload, op), NULL, 0, 0, NULL,
     "what it does; the layer lists its ops"},
    {"block_size", CB_OPT_SIZES, offsetof(struct cb_workload, sizes), NULL, 1, 1ULL << 30, NULL,
     "bytes per op (default: the layer's); or sizes drawn per op, by weight ({ 4K: 60, 64K: 30, "
     "1M: 10 }: fio's bssplit) or evenly from a range (4K-64K: fio's bsrange)"},
    {"block_align", CB_OPT_SIZE, offsetof(struct cb_workload, block_align), NULL, 1, 1ULL << 30,
     NULL,
     "with block_size a distribution: every size and offset a multiple of this (default 4K; "
     "fio's blockalign)"},
    {"concurrency", CB_OPT_UINT, offsetof(struct cb_workload, concurrency), "16", 1, 4096, NULL,
     "ops in flight"},
    {"duration", CB_OPT_DURATION, offsetof(struct cb_workload, duration_ns), NULL, 1000000ULL,
     CB_MAX_PHASE_NS, NULL, "measured time (default 10s unless ops or bytes limit the phase)"},
    {"ramp", CB_OPT_DURATION, offsetof(struct cb_workload, ramp_ns), "0", 0, CB_MAX_PHASE_NS, NULL,
     "time run before measuring, not counted"},
    {"ops", CB_OPT_UINT, offsetof(struct cb_workload, ops), NULL, 0, 0, NULL,
     "stop after this many measured ops"},
    {"bytes", CB_OPT_SIZE, offsetof(struct cb_workload, bytes), NULL, 0, 0, NULL,
     "stop after this many measured bytes"},
    {"max_errors", CB_OPT_UINT, offsetof(struct cb_workload, max_errors), "0", 0, 0, NULL,
     "op errors tolerated before the phase fails"},
    /* at least 1s, like timeout: librados takes whole seconds */
    {"op_timeout", CB_OPT_DURATION, offsetof(struct cb_workload, op_timeout_ns), NULL,
     1000000000ULL, 0, NULL,
     "an OSD op stuck this long fails with an error (default: the cluster timeout)"},
    {"clients", CB_OPT_UINT, offsetof(struct cb_workload, clients), "1", 1, 1024, NULL,
     "clients running the workload together, each with its own session (cephfs: mount)"},
    {"repeat", CB_OPT_UINT, offsetof(struct cb_workload, repeat), "1", 1, 1000, NULL,
     "runs of the workload, merged into one row that keeps each run's rate"},
    {"seed", CB_OPT_UINT, offsetof(struct cb_workload, seed), NULL, 1, CB_SEED_MAX, NULL,
     "makes its offsets, choices and data repeatable: the same ops per client for the same seed "
     "(default: one drawn at the start of the run, in the record's params)"},
    {"distribution", CB_OPT_DIST, offsetof(struct cb_workload, distribution), "uniform", 0, 0, NULL,
     "a random op's targets: uniform, zipf:THETA, pareto:H (H of the ops on 1 - H of the "
     "targets) or normal:PCT (a deviation of PCT % of the range about its middle); fio's "
     "random_distribution"},
    {"coverage", CB_OPT_BOOL, offsetof(struct cb_workload, coverage), "false", 0, 0, NULL,
     "a random op touches every target once a pass, in random order (fio's random map)"},
    {"data", CB_OPT_DATA, offsetof(struct cb_workload, data), "random", 0, 0, NULL,
     "what writes hold: random, zero, compressible:PCT (PCT % of every 512 bytes zeros: fio's "
     "buffer_compress_percentage) or dedupe:PCT (PCT % of blocks one repeated block: fio's "
     "dedupe_percentage)"},
    {"refill", CB_OPT_BOOL, offsetof(struct cb_workload, refill), "false", 0, 0, NULL,
     "make the buffer's contents anew before every op (fio's refill_buffers), at a CPU cost "
     "per op; false: once per op slot"},
    {"optional", CB_OPT_BOOL, offsetof(struct cb_workload, optional), "false", 0, 0, NULL,
     "skip the workload, with a note, when its layer is unavailable on this host"},
    {"cached", CB_OPT_ENUM, offsetof(struct cb_workload, cached), "no", 0, 0, cached_words,
     "ok: its expect: judges the row also when the client's cache served most of its reads or "
     "stats; no: such a row fails its expectations, its figures not being the cluster's"},
    {"cold", CB_OPT_ENUM, offsetof(struct cb_workload, cold), "auto", 0, 0, cold_words,
     "true: a read phase first drops what could answer it in the cluster's place: the "
     "client's caches (a remount, a fresh image handle) and the caches of the OSDs holding its "
     "pools (ceph tell osd.N cache drop); false: neither; auto: the layer's default (the tree "
     "test's stat and read phases run cold, by stride with two or more clients)"},
    {"rate", CB_OPT_RATE, offsetof(struct cb_workload, rate), NULL, 1, 100000000, NULL,
     "open loop: ops per second (10000) or a bandwidth (200MiB/s) for the workload, split "
     "across its clients; latency counts from each op's scheduled start (default: closed "
     "loop)"},
    {"arrival", CB_OPT_ENUM, offsetof(struct cb_workload, arrival), "uniform", 0, 0, arrivals,
     "how a rate's ops are spaced: uniform or poisson"},
    {"together", CB_OPT_NAME, offsetof(struct cb_workload, together), NULL, 0, 0, NULL,
     "a group's name: the workloads naming it start at one start line and stop together"},
    {"role", CB_OPT_ENUM, offsetof(struct cb_workload, role), "measure", 0, 0, roles,
     "in a group: measure (judged, in the breakdown) or load (neither)"},
    {"alone", CB_OPT_NAME, offsetof(struct cb_workload, alone), NULL, 0, 0, NULL,
     "in a group: the workload that ran the same op alone; the report sets the two side by "
     "side with the slowdown"},
    {"steady.metric", CB_OPT_ENUM, offsetof(struct cb_workload, steady.metric), "off", 0, 0,
     cb_steady_metrics, "end the phase at steady state of iops, bw or p99 (fio's ss)"},
    {"steady.window", CB_OPT_DURATION, offsetof(struct cb_workload, steady.window_ns), "30s",
     2000000000ULL, CB_MAX_PHASE_NS, NULL, "the window the metric must hold steady over"},
    {"steady.within", CB_OPT_PERCENT, offsetof(struct cb_workload, steady.within_ppm), "5%", 1,
     1000000, NULL, "how far each second of the window may stray from its mean"},
    {"steady.max", CB_OPT_DURATION, offsetof(struct cb_workload, steady.max_ns), "10m",
     1000000000ULL, CB_MAX_PHASE_NS, NULL, "the phase ends here if it never got steady"},
    {"search.p99", CB_OPT_DURATION, offsetof(struct cb_workload, search.p99_ns), NULL, 1000,
     CB_MAX_PHASE_NS, NULL, "find the highest rate whose p99 stays at or under this"},
    {"search.p999", CB_OPT_DURATION, offsetof(struct cb_workload, search.p999_ns), NULL, 1000,
     CB_MAX_PHASE_NS, NULL, "... whose p99.9 stays at or under this"},
    {"search.mean", CB_OPT_DURATION, offsetof(struct cb_workload, search.mean_ns), NULL, 1000,
     CB_MAX_PHASE_NS, NULL, "... whose mean latency stays at or under this"},
    {"search.steps", CB_OPT_UINT, offsetof(struct cb_workload, search.steps), "12", 2, 100, NULL,
     "the search's budget: phases run, each at one rate"},
    {"search.error", CB_OPT_PERCENT, offsetof(struct cb_workload, search.error_ppm), "3%", 1000,
     500000, NULL, "the search stops once the capacity is known to within this"},
    {NULL, 0, 0, NULL, 0, 0, NULL, NULL},
};

/* Where the key was written (its last place), else the workload's. */
static const char *key_where(const struct kvs *k, const char *key, const char *wwhere)
{
	const char *where = wwhere;
	for (size_t i = 0; i < k->n; i++)
		if (strcmp(k->v[i].key, key) == 0)
			where = k->v[i].where;
	return where;
}

/* "one of a, b, c" from a NULL-terminated list. */
static const char *one_of(const char *const *words, char *buf, size_t n)
{
	size_t off = (size_t)snprintf(buf, n, "one of");
	for (int i = 0; words[i] && off < n; i++)
		off += (size_t)snprintf(buf + off, n - off, "%s %s", i ? "," : "", words[i]);
	return buf;
}

bool pf_key_known_to_some_layer(const char *key)
{
	for (int i = 0; cb_engines[i]; i++)
		if (cb_opt_find(cb_engines[i]->options, key))
			return true;
	return false;
}

int pf_unknown_key(struct loader *l, const struct kv *kv, const struct cb_engine *eng)
{
	const struct cb_option *tabs[] = {cb_workload_options, eng ? eng->options : NULL, NULL};
	char layer[64] = "", h[128];
	if (eng)
		snprintf(layer, sizeof(layer), " for layer %s", eng->name);
	return cb_err_usage(l->e, "%s: unknown key '%s'%s%s", kv->kwhere, kv->key, layer,
			    pf_hint(cb_opt_suggest(tabs, kv->key), NULL, h, sizeof(h)));
}

static const struct cb_engine *find_layer(struct loader *l, const struct kvs *k, const char *wwhere)
{
	const struct kv *lk = NULL;
	for (size_t i = 0; i < k->n; i++)
		if (strcmp(k->v[i].key, "layer") == 0)
			lk = &k->v[i];
	const char *names[16];
	char list[256], h[300];
	int n = 0;
	for (; cb_engines[n] && n < 15; n++)
		names[n] = cb_engines[n]->name;
	names[n] = NULL;
	one_of(names, list, sizeof(list));
	if (!lk) {
		cb_err_usage(l->e, "%s: workload has no layer: (%s)", wwhere, list);
		return NULL;
	}
	const struct cb_engine *eng = cb_engine_find(lk->val);
	if (!eng)
		cb_err_usage(l->e, "%s: unknown layer '%s'%s", lk->where, lk->val,
			     pf_hint(cb_closest(lk->val, names), list, h, sizeof(h)));
	return eng;
}

static int check_op(struct loader *l, const struct cb_plan_item *it, const struct kvs *k,
		    const char *wwhere)
{
	const char *where = key_where(k, "op", wwhere);
	char list[256], h[300];
	one_of(it->engine->ops, list, sizeof(list));
	if (!it->wl.op)
		return cb_err_usage(l->e, "%s: workload '%s' has no op: (%s)", wwhere, it->wl.name,
				    list);
	if (cb_op_listed(it->engine->ops, it->wl.op))
		return 0;
	return cb_err_usage(l->e, "%s: unknown op '%s' for layer %s%s", where, it->wl.op,
			    it->engine->name,
			    pf_hint(cb_closest(it->wl.op, it->engine->ops), list, h, sizeof(h)));
}

/* One key of an `expect:` mapping. A bandwidth may be written per second
 * (100M/s), as reports print it. */
int pf_parse_expect(struct loader *l, const struct kv *kv, struct cb_expect *x)
{
	const char *key = kv->key + 7;
	const struct cb_option *o = cb_opt_find(cb_expect_options, key);
	char why[512], h[300], list[256], val[128];
	if (!o) {
		const char *names[CB_EXPECT_NMETRICS + 1];
		for (unsigned m = 0; m <= CB_EXPECT_NMETRICS; m++)
			names[m] = cb_expect_options[m].name;
		return cb_err_usage(l->e, "%s: unknown expect key '%s'%s", kv->kwhere, key,
				    pf_hint(cb_closest(key, names),
					    one_of(names, list, sizeof(list)), h, sizeof(h)));
	}
	snprintf(val, sizeof(val), "%s", kv->val);
	size_t n = strlen(val);
	if (o->type == CB_OPT_SIZE && n > 2 && strcmp(val + n - 2, "/s") == 0)
		val[n - 2] = '\0';
	if (cb_opt_parse(o, x, val, why, sizeof(why)) < 0)
		return cb_err_usage(l->e, "%s: expect.%s", kv->where, why);
	cb_expect_mark(x, key);
	return 0;
}

/* key (set on the workload) only on one of ops, the engine's list of the
 * ops it applies to (NULL: none); else one line saying what the op does
 * not do ("picks no targets at random"). */
static int only_on(struct loader *l, const struct cb_plan_item *it, const struct kvs *k,
		   const char *wwhere, const char *key, const char *const *ops, const char *doesnt)
{
	const char *op = it->wl.op;
	if (cb_op_listed(ops, op))
		return 0;
	char list[256];
	if (!ops)
		snprintf(list, sizeof(list), "layer %s has none", it->engine->name);
	return cb_err_usage(l->e, "%s: %s: op %s %s: %s%s", key_where(k, key, wwhere), key, op,
			    doesnt, ops ? "use " : "",
			    ops ? one_of(ops, list, sizeof(list)) : list);
}

/* distribution and coverage only on an op that picks targets at random,
 * and not together (a pass visits each target once: no hot set); data and
 * refill only on an op that writes. */
static int check_op_keys(struct loader *l, const struct cb_plan_item *it, const struct kvs *k,
			 const char *wwhere)
{
	const struct cb_workload *wl = &it->wl;
	const struct cb_engine *e = it->engine;
	bool skewed = wl->distribution.kind != CB_DIST_UNIFORM;
	int r = 0;
	if (skewed || wl->coverage)
		r = only_on(l, it, k, wwhere, skewed ? "distribution" : "coverage", e->random_ops,
			    "picks no targets at random");
	if (r == 0 && (wl->data.kind != CB_DATA_RANDOM || wl->refill))
		r = only_on(l, it, k, wwhere, wl->refill ? "refill" : "data", e->write_ops,
			    "writes no data");
	if (r == 0 && cb_sizes_varies(&wl->sizes))
		r = only_on(l, it, k, wwhere, "block_size", e->sized_ops, "takes one block size");
	/* -o cold=true over a whole profile reads cold where a workload reads */
	if (r == 0 && wl->cold == CB_COLD_ON &&
	    strncmp(key_where(k, "cold", wwhere), "-o ", 3) != 0)
		r = only_on(l, it, k, wwhere, "cold", e->cold_ops,
			    "reads nothing an earlier phase made");
	if (r == 0 && wl->block_align && !cb_sizes_varies(&wl->sizes))
		r = cb_err_usage(l->e,
				 "%s: block_align: sizes and offsets are multiples of block_size "
				 "when it is one size: give block_size as a distribution or drop "
				 "block_align",
				 key_where(k, "block_align", wwhere));
	if (r == 0 && cb_sizes_varies(&wl->sizes)) {
		char why[160];
		if (cb_sizes_check_align(&wl->sizes, wl->block_align, why, sizeof(why)) < 0)
			r = cb_err_usage(
			    l->e, "%s: block_size: %s%s", key_where(k, "block_size", wwhere), why,
			    pf_kvs_get(k, "block_align") ? "" : " (the default): set block_align");
	}
	if (r == 0 && skewed && wl->coverage)
		r = cb_err_usage(l->e,
				 "%s: coverage visits every target once a pass, which leaves a "
				 "distribution no hot set: drop one",
				 key_where(k, "coverage", wwhere));
	return r;
}

/* The defaults that depend on more than one key or on the layer, settled
 * here and only here, so the layer's check, --dry-run and the runner all
 * see the values the phase runs with. */
static void settle_defaults(struct cb_plan_item *it)
{
	struct cb_workload *w = &it->wl;
	if (!w->duration_ns && !w->ops && !w->bytes)
		w->duration_ns = 10ULL * 1000000000ULL;
	if (w->sizes.size[0])
		w->block_size = cb_sizes_max(&w->sizes);
	if (cb_sizes_varies(&w->sizes) && !w->block_align)
		w->block_align = 4096;
	if (!w->block_size && !cb_engine_reads_as_written(it->engine, w->op))
		w->block_size = it->engine->default_block_size;
	/* submit finishes each op before it returns: one in flight per client */
	if (it->engine->synchronous)
		w->concurrency = 1;
	/* a bandwidth is scheduled as ops of the block size, or of the mean
	 * size a distribution draws */
	if (w->rate.bytes && w->block_size) {
		uint64_t per = cb_sizes_varies(&w->sizes)
				   ? (uint64_t)cb_sizes_mean(&w->sizes, w->block_align)
				   : w->block_size;
		w->rate.ops = w->rate.bytes / per ? w->rate.bytes / per : 1;
	}
	/* a steady rule ends the phase: its max is the time limit */
	if (w->steady.metric != CB_STEADY_OFF)
		w->duration_ns = w->steady.max_ns;
}

/* Turn one workload's keys into a plan item. */
static int build_item(struct loader *l, const struct kvs *k, const char *wwhere,
		      struct cb_plan_item *it)
{
	char why[512];
	int r;

	it->engine = find_layer(l, k, wwhere);
	if (!it->engine)
		return -EINVAL;
	it->lopts = calloc(1, it->engine->options_size);
	if (!it->lopts)
		return cb_err_usage(l->e, "out of memory");
	if (cb_opts_defaults(cb_workload_options, &it->wl) < 0 ||
	    cb_opts_defaults(it->engine->options, it->lopts) < 0)
		return cb_err_usage(l->e, "internal error: bad option defaults");
	for (size_t i = 0; i < k->n; i++) {
		const struct kv *kv = &k->v[i];
		if (strncmp(kv->key, "expect.", 7) == 0) {
			if ((r = pf_parse_expect(l, kv, &it->wl.expect)) < 0)
				return r;
			continue;
		}
		const struct cb_option *o = cb_opt_find(cb_workload_options, kv->key);
		void *obj = &it->wl;
		if (!o) {
			o = cb_opt_find(it->engine->options, kv->key);
			obj = it->lopts;
		}
		if (!o) {
			/* A default meant for another layer's workloads. */
			if ((kv->src == KV_DEFAULT || kv->src == KV_OVERRIDE_ALL) &&
			    pf_key_known_to_some_layer(kv->key))
				continue;
			return pf_unknown_key(l, kv, it->engine);
		}
		if ((kv->src == KV_DEFAULT || kv->src == KV_OVERRIDE_ALL) &&
		    strcmp(kv->key, "name") == 0)
			return cb_err_usage(l->e, "%s: name cannot be set for every workload",
					    kv->kwhere);
		r = cb_opt_parse(o, obj, kv->val, why, sizeof(why));
		if (r < 0)
			return cb_err_usage(l->e, "%s: %s", kv->where, why);
	}
	if ((r = check_op(l, it, k, wwhere)) < 0)
		return r;
	if (it->wl.clients > it->engine->max_clients) {
		const char *cw = key_where(k, "clients", wwhere);
		return cb_err_usage(l->e,
				    "%s: clients: %llu: layer %s runs one client per workload; use "
				    "concurrency for more ops in flight",
				    cw, (unsigned long long)it->wl.clients, it->engine->name);
	}
	settle_defaults(it);
	if ((r = check_op_keys(l, it, k, wwhere)) < 0)
		return r;
	if (cb_load_check(&it->wl, why, sizeof(why)) < 0)
		return cb_err_usage(l->e, "%s: %s", wwhere, why);
	if (it->engine->check && it->engine->check(&it->wl, it->lopts, why, sizeof(why)) < 0)
		return cb_err_usage(l->e, "%s: %s", wwhere, why);
	if (it->engine->resolve)
		it->engine->resolve(&it->wl, it->lopts);
	return 0;
}

/* What the workload (with the members of its group above it, which run
 * with it) will take of the host, held against the bounds (cost.h). */
static int check_cost(struct loader *l, const struct cb_plan_item *it, const char *wwhere)
{
	const struct cb_profile *p = l->p;
	const struct cb_workload *w = &it->wl;
	struct cb_cost c, sum;
	char what[256], bs[32], why[512];
	if (!l->mem_read) {
		l->mem_available = cb_cost_mem_available();
		l->mem_read = true;
	}
	cb_cost_of(w, &c);
	sum = c;
	size_t members = 1;
	for (size_t i = 0; w->together && i + 1 < p->n; i++) {
		const struct cb_workload *a = &p->items[i].wl;
		if (!a->together || strcmp(a->together, w->together) != 0)
			continue;
		struct cb_cost ac;
		cb_cost_of(a, &ac);
		cb_cost_add(&sum, &ac);
		members++;
	}
	if (members == 1)
		snprintf(what, sizeof(what),
			 "workload '%s': clients %llu x concurrency %llu x block_size %s", w->name,
			 (unsigned long long)c.clients, (unsigned long long)(c.slots / c.clients),
			 w->block_size ? cb_format_size(w->block_size, bs, sizeof(bs))
				       : "as written");
	else
		snprintf(what, sizeof(what),
			 "workload '%s' with %zu other member%s of group '%s' (run together)",
			 w->name, members - 1, members == 2 ? "" : "s", w->together);
	if (cb_cost_check(&sum, what, l->mem_available, why, sizeof(why)) < 0)
		return cb_err_usage(l->e, "%s: %s", wwhere, why);
	return 0;
}

int pf_add_item(struct loader *l, const struct kvs *k, const char *wwhere)
{
	struct cb_profile *p = l->p;
	if (p->n == PROFILE_MAX_ITEMS)
		return cb_err_usage(l->e,
				    "%s: the profile makes more than %d workloads (matrix rows "
				    "count one each): split it",
				    wwhere, PROFILE_MAX_ITEMS);
	struct cb_plan_item *items = realloc(p->items, (p->n + 1) * sizeof(*items));
	if (!items)
		return cb_err_usage(l->e, "out of memory");
	p->items = items;
	struct cb_plan_item *it = &items[p->n++];
	memset(it, 0, sizeof(*it));
	if (!pf_kvs_get(k, "name"))
		return cb_err_usage(
		    l->e, "%s: workload has no name: (give each workload a unique name)", wwhere);
	int r = build_item(l, k, wwhere, it);
	if (r < 0)
		return r;
	for (size_t i = 0; i + 1 < p->n; i++)
		if (strcmp(p->items[i].wl.name, it->wl.name) == 0)
			return cb_err_usage(l->e, "%s: duplicate workload name '%s'", wwhere,
					    it->wl.name);
	const struct cb_workload *above[PROFILE_MAX_ITEMS];
	for (size_t i = 0; i + 1 < p->n; i++)
		above[i] = &p->items[i].wl;
	char why[256];
	if (cb_group_check_members(&it->wl, above, p->n - 1, why, sizeof(why)) < 0)
		return cb_err_usage(l->e, "%s: %s", wwhere, why);
	return check_cost(l, it, wwhere);
}
