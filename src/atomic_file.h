/* Writing a whole file so that a reader (a scrape, a cron job, a script
 * waiting for the result) never sees half of it: into a new PATH.tmp.XXXXXX in the
 * same directory, then renamed over PATH. */
#ifndef CB_ATOMIC_FILE_H
#define CB_ATOMIC_FILE_H

#include <stdio.h>

/* render writes the content to f; 0 or -errno. Returns 0 or -errno (of the
 * open, the render, the close or the rename); nothing is left on failure. */
int cb_write_file_atomic(const char *path, int (*render)(FILE *f, const void *arg),
			 const void *arg);

#endif
