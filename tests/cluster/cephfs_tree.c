/* Test helper: looks at a CephFS file system through libcephfs itself, never
 * through cephbench, for the cephfs cluster tests.
 *
 *   cephfs_tree count CONF FS PATH   "dirs N files M" below PATH (PATH not counted)
 *   cephfs_tree exists CONF FS PATH  exit 0 when PATH exists, 1 when not
 *   cephfs_tree seed CONF FS PATH    make PATH with files and a subdirectory of
 *                                    deterministic content (PATH must not exist)
 *   cephfs_tree sum CONF FS PATH     a checksum of the names, types and contents
 *                                    of everything below PATH
 *   cephfs_tree written CONF FS PATH the 4 KiB blocks of the files below PATH
 *                                    that hold a byte other than zero (what a
 *                                    run's non-zero 4K writes left, each once)
 *   cephfs_tree rm CONF FS PATH      remove PATH and everything below it
 *   cephfs_tree symlink CONF FS PATH TARGET   make PATH a symlink to TARGET
 *   cephfs_tree unlink CONF FS PATH  remove the name PATH (a symlink itself)
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
			if (de.d_type == DT_DIR) {
				w->dirs++;
				r = walk(path, rel, w, 0);
			} else {
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

static int usage(void)
{
	fprintf(stderr, "usage: cephfs_tree count|exists|seed|sum|written|rm|unlink CONF FS PATH\n"
			"       cephfs_tree symlink CONF FS PATH TARGET\n");
	return 2;
}

int main(int argc, char **argv)
{
	if (argc != 5 && !(argc == 6 && strcmp(argv[1], "symlink") == 0))
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
	if (strcmp(cmd, "symlink") == 0) {
		if ((r = ceph_symlink(cm, argv[5], path)) < 0)
			code = fail(3, "cannot make the symlink", path, r);
	} else if (strcmp(cmd, "unlink") == 0) {
		/* the name itself, never what a symlink points to */
		if ((r = ceph_unlink(cm, path)) < 0)
			code = fail(r == -ENOENT ? 1 : 3, "cannot unlink", path, r);
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
		if (r == 0 && (r = walk(p, strlen(p), &w, rm)) == 0 && rm)
			r = ceph_rmdir(cm, path);
		if (r < 0)
			code = fail(r == -ENOENT ? 1 : 3, "cannot walk", path, r);
		else if (cmd[0] == 'c')
			printf("dirs %" PRIu64 " files %" PRIu64 "\n", w.dirs, w.files);
		else if (cmd[0] == 's')
			printf("%016" PRIx64 " dirs %" PRIu64 " files %" PRIu64 "\n", w.sum, w.dirs,
			       w.files);
		else if (cmd[0] == 'w')
			printf("%" PRIu64 "\n", w.written);
	} else {
		code = usage();
	}
	ceph_unmount(cm);
	ceph_release(cm);
	return code;
}
