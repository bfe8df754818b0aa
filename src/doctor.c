/* `cephbench doctor`'s checks (doctor.h): the conf, the key, the monitors,
 * their status (telemetry's and the gate's), the gate's verdict, each plan
 * item's layer (engine->probe, on names of the doctor's own run), the run
 * directory and the cluster's run lock. Nothing is left behind: what a probe
 * makes it removes, and the run directory is not made. */
#include "doctor.h"
#include "client_lib.h"
#include "lock.h"
#include "preflight.h"
#include "profile.h"
#include "shquote.h"
#include "term_esc.h"
#include "tm_osd_perf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

static const char *const status_word[] = {"ok", "warn", "FAIL"};

static bool same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* The line callback of struct cb_probe_req: a line already said (several
 * workloads on one pool) is not said again. */
static void add(void *arg, enum cb_check_status st, const char *check, const char *detail,
		const char *hint)
{
	struct cb_doctor *d = arg;
	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].st == st && same(d->v[i].check, check) && same(d->v[i].detail, detail))
			return;
	if (d->n == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 16;
		struct cb_check *v = realloc(d->v, cap * sizeof(*v));
		if (!v) {
			d->nomem = true;
			return;
		}
		d->v = v, d->cap = cap;
	}
	struct cb_check *c = &d->v[d->n];
	*c = (struct cb_check){st, strdup(check), strdup(detail), hint ? strdup(hint) : NULL};
	if (!c->check || !c->detail || (hint && !c->hint)) {
		free(c->check), free(c->detail), free(c->hint);
		d->nomem = true;
		return;
	}
	d->n++;
}

/* The conf, the key files, the connection: the one failure's line(s), or
 * the connection in *out. */
static int connect_checks(struct cb_doctor *d, const struct cb_cluster_opts *co,
			  struct cb_conn **out, char *name, size_t nn)
{
	char conf[4096], mon[512] = "", detail[1200];
	struct cb_err e = {0};
	int r = cb_conn_conf_check(co, conf, sizeof(conf), name, nn, &e);
	if (r < 0) {
		add(d, CB_CHECK_FAIL, "conf", e.msg, "give --conf FILE, or set CEPH_CONF");
		return r;
	}
	add(d, CB_CHECK_OK, "conf", conf, NULL);
	if ((r = cb_conn_files_check(co, &e)) < 0) {
		/* the files' one failure: the monitors named nowhere, or the key */
		add(d, CB_CHECK_FAIL, strstr(e.msg, "mon_host") ? "monitors" : "key", e.msg, NULL);
		return r;
	}
	r = cb_conn_open(co, out, &e);
	if (r == 0) {
		rados_conf_get(cb_conn_rados(*out), "mon_host", mon, sizeof(mon));
		snprintf(detail, sizeof(detail), "reached at %s",
			 mon[0] ? mon : "(mon_host unset)");
		add(d, CB_CHECK_OK, "monitors", detail, NULL);
		snprintf(detail, sizeof(detail), "%s authenticated", name);
		add(d, CB_CHECK_OK, "key", detail, NULL);
		return 0;
	}
	bool auth = r == -EACCES || r == -EPERM || r == -EKEYREJECTED || r == -ENOENT;
	if (auth)
		add(d, CB_CHECK_OK, "monitors", "reached (they answered)", NULL);
	add(d, CB_CHECK_FAIL, auth ? "key" : "monitors", e.msg, NULL);
	return r;
}

/* The monitors' status: telemetry's cluster side and the pre-flight gate
 * read it; without it a run starts all the same, with both off. */
static bool mon_read(struct cb_doctor *d, struct cb_conn *conn, const char *name)
{
	char why[512], detail[700], cmd[CB_SH_CMD_MAX], hint[CB_SH_CMD_MAX + 128];
	json_t *j = NULL;
	int r = cb_conn_mon_json(conn, "{\"prefix\": \"status\", \"format\": \"json\"}", &j, why,
				 sizeof(why));
	json_decref(j);
	if (r == 0) {
		add(d, CB_CHECK_OK, "mon read",
		    "the cluster's status readable (telemetry, pre-flight)", NULL);
		return true;
	}
	snprintf(detail, sizeof(detail),
		 "the cluster's status refused (%s): a run starts, but without telemetry's "
		 "cluster side and the pre-flight gate",
		 why);
	snprintf(hint, sizeof(hint), "give %s mon 'allow r'; see its caps with %s", name,
		 CB_SH_CMD(cmd, "ceph", "auth", "get", name));
	add(d, CB_CHECK_WARN, "mon read", detail, hint);
	return false;
}

