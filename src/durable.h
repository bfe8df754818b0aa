/* fio's write-durability keys (fsync, fdatasync, end_fsync, sync), for the
 * layers that write through a file descriptor (cephfs, krbd): one set of
 * names, checks and counting, so a sync means the same on both. The syncs
 * are ops of their own (op->is_sync): the runner times them apart, in the
 * row's by_op "sync", as fio's sync percentiles. */
#ifndef CB_DURABLE_H
#define CB_DURABLE_H

#include "engine.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum cb_sync_mode { CB_SYNC_NONE, CB_SYNC_SYNC, CB_SYNC_DSYNC };

/* "none", "sync", "dsync", NULL */
extern const char *const cb_sync_modes[];

struct cb_durable {
	uint64_t fsync;	    /* an fsync after every N writes of a client; 0: none */
	uint64_t fdatasync; /* an fdatasync after every N writes; 0: none */
	bool end_fsync;	    /* an fsync once the phase's writes are done */
	int sync;	    /* enum cb_sync_mode: the files opened O_SYNC or O_DSYNC */
};

/* The same large bound on every "every N ops" key: past it a sync is as
 * good as never. */
#define CB_DURABLE_MAX_EVERY (1ULL << 40)

/* The keys' rows of a layer's option table, for the struct cb_durable
 * member m of type t (a macro: the rows need offsetof into the layer's own
 * struct). */
/* clang-format off */
#define CB_DURABLE_OPTIONS(t, m)                                                          \
	{"fsync", CB_OPT_UINT, offsetof(t, m.fsync), "0", 0, CB_DURABLE_MAX_EVERY, NULL,  \
	 "writes: an fsync after every N writes of a client, timed apart as by_op's sync " \
	 "(fio's fsync; 0: none)"},                                                       \
	{"fdatasync", CB_OPT_UINT, offsetof(t, m.fdatasync), "0", 0, CB_DURABLE_MAX_EVERY, \
	 NULL, "writes: an fdatasync after every N writes of a client (fio's fdatasync)"}, \
	{"end_fsync", CB_OPT_BOOL, offsetof(t, m.end_fsync), "false", 0, 0, NULL,         \
	 "writes: an fsync of every file once the phase's writes are done, timed as a "   \
	 "sync (fio's end_fsync)"},                                                       \
	{"sync", CB_OPT_ENUM, offsetof(t, m.sync), "none", 0, 0, cb_sync_modes,           \
	 "writes: every write durable when it completes: O_SYNC (sync) or O_DSYNC "       \
	 "(dsync) at open, per write on krbd (fio's sync)"}
/* clang-format on */

/* Cross-key checks: a durability key on a workload that makes no writes
 * (writes false: op makes none; create_only: only lays its files out),
 * fsync and fdatasync together. 0, or -EINVAL with the reason in why. */
int cb_durable_check(const struct cb_durable *d, const char *op, bool writes, bool create_only,
		     char *why, size_t n);

/* The first durability key set ("fsync", ...), or NULL: none is. */
const char *cb_durable_key(const struct cb_durable *d);

/* The keys a step's writes follow: d, or none for a fill step, whose
 * writes only lay the data out. */
const struct cb_durable *cb_durable_for(const struct cb_durable *d, bool fill);

/* O_SYNC, O_DSYNC or 0, for open(2)'s flags. */
int cb_durable_open_flags(const struct cb_durable *d);

/* One client's count of writes since its last sync. */
struct cb_durable_count {
	uint64_t unsynced;
	bool wrote; /* some write was made */
	bool ended; /* end_fsync's sync was started */
};

/* Call first in submit: whether this op is a sync owed after the last N
 * writes: 0 (no; op->is_sync cleared), CB_DURABLE_FSYNC or
 * CB_DURABLE_FDATASYNC (op->is_sync set, op->len 0, the count restarted). */
#define CB_DURABLE_FSYNC     1
#define CB_DURABLE_FDATASYNC 2
int cb_durable_due(const struct cb_durable *d, struct cb_durable_count *c, struct cb_op *op);

/* Call once the op is known to write: counts it, and after the Nth sets
 * op->sync_next, so that a limit of ops or bytes does not end the phase
 * before the sync it owes (fio issues it with the Nth write). */
void cb_durable_wrote(const struct cb_durable *d, struct cb_durable_count *c, struct cb_op *op);

/* For the engine's finish: whether end_fsync's sync is owed (asked for,
 * some write made, not yet started). If so it is marked started and op
 * made a sync (op->is_sync set, op->len 0), as cb_durable_due does. */
bool cb_durable_end(const struct cb_durable *d, struct cb_durable_count *c, struct cb_op *op);

#endif
