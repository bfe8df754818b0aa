/* Test helper: looks at a CephFS file system through libcephfs itself, never
 * through cephbench, for the cephfs cluster tests.
 *
 *   cephfs_tree count CONF FS PATH   "dirs N files M" below PATH (PATH not counted)
 *   cephfs_tree exists CONF FS PATH  exit 0 when PATH exists, 1 when not
 *   cephfs_tree seed CONF FS PATH    make PATH with files and a subdirectory of
 *                                    deterministic content (PATH must not exist)
 *   cephfs_tree sum CONF FS PATH     a checksum of the names, types, contents,
 *                                    symlink targets and user.* xattrs of everything
 *                                    below PATH, and of PATH's own user.* xattrs
 *   cephfs_tree sums CONF FS PATH...  "PATH SUM-LINE" for each PATH (as sum), or
 *                                    "PATH gone" when it is missing: one mount
 *                                    for many paths (a mount costs most of a
 *                                    second under ASan)
 *   cephfs_tree written CONF FS PATH the 4 KiB blocks of the files below PATH
 *                                    that hold a byte other than zero (what a
 *                                    run's non-zero 4K writes left, each once)
 *   cephfs_tree sizes CONF FS PATH   "RELPATH SIZE" of every file below PATH, a line each
 *   cephfs_tree rm CONF FS PATH      remove PATH and everything below it
 *   cephfs_tree symlink CONF FS PATH TARGET   make PATH a symlink to TARGET
 *   cephfs_tree unlink CONF FS PATH  remove the name PATH (a symlink itself)
 *   cephfs_tree file CONF FS PATH    make PATH a file of 1000 bytes
 *   cephfs_tree mkdir CONF FS PATH   make PATH an empty directory
 *   cephfs_tree xattr CONF FS PATH NAME VALUE   set xattr NAME of PATH itself
 *   cephfs_tree runs CONF FS PATH    the entries of PATH a cephbench run left, one
 *                                    a line: those carrying a run's mark (16 hex
 *                                    digits in user.cephbench.run_id),
 *                                    and empty directories named .new.* (nothing
 *                                    when PATH is missing)
 *
 * Exit 0 ok, 1 PATH missing (or present, for seed), 2 usage, 3 cluster error. */
#include <cephfs/libcephfs.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static struct ceph_mount_info *cm;

static int fail(int code, const char *what, const char *path, int r)
{
	fprintf(stderr, "cephfs_tree: %s %s: %s\n", what, path, strerror(-r));
	return code;
}

/* FNV-1a, 64 bits. */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ c[i]) * 0x100000001b3ULL;
	return h;
}

struct walk {
	uint64_t dirs, files, sum, written;
};

/* The content hashed into *h; the 4 KiB blocks holding a byte other than
 * zero counted into *written (a hole reads as zeros). */
static int file_scan(const char *path, uint64_t *h, uint64_t *written)
{
	char buf[65536];
	int64_t off = 0, n;
	bool data = false; /* in the block being read */
	int fd = ceph_open(cm, path, O_RDONLY, 0);
	if (fd < 0)
		return fd;
	while ((n = ceph_read(cm, fd, buf, sizeof(buf), off)) > 0) {
		*h = fnv(*h, buf, (size_t)n);
		for (int64_t i = 0; i < n; i++) {
			data |= buf[i] != 0;
			if ((off + i + 1) % 4096 == 0) {
				*written += data;
				data = false;
			}
		}
		off += n;
	}
	*written += data;
	ceph_close(cm, fd);
	return n < 0 ? (int)n : 0;
}

/* The user.* xattrs of path itself (names and values) hashed into *h, in
 * the order listed. */
static int xattrs_scan(const char *path, uint64_t *h)
{
	char names[4096], val[4096];
	int n = ceph_llistxattr(cm, path, names, sizeof(names));
	if (n < 0)
		return n;
	for (char *x = names; x < names + n; x += strlen(x) + 1) {
		if (strncmp(x, "user.", 5) != 0)
			continue;
		int v = ceph_lgetxattr(cm, path, x, val, sizeof(val));
		if (v < 0)
			return v;
		*h = fnv(fnv(*h, x, strlen(x) + 1), val, (size_t)v);
	}
	return 0;
}

