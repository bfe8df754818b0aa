/* Profile loading, the loader's top: libyaml builds the document; this file
 * walks it in the shape DESIGN.md section 6 gives. Keys are gathered as
 * (key, value, where) triples in precedence order (defaults, workload, -o)
 * so files, overrides and ad-hoc flags share one validation path
 * (profile_item.c) and one message format. */
#include "infile.h"
#include "profile_item.h"
#include "profile_kv.h"
#include "profile_matrix.h"
#include "profile_override.h"
#include "profile_preflight.h"
#include "ranks.h"
#include "rng.h"

#include <errno.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>
#include <yaml.h>

#define PROFILE_MAX_BYTES CB_PROFILE_MAX_BYTES
/* A profile nests 4 levels (workloads, a workload, expect or a list); the
 * bound is for libyaml, whose scanner slows quadratically with nesting
 * (100000 '[' take a minute). */
#define PROFILE_MAX_DEPTH 16
/* Duplicate keys are found pairwise: no mapping is that long for real. */
#define PROFILE_MAX_KEYS 256

static const struct cb_option cluster_options[] = {
    {"conf", CB_OPT_PATH, offsetof(struct cb_profile, conf), NULL, 0, 0, NULL, "ceph.conf path"},
    {"client", CB_OPT_CEPH, offsetof(struct cb_profile, client), NULL, 0, 0, NULL,
     "client name, e.g. admin"},
    {"keyring", CB_OPT_PATH, offsetof(struct cb_profile, keyring), NULL, 0, 0, NULL,
     "keyring path"},
    /* at least 1s, like --timeout: librados takes whole seconds */
    {"timeout", CB_OPT_DURATION, offsetof(struct cb_profile, timeout_ns), NULL, 1000000000ULL, 0,
     NULL, "connect, monitor-op and OSD-op timeout"},
    {NULL, 0, 0, NULL, 0, 0, NULL, NULL},
};

/* The run-wide switches, top-level keys of their own. */
static const struct cb_option run_options[] = {
    {"telemetry", CB_OPT_BOOL, offsetof(struct cb_profile, telemetry), "on", 0, 0, NULL,
     "the cluster's side of telemetry: pre-flight state, OSD and MDS counters per phase"},
    {"host_stats", CB_OPT_BOOL, offsetof(struct cb_profile, host_stats), "true", 0, 0, NULL,
     "the host's CPU, memory, network and disks, once a second beside each phase"},
    {NULL, 0, 0, NULL, 0, 0, NULL, NULL},
};

/* True when key already appears in map before pair pr: YAML forbids
 * duplicate keys, libyaml does not check. */
static bool dup_key(struct loader *l, yaml_node_t *map, yaml_node_pair_t *pr, const char *key)
{
	for (yaml_node_pair_t *q = map->data.mapping.pairs.start; q < pr; q++)
		if (strcmp(pf_node_scalar(yaml_document_get_node(&l->doc, q->key)) ?: "", key) == 0)
			return true;
	return false;
}

/* A list value (a matrix dimension): non-empty, of single values. */
static int check_list(struct loader *l, const char *key, yaml_node_t *v)
{
	char w[300];
	pf_where_node(l, v, w, sizeof(w));
	if (strcmp(key, "name") == 0)
		return cb_err_usage(l->e,
				    "%s: name must be a single value: matrix rows are "
				    "named after it and their values",
				    w);
	if (v->data.sequence.items.top == v->data.sequence.items.start)
		return cb_err_usage(l->e, "%s: '%s' is an empty list: give at least one value", w,
				    key);
	for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top;
	     it++) {
		yaml_node_t *n = yaml_document_get_node(&l->doc, *it);
		const char *s = pf_node_scalar(n);
		pf_where_node(l, n, w, sizeof(w));
		if (!s)
			return cb_err_usage(l->e, "%s: '%s' lists must hold single values", w, key);
		if (!*s || strcmp(s, "~") == 0 || strcmp(s, "null") == 0)
			return cb_err_usage(l->e, "%s: '%s' list has an empty value", w, key);
	}
	return 0;
}

