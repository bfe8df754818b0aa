/* RADOS objects that carry cephbench's mark: an xattr naming the run that
 * made the object, set in the same write op that creates it. Whatever lacks
 * the mark is not cephbench's, whatever its name: it is never written over
 * nor removed. Used by the RADOS layer (its data and records) and by the
 * records of images being made (blk/blk_creating.c). */
#ifndef CB_MARKED_H
#define CB_MARKED_H

#include <rados/librados.h>
#include <stdbool.h>
#include <stddef.h>

/* The xattr; its value is the run's name. */
#define CB_MARK_XATTR "cephbench.run"

/* Writes data as the whole content of obj, which must be absent (it is
 * created, with run's mark) or carry run's mark. exists: whether obj is
 * likely there already (the op tried first; the other follows if it
 * guessed wrong). flags: librados operation flags. 0, -EEXIST when obj
 * exists without run's mark (left as it was), or -errno. */
int cb_marked_put(rados_ioctx_t io, const char *obj, const char *run, const void *data, size_t len,
		  bool exists, int flags);

/* Reads up to n bytes of obj if it carries run's mark, in one op. Bytes
 * read, -ENOENT, -EEXIST when obj exists without run's mark, or -errno. */
int cb_marked_read(rados_ioctx_t io, const char *obj, const char *run, char *buf, size_t n);

/* The op that removes obj only if it carries run's mark (the compare and
 * the removal in one op: nothing can slip between them). The caller
 * operates it (flags: LIBRADOS_OPERATION_FULL_FORCE for a delete on a full
 * pool) and releases it; it answers -ECANCELED when obj lacks the mark,
 * -ENOENT when absent. NULL when out of memory. */
rados_write_op_t cb_marked_remove_op(const char *run);

/* cb_marked_remove_op, operated: 0, -ENOENT, -EEXIST when obj exists
 * without run's mark (left), or -errno. */
int cb_marked_remove(rados_ioctx_t io, const char *obj, const char *run, int flags);

#endif
