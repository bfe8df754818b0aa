/* Mounts. A mount is made through the run's librados connection
 * (ceph_create_from_rados), so it has the same conf, client, keyring,
 * CEPH_ARGS and timeouts, but a session of its own: each client is a client
 * of the MDS like a separate host's would be. */
#include "cephfs_priv.h"
#include "client_lib.h"
#include "clock.h"
#include "conn.h"

#include <errno.h>
#include <jansson.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

int cfs_fs_get(struct cb_conn *conn, const char *fs, json_t **out, char *why, size_t n)
{
	json_t *cmd =
	    json_pack("{s:s, s:s, s:s}", "prefix", "fs get", "fs_name", fs, "format", "json");
	char *text = cmd ? json_dumps(cmd, JSON_COMPACT) : NULL;
	json_decref(cmd);
	*out = NULL;
	int r = text ? cb_conn_mon_json(conn, text, out, why, n) : -ENOMEM;
	if (!text)
		snprintf(why, n, "out of memory");
	free(text);
	return r;
}

/* Whether the monitors say a rank of file system fs is up:active. */
static bool mds_active(struct cb_conn *conn, const char *fs)
{
	json_t *j = NULL, *d;
	bool active = false;
	const char *gid;
	char why[256];
	if (cfs_fs_get(conn, fs, &j, why, sizeof(why)) == 0)
		json_object_foreach(json_object_get(json_object_get(j, "mdsmap"), "info"), gid, d)
		{
			const char *st = json_string_value(json_object_get(d, "state"));
			active |= st && !strcmp(st, "up:active");
		}
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

uint64_t cfs_unmount_bound(struct cb_conn *conn)
{
	uint64_t ns = cb_conn_options(conn)->timeout_ns;
	return ns ? ns : 30000000000ULL;
}

/* An unmount on a thread of its own; refs: that thread's and the caller's. */
struct unmounting {
	struct ceph_mount_info *cm;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool done;
	int refs;
};

static void unmounting_put(struct unmounting *u)
{
	pthread_mutex_lock(&u->mu);
	bool last = --u->refs == 0;
	pthread_mutex_unlock(&u->mu);
	if (!last)
		return;
	pthread_mutex_destroy(&u->mu);
	pthread_cond_destroy(&u->cv);
	free(u);
}

static void *unmount_main(void *arg)
{
	struct unmounting *u = arg;
	pthread_setname_np(pthread_self(), "cb-unmount");
	ceph_unmount(u->cm);
	pthread_mutex_lock(&u->mu);
	u->done = true;
	pthread_cond_broadcast(&u->cv);
	pthread_mutex_unlock(&u->mu);
	unmounting_put(u);
	return NULL;
}

static bool unmounted_within(struct unmounting *u, uint64_t ns)
{
	struct timespec until = cb_monotonic_after(ns);
	pthread_mutex_lock(&u->mu);
	while (!u->done && pthread_cond_timedwait(&u->cv, &u->mu, &until) != ETIMEDOUT)
		;
	bool done = u->done;
	pthread_mutex_unlock(&u->mu);
	return done;
}

/* ceph_unmount waits for the MDS without a bound: to acknowledge the flush
 * of dirty caps and to close the session. An MDS that has not reached its
 * monitors for mds_beacon_grace calls itself laggy and defers every
 * client message until they are back, so a run whose monitors went away
 * waited for ever in its unmount (found by fault_mon_stop_cephfs). Past
 * bound_ns the mount is aborted (ceph_abort_conn: its waits fail, its
 * session dropped; the MDS times it out, the cleanup evicts it); an
 * unmount that still has not returned 3 s later is abandoned to the
 * process's exit, as the runner abandons a stuck client. */
void cfs_unmount(struct ceph_mount_info *cm, uint64_t bound_ns)
{
	if (!cm)
		return;
	struct unmounting *u = calloc(1, sizeof(*u));
	pthread_attr_t at;
	pthread_t t;
	if (u) {
		u->cm = cm;
		u->refs = 2;
		pthread_mutex_init(&u->mu, NULL);
		pthread_condattr_t ca;
		pthread_condattr_init(&ca);
		pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
		pthread_cond_init(&u->cv, &ca);
		pthread_condattr_destroy(&ca);
		pthread_attr_init(&at);
		pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
		bool started = pthread_create(&t, &at, unmount_main, u) == 0;
		pthread_attr_destroy(&at);
		if (!started) {
			u->refs = 1;
			unmounting_put(u);
			u = NULL;
		}
	}
	if (!u) { /* no thread to bound it with: as before */
		ceph_unmount(cm);
		ceph_release(cm);
		return;
	}
	bool done = unmounted_within(u, bound_ns);
	if (!done) {
		ceph_abort_conn(cm);
		done = unmounted_within(u, 3000000000ULL);
	}
	if (done)
		ceph_release(cm);
	unmounting_put(u);
}

int cfs_remount(struct cb_phase *ph, struct cfs_session *ss)
{
	const struct cfs_opts *o = ph->lopts;
	cfs_unmount(ss->cm, ss->unmount_ns);
	ss->cm = NULL;
	int r = cfs_mount(ph->conn, o->fs, o->client_cache_size, &ss->cm, ph->err);
	if (r < 0)
		return r;
	if ((r = ceph_chdir(ss->cm, ss->base)) < 0)
		return cb_err_cluster(ph->err, r, "cannot enter %s in file system %s: %s", ss->base,
				      o->fs, strerror(-r));
	return 0;
}

int cfs_real_dir(struct ceph_mount_info *cm, const char *path)
{
	struct ceph_statx stx;
	int r = ceph_statx(cm, path, &stx, CEPH_STATX_MODE, AT_SYMLINK_NOFOLLOW);
	return r < 0 ? r : S_ISDIR(stx.stx_mode) ? 0 : -ENOTDIR;
}
