/* The bottom of the profile loader, shared by its files (profile.c on top,
 * then profile_matrix.c and profile_override.c, then profile_item.c): the
 * keys as gathered, with where each was written, the loader's state, and
 * the helpers every file uses. Private to src/profile*.c; calls nothing of
 * theirs. */
#ifndef CB_PROFILE_KV_H
#define CB_PROFILE_KV_H

#include "profile.h"

#include <stdbool.h>
#include <stddef.h>
#include <yaml.h>

/* Where a key came from; defaults and -o KEY=V apply only to the workloads
 * whose layer has that key. */
enum kv_src { KV_DEFAULT, KV_WORKLOAD, KV_OVERRIDE_ALL, KV_OVERRIDE };

struct kv {
	const char *key;
	const char *val;	/* a list given with -o: "[a, b]" */
	bool list;		/* a list of values: a matrix dimension */
	const yaml_node_t *seq; /* a list's YAML node (none from -o) */
	char where[320];	/* of the value */
	char kwhere[320];	/* of the key */
	enum kv_src src;
};

struct kvs {
	struct kv *v;
	size_t n, cap;
};

/* -o forms: workloads.NAME.KEY / NAME.KEY (one workload), KEY (every
 * workload whose layer has KEY), defaults.KEY (a default), cluster.KEY. */
enum ov_kind { OV_WORKLOAD, OV_ALL, OV_DEFAULT, OV_CLUSTER };

struct override {
	char *raw;
	enum ov_kind kind;
	char *target; /* workload name for OV_WORKLOAD */
	char *key;
	char *val;
	bool used;
};

struct loader {
	const char *path;
	yaml_document_t doc;
	struct cb_err *e;
	struct cb_profile *p;
	struct override *ov;
	size_t nov;
	char **strs; /* strings made while loading (expect.KEY, row names) */
	size_t nstrs;
	/* the host's MemAvailable (cost.h), read at the first workload */
	uint64_t mem_available;
	bool mem_read;
};

/* A string that lives as long as the loader; NULL on ENOMEM. */
const char *pf_loader_str(struct loader *l, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* "FILE:line:col" of a node. */
void pf_where_node(const struct loader *l, const yaml_node_t *n, char *buf, size_t len);

/* A scalar node's text, or NULL. */
const char *pf_node_scalar(const yaml_node_t *n);

/* " (did you mean 'S'?)" when there is a suggestion, else " (ALT)", else "". */
const char *pf_hint(const char *s, const char *alt, char *buf, size_t n);

int pf_kvs_add(struct kvs *k, const char *key, const char *val, const char *where,
	       const char *kwhere, enum kv_src src);

/* The value that counts for key (the last given), or NULL. */
const char *pf_kvs_get(const struct kvs *k, const char *key);

/* The workload keys written as a mapping of their own (expect:, steady:,
 * search:), whose keys become "NAME.KEY": the prefix "NAME." for key, or
 * NULL when key is not one; and an example of one, for an error. */
const char *pf_nested_prefix(const char *key);
const char *pf_nested_example(const char *key);

#endif
