/* Files cephbench reads, or names to the Ceph libraries, are checked before
 * anything opens them for real: a regular file, readable, within a size
 * bound. A FIFO, a device, a directory or a socket is refused with one line
 * and never read (opening a FIFO blocks until a writer comes, with signals
 * blocked inside librados; reading /dev/zero never ends). */
#ifndef CB_INFILE_H
#define CB_INFILE_H

#include "err.h"

#include <stdbool.h>
#include <stddef.h>

/* Bounds, far above what a real file of the kind holds (docs/result.md,
 * docs/profiles.md say why each). */
#define CB_PROFILE_MAX_BYTES  (1u << 20)
#define CB_RESULT_MAX_BYTES   (64u << 20)
#define CB_CEPHFILE_MAX_BYTES (4u << 20) /* a ceph conf, a keyring, a key file */

/* path names a regular file this process can open for reading, of at most
 * max bytes. what names it in the message ("profile file"). 0, or -errno with
 * e set (exit 2) to one line naming path: "PATH: is a directory: give a
 * profile file". Nothing but a regular file is ever opened. */
int cb_infile_check(const char *path, const char *what, size_t max, struct cb_err *e);

/* cb_infile_check, then the whole file into *buf (NUL-terminated, the
 * caller's to free) and its length into *len. 0, or -errno with e set. */
int cb_infile_read(const char *path, const char *what, size_t max, char **buf, size_t *len,
		   struct cb_err *e);

/* What a stat mode is, for messages: "a regular file", "a directory",
 * "a FIFO", "a symlink", ... (the files cephbench reads and writes alike). */
const char *cb_file_kind(unsigned mode);

#endif