/* A symlink's target, or a file's content, hashed into *h. */
static int entry_scan(const char *path, unsigned mode, uint64_t *h)
{
	char target[PATH_MAX];
	uint64_t written = 0;
	if (!S_ISLNK(mode))
		return file_scan(path, h, &written);
	int r = ceph_readlink(cm, path, target, sizeof(target));
	if (r < 0)
		return r;
	*h = fnv(*h, target, (size_t)r);
	return 0;
}

/* Walk below path (a PATH_MAX buffer, restored on return); rel is where the
 * relative part starts. Each entry adds the hash of its relative path, its
 * type and its content to the sum: the order of the listing does not count. */
static int walk(char *path, size_t rel, struct walk *w, int remove)
{
	struct ceph_dir_result *d;
	struct dirent de;
	size_t len = strlen(path);
	int r = ceph_opendir(cm, path, &d);
	if (r < 0)
		return r;
	while ((r = ceph_readdir_r(cm, d, &de)) == 1) {
		if (strcmp(de.d_name, ".") == 0 || strcmp(de.d_name, "..") == 0)
			continue;
		if ((size_t)snprintf(path + len, PATH_MAX - len, "/%s", de.d_name) >=
		    PATH_MAX - len)
			r = -ENAMETOOLONG;
		else if (remove && de.d_type == DT_DIR) {
			/* the listing restarts after each removal */
			if ((r = walk(path, rel, w, 1)) == 0 && (r = ceph_rmdir(cm, path)) == 0) {
				ceph_rewinddir(cm, d);
				r = 1;
			}
		} else if (remove) {
			if ((r = ceph_unlink(cm, path)) == 0) {
				ceph_rewinddir(cm, d);
				r = 1;
			}
		} else {
			uint64_t h = fnv(0xcbf29ce484222325ULL, path + rel, strlen(path + rel) + 1);
			h = fnv(h, &de.d_type, 1);
			r = xattrs_scan(path, &h);
			if (r == 0 && de.d_type == DT_DIR) {
				w->dirs++;
				r = walk(path, rel, w, 0);
			} else if (r == 0 && de.d_type == DT_LNK) {
				w->files++;
				r = entry_scan(path, S_IFLNK, &h);
			} else if (r == 0) {
				w->files++;
				r = file_scan(path, &h, &w->written);
			}
			w->sum += h;
			if (r == -ENOENT)
				r = 0; /* removed while we looked: a run is going */
		}
		path[len] = '\0';
		if (r < 0)
			break;
	}
	ceph_closedir(cm, d);
	return r < 0 ? r : 0;
}

static int put_file(const char *path, uint64_t seed, size_t size)
{
	char buf[4096];
	int64_t off = 0;
	int fd = ceph_open(cm, path, O_CREAT | O_EXCL | O_WRONLY, 0644);
	if (fd < 0)
		return fd;
	while ((size_t)off < size) {
		size_t n = size - (size_t)off < sizeof(buf) ? size - (size_t)off : sizeof(buf);
		for (size_t i = 0; i < n; i++)
			buf[i] = (char)((seed * 131 + (uint64_t)off + i) * 2654435761ULL >> 13);
		int r = ceph_write(cm, fd, buf, (int64_t)n, off);
		if (r < 0) {
			ceph_close(cm, fd);
			return r;
		}
		off += r;
	}
	return ceph_close(cm, fd);
}

/* PATH with 4 files (0 B to 100 KB), a subdirectory with 2 more, an empty one. */
static int seed(const char *path)
{
	static const size_t sizes[] = {0, 1, 4096, 100000};
	char p[PATH_MAX];
	int r = ceph_mkdirs(cm, path, 0755);
	for (size_t i = 0; r == 0 && i < 4; i++) {
		snprintf(p, sizeof(p), "%s/file.%zu", path, i);
		r = put_file(p, i, sizes[i]);
	}
	snprintf(p, sizeof(p), "%s/sub", path);
	if (r == 0)
		r = ceph_mkdir(cm, p, 0755);
	for (size_t i = 0; r == 0 && i < 2; i++) {
		snprintf(p, sizeof(p), "%s/sub/data.%zu", path, i);
		r = put_file(p, 10 + i, 5000 * (i + 1));
	}
	snprintf(p, sizeof(p), "%s/empty", path);
	return r == 0 ? ceph_mkdir(cm, p, 0755) : r;
}

