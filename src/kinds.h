/* A row's figures per kind of op (the record's by_op): a mix's reads and
 * writes apart, a RADOS mix's each op, and the syncs, which fio also keeps
 * in a section of their own. The runner adds each op to its kind; the
 * merges of clients, ranks, iterations and files add kinds by name. */
#ifndef CB_KINDS_H
#define CB_KINDS_H

#include "engine.h"
#include "err.h"
#include "hist.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* The engine's kinds and "sync". */
#define CB_KINDS     (CB_MAX_KINDS + 1)
#define CB_KIND_NAME 24

struct cb_kind {
	char name[CB_KIND_NAME];
	uint64_t ops, bytes;
	/* of ops, those that failed as the workload expected; and the ops not
	 * run (no call for them), in no other figure (enum cb_outcome) */
	uint64_t expected_failures, unmapped;
	struct cb_hist *hist; /* owned */
};

struct cb_kinds {
	struct cb_kind k[CB_KINDS];
	unsigned n;
};

/* The kind named name; NULL when absent. */
struct cb_kind *cb_kinds_find(struct cb_kinds *ks, const char *name);

/* The kind named name, added (empty) when absent; NULL when out of memory
 * or when all CB_KINDS are taken by other names. */
struct cb_kind *cb_kinds_get(struct cb_kinds *ks, const char *name);

/* dst += src, kind by kind by name. 0 or -ENOMEM. */
int cb_kinds_merge(struct cb_kinds *dst, const struct cb_kinds *src);

void cb_kinds_free(struct cb_kinds *ks);

/* Whether the row says its kinds apart: more than one had ops, or there
 * were syncs (a row of one kind is its own figures). */
bool cb_kinds_shown(const struct cb_kinds *ks);

/* The record's by_op object over elapsed_ns (the row's duration), or NULL
 * when not shown (or out of memory). */
json_t *cb_kinds_json(const struct cb_kinds *ks, uint64_t elapsed_ns);

/* ks (empty) from a record's by_op (NULL: none). where names the row.
 * 0, or -EINVAL / -ENOMEM with e set. */
int cb_kinds_rebuild(struct cb_kinds *ks, const json_t *by_op, const char *where, struct cb_err *e);

/* The text report's lines for row p of a record: one per kind, its ops,
 * rates and latency, as fio prints its read and write sections. */
void cb_kinds_text(const json_t *p, FILE *out);

#endif