/* A mapping of sizes to weights (block_size: { 4K: 60, 64K: 40 }; RADOS
 * object_size and CephFS file_size too) as the
 * one value its option parses, "4K:60,64K:40"; NULL, with the error
 * reported, when v is not one. */
static const char *sizes_mapping(struct loader *l, const char *key, yaml_node_t *v)
{
	char w[300], buf[1024] = "";
	size_t off = 0;
	for (yaml_node_pair_t *pr = v->data.mapping.pairs.start; pr < v->data.mapping.pairs.top;
	     pr++) {
		yaml_node_t *sk = yaml_document_get_node(&l->doc, pr->key);
		yaml_node_t *sv = yaml_document_get_node(&l->doc, pr->value);
		const char *size = pf_node_scalar(sk), *weight = pf_node_scalar(sv);
		if (!size || !weight) {
			pf_where_node(l, size ? sv : sk, w, sizeof(w));
			cb_err_usage(l->e,
				     "%s: %s weights are SIZE: PERCENT, e.g. { 4K: 60, 64K: 40 }",
				     w, key);
			return NULL;
		}
		off += (size_t)snprintf(buf + off, sizeof(buf) - off, "%s%s:%s", off ? "," : "",
					size, weight);
		if (off >= sizeof(buf)) {
			pf_where_node(l, v, w, sizeof(w));
			cb_err_usage(l->e, "%s: %s: too many sizes", w, key);
			return NULL;
		}
	}
	const char *s = pf_loader_str(l, "%s", buf);
	if (!s)
		cb_err_usage(l->e, "out of memory");
	return s;
}

/* Walk a mapping into kvs, rejecting non-scalar keys and duplicate keys.
 * In a workload (lists true) a value may be a list, a matrix dimension, and
 * `expect:` a mapping, whose keys become "expect.KEY". */
static int mapping_to_kvs(struct loader *l, yaml_node_t *map, enum kv_src src, bool lists,
			  const char *prefix, struct kvs *out)
{
	char w[300];
	if (map->data.mapping.pairs.top - map->data.mapping.pairs.start > PROFILE_MAX_KEYS) {
		pf_where_node(l, map, w, sizeof(w));
		return cb_err_usage(l->e, "%s: more than %d keys in one mapping", w,
				    PROFILE_MAX_KEYS);
	}
	for (yaml_node_pair_t *pr = map->data.mapping.pairs.start; pr < map->data.mapping.pairs.top;
	     pr++) {
		yaml_node_t *k = yaml_document_get_node(&l->doc, pr->key);
		yaml_node_t *v = yaml_document_get_node(&l->doc, pr->value);
		const char *key = pf_node_scalar(k), *val = pf_node_scalar(v);
		int r;
		if (!key) {
			pf_where_node(l, k, w, sizeof(w));
			return cb_err_usage(l->e, "%s: keys must be plain names", w);
		}
		if (dup_key(l, map, pr, key)) {
			pf_where_node(l, k, w, sizeof(w));
			return cb_err_usage(l->e, "%s: duplicate key '%s'", w, key);
		}
		const char *nested = lists && !prefix ? pf_nested_prefix(key) : NULL;
		if (nested) {
			pf_where_node(l, v, w, sizeof(w));
			if (v->type != YAML_MAPPING_NODE)
				return cb_err_usage(l->e, "%s: %s must be a mapping, e.g. %s", w,
						    key, pf_nested_example(key));
			if ((r = mapping_to_kvs(l, v, src, false, nested, out)) < 0)
				return r;
			continue;
		}
		if (prefix && !(key = pf_loader_str(l, "%s%s", prefix, key)))
			return cb_err_usage(l->e, "out of memory");
		if (lists && !prefix && v->type == YAML_MAPPING_NODE &&
		    (!strcmp(key, "block_size") || !strcmp(key, "object_size") ||
		     !strcmp(key, "file_size")) &&
		    !(val = sizes_mapping(l, key, v)))
			return -EINVAL;
		if (!val && !(lists && v->type == YAML_SEQUENCE_NODE)) {
			pf_where_node(l, v, w, sizeof(w));
			return cb_err_usage(l->e, "%s: '%s' must be a single value, not a %s", w,
					    key,
					    v->type == YAML_SEQUENCE_NODE ? "list" : "mapping");
		}
		if (!val && (r = check_list(l, key, v)) < 0)
			return r;
		if (val && (!*val || strcmp(val, "~") == 0 || strcmp(val, "null") == 0)) {
			pf_where_node(l, v, w, sizeof(w));
			return cb_err_usage(l->e, "%s: '%s' has no value", w, key);
		}
		char kw[300];
		pf_where_node(l, v, w, sizeof(w));
		pf_where_node(l, k, kw, sizeof(kw));
		if (pf_kvs_add(out, key, val, w, kw, src) < 0)
			return cb_err_usage(l->e, "out of memory");
		if (!val) {
			out->v[out->n - 1].seq = v;
			out->v[out->n - 1].list = true;
		}
	}
	return 0;
}

