/* Cluster connection shared by the runner and the layers (one per run). */
#include "conn.h"
#include "conn_asok.h"
#include "conn_auth.h"
#include "conn_debug.h"
#include "conn_files.h"
#include "json_wide.h"
#include "owner.h"
#include "shquote.h"

#include <errno.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Two sessions: I/O goes through `rados`, monitor commands through `ctl`.
 * On Ceph 16.2, one monitor command under rados_mon_op_timeout arms an asio
 * timer, and from then on the client's io_context wakes its epoll reactor
 * for every op librbd queues (an epoll_ctl per op or two): measured 15-25 us
 * of kernel time per 4K write. So the I/O session never has a monitor op
 * timeout and never sends a monitor command; it is bounded by
 * client_mount_timeout and rados_osd_op_timeout. */
struct cb_conn {
	rados_t rados;
	rados_t ctl; /* opened on first use */
	struct cb_cluster_opts o;
	char fsid[64];
	char version[64];
	/* the debug levels the conf, CEPH_ARGS or the cluster set, kept
	 * ("ms=1/1 rados=0/5"); the rest are 0/0 unless o.ceph_debug */
	char debug_kept[CB_DEBUG_KEPT_MAX];
};

rados_t cb_conn_rados(struct cb_conn *c)
{
	return c->rados;
}

const char *cb_conn_fsid(const struct cb_conn *c)
{
	return c->fsid;
}

const struct cb_cluster_opts *cb_conn_options(const struct cb_conn *c)
{
	return &c->o;
}

const char *cb_conn_debug_kept(const struct cb_conn *c)
{
	return c->debug_kept;
}

/* librados takes whole seconds: round up, at least 1. */
static void whole_secs(char *buf, size_t n, uint64_t ns)
{
	snprintf(buf, n, "%llu", (unsigned long long)((ns + 999999999ULL) / 1000000000ULL));
}

static int conf_set_timeouts(rados_t r, uint64_t timeout_ns, uint64_t op_timeout_ns, bool mon_ops)
{
	char secs[32], op_secs[32];
	whole_secs(secs, sizeof(secs), timeout_ns);
	whole_secs(op_secs, sizeof(op_secs), op_timeout_ns ? op_timeout_ns : timeout_ns);
	int ret = rados_conf_set(r, "client_mount_timeout", secs);
	if (ret == 0 && mon_ops)
		ret = rados_conf_set(r, "rados_mon_op_timeout", secs);
	/* An OSD op stuck longer than the timeout fails with ETIMEDOUT and is
	 * counted as an error, so a dead cluster never hangs a run or its
	 * cleanup (rados bench would wait forever). Read once, when the
	 * session connects: a workload with an op_timeout of its own gets a
	 * session of its own (run.c). */
	if (ret == 0)
		ret = rados_conf_set(r, "rados_osd_op_timeout", op_secs);
	return ret;
}

/* CephFS mounts made from this handle (ceph_create_from_rados) share its
 * config, which can be changed only before connecting: the owner mark in
 * their sessions' metadata (fields separated by '_', no spaces) lets a later
 * run or cleanup find and evict the sessions of a killed run, whose caps
 * would stall it for a minute. librados ignores the option. */
static int set_owner_meta(rados_t r)
{
	char mark[256], user[1024] = "", meta[1400];
	cb_owner_mark(mark, sizeof(mark), '_');
	/* added to what the conf or CEPH_ARGS set, not instead of it */
	rados_conf_get(r, "client_metadata", user, sizeof(user));
	snprintf(meta, sizeof(meta), "%s%s%s=%s", user, user[0] ? "," : "", CB_OWNER_META_KEY,
		 mark);
	return rados_conf_set(r, "client_metadata", meta);
}

