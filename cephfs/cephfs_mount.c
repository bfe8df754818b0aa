/* Mounts. A mount is made through the run's librados connection
 * (ceph_create_from_rados), so it has the same conf, client, keyring,
 * CEPH_ARGS and timeouts, but a session of its own: each client is a client
 * of the MDS like a separate host's would be. */
#include "cephfs_priv.h"
#include "client_lib.h"
#include "conn.h"

#include <errno.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether the monitors say a rank of file system fs is up:active. */
static bool mds_active(struct cb_conn *conn, const char *fs)
{
	json_t *cmd = json_pack("{s:s, s:s, s:s}", "prefix", "fs get", "fs_name", fs, "format",
				"json"),
	       *j = NULL, *d;
	char *text = cmd ? json_dumps(cmd, JSON_COMPACT) : NULL, why[256];
	bool active = false;
	const char *gid;
	json_decref(cmd);
	if (text && cb_conn_mon_json(conn, text, &j, why, sizeof(why)) == 0)
		json_object_foreach(json_object_get(json_object_get(j, "mdsmap"), "info"), gid, d)
		{
			const char *st = json_string_value(json_object_get(d, "state"));
			active |= st && !strcmp(st, "up:active");
		}
	free(text);
	json_decref(j);
	return active;
}

int cfs_mount(struct cb_conn *conn, const char *fs, uint64_t cache_inodes,
	      struct ceph_mount_info **out, struct cb_err *e)
{
	struct ceph_mount_info *cm;
	int r = ceph_create_from_rados(&cm, cb_conn_rados(conn));
	if (r < 0)
		return cb_err_cluster(e, r, "cannot create a CephFS client: %s", strerror(-r));
	/* the session carries the owner mark in its metadata (conn.c) */
	/* The conf is the run's connection's, shared by every mount: the value
	 * set last holds for all mounts still open. Workloads mount one at a
	 * time, but with repeat their mounts stay open across the rounds, so
	 * a matrix over client_cache_size with repeat > 1 is not honoured. */
	char v[24];
	snprintf(v, sizeof(v), "%llu", (unsigned long long)cache_inodes);
	r = ceph_conf_set(cm, "client_cache_size", v);
	if (r == 0)
		r = ceph_select_filesystem(cm, fs);
	if (r == 0)
		r = ceph_mount(cm, "/");
	if (r == 0) {
		*out = cm;
		return 0;
	}
	ceph_release(cm);
	if (r == -ENOENT)
		return cb_err_cluster(
		    e, r, "file system '%s' not found: name one with fs: (ceph fs ls)", fs);
	if (r == -EPERM || r == -EACCES)
		return cb_err_cluster(
		    e, r,
		    "mount of file system '%s' refused: %s (the client's mds caps "
		    "must allow it: ceph auth get)",
		    fs, strerror(-r));
	/* Tentacle leaves a mount whose mds caps do not allow the file
	 * system waiting, where Pacific refuses it at once: with Pacific's
	 * libraries a timeout is never the caps (the monitors, away during
	 * the mount, may well answer by now) */
	struct cb_ceph_version lib;
	cb_client_lib_version(&lib);
	if (r == -ETIMEDOUT && lib.major > 16 && mds_active(conn, fs))
		return cb_err_cluster(
		    e, -EACCES,
		    "mount of file system '%s' not answered although the monitors answer and its "
		    "MDS is active: the client's mds caps most likely do not allow it (ceph auth "
		    "get)",
		    fs);
	if (r == -ETIMEDOUT) {
		/* libcephfs says the same for monitors gone (its authentication)
		 * and for no active MDS (its first MDS request) */
		char t[48] = "(--timeout, 30 s unless given)";
		uint64_t ns = cb_conn_options(conn)->timeout_ns;
		if (ns)
			snprintf(t, sizeof(t), "after %llu s (--timeout)",
				 (unsigned long long)((ns + 999999999ULL) / 1000000000ULL));
		return cb_err_cluster(e, r,
				      "mount of file system '%s' timed out %s waiting for the "
				      "cluster: the monitors are not reachable, or no MDS of the "
				      "file system is active (ceph -s; ceph fs status)",
				      fs, t);
	}
	return cb_err_cluster(e, r, "cannot mount file system '%s': %s", fs, strerror(-r));
}

void cfs_unmount(struct ceph_mount_info *cm)
{
	if (!cm)
		return;
	ceph_unmount(cm);
	ceph_release(cm);
}