static int load_workloads(struct loader *l, yaml_node_t *defaults, yaml_node_t *wls)
{
	char w[300];
	int r = 0;
	if (wls->type != YAML_SEQUENCE_NODE) {
		pf_where_node(l, wls, w, sizeof(w));
		return cb_err_usage(l->e, "%s: workloads must be a list of mappings", w);
	}
	if (wls->data.sequence.items.top == wls->data.sequence.items.start) {
		pf_where_node(l, wls, w, sizeof(w));
		return cb_err_usage(l->e, "%s: workloads is empty: add at least one", w);
	}
	for (yaml_node_item_t *it = wls->data.sequence.items.start;
	     it < wls->data.sequence.items.top; it++) {
		yaml_node_t *wn = yaml_document_get_node(&l->doc, *it);
		struct kvs k = {0};
		pf_where_node(l, wn, w, sizeof(w));
		if (wn->type != YAML_MAPPING_NODE) {
			r = cb_err_usage(l->e, "%s: each workload must be a mapping of keys", w);
			break;
		}
		if ((defaults &&
		     (r = mapping_to_kvs(l, defaults, KV_DEFAULT, true, NULL, &k)) < 0) ||
		    (r = pf_add_overrides(l, OV_DEFAULT, NULL, KV_DEFAULT, &k)) < 0 ||
		    (r = mapping_to_kvs(l, wn, KV_WORKLOAD, true, NULL, &k)) < 0) {
			free(k.v);
			break;
		}
		/* without a name, build_item reports it */
		const char *name = pf_kvs_get(&k, "name");
		if ((r = pf_add_overrides(l, OV_ALL, NULL, KV_OVERRIDE_ALL, &k)) == 0 &&
		    (!name || (r = pf_add_overrides(l, OV_WORKLOAD, name, KV_OVERRIDE, &k)) == 0))
			r = pf_add_items(l, &k, w);
		free(k.v);
		if (r < 0)
			break;
	}
	return r;
}

static int apply_cluster_kvs(struct loader *l, const struct kvs *k)
{
	char why[512];
	for (size_t i = 0; i < k->n; i++) {
		const struct cb_option *o = cb_opt_find(cluster_options, k->v[i].key);
		if (!o) {
			const struct cb_option *tabs[] = {cluster_options, NULL};
			char h[128];
			return cb_err_usage(
			    l->e, "%s: unknown cluster key '%s'%s", k->v[i].kwhere, k->v[i].key,
			    pf_hint(cb_opt_suggest(tabs, k->v[i].key), NULL, h, sizeof(h)));
		}
		if (cb_opt_parse(o, l->p, k->v[i].val, why, sizeof(why)) < 0)
			return cb_err_usage(l->e, "%s: %s", k->v[i].where, why);
	}
	return 0;
}

static int cluster_overrides(struct loader *l)
{
	struct kvs k = {0};
	int r = pf_add_overrides(l, OV_CLUSTER, NULL, KV_OVERRIDE, &k);
	if (r == 0)
		r = apply_cluster_kvs(l, &k);
	free(k.v);
	return r;
}

static void loader_free(struct loader *l)
{
	pf_overrides_free(l);
	for (size_t i = 0; i < l->nstrs; i++)
		free(l->strs[i]);
	free(l->strs);
}