/* librados applies CEPH_ARGS only after the client is created, so the two
 * options the ceph tools read first (who we are, which conf) are taken
 * from it here: --id/--user ID, --name/-n TYPE.ID, --conf/-c FILE; and
 * whether it names a keyring (--keyring/-k), for conn_files.c's messages;
 * and the debug levels it sets, which conn_debug.c keeps. */
static void ceph_args_early(char *id, size_t idlen, char *conf, size_t conflen, bool *keyring,
			    struct cb_debug_defaults *dd)
{
	const char *env = getenv("CEPH_ARGS");
	char *buf, *save = NULL;
	/* whole: a --debug word it missed would be quieted against the user */
	if (!env || !(buf = strdup(env)))
		return;
	for (char *t = strtok_r(buf, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
		char *val = strchr(t, '=');
		if (val && strncmp(t, "--", 2) == 0)
			*val++ = '\0';
		cb_debug_env_arg(dd, t);
		bool is_id = !strcmp(t, "--id") || !strcmp(t, "--user");
		bool is_name = !strcmp(t, "--name") || !strcmp(t, "-n");
		bool is_conf = !strcmp(t, "--conf") || !strcmp(t, "-c");
		if (!strcmp(t, "--keyring") || !strcmp(t, "-k"))
			*keyring = true;
		if (!is_id && !is_name && !is_conf)
			continue;
		if (!val && !(val = strtok_r(NULL, " \t", &save)))
			break;
		if (is_conf)
			snprintf(conf, conflen, "%s", val);
		else
			snprintf(id, idlen, "%s", val);
	}
	free(buf);
}

/* The client's name ("client.X") and the conf a session of o reads, as
 * session_open picks them; 0, or -errno with e set (exit 2). */
static int conf_pick(const struct cb_cluster_opts *o, char *name, size_t nn, char *conf, size_t n,
		     bool *env_keyring, struct cb_debug_defaults *dd, struct cb_err *e)
{
	char env_id[128] = "", env_conf[1024] = "";
	ceph_args_early(env_id, sizeof(env_id), env_conf, sizeof(env_conf), env_keyring, dd);
	const char *client = o->client ? o->client : (env_id[0] ? env_id : "admin");
	enum cb_conf_source src = o->conf		? CB_CONF_FLAG
				  : env_conf[0]		? CB_CONF_CEPH_ARGS
				  : getenv("CEPH_CONF") ? CB_CONF_ENV
							: CB_CONF_DEFAULT;
	const char *list = o->conf ? o->conf : env_conf[0] ? env_conf : getenv("CEPH_CONF");
	snprintf(name, nn, "%s%s", strncmp(client, "client.", 7) ? "client." : "", client);
	return cb_conf_resolve(list, src, conf, n, e);
}

int cb_conn_conf_check(const struct cb_cluster_opts *o, char *conf, size_t n, char *name, size_t nn,
		       struct cb_err *e)
{
	struct cb_debug_defaults dd = {0};
	bool env_keyring = false;
	rados_t r;
	int ret = conf_pick(o, name, nn, conf, n, &env_keyring, &dd, e);
	if (ret < 0)
		return ret;
	if ((ret = rados_create2(&r, "ceph", name, 0)) < 0)
		return cb_err_usage(e, "cannot create a client named '%s': %s", name,
				    strerror(-ret));
	/* read with authentication off: the keyring is the next check's */
	ret = cb_conf_auth_off(r);
	if (ret == 0 && (ret = rados_conf_read_file(r, conf)) < 0)
		cb_err_usage(e, "cannot read ceph conf '%s': %s", conf, strerror(-ret));
	else if (ret == 0 && (ret = rados_conf_parse_env(r, NULL)) < 0)
		cb_err_usage(e, "cannot parse CEPH_ARGS: %s", strerror(-ret));
	rados_shutdown(r);
	return ret < 0 ? (cb_err_isset(e) ? ret : cb_err_usage(e, "%s", strerror(-ret))) : 0;
}

int cb_conn_files_check(const struct cb_cluster_opts *o, struct cb_err *e)
{
	struct cb_debug_defaults dd = {0};
	bool env_keyring = false;
	char name[160], conf[4096] = "";
	int r = conf_pick(o, name, sizeof(name), conf, sizeof(conf), &env_keyring, &dd, e);
	return r < 0 ? r : cb_conn_probe_files(name, conf, o->keyring, env_keyring, e);
}

/* Create, configure and connect one session as o says; mon_ops: this one
 * sends monitor commands (and so has their timeout); probe: check the files
 * first (conn_files.c; its throwaway handle costs ~75 ms, so the sessions
 * opened later with the same options, a client's or the monitor one, skip
 * it). */
static int session_open(const struct cb_cluster_opts *o, bool mon_ops, bool probe, rados_t *out,
			char *kept, size_t keptlen, struct cb_err *e)
{
	struct cb_debug_defaults dd = {0};
	uint64_t timeout = o->timeout_ns ? o->timeout_ns : 30ULL * 1000000000ULL;
	char name[160], mon[512] = "";
	rados_t rados;
	int r, r2;

	bool env_keyring = false;
	char conf[4096] = "";
	if ((r = conf_pick(o, name, sizeof(name), conf, sizeof(conf), &env_keyring, &dd, e)) < 0 ||
	    (probe && (r = cb_conn_probe_files(name, conf, o->keyring, env_keyring, e)) < 0))
		return r;
	r = rados_create2(&rados, "ceph", name, 0);
	if (r < 0)
		return cb_err_usage(e, "cannot create a client named '%s': %s", name, strerror(-r));
	if (!o->ceph_debug) {
		cb_debug_defaults_read(rados, &dd);
		cb_conf_each_key(conf, cb_debug_conf_key, &dd);
	}
	r = rados_conf_read_file(rados, conf);
	if (r < 0) {
		cb_err_usage(e, "cannot read ceph conf '%s': %s", conf, strerror(-r));
		goto fail;
	}
	r = rados_conf_parse_env(rados, NULL);
	if (r < 0) {
		cb_err_usage(e, "cannot parse CEPH_ARGS: %s", strerror(-r));
		goto fail;
	}
	if (o->keyring && (r = rados_conf_set(rados, "keyring", o->keyring)) < 0) {
		cb_err_usage(e, "bad keyring '%s': %s", o->keyring, strerror(-r));
		goto fail;
	}
	r = conf_set_timeouts(rados, timeout, o->op_timeout_ns, mon_ops);
	if (r == 0 && (r = set_owner_meta(rados)) < 0) {
		cb_err_cluster(e, r, "cannot set client_metadata: %s", strerror(-r));
		goto fail;
	}
	if (r < 0) {
		cb_err_cluster(e, r, "cannot set client timeouts: %s", strerror(-r));
		goto fail;
	}
	rados_conf_get(rados, "mon_host", mon, sizeof(mon));
	r = rados_connect(rados);
	if (r == -ETIMEDOUT || r == -EINTR) {
		cb_err_cluster(e, r,
			       "cannot reach the monitors at %s within %llu s: check that they "
			       "run and that mon_host in the conf is right (or raise --timeout)",
			       mon[0] ? mon : "(no mon_host)",
			       (unsigned long long)((timeout + 999999999ULL) / 1000000000ULL));
		goto fail;
	} else if (r < 0 && (r2 = cb_conn_auth_explain(rados, name, mon[0] ? mon : "(no mon_host)",
						       r, e)) < 0) {
		r = r2; /* its code: the key's, when the key is the culprit */
		goto fail;
	} else if (r == -EACCES || r == -EPERM || r == -EKEYREJECTED) {
		cb_err_cluster(e, r,
			       "authentication as %s refused by the monitors at %s: check "
			       "--client and --keyring",
			       name, mon);
		goto fail;
	} else if (r == -ENOENT) {
		cb_err_cluster(e, r,
			       "no usable keyring for the client (connecting to %s): give "
			       "--keyring FILE",
			       mon);
		goto fail;
	} else if (r < 0) {
		cb_err_cluster(e, r, "cannot connect to the monitors at %s: %s", mon, strerror(-r));
		goto fail;
	}
	/* after the connect: the cluster's config database is applied then,
	 * and it may set a level too */
	if (!o->ceph_debug && (r = cb_debug_quiet(rados, &dd, kept, keptlen)) < 0) {
		cb_err_cluster(e, r, "cannot set the client debug levels: %s", strerror(-r));
		goto fail;
	}
	*out = rados;
	return 0;
fail:
	rados_shutdown(rados);
	return r < 0 ? r : -EINVAL;
}

static int conn_open(const struct cb_cluster_opts *o, bool probe, struct cb_conn **out,
		     struct cb_err *e)
{
	struct cb_conn *c = calloc(1, sizeof(*c));
	if (!c)
		return cb_err_cluster(e, -ENOMEM, "out of memory");
	c->o = *o;
	int r = session_open(o, false, probe, &c->rados, c->debug_kept, sizeof(c->debug_kept), e);
	if (r < 0) {
		free(c);
		return r;
	}
	if (rados_cluster_fsid(c->rados, c->fsid, sizeof(c->fsid)) < 0)
		snprintf(c->fsid, sizeof(c->fsid), "unknown");
	*out = c;
	return 0;
}

int cb_conn_open(const struct cb_cluster_opts *o, struct cb_conn **out, struct cb_err *e)
{
	int r = conn_open(o, true, out, e);
	/* a run killed with -9 left its admin socket: the next run or cleanup
	 * removes it (conn_asok.c) */
	char asok[4096];
	if (r == 0 && rados_conf_get((*out)->rados, "admin_socket", asok, sizeof(asok)) == 0)
		cb_asok_sweep(asok, (long)getpid());
	return r;
}

int cb_conn_for_client(struct cb_conn *shared, unsigned client, struct cb_conn **own,
		       struct cb_conn **out, struct cb_err *e)
{
	if (client == 0) {
		*out = shared;
		return 0;
	}
	if (!own)
		return cb_err_cluster(e, -EINVAL, "internal error: client %u has no session",
				      client);
	int r = *own ? 0 : conn_open(&shared->o, false, own, e);
	*out = *own;
	return r;
}

/* The session for monitor commands, opened on first use. */
static int ctl_session(struct cb_conn *c, struct cb_err *e)
{
	char kept[CB_DEBUG_KEPT_MAX];
	return c->ctl ? 0 : session_open(&c->o, true, false, &c->ctl, kept, sizeof(kept), e);
}

/* A command to the monitors (osd < 0) or to OSD osd, through the session
 * for commands: an OSD command is not a monitor op, but this way it keeps
 * the I/O session's timers as they were. Its reply into *out (parsed as
 * JSON with parse; NULL when the reply is empty and parse is false). */
static int command_json(struct cb_conn *c, int osd, const char *cmd, bool parse, json_t **out,
			char *why, size_t n)
{
	const char *cmds[] = {cmd};
	char *buf = NULL, *outs = NULL;
	size_t len = 0, outslen = 0;
	struct cb_err e = {0};
	json_error_t je;
	*out = NULL;
	int r = ctl_session(c, &e);
	if (r < 0) {
		snprintf(why, n, "%s", e.msg);
		return r;
	}
	r = osd < 0 ? rados_mon_command(c->ctl, cmds, 1, "", 0, &buf, &len, &outs, &outslen)
		    : rados_osd_command(c->ctl, osd, cmds, 1, "", 0, &buf, &len, &outs, &outslen);
	if (r < 0)
		snprintf(why, n, "%s%s%.*s", strerror(-r), outslen ? ": " : "", (int)outslen,
			 outs ? outs : "");
	else if ((parse || len) && !(*out = cb_json_loadb_wide(buf ? buf : "", len, 0, &je)))
		r = -EBADMSG, snprintf(why, n, "the reply (%zu bytes) is not JSON: %s at byte %d",
				       len, je.text, je.position);
	rados_buffer_free(buf);
	rados_buffer_free(outs);
	return r;
}

int cb_conn_mon_json(struct cb_conn *c, const char *cmd, json_t **out, char *why, size_t n)
{
	return command_json(c, -1, cmd, true, out, why, n);
}

/* The monitors' own version, so a report says what the cluster runs, not
 * what the client library is. */
static void fetch_version(struct cb_conn *c)
{
	json_t *j = NULL;
	char why[256];
	snprintf(c->version, sizeof(c->version), "unknown");
	if (cb_conn_mon_json(c, "{\"prefix\": \"version\", \"format\": \"json\"}", &j, why,
			     sizeof(why)) == 0) {
		const char *v = json_string_value(json_object_get(j, "version"));
		/* "ceph version 16.2.15 (hash) pacific (stable)" */
		if (v && sscanf(v, "ceph version %63s", c->version) != 1)
			snprintf(c->version, sizeof(c->version), "%s", v);
	}
	json_decref(j);
}

const char *cb_conn_version(struct cb_conn *c)
{
	if (!c->version[0])
		fetch_version(c); /* lazily: it needs the second session */
	return c->version;
}

int cb_conn_osdmap(struct cb_conn *c, struct cb_err *e)
{
	int r = ctl_session(c, e);
	if (r < 0)
		return r;
	/* a lookup waits for the first map; on this session, with the monitor
	 * op timeout, no longer than that (-ETIMEDOUT) */
	r = (int)rados_pool_lookup(c->ctl, "cephbench-doctor-no-such-pool");
	return r == -ETIMEDOUT ? r : 0;
}

int cb_conn_blocklist(struct cb_conn *c, const char *addr, uint32_t secs, struct cb_err *e)
{
	int r = ctl_session(c, e);
	if (r < 0)
		return r;
	r = rados_blocklist_add(c->ctl, (char *)addr, secs);
	if (r < 0)
		return cb_err_cluster(e, r, "blocklisting %s: %s", addr, strerror(-r));
	return 0;
}

int cb_conn_osd_json(struct cb_conn *c, int osd, const char *cmd, json_t **out, char *why, size_t n)
{
	if (osd < 0) {
		*out = NULL;
		snprintf(why, n, "no OSD %d", osd);
		return -EINVAL;
	}
	return command_json(c, osd, cmd, true, out, why, n);
}

int cb_conn_osd_cmd(struct cb_conn *c, int osd, const char *cmd, char *why, size_t n)
{
	json_t *j = NULL;
	int r = osd < 0 ? -EINVAL : command_json(c, osd, cmd, false, &j, why, n);
	if (osd < 0)
		snprintf(why, n, "no OSD %d", osd);
	json_decref(j);
	return r;
}

void cb_conn_close(struct cb_conn *c)
{
	if (!c)
		return;
	if (c->ctl)
		rados_shutdown(c->ctl);
	rados_shutdown(c->rados);
	free(c);
}

int cb_conn_ioctx(struct cb_conn *c, const char *pool, const char *ns, rados_ioctx_t *io,
		  struct cb_err *e)
{
	int r = rados_ioctx_create(c->rados, pool, io);
	char cmd[CB_SH_CMD_MAX];
	if (r == -ENOENT)
		return cb_err_cluster(
		    e, r, "pool '%s' does not exist: create it (%s) or name another pool", pool,
		    CB_SH_CMD(cmd, "ceph", "osd", "pool", "create", pool));
	if (r < 0)
		return cb_err_cluster(e, r, "cannot open pool '%s': %s", pool, strerror(-r));
	rados_ioctx_set_namespace(*io, ns);
	return 0;
}
