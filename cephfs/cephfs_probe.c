/* The CephFS layer's doctor probe (probe.h): a mount of the workload's file
 * system (the mds caps), then a directory of the doctor's run where a run
 * makes its own, marked as a run's, with a file written, synced (the osd
 * caps on the data pool) and removed, and the directory after it. */
#include "cephfs_priv.h"
#include "probe.h"
#include "shquote.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

static void mount_failed(struct cb_probe_req *req, const char *check, const char *fs, int r,
			 const struct cb_err *e)
{
	char cmd[CB_SH_CMD_MAX], what[200];
	if (r == -ENOENT)
		cb_probe_line(req, CB_CHECK_FAIL, check, "does not exist",
			      "list them: ceph fs ls; name one with fs:");
	else if (r == -EPERM || r == -EACCES) {
		snprintf(what, sizeof(what), "rw on file system %.128s (ceph fs authorize)", fs);
		cb_probe_refused(req, check, "mds", what, "mounting it", r);
	} else
		cb_probe_line(req, CB_CHECK_FAIL, check, e->msg,
			      CB_SH_CMD(cmd, "ceph", "fs", "status", fs));
}

/* 0, or the failing step's -errno with its name in *step. */
static int write_test(struct ceph_mount_info *cm, const char *dir, const char *run_id,
		      const char **step)
{
	static const char data[] = "cephbench doctor\n";
	char file[320];
	int r, fd;
	*step = "making a directory in " CFS_ROOT;
	if ((r = ceph_mkdir(cm, dir, 0755)) < 0)
		return r;
	*step = "marking it";
	if ((r = cfs_mark(cm, dir, run_id)) < 0)
		goto rmdir;
	snprintf(file, sizeof(file), "%s/doctor", dir);
	*step = "creating a file in it";
	if ((fd = ceph_open(cm, file, O_CREAT | O_EXCL | O_WRONLY, 0644)) < 0) {
		r = fd;
		goto rmdir;
	}
	*step = "writing and syncing the file (the data pool's osd caps)";
	r = ceph_write(cm, fd, data, sizeof(data) - 1, 0);
	if (r >= 0)
		r = ceph_fsync(cm, fd, 0);
	ceph_close(cm, fd);
	int u = ceph_unlink(cm, file);
	if (r >= 0 && u < 0)
		*step = "removing the file", r = u;
rmdir:;
	int d = ceph_rmdir(cm, dir);
	if (r >= 0 && d < 0)
		*step = "removing the directory", r = d;
	return r < 0 ? r : 0;
}

void cfs_probe(struct cb_probe_req *req)
{
	const struct cfs_opts *o = req->lopts;
	char check[160], dir[256], detail[320], what[200];
	struct ceph_mount_info *cm;
	struct cb_err e = {0};
	const char *step;

	snprintf(check, sizeof(check), "file system '%.128s'", o->fs);
	int r = cfs_mount(req->conn, o->fs, CFS_CACHE_INODES, &cm, &e);
	if (r < 0) {
		mount_failed(req, check, o->fs, r, &e);
		return;
	}
	cb_probe_line(req, CB_CHECK_OK, check, "mounted", NULL);
	snprintf(check, sizeof(check), "caps in file system '%.128s'", o->fs);
	/* /cephbench made when absent, as a run makes it, and removed after
	 * unless something else is in it by then */
	bool made = ceph_mkdir(cm, CFS_ROOT, 0755) == 0;
	cfs_new_path(dir, sizeof(dir), req->run_name, req->run_id);
	r = write_test(cm, dir, req->run_id, &step);
	if (made)
		ceph_rmdir(cm, CFS_ROOT);
	if (r < 0) {
		snprintf(what, sizeof(what),
			 "rw in file system %.128s (mds) and on its data pool (osd)", o->fs);
		cb_probe_refused(req, check, r == -EPERM || r == -EACCES ? "mds and osd" : "mds",
				 what, step, r);
	} else {
		snprintf(detail, sizeof(detail),
			 "a test directory in %s made, a file in it written and synced, both "
			 "removed",
			 CFS_ROOT);
		cb_probe_line(req, CB_CHECK_OK, check, detail, NULL);
	}
	cfs_unmount(cm, cfs_unmount_bound(req->conn));
}