static int load_top(struct loader *l, yaml_node_t *root)
{
	static const char *const top_keys[] = {"name",	    "cluster",	  "defaults",  "workloads",
					       "telemetry", "host_stats", "preflight", NULL};
	yaml_node_t *defaults = NULL, *wls = NULL;
	char w[300], why[512];
	int r;

	if (root->type != YAML_MAPPING_NODE) {
		pf_where_node(l, root, w, sizeof(w));
		return cb_err_usage(
		    l->e,
		    "%s: a profile is a mapping with name:, cluster:, defaults: and "
		    "workloads:",
		    w);
	}
	for (yaml_node_pair_t *pr = root->data.mapping.pairs.start;
	     pr < root->data.mapping.pairs.top; pr++) {
		yaml_node_t *k = yaml_document_get_node(&l->doc, pr->key);
		yaml_node_t *v = yaml_document_get_node(&l->doc, pr->value);
		const char *key = pf_node_scalar(k);
		pf_where_node(l, k, w, sizeof(w));
		if (!key)
			return cb_err_usage(l->e, "%s: keys must be plain names", w);
		if (dup_key(l, root, pr, key))
			return cb_err_usage(l->e, "%s: duplicate key '%s'", w, key);
		if (strcmp(key, "name") == 0) {
			static const struct cb_option name_opt = {
			    "name", CB_OPT_NAME, offsetof(struct cb_profile, name), NULL, 0, 0,
			    NULL,   NULL};
			pf_where_node(l, v, w, sizeof(w));
			if (!pf_node_scalar(v))
				return cb_err_usage(l->e, "%s: name must be a single value", w);
			if (cb_opt_parse(&name_opt, l->p, pf_node_scalar(v), why, sizeof(why)) < 0)
				return cb_err_usage(l->e, "%s: profile %s", w, why);
		} else if (strcmp(key, "cluster") == 0 || strcmp(key, "defaults") == 0) {
			if (v->type != YAML_MAPPING_NODE) {
				pf_where_node(l, v, w, sizeof(w));
				return cb_err_usage(l->e, "%s: %s must be a mapping of keys", w,
						    key);
			}
			if (strcmp(key, "defaults") == 0) {
				defaults = v;
				continue;
			}
			struct kvs ck = {0};
			r = mapping_to_kvs(l, v, KV_WORKLOAD, false, NULL, &ck);
			if (r == 0)
				r = apply_cluster_kvs(l, &ck);
			free(ck.v);
			if (r < 0)
				return r;
		} else if (strcmp(key, "workloads") == 0) {
			wls = v;
		} else if (strcmp(key, "preflight") == 0) {
			if ((r = pf_load_preflight(l, v)) < 0)
				return r;
		} else if (cb_opt_find(run_options, key)) {
			pf_where_node(l, v, w, sizeof(w));
			if (!pf_node_scalar(v))
				return cb_err_usage(l->e, "%s: %s must be a single value", w, key);
			if (cb_opt_parse(cb_opt_find(run_options, key), l->p, pf_node_scalar(v),
					 why, sizeof(why)) < 0)
				return cb_err_usage(l->e, "%s: %s: %s", w, key, why);
		} else {
			char h[128];
			return cb_err_usage(l->e, "%s: unknown key '%s'%s", w, key,
					    pf_hint(cb_closest(key, top_keys),
						    "expected name, cluster, defaults, workloads, "
						    "telemetry, host_stats, preflight",
						    h, sizeof(h)));
		}
	}
	if (!wls) {
		pf_where_node(l, root, w, sizeof(w));
		return cb_err_usage(l->e, "%s: the profile has no workloads: list", w);
	}
	if (defaults) {
		/* Keys no layer knows are typos even when no workload uses them. */
		struct kvs dk = {0};
		struct cb_expect x = {.set = 0};
		r = mapping_to_kvs(l, defaults, KV_DEFAULT, true, NULL, &dk);
		for (size_t i = 0; r == 0 && i < dk.n; i++)
			if (strncmp(dk.v[i].key, "expect.", 7) == 0)
				r = pf_parse_expect(l, &dk.v[i], &x);
			else if (!cb_opt_find(cb_workload_options, dk.v[i].key) &&
				 !pf_key_known_to_some_layer(dk.v[i].key))
				r = pf_unknown_key(l, &dk.v[i], NULL);
		free(dk.v);
		if (r < 0)
			return r;
	}
	return load_workloads(l, defaults, wls);
}