/* Whether the directory path holds nothing (false when unreadable). */
static bool empty_dir(const char *path)
{
	struct ceph_dir_result *d;
	struct dirent de;
	int r, n = 0;
	if (ceph_opendir(cm, path, &d) < 0)
		return false;
	while ((r = ceph_readdir_r(cm, d, &de)) == 1)
		n += strcmp(de.d_name, ".") != 0 && strcmp(de.d_name, "..") != 0;
	ceph_closedir(cm, d);
	return r == 0 && n == 0;
}

/* Print the entries of path a cephbench run left (see the top). */
static int runs(const char *path)
{
	struct ceph_dir_result *d;
	struct dirent de;
	char p[PATH_MAX], v[64];
	int r = ceph_opendir(cm, path, &d);
	if (r == -ENOENT)
		return 0;
	if (r < 0)
		return r;
	while ((r = ceph_readdir_r(cm, d, &de)) == 1) {
		if (strcmp(de.d_name, ".") == 0 || strcmp(de.d_name, "..") == 0)
			continue;
		snprintf(p, sizeof(p), "%s/%s", path, de.d_name);
		int n = ceph_lgetxattr(cm, p, "user.cephbench.run_id", v, sizeof(v) - 1);
		v[n > 0 ? n : 0] = '\0';
		/* a mark as a run sets it: its run id, 16 lowercase hex digits */
		bool marked = strlen(v) == 16 && strspn(v, "0123456789abcdef") == 16;
		bool reserved =
		    de.d_type == DT_DIR && strncmp(de.d_name, ".new.", 5) == 0 && empty_dir(p);
		if (marked || reserved)
			printf("%s\n", de.d_name);
	}
	ceph_closedir(cm, d);
	return r;
}

/* Each file below path (a PATH_MAX buffer, extended on the way down) as
 * its path relative to rel and its size. */
static int sizes(char *path, size_t rel)
{
	struct ceph_dir_result *d;
	struct dirent *e;
	size_t len = strlen(path);
	int r = ceph_opendir(cm, path, &d);
	if (r < 0)
		return r;
	while (r == 0 && (e = ceph_readdir(cm, d))) {
		struct ceph_statx stx;
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(path + len, PATH_MAX - len, "/%s", e->d_name);
		r = ceph_statx(cm, path, &stx, CEPH_STATX_MODE | CEPH_STATX_SIZE,
			       AT_SYMLINK_NOFOLLOW);
		if (r == 0 && S_ISDIR(stx.stx_mode))
			r = sizes(path, rel);
		else if (r == 0 && S_ISREG(stx.stx_mode))
			printf("%s %" PRIu64 "\n", path + rel, (uint64_t)stx.stx_size);
		path[len] = '\0';
	}
	ceph_closedir(cm, d);
	return r;
}

/* The sum line of PATH, as the sum command prints it. */
static int sum_one(const char *path)
{
	struct ceph_statx stx;
	struct walk w = {0, 0, 0, 0};
	char p[PATH_MAX];
	snprintf(p, sizeof(p), "%s", path);
	int r = ceph_statx(cm, path, &stx, CEPH_STATX_MODE, AT_SYMLINK_NOFOLLOW);
	if (r == 0)
		r = xattrs_scan(path, &w.sum);
	if (r == 0 && !S_ISDIR(stx.stx_mode))
		r = entry_scan(path, stx.stx_mode, &w.sum); /* a symlink or a file itself */
	else if (r == 0)
		r = walk(p, strlen(p), &w, 0);
	if (r == 0)
		printf("%016" PRIx64 " dirs %" PRIu64 " files %" PRIu64 "\n", w.sum, w.dirs,
		       w.files);
	return r;
}

static int usage(void)
{
	fprintf(stderr, "usage: cephfs_tree COMMAND CONF FS PATH, COMMAND one of count exists "
			"seed sum written sizes rm unlink file mkdir runs\n"
			"       cephfs_tree sums CONF FS PATH...\n"
			"       cephfs_tree symlink CONF FS PATH TARGET\n"
			"       cephfs_tree xattr CONF FS PATH NAME VALUE\n");
	return 2;
}