/* Whether the client gets the OSD map: without mon read it may not, and
 * then a run's first pool lookup waits for ever. */
static bool osdmap(struct cb_doctor *d, struct cb_conn *conn, const char *name, uint64_t timeout_ns)
{
	char detail[1100], cmd[CB_SH_CMD_MAX], hint[CB_SH_CMD_MAX + 128];
	uint64_t secs = timeout_ns ? (timeout_ns + 999999999ULL) / 1000000000ULL : 30;
	struct cb_err e = {0};
	int r = cb_conn_osdmap(conn, &e);
	if (r == 0)
		return true;
	if (r == -ETIMEDOUT)
		snprintf(detail, sizeof(detail),
			 "not received within %llu s: no pool can be opened, a run would hang",
			 (unsigned long long)secs);
	else
		snprintf(detail, sizeof(detail), "%s", e.msg);
	snprintf(hint, sizeof(hint), "give %s mon 'allow r'; see its caps with %s", name,
		 CB_SH_CMD(cmd, "ceph", "auth", "get", name));
	add(d, CB_CHECK_FAIL, "osd map", detail, hint);
	return false;
}

/* The OSDs' perf counters, which telemetry's cluster side reads at each
 * phase (osd 'allow *'): asked of one up OSD. A refusal is a warning: a
 * run starts, without the cluster's count of ops and the slow OSD. */
static void osd_counters(struct cb_doctor *d, struct cb_conn *conn, const char *name)
{
	char why[512], detail[700], cmd[CB_SH_CMD_MAX], hint[CB_SH_CMD_MAX + 128];
	json_t *j = NULL, *o;
	size_t i;
	int id = -1;
	if (cb_conn_mon_json(conn, "{\"prefix\": \"osd dump\", \"format\": \"json\"}", &j, why,
			     sizeof(why)) == 0) {
		json_array_foreach(json_object_get(j, "osds"), i, o)
		{
			if (json_integer_value(json_object_get(o, "up")) == 1) {
				id = (int)json_integer_value(json_object_get(o, "osd"));
				break;
			}
		}
	}
	json_decref(j);
	if (id < 0)
		return; /* no OSD up: the pre-flight says so */
	j = NULL;
	int r = cb_conn_osd_json(conn, id, CB_OSD_PERF_DUMP_CMD, &j, why, sizeof(why));
	json_decref(j);
	if (r == 0) {
		snprintf(detail, sizeof(detail),
			 "osd.%d's perf counters readable (telemetry's cluster side)", id);
		add(d, CB_CHECK_OK, "osd counters", detail, NULL);
		return;
	}
	snprintf(detail, sizeof(detail),
		 "osd.%d's perf counters %s (%s): a run starts, but without the cluster's "
		 "count of ops and the slow OSD",
		 id, r == -EACCES || r == -EPERM ? "refused" : "not read", why);
	snprintf(hint, sizeof(hint),
		 "give %s osd 'allow *' (or telemetry: off); see its caps with %s", name,
		 CB_SH_CMD(cmd, "ceph", "auth", "get", name));
	add(d, CB_CHECK_WARN, "osd counters", detail, hint);
}

/* A release as "16.2.15 (pacific)" into buf. */
static const char *release(char *buf, size_t n, const char *v, const struct cb_ceph_version *cv)
{
	const char *name = cv ? cb_ceph_release_name(cv->major) : "";
	snprintf(buf, n, "%s%s%s%s", v, name[0] ? " (" : "", name, name[0] ? ")" : "");
	return buf;
}