/* sha256 of the file's bytes followed by each override (NUL-separated), so
 * runs that differ only in -o do not claim the same profile. */
static void sha256_hex(const void *data, size_t len, char *const *ov, size_t nov, char out[65])
{
	unsigned char md[32];
	unsigned int mdlen = 0;
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	out[0] = '\0';
	if (!ctx)
		return;
	if (EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) && EVP_DigestUpdate(ctx, data, len)) {
		for (size_t i = 0; i < nov; i++)
			EVP_DigestUpdate(ctx, ov[i], strlen(ov[i]) + 1);
		if (EVP_DigestFinal_ex(ctx, md, &mdlen))
			for (unsigned i = 0; i < mdlen && i < 32; i++)
				snprintf(out + 2 * i, 3, "%02x", md[i]);
	}
	EVP_MD_CTX_free(ctx);
}

/* Refuse nesting past PROFILE_MAX_DEPTH in a first pass over the events,
 * which stops there, before libyaml's loader goes any deeper. A syntax error
 * is left to the loader to report. */
static int check_depth(const char *path, const char *buf, size_t len, struct cb_err *e)
{
	yaml_parser_t parser;
	yaml_event_t ev;
	int depth = 0, r = 0;
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_string(&parser, (const unsigned char *)buf, len);
	while (r == 0 && yaml_parser_parse(&parser, &ev)) {
		yaml_event_type_t t = ev.type;
		if (t == YAML_SEQUENCE_START_EVENT || t == YAML_MAPPING_START_EVENT)
			depth++;
		else if (t == YAML_SEQUENCE_END_EVENT || t == YAML_MAPPING_END_EVENT)
			depth--;
		if (depth > PROFILE_MAX_DEPTH)
			r = cb_err_usage(e,
					 "%s:%zu:%zu: nested more than %d levels deep (a profile "
					 "needs 4)",
					 path, ev.start_mark.line + 1, ev.start_mark.column + 1,
					 PROFILE_MAX_DEPTH);
		yaml_event_delete(&ev);
		if (t == YAML_STREAM_END_EVENT)
			break;
	}
	yaml_parser_delete(&parser);
	return r;
}

int cb_profile_parse(const char *path, const char *buf, size_t len, char *const *overrides,
		     size_t noverrides, struct cb_profile **out, struct cb_err *e)
{
	struct loader l = {.path = path, .e = e};
	yaml_parser_t parser;
	int r;

	if (len > PROFILE_MAX_BYTES)
		return cb_err_usage(e, "%s: profile larger than 1 MiB", path);
	if (memchr(buf, '\0', len))
		return cb_err_usage(e, "%s: not a text file (NUL byte inside)", path);
	l.p = calloc(1, sizeof(*l.p));
	if (!l.p || cb_opts_defaults(run_options, l.p) < 0) {
		free(l.p);
		return cb_err_usage(e, "out of memory");
	}
	sha256_hex(buf, len, overrides, noverrides, l.p->sha256);
	if ((r = pf_parse_overrides(&l, overrides, noverrides)) < 0 ||
	    (r = check_depth(path, buf, len, e)) < 0)
		goto out;
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_string(&parser, (const unsigned char *)buf, len);
	if (!yaml_parser_load(&parser, &l.doc)) {
		r = cb_err_usage(e, "%s:%zu:%zu: YAML syntax error: %s%s%s", path,
				 parser.problem_mark.line + 1, parser.problem_mark.column + 1,
				 parser.problem ? parser.problem : "unreadable",
				 parser.context ? " " : "", parser.context ? parser.context : "");
		yaml_parser_delete(&parser);
		goto out;
	}
	yaml_parser_delete(&parser);
	yaml_node_t *root = yaml_document_get_root_node(&l.doc);
	if (!root)
		r = cb_err_usage(e,
				 "%s: empty profile: expected name:, cluster:, defaults: and "
				 "workloads:",
				 path);
	else if ((r = load_top(&l, root)) == 0 && (r = cluster_overrides(&l)) == 0)
		r = pf_check_overrides_used(&l);
	if (r == 0 && !l.p->name) {
		/* The file name, without directories and extension, names the profile. */
		const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
		l.p->name = strndup(base, strcspn(base, "."));
		if (l.p->name && !cb_name_valid(l.p->name))
			r = cb_err_usage(
			    e,
			    "%s: the profile has no name: and its file name '%s' is not a "
			    "valid name: add name: (letters, digits, '_', '-')",
			    path, l.p->name);
	}
	yaml_document_delete(&l.doc);
out:
	loader_free(&l);
	if (r < 0) {
		cb_profile_free(l.p);
		return r;
	}
	*out = l.p;
	return 0;
}

