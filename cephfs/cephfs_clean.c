/* Removing what runs made: the tree /cephbench/<run> of one run or of every
 * run, also after a crash. Nothing outside /cephbench is looked at. A run
 * directory whose owner mark names a live process on this host is kept. */
#include "cephfs_priv.h"
#include "owner.h"

#include <dirent.h>
#include <jansson.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define BATCH 256

struct entry {
	char name[256];
	bool dir, unknown;
};

/* Up to BATCH entries of path (no . and ..); the directory is closed again
 * before they are removed, so removal never disturbs a listing. */
static int list_some(struct ceph_mount_info *cm, const char *path, struct entry *e, size_t *n)
{
	struct ceph_dir_result *d;
	struct dirent de;
	int r = ceph_opendir(cm, path, &d);
	*n = 0;
	if (r < 0)
		return r;
	while (*n < BATCH && (r = ceph_readdir_r(cm, d, &de)) == 1) {
		if (strcmp(de.d_name, ".") == 0 || strcmp(de.d_name, "..") == 0)
			continue;
		snprintf(e[*n].name, sizeof(e[*n].name), "%s", de.d_name);
		e[*n].dir = de.d_type == DT_DIR;
		e[*n].unknown = de.d_type == DT_UNKNOWN;
		(*n)++;
	}
	ceph_closedir(cm, d);
	return r < 0 ? r : 0;
}

/* One MDS command to the MDS of rank spec; its output is the caller's
 * (ceph_buffer_free), NULL on error (as for a rank that is not active). */
static char *mds_command(struct ceph_mount_info *cm, const char *spec, const char *json,
			 size_t *len)
{
	const char *cmd[] = {json};
	char *out = NULL, *outs = NULL;
	int r = ceph_mds_command(cm, spec, cmd, 1, "", 0, &out, len, &outs, &(size_t){0});
	ceph_buffer_free(outs);
	if (r < 0) {
		ceph_buffer_free(out);
		return NULL;
	}
	return out;
}

/* Evict the dead sessions one rank lists; false when the rank answers not. */
static bool evict_dead_on(struct ceph_mount_info *cm, const char *rank)
{
	size_t len = 0;
	char *out = mds_command(cm, rank, "{\"prefix\": \"session ls\"}", &len);
	if (!out)
		return false;
	json_t *ls = json_loadb(out, len, JSON_DISABLE_EOF_CHECK, NULL);
	ceph_buffer_free(out);
	size_t i;
	json_t *s;
	json_array_foreach(ls, i, s)
	{
		const char *mark = json_string_value(
		    json_object_get(json_object_get(s, "client_metadata"), CB_OWNER_META_KEY));
		json_int_t id = json_integer_value(json_object_get(s, "id"));
		char cmd[128];
		int pid;
		if (!mark || id <= 0 || cb_owner_state(mark, &pid) != CB_OWNER_GONE)
			continue;
		snprintf(cmd, sizeof(cmd),
			 "{\"prefix\": \"session evict\", \"filters\": [\"id=%lld\"]}",
			 (long long)id);
		ceph_buffer_free(mds_command(cm, rank, cmd, &len));
	}
	json_decref(ls);
	return true;
}

void cfs_evict_dead(struct ceph_mount_info *cm)
{
	/* rank by rank: a session lives on the ranks its client talked to */
	for (int rank = 0; rank < CFS_MAX_RANKS; rank++) {
		char spec[16];
		snprintf(spec, sizeof(spec), "%d", rank);
		if (!evict_dead_on(cm, spec))
			break;
	}
}

int cfs_real_dir(struct ceph_mount_info *cm, const char *path)
{
	struct ceph_statx stx;
	int r = ceph_statx(cm, path, &stx, CEPH_STATX_MODE, AT_SYMLINK_NOFOLLOW);
	return r < 0 ? r : S_ISDIR(stx.stx_mode) ? 0 : -ENOTDIR;
}

/* path is a PATH_MAX buffer, extended and restored on the way down. */
static int remove_below(struct ceph_mount_info *cm, char *path, uint64_t *removed)
{
	struct entry *e = malloc(BATCH * sizeof(*e));
	size_t len = strlen(path), n;
	int r;
	if (!e)
		return -ENOMEM;
	while ((r = list_some(cm, path, e, &n)) == 0 && n > 0) {
		for (size_t i = 0; i < n && r == 0; i++) {
			if ((size_t)snprintf(path + len, PATH_MAX - len, "/%s", e[i].name) >=
			    PATH_MAX - len) {
				r = -ENAMETOOLONG;
				break;
			}
			/* the entry's type as listed, never a symlink's target */
			if (e[i].unknown)
				e[i].dir = cfs_real_dir(cm, path) == 0;
			if (e[i].dir && (r = remove_below(cm, path, removed)) == 0)
				r = ceph_rmdir(cm, path);
			else if (!e[i].dir)
				r = ceph_unlink(cm, path);
			if (r == -ENOENT)
				r = 0;
			else if (r == 0)
				(*removed)++;
			path[len] = '\0';
		}
		if (r < 0)
			break;
	}
	path[len] = '\0';
	free(e);
	return r;
}

