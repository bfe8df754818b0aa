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

/* Each subsystem's level on a handle that has read no conf yet: the
 * library's defaults, so a value that differs later was set by someone;
 * and those CEPH_ARGS names, which rados_create2 has applied already. */
struct cb_debug_defaults {
	char level[CB_DEBUG_NSUBSYS][16]; /* "" when this library lacks it */
	bool env[CB_DEBUG_NSUBSYS];
};

/* Read the defaults from r, right after rados_create2 (d zeroed first,
 * then given the words of CEPH_ARGS). */
void cb_debug_defaults_read(rados_t r, struct cb_debug_defaults *d);

/* A word of CEPH_ARGS (conn.c walks them): --debug-ms or --debug_ms, with
 * or without "=LEVEL", marks that subsystem as set by the user. */
void cb_debug_env_arg(struct cb_debug_defaults *d, const char *arg);

/* After rados_connect (the conf, CEPH_ARGS and the cluster's config
 * database have all been applied by then): every subsystem still at its
 * default is set to 0/0; the others are kept, listed in kept as
 * "ms=1/1 rados=0/5" (truncated to n). 0 or -errno of rados_conf_set. */
int cb_debug_quiet(rados_t r, const struct cb_debug_defaults *d, char *kept, size_t n);

#endif
