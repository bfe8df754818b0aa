/* md_bare: mdtest's phases as a bare libcephfs loop, no tool around it: the
 * floor for any tool's own per-op cost (mdtest's loop is this, plus MPI
 * barriers). bench/cephfs-tree runs it beside cephbench when mdtest itself
 * is missing. One client, one op at a time; prints "phase ops seconds".
 *
 * Paths are relative to DIR (the mount's working directory), as cephbench's.
 *
 * usage: md_bare CONF CLIENT FS DIR DEPTH BRANCH ITEMS [files]
 * DIR (at the file system's root) must not exist; it is removed at the end. */
#include <cephfs/libcephfs.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

struct md {
	struct ceph_mount_info *cm;
	const char *dir;
	unsigned long depth, branch, items, nodes;
};

static void node_path(const struct md *m, unsigned long n, char *buf, size_t len)
{
	unsigned long chain[64];
	int k = 0;
	for (;;) {
		chain[k++] = n;
		if (n == 0)
			break;
		n = (n - 1) / m->branch;
	}
	size_t l = 0;
	while (k-- > 0)
		l += (size_t)snprintf(buf + l, len - l, "%st.%lu", l ? "/" : "", chain[k]);
}

enum { MKDIR, RMDIR, STAT, RENAME, CREATE, READ, UNLINK };

/* One phase over the tree's nodes (tree ops) or its items; exits on error. */
static void phase(struct md *m, const char *name, int op, char kind, bool tree)
{
	char p[4096], q[4096];
	struct ceph_statx stx;
	unsigned long n = tree ? m->nodes : m->nodes * m->items;
	double t0 = now();
	for (unsigned long j = 0; j < n; j++) {
		int r;
		if (tree) {
			node_path(m, op == RMDIR ? m->nodes - 1 - j : j, p, sizeof(p));
		} else {
			node_path(m, j / m->items, p, sizeof(p));
			size_t l = strlen(p);
			snprintf(p + l, sizeof(p) - l, "/%c.0.%lu", kind, j);
		}
		switch (op) {
		case MKDIR:
			r = ceph_mkdir(m->cm, p, 0755);
			break;
		case RMDIR:
			r = ceph_rmdir(m->cm, p);
			break;
		case STAT:
			r = ceph_statx(m->cm, p, &stx, CEPH_STATX_BASIC_STATS, 0);
			break;
		case RENAME:
			snprintf(q, sizeof(q), "%s", p);
			q[strlen(q) - strlen(strrchr(q, '/')) + 1] = 'r';
			r = ceph_rename(m->cm, p, q);
			break;
		case CREATE:
		case READ:
			r = ceph_open(m->cm, p,
				      op == CREATE ? O_CREAT | O_EXCL | O_WRONLY : O_RDONLY, 0644);
			if (r >= 0)
				r = ceph_close(m->cm, r);
			break;
		default:
			r = ceph_unlink(m->cm, p);
			break;
		}
		if (r < 0) {
			fprintf(stderr, "md_bare: %s %s: %s\n", name, p, strerror(-r));
			exit(1);
		}
	}
	printf("%s %lu %.6f\n", name, n, now() - t0);
}

int main(int argc, char **argv)
{
	if (argc < 8) {
		fprintf(stderr, "usage: md_bare CONF CLIENT FS DIR DEPTH BRANCH ITEMS [files]\n");
		return 2;
	}
	struct md m = {.dir = argv[4],
		       .depth = strtoul(argv[5], NULL, 10),
		       .branch = strtoul(argv[6], NULL, 10),
		       .items = strtoul(argv[7], NULL, 10)};
	bool files_only = argc > 8 && strcmp(argv[8], "files") == 0;
	unsigned long level = 1;
	for (unsigned long l = 0; l <= m.depth; l++, level *= m.branch)
		m.nodes += level;
	int r = ceph_create(&m.cm, argv[2]);
	if (r == 0)
		r = ceph_conf_read_file(m.cm, argv[1]);
	if (r == 0)
		r = ceph_select_filesystem(m.cm, argv[3]);
	if (r == 0)
		r = ceph_mount(m.cm, "/");
	if (r == 0)
		r = ceph_mkdir(m.cm, m.dir, 0755);
	if (r == 0) /* paths relative to DIR, as cephbench's */
		r = ceph_chdir(m.cm, m.dir);
	if (r < 0) {
		fprintf(stderr, "md_bare: mount/mkdir %s: %s\n", m.dir, strerror(-r));
		return 1;
	}
	phase(&m, "tree-create", MKDIR, 0, true);
	if (!files_only) {
		phase(&m, "dir-create", MKDIR, 'd', false);
		phase(&m, "dir-stat", STAT, 'd', false);
		phase(&m, "dir-rename", RENAME, 'd', false);
		phase(&m, "dir-remove", RMDIR, 'r', false);
	}
	phase(&m, "file-create", CREATE, 'f', false);
	phase(&m, "file-stat", STAT, 'f', false);
	if (!files_only)
		phase(&m, "file-read", READ, 'f', false);
	phase(&m, "file-remove", UNLINK, 'f', false);
	phase(&m, "tree-remove", RMDIR, 0, true);
	ceph_rmdir(m.cm, m.dir);
	ceph_unmount(m.cm);
	ceph_release(m.cm);
	return 0;
}
