/* The files a session hands librados, checked before librados opens them
 * (infile.h says why): the ceph conf, the keyring, the key file, and
 * whether the conf names any monitor. For conn.c only. */
#ifndef CB_CONN_FILES_H
#define CB_CONN_FILES_H

#include "err.h"

#include <rados/librados.h>
#include <stdbool.h>
#include <stddef.h>

/* The next entry of the Ceph path list at *s (a conf or keyring list,
 * split at ',' and ';' only, as Ceph splits it) into buf; *s moves past it.
 * False at the end. */
bool cb_path_list_next(const char **s, char *buf, size_t n);

/* Where the conf list came from, for the messages. */
enum cb_conf_source { CB_CONF_FLAG, CB_CONF_CEPH_ARGS, CB_CONF_ENV, CB_CONF_DEFAULT };

/* The conf librados would read from list (a Ceph path list, entries split
 * at ',' ';' and blanks as Ceph splits them; NULL: the default places
 * /etc/ceph/ceph.conf, ~/.ceph/ceph.conf, ./ceph.conf): its first entry
 * that exists, which must be a regular readable file of at most
 * CB_CEPHFILE_MAX_BYTES (or /dev/null, read as empty). Its path goes into
 * used[n]. 0, or -errno with e set (exit 2), also when none exists. */
int cb_conf_resolve(const char *list, enum cb_conf_source src, char *used, size_t n,
		    struct cb_err *e);

/* Each key the conf file sets (in any section) to fn, as Ceph reads a key:
 * lower case, ' ' and '-' as '_' ("debug_rados"); none when the file cannot
 * be read (librados says why). */
void cb_conf_each_key(const char *conf, void (*fn)(const char *key, void *arg), void *arg);

/* Authentication off on the handle r, above the conf's and CEPH_ARGS'
 * values, so that it reads no keyring (librados reads one whenever an auth
 * option changes). 0 or -errno. */
int cb_conf_auth_off(rados_t r);

/* What librados would read after conf (cb_conf_resolve's choice), CEPH_ARGS
 * and keyring (--keyring, or NULL) for client name (env_keyring: CEPH_ARGS
 * names one), checked on a throwaway
 * handle that reads none of it: the keyring (the first entry of its list
 * that opens, as Ceph picks it) must be a regular file within the bound, and
 * one the user named (not Ceph's default list) readable; a key file
 * likewise; and the conf or CEPH_ARGS must name a monitor (mon_host, a
 * [mon.X] mon_addr, or mon_dns_srv_name for a DNS lookup). 0, or -errno with
 * e set (exit 2). */
int cb_conn_probe_files(const char *name, const char *conf, const char *keyring, bool env_keyring,
			struct cb_err *e);

#endif
