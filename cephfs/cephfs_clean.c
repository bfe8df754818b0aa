/* Removing what runs made: the tree /cephbench/<run> of one run or of every
 * run, also after a crash; only directories that carry a run's mark
 * (cephfs_mark.c). Nothing outside /cephbench is looked at. A run directory
 * whose owner mark names a live process on this host is kept. */
#include "cephfs_priv.h"
#include "owner.h"

#include <dirent.h>
#include <jansson.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* Evict the dead sessions one rank lists (with own, also this process's
 * other than cm's); false when the rank answers not. */
static bool evict_dead_on(struct ceph_mount_info *cm, const char *rank, bool own)
{
	uint64_t self = ceph_get_instance_id(cm);
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
		if (!mark || id <= 0 || (uint64_t)id == self)
			continue;
		enum cb_owner_state st = cb_owner_state(mark, &pid);
		if (st != CB_OWNER_GONE && !(own && st == CB_OWNER_ALIVE && pid == getpid()))
			continue;
		snprintf(cmd, sizeof(cmd),
			 "{\"prefix\": \"session evict\", \"filters\": [\"id=%lld\"]}",
			 (long long)id);
		ceph_buffer_free(mds_command(cm, rank, cmd, &len));
	}
	json_decref(ls);
	return true;
}

