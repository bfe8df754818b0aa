/* Quiet Ceph clients: the client libraries' debug subsystems at 0/0 unless
 * the user or the cluster set them (conn_debug.c). */
#ifndef CB_CONN_DEBUG_H
#define CB_CONN_DEBUG_H

#include <rados/librados.h>
#include <stdbool.h>
#include <stddef.h>

/* The debug subsystems of the Ceph 16 client libraries (ceph-conf
 * --show-config | grep debug_: every one with a level). */
#define CB_DEBUG_NSUBSYS 66

/* Room for the kept list: every subsystem at its longest, "name=20/20 ". */
#define CB_DEBUG_KEPT_MAX (CB_DEBUG_NSUBSYS * 40)

/* Each subsystem's level on a handle that has read no conf yet: the
 * library's defaults, so a value that differs later was set by someone;
 * and those the conf file or CEPH_ARGS name (rados_create2 has applied
 * CEPH_ARGS already; a conf line may set the default level itself): set,
 * whatever their value. */
struct cb_debug_defaults {
	char level[CB_DEBUG_NSUBSYS][16]; /* "" when this library lacks it */
	bool set[CB_DEBUG_NSUBSYS];
};

/* Read the defaults from r, right after rados_create2 (d zeroed first,
 * then given the words of CEPH_ARGS). */
void cb_debug_defaults_read(rados_t r, struct cb_debug_defaults *d);

/* A word of CEPH_ARGS (conn.c walks them): --debug-ms or --debug_ms, with
 * or without "=LEVEL", marks that subsystem as set by the user. */
void cb_debug_env_arg(struct cb_debug_defaults *d, const char *arg);

/* A key of the conf file (cb_conf_each_key's callback, d the defaults):
 * debug_ms marks that subsystem as set by the user. */
void cb_debug_conf_key(const char *key, void *d);

/* After rados_connect (the conf, CEPH_ARGS and the cluster's config
 * database have all been applied by then): every subsystem still at its
 * default is set to 0/0; the others are kept, listed in kept as
 * "ms=1/1 rados=0/5" (n: CB_DEBUG_KEPT_MAX holds every one; a smaller n
 * cuts at whole entries). A level the cluster's config database sets to
 * exactly the library's default cannot be told from none and is quieted. 0 or -errno of
 * rados_conf_set. */
int cb_debug_quiet(rados_t r, const struct cb_debug_defaults *d, char *kept, size_t n);

#endif
