/* fio's write-durability keys (see durable.h). */
#include "durable.h"

#include <fcntl.h>
#include <stdio.h>

const char *const cb_sync_modes[] = {"none", "sync", "dsync", NULL};

int cb_durable_check(const struct cb_durable *d, const char *op, bool writes, bool create_only,
		     char *why, size_t n)
{
	const char *key = cb_durable_key(d);
	if (key && (!writes || create_only)) {
		snprintf(why, n, "%s: %s makes no writes to sync: drop it", key,
			 create_only ? "create_only" : op);
		return -EINVAL;
	}
	if (d->fsync && d->fdatasync) {
		snprintf(why, n, "fsync and fdatasync: give one of them");
		return -EINVAL;
	}
	return 0;
}

const char *cb_durable_key(const struct cb_durable *d)
{
	return d->fsync			 ? "fsync"
	       : d->fdatasync		 ? "fdatasync"
	       : d->end_fsync		 ? "end_fsync"
	       : d->sync != CB_SYNC_NONE ? "sync"
					 : NULL;
}

const struct cb_durable *cb_durable_for(const struct cb_durable *d, bool fill)
{
	static const struct cb_durable none;
	return fill ? &none : d;
}

int cb_durable_open_flags(const struct cb_durable *d)
{
	return d->sync == CB_SYNC_SYNC ? O_SYNC : d->sync == CB_SYNC_DSYNC ? O_DSYNC : 0;
}

static uint64_t every(const struct cb_durable *d)
{
	return d->fsync ? d->fsync : d->fdatasync;
}

/* op made a sync: it moves no bytes */
static void make_sync(struct cb_op *op)
{
	op->is_sync = true;
	op->is_write = false;
	op->len = 0;
}

int cb_durable_due(const struct cb_durable *d, struct cb_durable_count *c, struct cb_op *op)
{
	op->sync_next = false;
	op->is_sync = false;
	if (!every(d) || c->unsynced < every(d))
		return 0;
	c->unsynced = 0;
	make_sync(op);
	return d->fsync ? CB_DURABLE_FSYNC : CB_DURABLE_FDATASYNC;
}

void cb_durable_wrote(const struct cb_durable *d, struct cb_durable_count *c, struct cb_op *op)
{
	c->unsynced++;
	c->wrote = true;
	op->sync_next = every(d) && c->unsynced >= every(d);
}

bool cb_durable_end(const struct cb_durable *d, struct cb_durable_count *c, struct cb_op *op)
{
	if (!d->end_fsync || !c->wrote || c->ended)
		return false;
	c->ended = true;
	make_sync(op);
	return true;
}
