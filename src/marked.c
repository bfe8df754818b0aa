/* RADOS objects that carry cephbench's mark (see marked.h). */
#include "marked.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

/* The OSD answers a compare of a missing xattr with -ECANCELED, as it does
 * a different value, and a compare on a missing object with -ENOENT. */
static int put_once(rados_ioctx_t io, const char *obj, const char *run, const void *data,
		    size_t len, bool create, int flags)
{
	rados_write_op_t op = rados_create_write_op();
	if (!op)
		return -ENOMEM;
	if (create)
		rados_write_op_create(op, LIBRADOS_CREATE_EXCLUSIVE, NULL);
	else
		rados_write_op_cmpxattr(op, CB_MARK_XATTR, LIBRADOS_CMPXATTR_OP_EQ, run,
					strlen(run));
	rados_write_op_write_full(op, data, len);
	if (create)
		rados_write_op_setxattr(op, CB_MARK_XATTR, run, strlen(run));
	int r = rados_write_op_operate2(op, io, obj, NULL, flags);
	rados_release_write_op(op);
	return r;
}

int cb_marked_put(rados_ioctx_t io, const char *obj, const char *run, const void *data, size_t len,
		  bool exists, int flags)
{
	bool create = !exists;
	int r;
	/* a third try only when another writer raced both of ours */
	for (int i = 0; i < 3; i++, create = !create) {
		r = put_once(io, obj, run, data, len, create, flags);
		if (!(create ? r == -EEXIST : r == -ENOENT))
			break;
	}
	return r == -ECANCELED || r == -EEXIST ? -EEXIST : r;
}

int cb_marked_read(rados_ioctx_t io, const char *obj, const char *run, char *buf, size_t n)
{
	rados_read_op_t op = rados_create_read_op();
	size_t got = 0;
	int rv = 0;
	if (!op)
		return -ENOMEM;
	rados_read_op_cmpxattr(op, CB_MARK_XATTR, LIBRADOS_CMPXATTR_OP_EQ, run, strlen(run));
	rados_read_op_read(op, 0, n, buf, &got, &rv);
	int r = rados_read_op_operate(op, io, obj, 0);
	rados_release_read_op(op);
	if (r == -ECANCELED)
		return -EEXIST;
	if (r == 0 && rv < 0)
		r = rv;
	return r < 0 ? r : (int)got;
}

rados_write_op_t cb_marked_remove_op(const char *run)
{
	rados_write_op_t op = rados_create_write_op();
	if (op) {
		rados_write_op_cmpxattr(op, CB_MARK_XATTR, LIBRADOS_CMPXATTR_OP_EQ, run,
					strlen(run));
		rados_write_op_remove(op);
	}
	return op;
}

int cb_marked_remove(rados_ioctx_t io, const char *obj, const char *run, int flags)
{
	rados_write_op_t op = cb_marked_remove_op(run);
	if (!op)
		return -ENOMEM;
	int r = rados_write_op_operate2(op, io, obj, NULL, flags);
	rados_release_write_op(op);
	return r == -ECANCELED ? -EEXIST : r;
}
