/* The helpers the layers' doctor probes share (probe.h): saying a line,
 * the pool check, a refusal's hint. */
#include "probe.h"
#include "conn.h"
#include "shquote.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

void cb_probe_line(const struct cb_probe_req *req, enum cb_check_status st, const char *check,
		   const char *detail, const char *hint)
{
	req->line(req->arg, st, check, detail, hint);
}

int cb_probe_pool(const struct cb_probe_req *req, const char *pool, const char *ns,
		  rados_ioctx_t *io)
{
	char check[160], cmd[CB_SH_CMD_MAX], hint[CB_SH_CMD_MAX + 64], why[160];
	snprintf(check, sizeof(check), "pool '%.128s'", pool);
	int r = rados_ioctx_create(cb_conn_rados(req->conn), pool, io);
	if (r == -ENOENT) {
		snprintf(hint, sizeof(hint), "create it: %s, or name another pool",
			 CB_SH_CMD(cmd, "ceph", "osd", "pool", "create", pool));
		cb_probe_line(req, CB_CHECK_FAIL, check, "does not exist", hint);
		return r;
	}
	if (r < 0) {
		snprintf(why, sizeof(why), "cannot open it: %s", strerror(-r));
		cb_probe_line(req, CB_CHECK_FAIL, check, why, NULL);
		return r;
	}
	rados_ioctx_set_namespace(*io, ns);
	cb_probe_line(req, CB_CHECK_OK, check, "exists", NULL);
	return 0;
}

void cb_probe_refused(const struct cb_probe_req *req, const char *check, const char *kind,
		      const char *what, const char *op, int r)
{
	char detail[256], cmd[CB_SH_CMD_MAX], hint[CB_SH_CMD_MAX + 256];
	snprintf(detail, sizeof(detail), "%s refused: %s", op, strerror(-r));
	if (r == -EPERM || r == -EACCES) {
		snprintf(hint, sizeof(hint), "the %s caps of %s must allow %s; see them with %s",
			 kind, req->client, what,
			 CB_SH_CMD(cmd, "ceph", "auth", "get", req->client));
		cb_probe_line(req, CB_CHECK_FAIL, check, detail, hint);
		return;
	}
	cb_probe_line(req, CB_CHECK_FAIL, check, detail, NULL);
}