int cfs_remove_tree(struct ceph_mount_info *cm, const char *path, uint64_t *removed)
{
	char p[PATH_MAX];
	snprintf(p, sizeof(p), "%s", path);
	/* a symlink planted in its place would lead the removal elsewhere */
	int r = cfs_real_dir(cm, p);
	if (r == 0)
		r = remove_below(cm, p, removed);
	if (r == 0)
		r = ceph_rmdir(cm, p);
	if (r == 0)
		(*removed)++;
	return r == -ENOENT ? 0 : r;
}

/* Remove /cephbench/<name> unless a live process other than this run owns
 * it; *live is set when it was kept for that reason. Anything but a real
 * directory there is no run's: -ENOTDIR, not followed. */
static int remove_run(struct ceph_mount_info *cm, const struct cb_cleanup_req *req,
		      const char *name, uint64_t *removed, int *live)
{
	char dir[PATH_MAX];
	enum cb_owner_state st;
	int pid, r;
	snprintf(dir, sizeof(dir), "%s/%s", CFS_ROOT, name);
	if ((r = cfs_real_dir(cm, dir)) < 0)
		return r == -ENOENT ? 0 : r;
	if (!cfs_run_dir_mine(cm, dir, req->run_id, &st, &pid) && st == CB_OWNER_ALIVE) {
		*live = pid;
		return 0;
	}
	return cfs_remove_tree(cm, dir, removed);
}

int cfs_cleanup(struct cb_cleanup_req *req)
{
	const char *fs = req->lopts ? ((const struct cfs_opts *)req->lopts)->fs : req->fs;
	struct ceph_mount_info *cm;
	char kept[256] = "";
	int live = 0, r;
	if (!fs)
		return 0;
	if ((r = cfs_mount(req->conn, fs, CFS_CACHE_INODES, &cm, req->err)) < 0)
		return r;
	cfs_evict_dead(cm); /* before anything a killed run's caps would stall */
	r = cfs_real_dir(cm, CFS_ROOT);
	if (r == -ENOENT) {
		cfs_unmount(cm);
		return 0; /* no run ever made anything here */
	}
	if (r < 0) {
		cfs_unmount(cm);
		return cb_err_cluster(req->err, r,
				      "%s in file system %s is not a directory (a symlink?): not "
				      "touched; remove it by hand",
				      CFS_ROOT, fs);
	}
	if (req->run_name) {
		r = remove_run(cm, req, req->run_name, &req->removed, &live);
	} else {
		/* every run: list /cephbench until nothing removable is left */
		struct entry *e = malloc(BATCH * sizeof(*e));
		size_t n, kept_n = 0;
		r = e ? 0 : -ENOMEM;
		while (r == 0 && (r = list_some(cm, CFS_ROOT, e, &n)) == 0 && n > kept_n) {
			kept_n = 0;
			for (size_t i = 0; i < n && r == 0; i++) {
				int l = 0;
				if (!e[i].dir && !e[i].unknown) {
					kept_n++; /* not a run's directory: left alone */
					continue;
				}
				r = remove_run(cm, req, e[i].name, &req->removed, &l);
				if (r == -ENOTDIR) {
					r = 0;
					kept_n++;
					continue;
				}
				if (l) {
					live = l;
					kept_n++;
					snprintf(kept, sizeof(kept), "%s", e[i].name);
				}
			}
		}
		free(e);
		if (r == -ENOENT)
			r = 0; /* no /cephbench: nothing to do */
	}
	if (r == 0)
		ceph_rmdir(cm, CFS_ROOT); /* only when empty; other runs may be using it */
	cfs_unmount(cm);
	if (r == -ENOTDIR)
		return cb_err_cluster(
		    req->err, r,
		    "%s/%s in file system %s is not a directory (a symlink?): not "
		    "touched",
		    CFS_ROOT, req->run_name, fs);
	if (r < 0)
		return cb_err_cluster(req->err, r, "removing %s%s%s in file system %s: %s",
				      CFS_ROOT, req->run_name ? "/" : "",
				      req->run_name ? req->run_name : "", fs, strerror(-r));
	if (live)
		return cb_err_cluster(req->err, -EBUSY,
				      "kept %s/%s in file system %s: a live run (pid %d) uses it",
				      CFS_ROOT, req->run_name ? req->run_name : kept, fs, live);
	return 0;
}