int main(int argc, char **argv)
{
	if (argc != 5 && !(argc >= 5 && strcmp(argv[1], "sums") == 0) &&
	    !(argc == 6 && strcmp(argv[1], "symlink") == 0) &&
	    !(argc == 7 && strcmp(argv[1], "xattr") == 0))
		return usage();
	const char *cmd = argv[1], *conf = argv[2], *fs = argv[3], *path = argv[4];
	int r = ceph_create(&cm, NULL);
	if (r == 0)
		r = ceph_conf_read_file(cm, conf);
	if (r == 0)
		r = ceph_conf_set(cm, "client_mount_timeout", "30");
	if (r == 0)
		r = ceph_select_filesystem(cm, fs);
	if (r == 0)
		r = ceph_mount(cm, "/");
	if (r < 0)
		return fail(3, "cannot mount file system", fs, r);

	struct ceph_statx stx;
	struct walk w = {0, 0, 0, 0};
	char p[PATH_MAX];
	int code = 0;
	snprintf(p, sizeof(p), "%s", path);
	r = ceph_statx(cm, path, &stx, CEPH_STATX_MODE, AT_SYMLINK_NOFOLLOW);
	if (strcmp(cmd, "sums") == 0) {
		for (int i = 4; i < argc && code == 0; i++) {
			printf("%s ", argv[i]);
			r = sum_one(argv[i]);
			if (r == -ENOENT)
				printf("gone\n");
			else if (r < 0)
				code = fail(3, "cannot walk", argv[i], r);
		}
	} else if (strcmp(cmd, "symlink") == 0) {
		if ((r = ceph_symlink(cm, argv[5], path)) < 0)
			code = fail(3, "cannot make the symlink", path, r);
	} else if (strcmp(cmd, "unlink") == 0) {
		/* the name itself, never what a symlink points to */
		if ((r = ceph_unlink(cm, path)) < 0)
			code = fail(r == -ENOENT ? 1 : 3, "cannot unlink", path, r);
	} else if (strcmp(cmd, "file") == 0) {
		if ((r = put_file(path, 7, 1000)) < 0)
			code = fail(r == -EEXIST ? 1 : 3, "cannot make the file", path, r);
	} else if (strcmp(cmd, "mkdir") == 0) {
		if ((r = ceph_mkdir(cm, path, 0755)) < 0)
			code = fail(r == -EEXIST ? 1 : 3, "cannot make the directory", path, r);
	} else if (strcmp(cmd, "xattr") == 0) {
		if ((r = ceph_lsetxattr(cm, path, argv[5], argv[6], strlen(argv[6]), 0)) < 0)
			code = fail(r == -ENOENT ? 1 : 3, "cannot set an xattr of", path, r);
	} else if (strcmp(cmd, "sizes") == 0) {
		if ((r = sizes(p, strlen(p) + 1)) < 0)
			code = fail(r == -ENOENT ? 1 : 3, "cannot walk", path, r);
	} else if (strcmp(cmd, "runs") == 0) {
		if ((r = runs(path)) < 0)
			code = fail(3, "cannot list", path, r);
	} else if (strcmp(cmd, "exists") == 0) {
		code = r == 0 ? 0 : r == -ENOENT ? 1 : fail(3, "cannot stat", path, r);
	} else if (strcmp(cmd, "seed") == 0) {
		if (r == 0)
			code = fail(1, "will not seed over", path, -EEXIST);
		else if ((r = seed(path)) < 0)
			code = fail(3, "cannot seed", path, r);
	} else if (strcmp(cmd, "count") == 0 || strcmp(cmd, "sum") == 0 || strcmp(cmd, "rm") == 0 ||
		   strcmp(cmd, "written") == 0) {
		int rm = cmd[0] == 'r';
		if (r == 0 && cmd[0] == 's')
			r = sum_one(path);
		else if (r == 0 && (r = walk(p, strlen(p), &w, rm)) == 0 && rm)
			r = ceph_rmdir(cm, path);
		if (r < 0)
			code = fail(r == -ENOENT ? 1 : 3, "cannot walk", path, r);
		else if (cmd[0] == 'c')
			printf("dirs %" PRIu64 " files %" PRIu64 "\n", w.dirs, w.files);
		else if (cmd[0] == 'w')
			printf("%" PRIu64 "\n", w.written);
	} else {
		code = usage();
	}
	ceph_unmount(cm);
	ceph_release(cm);
	return code;
}
