/* The run's directories: /cephbench/<run>/<workload>[/c<k>], made marked
 * as the run's, taking over what a killed namesake left. The take-over is
 * cleanup's tree removal, so this file sits above cephfs_clean.c, and the
 * mounts (cephfs_mount.c), which cleanup needs too, below both. */
#include "cephfs_priv.h"
#include "owner.h"
#include "shquote.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* /cephbench/<run> is another run's (its owner is in st, pid): a killed
 * run's leftovers are removed; a live run's, or one whose owner this host
 * cannot check, are refused. Returns 0 when it is gone, or -errno with e set. */
static int take_over(struct cb_phase *ph, struct ceph_mount_info *cm, const char *dir,
		     const char *fs, enum cb_owner_state st, int pid)
{
	char cmd[CB_SH_CMD_MAX];
	switch (st) {
	case CB_OWNER_ALIVE:
		return cb_err_cluster(ph->err, -EBUSY,
				      "%s in file system %s belongs to a live run (pid %d): give "
				      "this run another --run-name",
				      dir, fs, pid);
	case CB_OWNER_ELSEWHERE:
		/* it carries a run's mark: cleanup would remove it */
		return cb_err_cluster(
		    ph->err, -EBUSY,
		    "%s in file system %s was left by a run on another host or "
		    "boot; if it is gone, remove it with: %s",
		    dir, fs,
		    CB_SH_CMD(cmd, "cephbench", "cleanup", "--fs", fs, "--run-name", ph->run_name));
	default:
		break;
	}
	uint64_t n = 0;
	int r = cfs_remove_tree(cm, dir, &n);
	if (r < 0)
		return cb_err_cluster(ph->err, r, "cannot remove %s, left by a killed run: %s", dir,
				      strerror(-r));
	/* the path is cut to fit the note (and GCC's truncation check) */
	snprintf(ph->out->note, sizeof(ph->out->note),
		 "took over %.120s in file system %s, left by an earlier run of this name (pid %d, "
		 "gone): removed %llu files and directories before making it anew",
		 dir, fs, pid, (unsigned long long)n);
	return 0;
}

/* mkdir that accepts an existing directory. */
static int mkdir_ok(struct ceph_mount_info *cm, const char *path)
{
	int r = ceph_mkdir(cm, path, 0755);
	return r == -EEXIST ? 0 : r;
}

/* Make dir marked as this run's. libcephfs has no mkdir that sets xattrs,
 * and a run killed between a mkdir and its marks would leave at dir an
 * unmarked directory, which nothing may tell from a user's. So the
 * directory is made and marked under the reserved name .new.<run>.<id>,
 * then renamed into place: dir never exists unmarked, and a kill leaves at
 * most a reserved name, empty (cleanup removes it with rmdir, which fails
 * on anything a user put there) or marked (removed like a run directory).
 * The rename would replace an empty directory made at dir since the caller
 * saw none there (a rename over an empty directory succeeds, and libcephfs
 * has no RENAME_NOREPLACE): that is the one window left, and it holds no
 * data. 0, or -errno (-ENOENT: a cleanup removed the unmarked name
 * meanwhile; -EEXIST, -ENOTEMPTY, -ENOTDIR: something appeared at dir). */
static int create_marked(struct cb_phase *ph, struct ceph_mount_info *cm, const char *dir)
{
	char tmp[PATH_MAX];
	cfs_new_path(tmp, sizeof(tmp), ph->run_name, ph->run_id);
	int r = ceph_mkdir(cm, tmp, 0755);
	if (r < 0)
		return r == -EEXIST ? -EAGAIN : r; /* the id is random: not a user's */
	ph->out->created = true;		   /* cleanup removes what is left of it */
	if ((r = cfs_mark(cm, tmp, ph->run_id)) == 0 && (r = ceph_rename(cm, tmp, dir)) == 0)
		return 0;
	if (r != -ENOENT)
		ceph_rmdir(cm, tmp); /* empty, this run's */
	return r;
}

