/* The RADOS layer's doctor probe (probe.h): the pool, a namespace RBD does
 * not use, and the client's osd caps tried with one object of the doctor's
 * run, written, read back and removed as a run's would be. */
#include "conn.h"
#include "marked.h"
#include "probe.h"
#include "rados_priv.h"
#include "shquote.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Ops that only read what an earlier run wrote: a client with read caps
 * alone runs them, so the probe writes nothing for them. */
static const char *const read_only_ops[] = {"seq", "rand", "stat", NULL};

void cb_rados_probe(struct cb_probe_req *req)
{
	const struct rados_opts *o = req->lopts;
	static const char data[] = "cephbench doctor\n";
	char check[200], obj[160], detail[320], what[200], buf[64];
	struct cb_err e = {0};
	rados_ioctx_t io;

	if (cb_probe_pool(req, o->pool, CB_RADOS_NS, &io) < 0)
		return;
	snprintf(check, sizeof(check), "osd caps in pool '%.128s'", o->pool);
	snprintf(what, sizeof(what), "rw on pool %.128s (namespace %s)", o->pool, CB_RADOS_NS);
	if (cb_rados_ns_check(io, &e) < 0) {
		cb_probe_line(req, CB_CHECK_FAIL, check, e.msg, NULL);
		goto out;
	}
	if (cb_op_listed(read_only_ops, req->wl->op)) {
		snprintf(detail, sizeof(detail),
			 "namespace %s listed (op %s only reads: no test write)", CB_RADOS_NS,
			 req->wl->op);
		cb_probe_line(req, CB_CHECK_OK, check, detail, NULL);
		goto out;
	}
	cb_rados_obj_name(obj, sizeof(obj), req->run_name, 0, 0);
	int r = cb_marked_put(io, obj, req->run_name, data, sizeof(data) - 1, false, 0);
	if (r < 0) {
		cb_probe_refused(req, check, "osd", what, "a test write", r);
		goto out;
	}
	int rd = cb_marked_read(io, obj, req->run_name, buf, sizeof(buf));
	r = cb_marked_remove(io, obj, req->run_name, 0);
	if (rd < 0)
		cb_probe_refused(req, check, "osd", what, "reading the test object back", rd);
	else if (r < 0 && r != -ENOENT) {
		char cmd[CB_SH_CMD_MAX], hint[CB_SH_CMD_MAX + 16];
		snprintf(detail, sizeof(detail),
			 "the test object %s (namespace %s) could not be removed: %s", obj,
			 CB_RADOS_NS, strerror(-r));
		snprintf(hint, sizeof(hint), "remove it: %s",
			 CB_SH_CMD(cmd, "cephbench", "cleanup", "--pool", o->pool, "--run-name",
				   req->run_name));
		cb_probe_line(req, CB_CHECK_FAIL, check, detail, hint);
	} else {
		snprintf(detail, sizeof(detail),
			 "a test object written, read back and removed (namespace %s)",
			 CB_RADOS_NS);
		cb_probe_line(req, CB_CHECK_OK, check, detail, NULL);
	}
out:
	rados_ioctx_destroy(io);
}