/* The client libraries' release beside the cluster's. Ceph keeps clients up
 * to two releases older working; an older one connects to a cluster of
 * 19.2.6/20.2.4 or later only while it allows AES keys, which weakens it. */
static void versions(struct cb_doctor *d, struct cb_conn *conn)
{
	struct cb_ceph_version lib, cl;
	const char *libv = cb_client_lib_version(&lib), *clv = cb_conn_version(conn);
	bool known = cb_ceph_version_parse(clv, &cl);
	bool old = known && cl.major > lib.major + 2;
	bool weak = known && cb_ceph_version_has_aes256k(&cl) && !cb_ceph_version_has_aes256k(&lib);
	char a[96], b[96], detail[600];
	int n = snprintf(detail, sizeof(detail), "client libraries Ceph %s, cluster Ceph %s%s",
			 release(a, sizeof(a), libv, &lib),
			 release(b, sizeof(b), clv, known ? &cl : NULL), old || weak ? ":" : "");
	if (old)
		n += snprintf(detail + n, sizeof(detail) - (size_t)n,
			      " the client is more than two releases older than the cluster%s",
			      weak ? ";" : "");
	if (weak)
		snprintf(detail + n, sizeof(detail) - (size_t)n,
			 " it lacks AES256K and connects only while the cluster allows AES keys "
			 "(auth_allowed_ciphers), which weakens the cluster (CVE-2025-30156)");
	add(d, old || weak ? CB_CHECK_WARN : CB_CHECK_OK, "versions", detail,
	    old || weak ? "build cephbench against newer client libraries: see the README" : NULL);
}

/* The gate's verdict now, without its wait (a transient state still gets
 * its few seconds, as in a run). */
static void gate(struct cb_doctor *d, struct cb_conn *conn, const struct cb_preflight_opts *pf)
{
	struct cb_preflight_opts po = *pf;
	struct cb_err e = {0};
	json_t *rec = NULL;
	char detail[300];
	if (po.require == CB_PF_OFF) {
		add(d, CB_CHECK_OK, "pre-flight", "off (--no-preflight)", NULL);
		return;
	}
	po.wait_ns = 0;
	int r = cb_preflight_run(conn, &po, true, -1, &rec, &e);
	const char *h = json_string_value(json_object_get(rec, "health"));
	if (r == 0) {
		snprintf(detail, sizeof(detail), "the cluster is ready (%s; require: %s)",
			 h ? h : "?", cb_pf_require_name(po.require));
		add(d, CB_CHECK_OK, "pre-flight", detail, NULL);
	} else {
		add(d, CB_CHECK_FAIL, "pre-flight", e.msg[0] ? e.msg : strerror(-r),
		    "wait for the cluster (ceph -s), give the profile's preflight: a wait, or "
		    "lower the gate (--preflight any)");
	}
	json_decref(rec);
}

/* "cbdoctor-" and 16 hex digits: the doctor's own run, its id the same
 * digits (a run id's form). */
static void doctor_run_name(char *name, size_t n, char *id, size_t idn)
{
	uint64_t x = 0;
	if (getrandom(&x, sizeof(x), 0) != sizeof(x))
		x = ((uint64_t)time(NULL) << 20) ^ (uint64_t)getpid();
	snprintf(id, idn, "%016llx", (unsigned long long)x);
	snprintf(name, n, "cbdoctor-%s", id);
}

static void layer_checks(struct cb_doctor *d, struct cb_conn *conn, const struct cb_profile *p,
			 const char *client)
{
	char run[40], id[24];
	doctor_run_name(run, sizeof(run), id, sizeof(id));
	for (size_t i = 0; i < p->n; i++) {
		const struct cb_engine *eng = p->items[i].engine;
		if (!eng->probe || eng->no_cluster)
			continue;
		struct cb_probe_req req = {.conn = conn,
					   .wl = &p->items[i].wl,
					   .lopts = p->items[i].lopts,
					   .run_name = run,
					   .run_id = id,
					   .client = client,
					   .line = add,
					   .arg = d};
		eng->probe(&req);
	}
}

