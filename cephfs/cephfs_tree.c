/* mdtest's tree test: the tree's geometry and its metadata ops. A client's
 * item j of a phase is one op; names carry the client and j
 * ("d.<client>.<j>", "f.<client>.<j>"), so clients sharing a tree never
 * collide, and every later phase finds exactly what the create phase made. */
#include "cephfs_priv.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

int cfs_tree_plan(const struct cfs_opts *o, struct cfs_tree *t, char *why, size_t n)
{
	memset(t, 0, sizeof(*t));
	if (o->branch == 0) {
		snprintf(why, n,
			 "branch: 0 makes no tree: give 1 or more subdirectories per level");
		return -EINVAL;
	}
	if (o->leaf_only && o->depth == 0) {
		snprintf(why, n,
			 "leaf_only needs depth 1 or more: a tree of depth 0 is one "
			 "directory with no leaves below it");
		return -EINVAL;
	}
	if ((o->items != 0) == (o->total_items != 0)) {
		snprintf(why, n, "give either items (per directory) or total_items (per client)");
		return -EINVAL;
	}
	uint64_t level = 1;
	t->depth = o->depth;
	t->branch = o->branch;
	for (uint64_t l = 0; l <= o->depth; l++) {
		t->nodes += level;
		if (t->nodes > CFS_MAX_NODES) {
			snprintf(
			    why, n,
			    "depth %llu with branch %llu makes more than %llu directories: use a "
			    "smaller tree",
			    (unsigned long long)o->depth, (unsigned long long)o->branch,
			    CFS_MAX_NODES);
			return -ERANGE;
		}
		if (l < o->depth)
			level *= o->branch;
	}
	/* level is now branch^depth, the leaves */
	t->first_dir = o->leaf_only ? t->nodes - level : 0;
	t->ndirs = o->leaf_only ? level : t->nodes;
	if (o->items) {
		if (o->items > (1ULL << 40) / t->ndirs) {
			snprintf(why, n, "items: %llu in each of %llu directories is too many",
				 (unsigned long long)o->items, (unsigned long long)t->ndirs);
			return -ERANGE;
		}
		t->per_dir = o->items;
		t->items = o->items * t->ndirs;
	} else {
		t->per_dir = o->total_items / t->ndirs;
		t->rem = o->total_items % t->ndirs;
		t->items = o->total_items;
	}
	return 0;
}

/* The directory holding item j: the first rem directories hold one more. */
static uint64_t dir_of(const struct cfs_tree *t, uint64_t j)
{
	uint64_t big = t->rem * (t->per_dir + 1);
	if (j < big)
		return t->first_dir + j / (t->per_dir + 1);
	return t->first_dir + t->rem + (j - big) / t->per_dir;
}

/* "t.0/t.2/t.9" for node m, relative to the base (the mount's working
 * directory): the chain of parents, root first. */
static int node_path(const struct cfs_state *s, uint64_t m, char *buf, size_t n)
{
	uint64_t chain[CFS_MAX_DEPTH + 1];
	size_t k = 0;
	for (;;) {
		chain[k++] = m;
		if (m == 0)
			break;
		m = (m - 1) / s->t.branch;
	}
	size_t len = 0;
	while (k-- > 0 && len < n)
		len += (size_t)snprintf(buf + len, n - len, "%st.%llu", len ? "/" : "",
					(unsigned long long)chain[k]);
	return len < n ? 0 : -ENAMETOOLONG;
}

/* Whose items the step works on: with a stride, the stat, read and remove
 * phases another client's (mdtest -N), each client's items still once. */
static unsigned owner(const struct cfs_state *s)
{
	bool strided = s->step == CFS_DIR_STAT || s->step == CFS_DIR_REMOVE ||
		       s->step == CFS_FILE_STAT || s->step == CFS_FILE_READ ||
		       s->step == CFS_FILE_REMOVE;
	return strided && s->stride ? (unsigned)((s->client + s->stride) % s->clients) : s->client;
}

static int item_path(struct cfs_state *s, char kind, uint64_t j)
{
	unsigned who = owner(s);
	size_t len = 0;
	/* a tree of each client's own: the other's, beside this one's base */
	if (who != s->client && s->o->unique_dir)
		len = (size_t)snprintf(s->path, sizeof(s->path), "../c%u/", who);
	int r = node_path(s, dir_of(&s->t, j), s->path + len, sizeof(s->path) - len);
	len = strlen(s->path);
	if (r == 0 && (size_t)snprintf(s->path + len, sizeof(s->path) - len, "/%c.%u.%llu", kind,
				       who, (unsigned long long)j) >= sizeof(s->path) - len)
		r = -ENAMETOOLONG;
	return r;
}

/* Whether this client builds and removes a tree: each its own with
 * unique_dir, else client 0 the shared one. */
static bool builds_tree(const struct cfs_state *s)
{
	return s->o->unique_dir || s->client == 0;
}

