/* The per-cluster run lock: two runs on one cluster from this host would
 * measure each other, so a run holds an flock on a file named after the
 * cluster's fsid for its whole life. The kernel drops it when the holder
 * exits, however it dies, so a stale file never blocks. */
#ifndef CB_LOCK_H
#define CB_LOCK_H

#include "err.h"

#include <stdbool.h>

struct cb_lock_opts {
	const char *fsid;
	const char *run_name; /* recorded for the refusal of the next run */
	bool wait;	      /* block until the holder is gone */
	bool quiet;	      /* no "waiting" line */
	int sigfd;	      /* a stop signal ends a wait; -1: none */
};

/* Take the lock of o->fsid in the run directory ($CEPHBENCH_RUN_DIR, else
 * /run/cephbench as root, else $XDG_RUNTIME_DIR/cephbench, else
 * /tmp/cephbench-UID). Returns the fd holding it, -EINTR when a signal ended
 * the wait (nothing printed, e untouched), or -errno with e set: -EBUSY
 * (exit 3) naming the holder, others (exit 2) naming the directory. */
int cb_lock_take(const struct cb_lock_opts *o, struct cb_err *e);

/* `cephbench doctor`: would cb_lock_take of fsid (NULL: only the directory)
 * succeed now? The run directory's path into dir (n bytes). 0 when it
 * would, 1 when another process holds the lock (who it is into who, wn
 * bytes), 2 when the directory is not there yet and a run can make it
 * (nothing is created here), -errno with e set for a directory or file a
 * run would refuse. */
int cb_lock_check(const char *fsid, char *dir, size_t n, char *who, size_t wn, struct cb_err *e);

/* Release a lock from cb_lock_take (fd < 0: nothing). The file stays: removing
 * it would let a waiter lock an unlinked file while a newcomer locks a new one. */
void cb_lock_release(int fd);

#endif
