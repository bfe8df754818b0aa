/* Checking what a session hands librados (conn_files.h). librados opens
 * its conf and keyring with a plain blocking open(2), inside calls that
 * block every signal, so a FIFO there would hang a run past --timeout,
 * SIGINT and SIGTERM; a directory or a device reads as garbage or forever. */
#include "conn_files.h"
#include "infile.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* Ceph splits its path lists (conf, keyring) at these only: a space is part
 * of a path (ceph::split(paths, ";,") in its config and keyring search) */
#define LIST_SEPS ",;"

bool cb_path_list_next(const char **s, char *buf, size_t n)
{
	*s += strspn(*s, LIST_SEPS);
	size_t len = strcspn(*s, LIST_SEPS);
	if (len == 0)
		return false;
	snprintf(buf, n, "%.*s", (int)len, *s);
	*s += len;
	return true;
}

static bool is_dev_null(const struct stat *st)
{
	return S_ISCHR(st->st_mode) && st->st_rdev == makedev(1, 3);
}

int cb_conf_resolve(const char *list, enum cb_conf_source src, char *used, size_t n,
		    struct cb_err *e)
{
	static const char *const what[] = {
	    [CB_CONF_FLAG] = "ceph conf file (--conf)",
	    [CB_CONF_CEPH_ARGS] = "ceph conf file (--conf in CEPH_ARGS)",
	    [CB_CONF_ENV] = "ceph conf file (CEPH_CONF)",
	    [CB_CONF_DEFAULT] = "ceph conf file (found in the default places; or give --conf)",
	};
	char home[1024] = "";
	if (!list) {
		/* librados's default search for a client, as strace shows it */
		const char *h = getenv("HOME");
		snprintf(home, sizeof(home), "/etc/ceph/ceph.conf,%s%sceph.conf", h ? h : "",
			 h ? "/.ceph/ceph.conf," : "");
		list = home;
	}
	char entry[4096];
	for (const char *s = list; cb_path_list_next(&s, entry, sizeof(entry));) {
		struct stat st;
		if (stat(entry, &st) < 0 && (errno == ENOENT || errno == ENOTDIR))
			continue; /* librados goes on to the next */
		snprintf(used, n, "%s", entry);
		/* `--conf /dev/null` with -m in CEPH_ARGS, as with the ceph CLI */
		if (is_dev_null(&st))
			return 0;
		return cb_infile_check(entry, what[src], CB_CEPHFILE_MAX_BYTES, e);
	}
	if (src == CB_CONF_FLAG || src == CB_CONF_CEPH_ARGS)
		return cb_err_usage(e, "cannot read ceph conf '%s': %s (check --conf%s)", list,
				    strerror(ENOENT),
				    src == CB_CONF_CEPH_ARGS ? " in CEPH_ARGS" : "");
	if (src == CB_CONF_ENV)
		return cb_err_usage(e, "cannot read ceph conf '%s' named by CEPH_CONF: %s", list,
				    strerror(ENOENT));
	return cb_err_usage(e, "no ceph conf found: give --conf FILE or set CEPH_CONF");
}

/* The keyring librados picks from its list is the first entry that opens
 * (ceph_resolve_file_search): the same walk, without opening anything that
 * is not a regular file. A list the user named must resolve; Ceph's default
 * list may not (auth none, or a key given otherwise). */
static int check_keyring_list(const char *list, const char *what, bool named, struct cb_err *e)
{
	char entry[4096];
	int first_err = 0;
	char first[4096] = "";
	for (const char *s = list; cb_path_list_next(&s, entry, sizeof(entry));) {
		struct stat st;
		if (stat(entry, &st) < 0) {
			if (!first_err)
				first_err = errno, snprintf(first, sizeof(first), "%s", entry);
			continue;
		}
		if (!S_ISREG(st.st_mode) || named ||
		    faccessat(AT_FDCWD, entry, R_OK, AT_EACCESS) == 0)
			return cb_infile_check(entry, what, CB_CEPHFILE_MAX_BYTES, e);
		if (!first_err)
			first_err = errno, snprintf(first, sizeof(first), "%s", entry);
	}
	if (named && first_err)
		return cb_err_usage(e, "%s: cannot open %s: %s", first, what, strerror(first_err));
	return 0;
}

/* Who set the keyring option: the flag, CEPH_ARGS, the conf, or nobody
 * (Ceph's default list), from its value after each step. */
static bool keyring_what(char *what, size_t n, const char *conf, const char *kr_default,
			 const char *kr_conf, bool by_flag, bool by_env)
{
	if (by_flag)
		snprintf(what, n, "keyring file (--keyring)");
	else if (by_env)
		snprintf(what, n, "keyring file (--keyring in CEPH_ARGS)");
	else if (strcmp(kr_conf, kr_default) != 0)
		snprintf(what, n, "keyring file (keyring in %s)", conf);
	else
		return snprintf(what, n, "keyring file"), false;
	return true;
}

static bool conf_names_monitors(const char *conf);

