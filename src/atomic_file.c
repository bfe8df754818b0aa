/* Whole-file writes by rename (atomic_file.h). */
#include "atomic_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

int cb_write_file_atomic(const char *path, int (*render)(FILE *f, const void *arg), const void *arg)
{
	char tmp[4096];
	if (snprintf(tmp, sizeof(tmp), "%s.tmp.XXXXXX", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	/* mkstemp creates a new file (O_EXCL): the directory may be shared, as a
	 * textfile collector's is, and a name planted there (a symlink) must
	 * never be followed into a file this run did not create */
	int fd = mkstemp(tmp);
	if (fd < 0)
		return -errno;
	FILE *f = fchmod(fd, 0644) == 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		int r = -errno;
		close(fd);
		unlink(tmp);
		return r;
	}
	int r = render(f, arg);
	if (fclose(f) != 0 && r == 0)
		r = errno ? -errno : -EIO;
	if (r == 0 && rename(tmp, path) != 0)
		r = -errno;
	if (r < 0)
		unlink(tmp);
	return r;
}
