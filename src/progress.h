/* Live progress (--progress): a line per phase on a terminal, rewritten in
 * place each second; a line a second elsewhere (always); or one JSON object
 * a second for dashboards (jsonl, docs/progress.schema.json). Always on
 * stderr: stdout is the report's, and --format json's stays parseable.
 *
 * The clients count into slots of their own, which a reporter thread reads
 * once a second: one writer a slot, so an op costs a few relaxed stores, no
 * lock and no shared cache line, and the phase's figures (several clients,
 * tree phases) are summed where they are printed. */
#ifndef CB_PROGRESS_H
#define CB_PROGRESS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum cb_progress_mode {
	CB_PROGRESS_AUTO = 0, /* a live line when stderr is a terminal and not --quiet */
	CB_PROGRESS_ALWAYS,
	CB_PROGRESS_NEVER,
	CB_PROGRESS_JSONL,
};

enum { CB_OPT_PROGRESS = 1080 };

/* 0, or -EINVAL for a word that is none of auto, always, never, jsonl. */
int cb_progress_mode_parse(const char *s, enum cb_progress_mode *m);

/* Where a run's progress goes, settled once from the mode. */
struct cb_progress_out {
	FILE *out;
	bool tty;   /* one line rewritten in place */
	bool jsonl; /* one JSON object a line */
};

/* Settles po for writing to f (stderr); false when there is to be none:
 * never, or auto with --quiet or f not a terminal. An explicit always or
 * jsonl is printed even with --quiet. */
bool cb_progress_out_init(struct cb_progress_out *po, enum cb_progress_mode m, bool quiet, FILE *f);

/* Latency buckets: 8 a power of two, so p99 so far is within 12.5 %. */
#define CB_LIVE_BUCKETS 512

/* One client's running counts; written by that client's loop alone. */
struct cb_live_slot {
	_Alignas(64) _Atomic uint64_t ops; /* every op finished, the ramp's too */
	_Atomic uint64_t bytes;
	_Atomic uint64_t mops, mbytes; /* measured (past the ramp) */
	_Atomic uint64_t errors;
	_Atomic uint64_t t0, ramp_end; /* the loop's start and the ramp's end; 0: not yet */
	_Atomic uint64_t lat[CB_LIVE_BUCKETS];
};

/* What the line names and how far the phase has to go. */
struct cb_live_info {
	const char *name, *layer, *op;
	unsigned clients;     /* this process's (a rank's own, over MPI) */
	uint64_t duration_ns; /* 0: none */
	uint64_t ops, bytes;  /* per client; 0: none */
};

struct cb_live;

/* A phase's progress: prints its first line and starts the reporter. NULL
 * when out of memory or no thread could start: the phase runs without (a
 * report never fails a run). */
struct cb_live *cb_live_start(const struct cb_progress_out *po, const struct cb_live_info *info);
/* Client k's slot (k < info->clients); NULL when lv is NULL. */
struct cb_live_slot *cb_live_slot(struct cb_live *lv, unsigned k);
/* The phase ended: its last line, the reporter joined, lv freed. */
void cb_live_stop(struct cb_live *lv);

static inline void cb_live_add(_Atomic uint64_t *c, uint64_t v)
{
	atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + v,
			      memory_order_relaxed);
}

unsigned cb_live_bucket(uint64_t ns);

/* One finished op of the slot's client. */
static inline void cb_live_op(struct cb_live_slot *s, uint64_t bytes, uint64_t lat_ns,
			      bool measured)
{
	cb_live_add(&s->ops, 1);
	cb_live_add(&s->bytes, bytes);
	if (measured) {
		cb_live_add(&s->mops, 1);
		cb_live_add(&s->mbytes, bytes);
		cb_live_add(&s->lat[cb_live_bucket(lat_ns)], 1);
	}
}

#endif