static void run_dir(struct cb_doctor *d, const char *fsid)
{
	char dir[4096], who[4400] = "", detail[4500];
	struct cb_err e = {0};
	int r = cb_lock_check(fsid, dir, sizeof(dir), who, sizeof(who), &e);
	if (r < 0) {
		add(d, CB_CHECK_FAIL, "run directory", e.msg, NULL);
		return;
	}
	snprintf(detail, sizeof(detail), "%s (%s)", dir,
		 r == 2 ? "not there yet: a run makes it" : "writable");
	add(d, CB_CHECK_OK, "run directory", detail, NULL);
	if (!fsid)
		return;
	if (r == 1) {
		snprintf(detail, sizeof(detail), "cluster %s is being benchmarked by %s", fsid,
			 who);
		add(d, CB_CHECK_FAIL, "lock", detail,
		    "wait for that run to end, or run with --wait");
		return;
	}
	snprintf(detail, sizeof(detail), "free (cluster %s%s)", fsid,
		 r == 2 ? "; no run directory yet" : "");
	add(d, CB_CHECK_OK, "lock", detail, NULL);
}

static bool needs_cluster(const struct cb_profile *p)
{
	for (size_t i = 0; p && i < p->n; i++)
		if (!p->items[i].engine->no_cluster)
			return true;
	return !p;
}

int cb_doctor_run(const struct cb_cluster_opts *co, const struct cb_profile *p,
		  const struct cb_preflight_opts *pf, struct cb_doctor *d)
{
	struct cb_conn *conn = NULL;
	char name[160] = "client.admin";
	if (!needs_cluster(p)) {
		add(d, CB_CHECK_OK, "cluster", "none needed (no workload's layer uses one)", NULL);
		run_dir(d, NULL);
	} else if (connect_checks(d, co, &conn, name, sizeof(name)) < 0) {
		run_dir(d, NULL);
	} else {
		bool map = true;
		if (mon_read(d, conn, name)) {
			versions(d, conn);
			gate(d, conn, pf);
			if (!p || p->telemetry)
				osd_counters(d, conn, name);
		} else
			map = osdmap(d, conn, name, co->timeout_ns);
		if (p && map)
			layer_checks(d, conn, p, name);
		run_dir(d, cb_conn_fsid(conn));
		cb_conn_close(conn);
	}
	if (d->nomem) {
		d->nomem = false;
		add(d, CB_CHECK_FAIL, "doctor", "out of memory: checks were lost", NULL);
	}
	return cb_doctor_count(d, CB_CHECK_FAIL) ? CB_EXIT_CLUSTER : CB_EXIT_OK;
}

size_t cb_doctor_count(const struct cb_doctor *d, enum cb_check_status st)
{
	size_t n = 0;
	for (size_t i = 0; i < d->n; i++)
		n += d->v[i].st == st;
	return n;
}

void cb_doctor_release(struct cb_doctor *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->v[i].check), free(d->v[i].detail), free(d->v[i].hint);
	free(d->v);
	*d = (struct cb_doctor){0};
}

void cb_doctor_text(const struct cb_doctor *d, FILE *out)
{
	for (size_t i = 0; i < d->n; i++) {
		const struct cb_check *c = &d->v[i];
		fprintf(out, "%-6s", status_word[c->st]);
		cb_esc_fputs(out, c->check, 0);
		fputs(": ", out);
		cb_esc_fputs(out, c->detail, 0);
		if (c->hint && c->st != CB_CHECK_OK) {
			fputs(" (", out);
			cb_esc_fputs(out, c->hint, 0);
			fputs(")", out);
		}
		fputc('\n', out);
	}
}

json_t *cb_doctor_json(const struct cb_doctor *d)
{
	json_t *a = json_array();
	for (size_t i = 0; a && i < d->n; i++) {
		const struct cb_check *c = &d->v[i];
		json_t *o =
		    json_pack("{s:s, s:b, s:s, s:s, s:s?}", "check", c->check, "ok",
			      c->st != CB_CHECK_FAIL, "status", status_word[c->st], "detail",
			      c->detail, "hint", c->st != CB_CHECK_OK ? c->hint : NULL);
		if (!o || json_array_append_new(a, o) < 0) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}