int cfs_tree_setup(struct cb_phase *ph, struct cfs_state *s)
{
	char why[256];
	int r = cfs_tree_plan(s->o, &s->t, why, sizeof(why));
	if (r < 0)
		return cb_err_usage(ph->err, "workload '%s': %s", ph->wl->name, why);
	uint64_t *made = s->ss->made;
	switch (s->step) {
	case CFS_TREE_CREATE:
		memset(made, 0, sizeof(s->ss->made)); /* a new iteration */
						      /* fall through */
	case CFS_TREE_REMOVE:
		s->count = builds_tree(s) ? s->t.nodes : 0;
		break;
	case CFS_DIR_CREATE:
	case CFS_FILE_CREATE:
		s->count = s->t.items;
		break;
	case CFS_DIR_STAT:
	case CFS_DIR_RENAME:
	case CFS_DIR_REMOVE:
		s->count = made[CFS_DIR_CREATE];
		break;
	default:
		s->count = made[CFS_FILE_CREATE];
		break;
	}
	return s->count ? 0 : CB_EOF;
}

static int file_create(struct cfs_state *s, struct cb_op *op)
{
	int fd = ceph_open(s->ss->cm, s->path, O_CREAT | O_EXCL | O_WRONLY, 0644);
	if (fd < 0)
		return fd;
	int r = 0;
	if (op->len)
		r = ceph_write(s->ss->cm, fd, op->buf, (int64_t)op->len, 0);
	int cr = ceph_close(s->ss->cm, fd);
	if (r >= 0 && (uint64_t)r != op->len)
		r = -EIO; /* a short write of a fresh file */
	return r < 0 ? r : (cr < 0 ? cr : (int)op->len);
}

static int file_read(struct cfs_state *s, struct cb_op *op)
{
	int fd = ceph_open(s->ss->cm, s->path, O_RDONLY, 0);
	if (fd < 0)
		return fd;
	int r = 0;
	if (op->len)
		r = ceph_read(s->ss->cm, fd, op->buf, (int64_t)op->len, 0);
	int cr = ceph_close(s->ss->cm, fd);
	return r < 0 ? r : (cr < 0 ? cr : r);
}

static int tree_op(struct cfs_state *s, struct cb_op *op, uint64_t j)
{
	struct ceph_mount_info *cm = s->ss->cm;
	struct ceph_statx stx;
	char to[PATH_MAX];
	int r;

	switch (s->step) {
	case CFS_TREE_CREATE:
		r = node_path(s, j, s->path, sizeof(s->path));
		return r < 0 ? r : ceph_mkdir(cm, s->path, 0755);
	case CFS_TREE_REMOVE:
		/* breadth-first order backwards: children before their parent */
		r = node_path(s, s->t.nodes - 1 - j, s->path, sizeof(s->path));
		return r < 0 ? r : ceph_rmdir(cm, s->path);
	case CFS_DIR_CREATE:
		r = item_path(s, 'd', j);
		return r < 0 ? r : ceph_mkdir(cm, s->path, 0755);
	case CFS_DIR_STAT:
		r = item_path(s, 'd', j);
		return r < 0 ? r : ceph_statx(cm, s->path, &stx, CEPH_STATX_BASIC_STATS, 0);
	case CFS_DIR_RENAME:
		if ((r = item_path(s, 'r', j)) < 0)
			return r;
		memcpy(to, s->path, sizeof(to));
		r = item_path(s, 'd', j);
		return r < 0 ? r : ceph_rename(cm, s->path, to);
	case CFS_DIR_REMOVE:
		/* what a (stonewalled) rename got to is under its new name */
		r = item_path(s, j < s->ss->made[CFS_DIR_RENAME] ? 'r' : 'd', j);
		return r < 0 ? r : ceph_rmdir(cm, s->path);
	case CFS_FILE_CREATE:
		r = item_path(s, 'f', j);
		return r < 0 ? r : file_create(s, op);
	case CFS_FILE_STAT:
		r = item_path(s, 'f', j);
		return r < 0 ? r : ceph_statx(cm, s->path, &stx, CEPH_STATX_BASIC_STATS, 0);
	case CFS_FILE_READ:
		r = item_path(s, 'f', j);
		return r < 0 ? r : file_read(s, op);
	case CFS_FILE_REMOVE:
		r = item_path(s, 'f', j);
		return r < 0 ? r : ceph_unlink(cm, s->path);
	default:
		return -EINVAL;
	}
}

int cfs_tree_submit(struct cfs_state *s, struct cb_op *op)
{
	uint64_t j = s->next++;
	op->where = j;
	op->is_write =
	    s->step != CFS_DIR_STAT && s->step != CFS_FILE_STAT && s->step != CFS_FILE_READ;
	op->len = s->step == CFS_FILE_CREATE ? s->o->write_bytes
		  : s->step == CFS_FILE_READ ? s->o->read_bytes
					     : 0;
	cb_op_done(op, tree_op(s, op, j));
	return 0;
}

void cfs_tree_teardown(struct cfs_state *s)
{
	s->ss->made[s->step] = s->next;
}

void cfs_bfs_path(uint64_t branch, uint64_t m, char *buf, size_t n)
{
	uint64_t chain[CFS_MAX_DEPTH + 1];
	size_t k = 0, len = 0;
	for (; m && k <= CFS_MAX_DEPTH; m = (m - 1) / branch)
		chain[k++] = (m - 1) % branch;
	buf[0] = '\0';
	while (k-- > 0 && len < n)
		len += (size_t)snprintf(buf + len, n - len, "%st.%llu", len ? "/" : "",
					(unsigned long long)chain[k]);
	if (!len)
		snprintf(buf, n, ".");
}