static int make_run_dir(struct cb_phase *ph, struct ceph_mount_info *cm, const char *dir,
			const char *fs)
{
	struct ceph_statx stx;
	enum cb_owner_state st;
	int pid;
	/* a namesake's directory: evict the sessions a killed one left before
	 * touching it (their caps stall /cephbench's and its changes) */
	if (ceph_statx(cm, dir, &stx, 0, AT_SYMLINK_NOFOLLOW) == 0)
		cfs_evict_dead(cm, false);
	for (int attempt = 0; attempt < 3; attempt++) {
		int r = mkdir_ok(cm, CFS_ROOT);
		if (r == 0 && cfs_real_dir(cm, CFS_ROOT) < 0)
			return cb_err_cluster(
			    ph->err, -ENOTDIR,
			    "%s in file system %s is not a directory (a symlink?): "
			    "refused, not touched; cephbench makes its runs only "
			    "in a directory %s",
			    CFS_ROOT, fs, CFS_ROOT);
		if (r < 0)
			return cb_err_cluster(ph->err, r, "cannot create %s in file system %s: %s",
					      CFS_ROOT, fs, strerror(-r));
		switch ((r = cfs_inspect(cm, dir, ph->run_id, &st, &pid))) {
		case CFS_ABSENT:
			r = create_marked(ph, cm, dir);
			if (r == 0)
				return 0;
			if (r == -ENOENT || r == -EEXIST || r == -ENOTEMPTY || r == -ENOTDIR)
				continue; /* looked at again */
			return cb_err_cluster(ph->err, r, "cannot create %s in file system %s: %s",
					      dir, fs, strerror(-r));
		case CFS_MINE:
			ph->out->created = true; /* an earlier workload of this run made it */
			return 0;
		case CFS_OTHERS:
			if ((r = take_over(ph, cm, dir, fs, st, pid)) < 0)
				return r;
			continue;
		case CFS_UNMARKED:
			/* never removed, nor a removal suggested: it may hold a
			 * user's data */
			return cb_err_usage(ph->err,
					    "%s in file system %s was not made by cephbench (no "
					    "%s mark): refused, not touched; give this run another "
					    "--run-name",
					    dir, fs, CFS_XATTR_RUN_ID);
		case CFS_NOT_DIR:
			return cb_err_usage(
			    ph->err,
			    "%s in file system %s is not a directory, not touched (a "
			    "symlink or a file, no run's): give this run another "
			    "--run-name",
			    dir, fs);
		default:
			return cb_err_cluster(ph->err, r, "cannot look at %s in file system %s: %s",
					      dir, fs, strerror(-r));
		}
	}
	return cb_err_cluster(ph->err, -EAGAIN, "cannot create %s: it keeps changing", dir);
}

int cfs_prepare_run(struct cb_phase *ph, struct cfs_session *ss)
{
	const struct cfs_opts *o = ph->lopts;
	char wl[80], dir[PATH_MAX - 32];
	if (ss->prepared)
		return 0;
	/* the workload's own name, without a step's ".<phase>" */
	snprintf(wl, sizeof(wl), "%.*s", (int)strcspn(ph->wl->name, "."), ph->wl->name);
	snprintf(dir, sizeof(dir), "%s/%s/%s", CFS_ROOT, ph->run_name, wl);
	/* a replay's, a mix's and fsop's clients each work in a directory of
	 * their own (the steps after the tree's: a step's op is its own name) */
	bool own = o->unique_dir || ph->step >= CFS_REPLAY;
	if (own)
		snprintf(ss->base, sizeof(ss->base), "%s/c%u", dir, ph->client);
	else
		snprintf(ss->base, sizeof(ss->base), "%s", dir);
	/* client 0 sets up alone, before the others: it makes what they share */
	if (ph->client == 0) {
		char run[PATH_MAX];
		snprintf(run, sizeof(run), "%s/%s", CFS_ROOT, ph->run_name);
		int r = make_run_dir(ph, ss->cm, run, o->fs);
		if (r == 0)
			r = mkdir_ok(ss->cm, dir);
		for (unsigned k = 0; r == 0 && own && k < ph->clients; k++) {
			char c[PATH_MAX + 16];
			snprintf(c, sizeof(c), "%s/c%u", dir, k);
			r = mkdir_ok(ss->cm, c);
		}
		if (r < 0)
			return cb_err_isset(ph->err)
				   ? r
				   : cb_err_cluster(ph->err, r,
						    "cannot create %s in file system %s: %s", dir,
						    o->fs, strerror(-r));
	}
	/* ops name their items relative to the base: the client resolves the
	 * prefix once, not for every op (measured: a third of a cached stat) */
	int r = ceph_chdir(ss->cm, ss->base);
	if (r < 0)
		return cb_err_cluster(ph->err, r, "cannot enter %s in file system %s: %s", ss->base,
				      o->fs, strerror(-r));
	ss->prepared = true;
	return 0;
}
