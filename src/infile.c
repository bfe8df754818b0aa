/* Checked reading of input files (infile.h). */
#include "infile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *cb_file_kind(unsigned mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG:
		return "a regular file";
	case S_IFDIR:
		return "a directory";
	case S_IFIFO:
		return "a FIFO";
	case S_IFCHR:
		return "a character device";
	case S_IFBLK:
		return "a block device";
	case S_IFSOCK:
		return "a socket";
	case S_IFLNK:
		return "a symlink";
	default:
		return "a special file";
	}
}

static int bad_kind(const char *path, const char *what, unsigned mode, struct cb_err *e)
{
	/* a reader told "FIFO" may not know the word */
	const char *kind = S_ISFIFO(mode) ? "a FIFO (named pipe)" : cb_file_kind(mode);
	return cb_err_usage(e, "%s: is %s: give a %s", path, kind, what);
}

static int too_big(const char *path, const char *what, unsigned long long size, size_t max,
		   struct cb_err *e)
{
	return cb_err_usage(e, "%s: %llu bytes, more than a %s may hold (%zu MiB)", path, size,
			    what, max >> 20);
}

/* Open path for reading only once it is known to be a regular file: stat
 * first (never open a device or a FIFO: either can block or act on open),
 * then fstat what was opened, which a rename in between could have changed.
 * O_NONBLOCK keeps even that open from waiting. */
static int open_regular(const char *path, const char *what, size_t max, struct cb_err *e)
{
	struct stat st;
	if (stat(path, &st) < 0)
		return cb_err_usage(e, "%s: cannot open %s: %s", path, what, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return bad_kind(path, what, st.st_mode, e);
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return cb_err_usage(e, "%s: cannot open %s: %s", path, what, strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		int r = errno ? -errno : -EINVAL;
		close(fd);
		return S_ISREG(st.st_mode)
			   ? cb_err_usage(e, "%s: cannot open %s: %s", path, what, strerror(-r))
			   : bad_kind(path, what, st.st_mode, e);
	}
	if ((unsigned long long)st.st_size > max) {
		close(fd);
		return too_big(path, what, (unsigned long long)st.st_size, max, e);
	}
	return fd;
}

int cb_infile_check(const char *path, const char *what, size_t max, struct cb_err *e)
{
	int fd = open_regular(path, what, max, e);
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

int cb_infile_read(const char *path, const char *what, size_t max, char **buf, size_t *len,
		   struct cb_err *e)
{
	*buf = NULL;
	*len = 0;
	int fd = open_regular(path, what, max, e);
	if (fd < 0)
		return fd;
	struct stat st;
	fstat(fd, &st);
	/* the size as fstat saw it, +1 to see a file that grows past max */
	size_t cap = (size_t)st.st_size + 1, n = 0;
	char *b = malloc(cap + 1);
	int r = b ? 0 : cb_err_usage(e, "out of memory reading %s", path);
	while (r == 0) {
		if (n == cap) {
			size_t ncap = cap * 2 > max + 1 ? max + 1 : cap * 2;
			char *nb = ncap > cap ? realloc(b, ncap + 1) : NULL;
			if (!nb) {
				r = ncap > cap ? cb_err_usage(e, "out of memory reading %s", path)
					       : too_big(path, what, n, max, e);
				break;
			}
			b = nb;
			cap = ncap;
		}
		ssize_t got = read(fd, b + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			r = cb_err_usage(e, "%s: cannot read %s: %s", path, what, strerror(errno));
		else if (got == 0)
			break;
		else
			n += (size_t)got;
	}
	close(fd);
	if (r == 0 && n > max)
		r = too_big(path, what, n, max, e);
	if (r < 0) {
		free(b);
		return r;
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}