int cb_profile_load(const char *path, char *const *overrides, size_t noverrides,
		    struct cb_profile **out, struct cb_err *e)
{
	char *buf = NULL;
	size_t len = 0;
	int r = cb_infile_read(path, "profile file", PROFILE_MAX_BYTES, &buf, &len, e);
	if (r == 0)
		r = cb_profile_parse(path, buf, len, overrides, noverrides, out, e);
	free(buf);
	return r;
}

int cb_profile_adhoc(const char *name, char *const *kv, const char *const *origins, size_t nkv,
		     struct cb_profile **out, struct cb_err *e)
{
	struct loader l = {.path = "flags", .e = e};
	struct kvs k = {0};
	char **copies = calloc(nkv ? nkv : 1, sizeof(*copies));
	int r = 0;

	l.p = calloc(1, sizeof(*l.p));
	if (l.p && cb_opts_defaults(run_options, l.p) < 0) {
		free(l.p);
		l.p = NULL;
	}
	if (!l.p || !copies) {
		r = cb_err_usage(e, "out of memory");
		goto out;
	}
	sha256_hex("", 0, kv, nkv, l.p->sha256);
	for (size_t i = 0; i < nkv && r == 0; i++) {
		char *eq;
		if (!(copies[i] = strdup(kv[i])) || !(eq = strchr(copies[i], '='))) {
			r = cb_err_usage(e, "internal error: bad ad-hoc key %s", kv[i]);
			break;
		}
		*eq = '\0';
		char w[300];
		snprintf(w, sizeof(w), "%s", origins && origins[i] ? origins[i] : copies[i]);
		r = pf_kvs_add(&k, copies[i], eq + 1, w, w, KV_WORKLOAD);
	}
	if (r == 0)
		r = pf_add_item(&l, &k, "flags");
	if (r == 0 && !(l.p->name = strdup(name)))
		r = cb_err_usage(e, "out of memory");
out:
	for (size_t i = 0; copies && i < nkv; i++)
		free(copies[i]);
	free(copies);
	free(k.v);
	loader_free(&l);
	if (r < 0) {
		cb_profile_free(l.p);
		return r;
	}
	*out = l.p;
	return 0;
}

void cb_profile_seed(struct cb_profile *p, struct cb_ranks *rk)
{
	for (size_t i = 0; i < p->n; i++) {
		uint64_t *seed = &p->items[i].wl.seed, x = 0;
		if (*seed)
			continue;
		if (getrandom(&x, sizeof(x), 0) != sizeof(x))
			x = cb_splitmix64(((uint64_t)time(NULL) << 20) ^ (uint64_t)getpid() ^ i);
		x &= CB_SEED_MAX;
		*seed = x ? x : 1;
		/* every rank calls this, for the same items, in the same order */
		cb_ranks_bcast(rk, seed, sizeof(*seed));
	}
}

void cb_profile_free(struct cb_profile *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n; i++) {
		struct cb_workload *w = &p->items[i].wl;
		cb_opts_free(cb_workload_options, w);
		for (size_t m = 0; m < w->nmatrix; m++) {
			free(w->matrix[m].key);
			free(w->matrix[m].val);
		}
		free(w->matrix);
		free(w->base);
		if (p->items[i].engine && p->items[i].lopts)
			cb_opts_free(p->items[i].engine->options, p->items[i].lopts);
		free(p->items[i].lopts);
	}
	free(p->items);
	for (size_t i = 0; i < p->preflight.nallow; i++)
		free(p->preflight.allow[i]);
	free(p->name);
	free(p->conf);
	free(p->client);
	free(p->keyring);
	free(p);
}