void cfs_evict_dead(struct ceph_mount_info *cm, bool own)
{
	/* rank by rank: a session lives on the ranks its client talked to */
	for (int rank = 0; rank < CFS_MAX_RANKS; rank++) {
		char spec[16];
		snprintf(spec, sizeof(spec), "%d", rank);
		if (!evict_dead_on(cm, spec, own))
			break;
	}
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

/* What a cleanup left alone, for its note: how many entries, and the
 * first ones' names and why. */
struct left_alone {
	unsigned n;
	char list[320];
};

static void leave(struct left_alone *l, const char *name, const char *why)
{
	size_t len = strlen(l->list);
	char shown[48];
	/* a user's name, shown without the bytes a terminal would act on */
	snprintf(shown, sizeof(shown), "%s", name);
	for (char *c = shown; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	if (l->n++ < 4)
		snprintf(l->list + len, sizeof(l->list) - len, "%s%s (%s)", len ? ", " : "", shown,
			 why);
	else if (l->n == 5)
		snprintf(l->list + len, sizeof(l->list) - len, ", ...");
}

/* Clean the entry name of /cephbench. Only what carries a run's mark is
 * removed, whole: the run directory is the run's own, so whatever is below
 * it goes too (docs/cleanup.md). An unmarked directory, a symlink or a file
 * is left, and said so; of the reserved name a run makes its directory
 * under, an unmarked one (a run killed before marking it) is removed only
 * when empty, by rmdir, which removes nothing else. A live run's directory
 * is kept: *live gets its pid. */
static int clean_entry(struct ceph_mount_info *cm, const struct cb_cleanup_req *req,
		       const char *name, uint64_t *removed, int *live, struct left_alone *l)
{
	char path[PATH_MAX];
	enum cb_owner_state st;
	int pid, r;
	snprintf(path, sizeof(path), "%s/%s", CFS_ROOT, name);
	switch ((r = cfs_inspect(cm, path, req->run_id, &st, &pid))) {
	case CFS_ABSENT:
		return 0;
	case CFS_NOT_DIR:
		leave(l, name, "not a directory");
		return 0;
	case CFS_UNMARKED:
		if (!cfs_is_new_name(name, NULL)) {
			leave(l, name, "no mark");
			return 0;
		}
		r = ceph_rmdir(cm, path);
		if (r == 0)
			(*removed)++;
		else if (r == -ENOTEMPTY || r == -ENOTDIR)
			leave(l, name, "no mark, not empty");
		return r == -ENOENT || r == -ENOTEMPTY || r == -ENOTDIR ? 0 : r;
	case CFS_OTHERS:
		if (st == CB_OWNER_ALIVE) {
			*live = pid;
			return 0;
		}
		/* a gone process's, or one this host cannot check */
		return cfs_remove_tree(cm, path, removed);
	case CFS_MINE:
		return cfs_remove_tree(cm, path, removed);
	default:
		return r;
	}
}

/* Every entry name of path into *names (the caller frees each and the
 * array); 0 or -errno. The directory is closed before anything is removed,
 * so removal never disturbs the listing. */
static int list_all(struct ceph_mount_info *cm, const char *path, char ***names, size_t *n)
{
	struct ceph_dir_result *d;
	struct dirent de;
	size_t cap = 0;
	*names = NULL;
	*n = 0;
	int r = ceph_opendir(cm, path, &d);
	if (r < 0)
		return r;
	while ((r = ceph_readdir_r(cm, d, &de)) == 1) {
		if (strcmp(de.d_name, ".") == 0 || strcmp(de.d_name, "..") == 0)
			continue;
		if (*n == cap) {
			char **g = realloc(*names, (cap = cap ? 2 * cap : 16) * sizeof(*g));
			if (!g) {
				r = -ENOMEM;
				break;
			}
			*names = g;
		}
		if (!((*names)[*n] = strdup(de.d_name))) {
			r = -ENOMEM;
			break;
		}
		(*n)++;
	}
	ceph_closedir(cm, d);
	return r < 0 ? r : 0;
}

/* Whether cleanup looks at the entry name: with a run name, only that
 * run's directory and its reserved names. */
static bool wanted(const struct cb_cleanup_req *req, const char *name)
{
	return !req->run_name || strcmp(name, req->run_name) == 0 ||
	       cfs_is_new_name(name, req->run_name);
}

int cfs_cleanup(struct cb_cleanup_req *req)
{
	const char *fs = req->lopts ? ((const struct cfs_opts *)req->lopts)->fs : req->target;
	struct ceph_mount_info *cm;
	struct left_alone l = {0, ""};
	char kept[256] = "", **names = NULL;
	size_t n = 0;
	int live = 0, r;
	if (!fs)
		return 0;
	if ((r = cfs_mount(req->conn, fs, CFS_CACHE_INODES, &cm, req->err)) < 0)
		return r;
	/* before anything a killed run's caps would stall; this process's
	 * other sessions too: its clients' mounts are released by now, so one
	 * still listed is a client the runner abandoned (ceph_abort_conn drops
	 * it without closing it), whose caps would stall the walk */
	cfs_evict_dead(cm, true);
	r = cfs_real_dir(cm, CFS_ROOT);
	if (r == -ENOTDIR) {
		/* no run makes anything through it (cfs_prepare_run refuses it) */
		snprintf(req->note, sizeof(req->note),
			 "left %s in file system %s alone: not a directory (a symlink?), so no "
			 "run made anything there",
			 CFS_ROOT, fs);
		r = -ENOENT;
	}
	if (r == 0)
		r = list_all(cm, CFS_ROOT, &names, &n);
	for (size_t i = 0; i < n; i++) {
		int pid = 0;
		if (r == 0 && wanted(req, names[i]))
			r = clean_entry(cm, req, names[i], &req->removed, &pid, &l);
		if (pid) {
			live = pid;
			snprintf(kept, sizeof(kept), "%s", names[i]);
		}
		free(names[i]);
	}
	free(names);
	if (r == 0)
		ceph_rmdir(cm, CFS_ROOT); /* only when empty; other runs may be using it */
	cfs_unmount(cm, cfs_unmount_bound(req->conn));
	if (r == -ENOENT)
		r = 0; /* no /cephbench: no run ever made anything here */
	if (l.n)
		snprintf(req->note, sizeof(req->note),
			 "left %u entr%s of %s in file system %s alone, not made by cephbench (a "
			 "run's directory carries the mark " CFS_XATTR_RUN_ID "): %s",
			 l.n, l.n == 1 ? "y" : "ies", CFS_ROOT, fs, l.list);
	if (r < 0)
		return cb_err_cluster(req->err, r, "removing %s%s%s in file system %s: %s",
				      CFS_ROOT, req->run_name ? "/" : "",
				      req->run_name ? req->run_name : "", fs, strerror(-r));
	if (live)
		return cb_err_cluster(req->err, -EBUSY,
				      "kept %s/%s in file system %s: a live run (pid %d) uses it",
				      CFS_ROOT, kept, fs, live);
	return 0;
}
