/* Whose an entry of /cephbench is: the marks a run sets on its directory,
 * and the reserved name it makes that directory under before the directory
 * carries them. Only a marked directory is ever removed whole; an unmarked
 * one, whatever its name, is a user's (see docs/cleanup.md, CephFS). */
#include "cephfs_priv.h"
#include "options.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define CFS_NEW_PREFIX ".new."
#define CFS_ID_LEN     16 /* run.c's run id: 16 lowercase hex digits */

static bool is_run_id(const char *s)
{
	return strlen(s) == CFS_ID_LEN && strspn(s, "0123456789abcdef") == CFS_ID_LEN;
}

/* xattr name of path itself (never of a symlink's target) into buf, a
 * string: 0, -ENODATA when absent, -ERANGE when longer than buf holds. */
static int lxattr_get(struct ceph_mount_info *cm, const char *path, const char *name, char *buf,
		      size_t n)
{
	int r = ceph_lgetxattr(cm, path, name, buf, n - 1);
	buf[r > 0 ? r : 0] = '\0';
	return r < 0 ? r : 0;
}

int cfs_inspect(struct ceph_mount_info *cm, const char *path, const char *run_id,
		enum cb_owner_state *st, int *pid)
{
	char id[64], owner[256];
	*st = CB_OWNER_ELSEWHERE;
	*pid = 0;
	int r = cfs_real_dir(cm, path);
	if (r == -ENOENT)
		return CFS_ABSENT;
	if (r == -ENOTDIR)
		return CFS_NOT_DIR;
	if (r < 0)
		return r;
	r = lxattr_get(cm, path, CFS_XATTR_RUN_ID, id, sizeof(id));
	if (r == -ENOENT)
		return CFS_ABSENT; /* removed meanwhile */
	/* absent, too long or not a run id: a mark no run sets, a user's */
	if (r == -ENODATA || r == -ERANGE || (r == 0 && !is_run_id(id)))
		return CFS_UNMARKED;
	if (r < 0)
		return r;
	if (run_id && strcmp(id, run_id) == 0)
		return CFS_MINE;
	if (lxattr_get(cm, path, CFS_XATTR_OWNER, owner, sizeof(owner)) == 0 && owner[0])
		*st = cb_owner_state(owner, pid);
	return CFS_OTHERS;
}

int cfs_mark(struct ceph_mount_info *cm, const char *path, const char *run_id)
{
	char mark[256];
	cb_owner_mark(mark, sizeof(mark), ' ');
	int r = ceph_lsetxattr(cm, path, CFS_XATTR_RUN_ID, run_id, strlen(run_id), 0);
	return r < 0 ? r : ceph_lsetxattr(cm, path, CFS_XATTR_OWNER, mark, strlen(mark), 0);
}

void cfs_new_path(char *buf, size_t n, const char *run, const char *run_id)
{
	snprintf(buf, n, "%s/" CFS_NEW_PREFIX "%s.%s", CFS_ROOT, run, run_id);
}

bool cfs_is_new_name(const char *name, const char *run)
{
	size_t pre = strlen(CFS_NEW_PREFIX), len = strlen(name);
	char r[80];
	/* ".new." + a run name (no '.' in it) + "." + a run id */
	if (strncmp(name, CFS_NEW_PREFIX, pre) != 0 || len < pre + 2 + CFS_ID_LEN ||
	    name[len - CFS_ID_LEN - 1] != '.' || !is_run_id(name + len - CFS_ID_LEN) ||
	    len - CFS_ID_LEN - 1 - pre >= sizeof(r))
		return false;
	snprintf(r, sizeof(r), "%.*s", (int)(len - CFS_ID_LEN - 1 - pre), name + pre);
	return cb_name_valid(r) && (!run || strcmp(r, run) == 0);
}
