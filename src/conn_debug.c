/* The Ceph client libraries gather their debug log in memory at their
 * default levels (the second figure of "0/5"), formatting entries nobody
 * reads (issue 20 saw rados bench use ~7 % less CPU per op with them all
 * at 0/0, in two noisy runs; callgrind on 16.2.15 counted no difference).
 * A benchmark's client runs quiet unless someone asked for the log. */
#include "conn_debug.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static const char *const subsys[] = {
    "asok",
    "auth",
    "bdev",
    "bluefs",
    "bluestore",
    "buffer",
    "cephfs_mirror",
    "cephsqlite",
    "civetweb",
    "client",
    "compressor",
    "context",
    "crush",
    "crypto",
    "dpdk",
    "eventtrace",
    "filer",
    "filestore",
    "finisher",
    "fuse",
    "heartbeatmap",
    "immutable_obj_cache",
    "javaclient",
    "journal",
    "journaler",
    "kstore",
    "leveldb",
    "lockdep",
    "mds",
    "mds_balancer",
    "mds_locker",
    "mds_log",
    "mds_log_expire",
    "mds_migrator",
    "memdb",
    "mgr",
    "mgrc",
    "mon",
    "monc",
    "ms",
    "none",
    "objclass",
    "objectcacher",
    "objecter",
    "optracker",
    "osd",
    "paxos",
    "perfcounter",
    "prioritycache",
    "rados",
    "rbd",
    "rbd_mirror",
    "rbd_pwl",
    "rbd_replay",
    "refs",
    "reserver",
    "rgw",
    "rgw_sync",
    "rocksdb",
    "striper",
    "test",
    "throttle",
    "timer",
    "tp",
    "seastore",
    "alienstore",
};
_Static_assert(sizeof(subsys) / sizeof(subsys[0]) == CB_DEBUG_NSUBSYS,
	       "CB_DEBUG_NSUBSYS counts the subsystems");

static void key(char *buf, size_t n, size_t i)
{
	snprintf(buf, n, "debug_%s", subsys[i]);
}

void cb_debug_env_arg(struct cb_debug_defaults *d, const char *arg)
{
	char name[48];
	if (strncmp(arg, "--debug", 7) != 0 || (arg[7] != '-' && arg[7] != '_'))
		return;
	snprintf(name, sizeof(name), "%s", arg + 8);
	name[strcspn(name, "=")] = '\0';
	for (char *p = name; *p; p++)
		*p = *p == '-' ? '_' : *p;
	for (size_t i = 0; i < CB_DEBUG_NSUBSYS; i++)
		if (!strcmp(name, subsys[i]))
			d->set[i] = true;
}

void cb_debug_conf_key(const char *key, void *d)
{
	struct cb_debug_defaults *dd = d;
	if (strncmp(key, "debug_", 6) != 0)
		return;
	for (size_t i = 0; i < CB_DEBUG_NSUBSYS; i++)
		if (!strcmp(key + 6, subsys[i]))
			dd->set[i] = true;
}

void cb_debug_defaults_read(rados_t r, struct cb_debug_defaults *d)
{
	char k[48];
	for (size_t i = 0; i < CB_DEBUG_NSUBSYS; i++) {
		key(k, sizeof(k), i);
		if (rados_conf_get(r, k, d->level[i], sizeof(d->level[i])) < 0)
			d->level[i][0] = '\0';
	}
}

/* Why a value equal to the default counts as not set: librados says only
 * what a value is, not who set it. A conf line that sets a subsystem to
 * exactly its default level is the one case taken for unset (and quieted);
 * anything else the conf, CEPH_ARGS or the cluster set is kept. */
int cb_debug_quiet(rados_t r, const struct cb_debug_defaults *d, char *kept, size_t n)
{
	char k[48], v[16];
	size_t len = 0;
	if (n)
		kept[0] = '\0';
	for (size_t i = 0; i < CB_DEBUG_NSUBSYS; i++) {
		if (!d->level[i][0])
			continue;
		key(k, sizeof(k), i);
		if (rados_conf_get(r, k, v, sizeof(v)) < 0)
			continue;
		if (d->set[i] || strcmp(v, d->level[i]) != 0) {
			int w = snprintf(kept + len, n > len ? n - len : 0, "%s%s=%s",
					 len ? " " : "", subsys[i], v);
			if (w > 0 && len + (size_t)w < n)
				len += (size_t)w;
			else if (n > len)
				kept[len] = '\0'; /* whole entries only */
			continue;
		}
		if (!strcmp(v, "0/0")) /* Ceph prints "debug ms = 0" as 0/0 too */
			continue;
		int ret = rados_conf_set(r, k, "0/0");
		if (ret < 0)
			return ret;
	}
	return 0;
}
