/* One connection helper for every layer: reads the conf the way the ceph
 * tools do (--conf, else CEPH_CONF, else the default search; then CEPH_ARGS),
 * authenticates as the chosen client, and bounds every wait by a timeout. */
#ifndef CB_CONN_H
#define CB_CONN_H

#include "err.h"

#include <rados/librados.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cb_cluster_opts {
	const char *conf;    /* NULL: CEPH_CONF or the default search path */
	const char *client;  /* "admin" or "client.admin"; NULL: the conf's/CEPH_ARGS' */
	const char *keyring; /* NULL: the conf's */
	uint64_t timeout_ns; /* connect and monitor-op timeout; 0: 30 s */
	/* OSD-op timeout (a workload's op_timeout); 0: timeout_ns */
	uint64_t op_timeout_ns;
	/* keep the client libraries' own debug levels (--ceph-debug-defaults);
	 * false: every subsystem nobody set runs at 0/0 (conn_debug.h) */
	bool ceph_debug;
};

struct cb_conn;

/* Connect. On success *out is owned by the caller (cb_conn_close). On failure
 * returns -errno with e set to one line naming the monitors or the culprit. */
int cb_conn_open(const struct cb_cluster_opts *o, struct cb_conn **out, struct cb_err *e);
void cb_conn_close(struct cb_conn *c);

/* `cephbench doctor`'s first two checks, what cb_conn_open checks before
 * it connects, apart: the conf a session of o reads, found (its path into
 * conf, n bytes) and parsed with CEPH_ARGS, and the client's name
 * ("client.X") into name (nn bytes); then the keyring (and key file) that
 * client would use, readable, and monitors named. 0, or -errno with e set. */
int cb_conn_conf_check(const struct cb_cluster_opts *o, char *conf, size_t n, char *name, size_t nn,
		       struct cb_err *e);
int cb_conn_files_check(const struct cb_cluster_opts *o, struct cb_err *e);

/* The connection client `client` of a phase runs on: shared (the run's or
 * the workload's) for client 0; for the others one of their own, with the
 * same options, opened into *own on first use and kept there (the caller
 * closes it). So clients: N is N librados instances, as N rados bench
 * processes would be, and clients: 1 runs as it always did. 0, or -errno
 * with e set. */
int cb_conn_for_client(struct cb_conn *shared, unsigned client, struct cb_conn **own,
		       struct cb_conn **out, struct cb_err *e);

/* The I/O session. Never send monitor commands through it (see conn.c). */
rados_t cb_conn_rados(struct cb_conn *c);
const char *cb_conn_fsid(const struct cb_conn *c);
/* The options it was opened with, for the ceph CLIs a layer runs (rbd device
 * map): the same conf, client and keyring. */
const struct cb_cluster_opts *cb_conn_options(const struct cb_conn *c);
/* The debug levels kept because the conf, CEPH_ARGS or the cluster set
 * them ("ms=1/1 rados=0/5", "" none); meaningless with o.ceph_debug. */
const char *cb_conn_debug_kept(const struct cb_conn *c);
/* The monitors' version, "16.2.15" or "unknown"; asked on first call,
 * through the session for monitor commands. */
const char *cb_conn_version(struct cb_conn *c);

/* A monitor command (JSON text, "format": "json") through the session for
 * monitor commands; its reply parsed into *out (the caller's). 0, or
 * -errno with the reason (the monitors' status text) in why. */
struct json_t;
int cb_conn_mon_json(struct cb_conn *c, const char *cmd, struct json_t **out, char *why, size_t n);

/* Blocklist a client address for secs seconds (through the session for
 * monitor commands). 0, or -errno with e set. */
int cb_conn_blocklist(struct cb_conn *c, const char *addr, uint32_t secs, struct cb_err *e);

/* Whether the client gets the OSD map (every layer's first need: a pool's
 * lookup on the I/O session waits for it without end), asked on the
 * monitor session: 0, -ETIMEDOUT when it did not come within the timeout,
 * or -errno with e set when that session cannot open. */
int cb_conn_osdmap(struct cb_conn *c, struct cb_err *e);

/* A command to OSD osd (JSON text) through the session for monitor
 * commands; its JSON reply into *out (the caller's). 0, or -errno with the
 * reason (the OSD's status text) in why. */
int cb_conn_osd_json(struct cb_conn *c, int osd, const char *cmd, struct json_t **out, char *why,
		     size_t n);

/* The same for a command whose reply is not read (an empty one, as
 * `cache drop`'s): 0, or -errno with the reason in why. */
int cb_conn_osd_cmd(struct cb_conn *c, int osd, const char *cmd, char *why, size_t n);

/* Open an I/O context on pool in namespace ns (NULL: default). A missing pool
 * is a cluster error naming the pool. Caller destroys the ioctx. */
int cb_conn_ioctx(struct cb_conn *c, const char *pool, const char *ns, rados_ioctx_t *io,
		  struct cb_err *e);

#endif
