/* Whole-file writes by rename (atomic_file.h). */
#include "atomic_file.h"

#include <errno.h>
#include <stdio.h>
#include <unistd.h>

int cb_write_file_atomic(const char *path, int (*render)(FILE *f, const void *arg), const void *arg)
{
	char tmp[4096];
	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid()) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	FILE *f = fopen(tmp, "w");
	if (!f)
		return -errno;
	int r = render(f, arg);
	if (fclose(f) != 0 && r == 0)
		r = errno ? -errno : -EIO;
	if (r == 0 && rename(tmp, path) != 0)
		r = -errno;
	if (r < 0)
		unlink(tmp);
	return r;
}
