/* Admin sockets of killed cephbench processes: librados makes one per
 * process (ceph-client.admin.<pid>.asok when the conf's admin socket names
 * $pid) and removes it only at a clean exit, so kill -9 leaves it. */
#ifndef CB_CONN_ASOK_H
#define CB_CONN_ASOK_H

#include <stddef.h>

/* Given mine, this process's admin socket path as librados expanded it
 * (holding pid, this process's id), remove the sockets in its directory
 * named as mine but with another pid, when that pid is not alive and the
 * socket refuses a connection; only sockets this user owns. Nothing when
 * mine does not hold pid. Returns how many went; never fails a run. */
size_t cb_asok_sweep(const char *mine, long pid);

/* True when name is mine's file name with other numbers in the places
 * mine has digits (each run of digits stands for any run), *pid the number
 * at mine's pid. */
int cb_asok_match(const char *mine, long pid, const char *name, long *other);

#endif