static int check_monitors(rados_t r, const char *conf, struct cb_err *e)
{
	char mon[512] = "", srv[256] = "";
	rados_conf_get(r, "mon_host", mon, sizeof(mon));
	rados_conf_get(r, "mon_dns_srv_name", srv, sizeof(srv));
	if (mon[0] || strcmp(srv, "ceph-mon") != 0 || conf_names_monitors(conf))
		return 0;
	return cb_err_usage(e,
			    "%s: no mon_host (or mon_addr): give the monitors' addresses "
			    "(mon_host = ADDR[,ADDR...] in [global], or -m ADDR in CEPH_ARGS)",
			    conf[0] ? conf : "no ceph conf");
}

int cb_conf_auth_off(rados_t r)
{
	static const char *const auth[] = {"auth_supported", "auth_client_required",
					   "auth_cluster_required", "auth_service_required"};
	int ret = 0;
	for (size_t i = 0; ret == 0 && i < sizeof(auth) / sizeof(auth[0]); i++)
		/* -ENOENT: Tentacle's libraries no longer have auth_supported */
		if ((ret = rados_conf_set(r, auth[i], "none")) == -ENOENT)
			ret = 0;
	return ret;
}

int cb_conn_probe_files(const char *name, const char *conf, const char *keyring, bool env_keyring,
			struct cb_err *e)
{
	/* librados reads the keyring whenever an auth option changes (its
	 * AuthRegistry observes them), so the real handle must never see an
	 * unchecked one. Values set here rank above the conf's and
	 * CEPH_ARGS', so with authentication off this handle reads none. */
	/* CEPH_ARGS is applied when the handle is created: its keyring ranks
	 * above the conf's, so the value after the conf is the conf's only
	 * when CEPH_ARGS names none */
	char kr_default[4096] = "", kr_conf[4096] = "", kr[4096] = "";
	char what[4200], keyfile[4096] = "";
	rados_t r;
	int ret = rados_create2(&r, "ceph", name, 0);
	if (ret < 0)
		return cb_err_usage(e, "cannot create a client named '%s': %s", name,
				    strerror(-ret));
	ret = cb_conf_auth_off(r);
	rados_conf_get(r, "keyring", kr_default, sizeof(kr_default));
	if (ret == 0 && (ret = rados_conf_read_file(r, conf)) < 0)
		cb_err_usage(e, "cannot read ceph conf '%s': %s", conf, strerror(-ret));
	rados_conf_get(r, "keyring", kr_conf, sizeof(kr_conf));
	if (ret == 0 && (ret = rados_conf_parse_env(r, NULL)) < 0)
		cb_err_usage(e, "cannot parse CEPH_ARGS: %s", strerror(-ret));
	if (ret == 0 && keyring && (ret = rados_conf_set(r, "keyring", keyring)) < 0)
		cb_err_usage(e, "bad keyring '%s': %s", keyring, strerror(-ret));
	if (ret == 0) {
		rados_conf_get(r, "keyring", kr, sizeof(kr));
		bool named = keyring_what(what, sizeof(what), conf, kr_default, kr_conf, keyring,
					  env_keyring);
		ret = check_keyring_list(kr, what, named, e);
	}
	if (ret == 0 && rados_conf_get(r, "keyfile", keyfile, sizeof(keyfile)) == 0 && keyfile[0])
		ret = cb_infile_check(keyfile, "key file (keyfile)", CB_CEPHFILE_MAX_BYTES, e);
	if (ret == 0)
		ret = check_monitors(r, conf, e);
	rados_shutdown(r);
	return ret < 0 ? (cb_err_isset(e)
			      ? ret
			      : cb_err_usage(e, "cannot configure a client: %s", strerror(-ret)))
		       : 0;
}

void cb_conf_each_key(const char *conf, void (*fn)(const char *key, void *arg), void *arg)
{
	char *buf, key[128];
	size_t len;
	struct cb_err ignored = {0};
	if (!conf[0] ||
	    cb_infile_read(conf, "ceph conf file", CB_CEPHFILE_MAX_BYTES, &buf, &len, &ignored) < 0)
		return;
	for (char *save = NULL, *l = strtok_r(buf, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save)) {
		l += strspn(l, " \t");
		const char *eq = strchr(l, '=');
		size_t n = eq ? (size_t)(eq - l) : 0;
		while (n && (l[n - 1] == ' ' || l[n - 1] == '\t'))
			n--;
		if (!n || n >= sizeof(key) || strchr("[#;", *l))
			continue;
		/* as Ceph reads a key: ' ' and '-' are '_', case does not matter */
		for (size_t k = 0; k < n; k++)
			key[k] =
			    (l[k] == ' ' || l[k] == '-') ? '_' : (char)tolower((unsigned char)l[k]);
		key[n] = '\0';
		fn(key, arg);
	}
	free(buf);
}

static void names_monitors(const char *key, void *found)
{
	if (!strcmp(key, "mon_addr") || !strcmp(key, "mon_dns_srv_name"))
		*(bool *)found = true;
}

/* Whether the conf text names monitors some way librados reads besides
 * mon_host: a mon_addr (in a [mon.X] section), or mon_dns_srv_name. */
static bool conf_names_monitors(const char *conf)
{
	bool found = false;
	cb_conf_each_key(conf, names_monitors, &found);
	return found;
}
