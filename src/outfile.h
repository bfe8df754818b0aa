/* The files cephbench writes (--json, --prom, --history): a path is looked
 * at before the run, by one set of rules (docs/result.md#output-files), so
 * that a benchmark run as root never replaces a device node, a symlink or
 * another user's file, never follows a planted symlink, and never hangs on
 * a FIFO; what is refused is refused before anything ran. */
#ifndef CB_OUTFILE_H
#define CB_OUTFILE_H

#include "err.h"

#include <stdbool.h>
#include <stdio.h>

enum cb_out_use {
	/* a whole file written after the run (--json, --prom): a new name or
	 * a regular file gets a new file renamed into place; a FIFO, a
	 * terminal, a null-like device or our own stdout/stderr is written
	 * through */
	CB_OUT_REPORT,
	/* a file SQLite opens by name and puts its FILE-journal beside
	 * (--history): a regular file or a new name only, in a directory no
	 * one else may write to */
	CB_OUT_DB,
};

struct cb_out;

/* Check path for use and hold what the write needs: the directory (opened
 * through no symlink another user could have planted), and for a FIFO or
 * a device the open file (a FIFO without a reader is refused, never waited
 * for). what names the file in messages ("--json out.json"). 0 with *out
 * set (free it with cb_out_close), or -errno with e set (one line, exit 2). */
int cb_out_open(const char *what, const char *path, enum cb_out_use use, struct cb_out **out,
		struct cb_err *e);

/* CB_OUT_REPORT: render the content (render writes it to f: 0 or -errno)
 * and write it whole: through the open file, or into a new
 * NAME.tmp.XXXXXX (mode 0666 less the umask) renamed over the name, which
 * is looked at again first (the run may have lasted hours). Nothing is left
 * on failure. 0 or -errno with e set ("WHAT: cannot write: REASON"). */
int cb_out_write(struct cb_out *o, int (*render)(FILE *f, const void *arg), const void *arg,
		 struct cb_err *e);

/* CB_OUT_DB: whether the file existed when checked, and the path to give
 * SQLite: the directory's own path (no symlink in it) and the name. */
bool cb_out_exists(const struct cb_out *o);
const char *cb_out_db_path(const struct cb_out *o);

/* CB_OUT_DB: make the missing file, empty, mode 0666 less the umask (SQLite
 * would force 0644). 0, or 0 too when another process made it meanwhile
 * (it is then not ours to remove), or -errno with e set. The file (made or
 * found, here or by cb_out_open) is held open with a shared flock until
 * cb_out_close, which must come after SQLite closed it. */
int cb_out_create(struct cb_out *o, struct cb_err *e);

/* CB_OUT_DB: remove the file cb_out_create made while it is still that file,
 * still empty (a first store that failed) and held by no other cephbench;
 * anything else stays. SQLite must have closed it. */
void cb_out_discard(struct cb_out *o);

/* Close what o holds (NULL: nothing). */
void cb_out_close(struct cb_out *o);

#endif
