/* The pool as a layer's target: RADOS, RBD and krbd all work in one, and
 * `cephbench cleanup --pool` cleans what each left there. */
#include "conn.h"
#include "engine.h"
#include "options.h"

#include <errno.h>

static int pool_exists(struct cb_conn *conn, const char *name)
{
	return rados_pool_lookup(cb_conn_rados(conn), name) == -ENOENT ? -ENOENT : 0;
}

const struct cb_target_kind cb_target_pool = {
    .flag = "pool",
    .short_flag = 'p',
    .metavar = "POOL",
    .noun = "pool",
    .rule = cb_ceph_name_rule,
    .exists = pool_exists,
};
