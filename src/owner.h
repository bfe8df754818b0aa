/* Which process made something: a mark stored with what a run creates (RBD
 * image metadata, a CephFS directory's xattr) so that a later run or a
 * cleanup can tell a killed run's leftovers from a live run's. A process
 * counts as gone only when the mark names this very boot of this machine and
 * that pid, with the same start time, no longer exists. */
#ifndef CB_OWNER_H
#define CB_OWNER_H

#include <stddef.h>

enum cb_owner_state {
	CB_OWNER_ALIVE,	    /* this boot, the process still runs */
	CB_OWNER_GONE,	    /* this boot, the process is gone */
	CB_OWNER_ELSEWHERE, /* another machine or boot, or no readable mark */
};

/* The key of the mark in a CephFS session's client metadata (see conn.c),
 * where its fields are separated by '_', not spaces. */
#define CB_OWNER_META_KEY "cephbench_owner"

/* "<machine-id>/<boot-id>/<pid namespace> <pid> <start time>" of this
 * process, the fields separated by sep (' ', or '_' in client metadata). */
void cb_owner_mark(char *buf, size_t n, char sep);

/* The state of the process a mark names, its fields separated by ' ' or '_'
 * (extra fields after the third are ignored); *pid gets its pid, 0 when
 * unreadable. */
enum cb_owner_state cb_owner_state(const char *mark, int *pid);

#endif
