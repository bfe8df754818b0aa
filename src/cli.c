/* Shared flags, flag errors and signal set-up for the subcommands. */
#include "cli.h"
#include "options.h"
#include "units.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

const char cb_cli_cluster_help[] =
    "Cluster:\n"
    "  -c, --conf FILE      ceph.conf (default: $CEPH_CONF, then the usual search path)\n"
    "      --client NAME    client to connect as, e.g. admin (also --id, --name)\n"
    "      --keyring FILE   keyring of that client\n"
    "      --timeout T      give up connecting, and fail any op stuck, after T (default 30s)\n"
    "      --ceph-debug-defaults  keep the Ceph client libraries' debug levels (default:\n"
    "                       0/0 for every debug_* the conf, CEPH_ARGS or the cluster\n"
    "                       does not set: the libraries' in-memory log costs CPU per op)\n"
    "  CEPH_ARGS is applied as the ceph tools do.\n";

const char cb_cli_run_help[] =
    "Output and lifecycle:\n"
    "      --format F       text (default) or json, on stdout\n"
    "      --json FILE      also write the JSON result to FILE\n"
    "      --html FILE      also write the result as one self-contained HTML page\n"
    "      --no-cleanup     keep what the run wrote (for later seq/rand runs)\n"
    "      --allow-destructive  let write workloads write to an existing image, device\n"
    "                       or file the run did not create (its data is overwritten;\n"
    "                       a device with a filesystem or partition table never is)\n"
    "      --wait           if another run is benchmarking the cluster from this host,\n"
    "                       wait for it to end (default: refuse, exit 3)\n"
    "      --quiet          print only errors, failures and regressions (no report,\n"
    "                       no progress lines, no cleanup notes)\n"
    "      --detail         the text report's every finding and each phase's telemetry\n"
    "                       (client CPU and threads, host, OSD and MDS counters); without\n"
    "                       it the findings name what needs attention (the JSON has all)\n"
    "      --progress M     a live line per phase on stderr: auto (default: when\n"
    "                       stderr is a terminal, not with --quiet), always, never,\n"
    "                       or jsonl (a JSON object a second, docs/progress.md)\n"
    "      --preflight R    the cluster's state a run starts on: ok, warn (default) or\n"
    "                       any; otherwise exit 3 naming why (profile preflight:)\n"
    "      --no-preflight   start whatever the cluster's state\n"
    "\n" CB_HEALTH_HELP;

int cb_cli_common(int opt, const char *arg, struct cb_run_opts *o, struct cb_err *e)
{
	int h = cb_health_flag(opt, arg, &o->health, e);
	if (h != 0)
		return h;
	switch (opt) {
	case 'c':
	case CB_OPT_CONF:
		o->cluster.conf = arg;
		return cb_err_rule(e, "--conf", arg, cb_path_rule(arg)) ?: 1;
	case CB_OPT_CLIENT:
		o->cluster.client = arg;
		return cb_err_rule(e, "--client", arg, cb_ceph_name_rule(arg)) ?: 1;
	case CB_OPT_KEYRING:
		o->cluster.keyring = arg;
		return cb_err_rule(e, "--keyring", arg, cb_path_rule(arg)) ?: 1;
	case CB_OPT_TIMEOUT:
		if (cb_parse_duration(arg, &o->cluster.timeout_ns) < 0)
			return cb_err_usage(e, "--timeout '%s': expected a duration like 30s or 2m",
					    CB_ECHO(arg));
		/* librados takes whole seconds */
		if (o->cluster.timeout_ns < 1000000000ULL)
			return cb_err_usage(e, "--timeout '%s': must be at least 1s", CB_ECHO(arg));
		return 1;
	case CB_OPT_RUN_NAME:
		if (!cb_name_valid(arg))
			return cb_err_usage(e,
					    "--run-name '%s': use 1-64 letters, digits, '_' or '-' "
					    "(no '/', '.', spaces)",
					    CB_ECHO(arg));
		o->run_name = arg;
		return 1;
	case CB_OPT_FORMAT:
		if (strcmp(arg, "text") == 0)
			o->format = CB_FORMAT_TEXT;
		else if (strcmp(arg, "json") == 0)
			o->format = CB_FORMAT_JSON;
		else
			return cb_err_usage(e, "--format '%s': use text or json", CB_ECHO(arg));
		return 1;
	case CB_OPT_JSON:
		o->json_path = arg;
		return cb_err_rule(e, "--json", arg, cb_path_rule(arg)) ?: 1;
	case CB_OPT_HTML:
		o->html_path = arg;
		return cb_err_rule(e, "--html", arg, cb_path_rule(arg)) ?: 1;
	case CB_OPT_NO_CLEANUP:
		o->no_cleanup = true;
		return 1;
	case CB_OPT_QUIET:
		o->quiet = true;
		return 1;
	case CB_OPT_DETAIL:
		o->detail = true;
		return 1;
	case CB_OPT_CEPH_DEBUG:
		o->cluster.ceph_debug = true;
		return 1;
	case CB_OPT_ALLOW_DESTRUCTIVE:
		o->allow_destructive = true;
		return 1;
	case CB_OPT_WAIT:
		o->wait = true;
		return 1;
	case CB_OPT_PREFLIGHT:
		if (!(o->preflight = cb_pf_require_parse(arg)))
			return cb_err_usage(e, "--preflight '%s': use ok, warn or any",
					    CB_ECHO(arg));
		return 1;
	case CB_OPT_NO_PREFLIGHT:
		o->preflight = CB_PF_OFF;
		return 1;
	case CB_OPT_PROGRESS:
		if (cb_progress_mode_parse(arg, &o->progress) < 0)
			return cb_err_usage(e, "--progress '%s': use auto, always, never or jsonl",
					    CB_ECHO(arg));
		return 1;
	}
	return 0;
}

int cb_adhoc_add(struct cb_adhoc *a, const char *origin, const char *key, const char *val,
		 struct cb_err *e)
{
	char *s;
	if (a->n == sizeof(a->kv) / sizeof(a->kv[0]) || asprintf(&s, "%s=%s", key, val) < 0)
		return cb_err_usage(e, "too many flags");
	a->kv[a->n] = s;
	a->origin[a->n++] = origin;
	return 0;
}

int cb_adhoc_flag(struct cb_adhoc *a, const struct cb_adhoc_flag *map, size_t n, int opt,
		  const char *arg, struct cb_err *e)
{
	for (size_t i = 0; i < n; i++)
		if (map[i].opt == opt && !arg && cb_adhoc_has(a, map[i].key))
			return 1; /* a switch given again says the same */
		else if (map[i].opt == opt)
			return cb_adhoc_add(a, map[i].origin, map[i].key, arg ? arg : "true", e) < 0
				   ? -EINVAL
				   : 1;
	return 0;
}

int cb_adhoc_getopt(const struct cb_adhoc_cmd *c, int argc, char **argv, struct cb_adhoc *a,
		    struct cb_run_opts *o, struct cb_err *e)
{
	int opt;
	while ((opt = cb_cli_getopt(argc, argv, c->shortopts, c->longopts, o, &a->seen, e)) != -1) {
		if (opt == CB_CLI_ERROR)
			return opt;
		if (opt == 'h' || opt == CB_OPT_HELP) {
			printf("%s\n%s\n%s", c->help, cb_cli_cluster_help, cb_cli_run_help);
			return CB_CLI_HELP;
		}
		if (opt == '?') {
			cb_cli_bad_flag(c->name, c->shortopts, argc, argv, c->longopts, e);
			return CB_CLI_ERROR;
		}
		int r = cb_adhoc_flag(a, c->map, c->nmap, opt, optarg, e);
		if (r < 0)
			return CB_CLI_ERROR;
		if (r == 0)
			return opt;
	}
	return -1;
}

bool cb_adhoc_has(const struct cb_adhoc *a, const char *key)
{
	size_t n = strlen(key);
	for (size_t i = 0; i < a->n; i++)
		if (strncmp(a->kv[i], key, n) == 0 && a->kv[i][n] == '=')
			return true;
	return false;
}

int cb_adhoc_run(const char *name, const struct cb_adhoc *a, struct cb_run_opts *o,
		 enum cb_cmd_mode mode, struct cb_err *e)
{
	struct cb_profile *p = NULL;
	if (cb_profile_adhoc(name, a->kv, a->origin, a->n, &p, e) < 0)
		return CB_EXIT_USAGE;
	int rc = mode == CB_CMD_PARSE ? CB_EXIT_OK : cb_cli_run(p, o, e);
	cb_profile_free(p);
	return rc;
}

void cb_adhoc_free(struct cb_adhoc *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->kv[i]);
	a->n = 0;
}

int cb_cli_bad_flag(const char *cmd, const char *shortopts, int argc, char **argv,
		    const struct option *longopts, struct cb_err *e)
{
	const char *flag = optind - 1 < argc && optind >= 1 ? argv[optind - 1] : "?";
	/* getopt says '?' both for an unknown flag and for a missing value; a
	 * short flag this command knows can only be missing its value. */
	const char *known =
	    optopt > 0 && optopt < 128 && optopt != ':' ? strchr(shortopts, optopt) : NULL;
	if (known && known[1] == ':' && flag[0] == '-' && flag[1] == optopt && !flag[2])
		return cb_err_usage(e, "%s needs a value (see cephbench %s --help)", flag, cmd);
	if (strncmp(flag, "--", 2) == 0) {
		char name[64];
		snprintf(name, sizeof(name), "%s", flag + 2);
		name[strcspn(name, "=")] = '\0';
		/* getopt_long accepts unique abbreviations ("--dur" for --duration) */
		for (const struct option *o = longopts; o->name; o++)
			if (o->has_arg == required_argument &&
			    (strcmp(o->name, name) == 0 ||
			     (optopt && optopt == o->val &&
			      strncmp(o->name, name, strlen(name)) == 0)))
				return cb_err_usage(e,
						    "--%s needs a value (see cephbench %s --help)",
						    o->name, cmd);
		const char *names[64];
		size_t n = 0;
		for (const struct option *o = longopts; o->name && n < 63; o++)
			names[n++] = o->name;
		names[n] = NULL;
		const char *best = cb_closest(name, names);
		if (best)
			return cb_err_usage(e, "unknown flag '--%s' (did you mean '--%s'?)",
					    CB_ECHO(name), best);
		return cb_err_usage(e, "unknown flag '--%s' (see cephbench %s --help)",
				    CB_ECHO(name), cmd);
	}
	return cb_err_usage(e, "unknown flag '%s' (see cephbench %s --help)", CB_ECHO(flag), cmd);
}

/* "--client/--id/--name": every long name of opt, or "-X" when it has none */
static void flag_names(int opt, const struct option *longopts, char *buf, size_t n)
{
	size_t len = 0;
	buf[0] = '\0';
	for (const struct option *l = longopts; l->name && len < n; l++)
		if (l->val == opt && !l->flag)
			len +=
			    (size_t)snprintf(buf + len, n - len, "%s--%s", len ? "/" : "", l->name);
	if (!buf[0])
		snprintf(buf, n, "-%c", opt > 0 && opt < 128 ? opt : '?');
}

int cb_cli_once(struct cb_cli_seen *s, int opt, int longindex, const char *shortopts,
		const struct option *longopts, struct cb_err *e)
{
	const char *c = opt > 0 && opt < 128 && opt != ':' ? strchr(shortopts, opt) : NULL;
	bool value =
	    longindex >= 0 ? longopts[longindex].has_arg == required_argument : c && c[1] == ':';
	if (!value || opt == '?')
		return 0;
	for (const int *r = s->repeat; r && *r; r++)
		if (*r == opt)
			return 0;
	for (size_t i = 0; i < s->n; i++)
		if (s->opt[i] == opt) {
			char names[160];
			flag_names(opt, longopts, names, sizeof(names));
			return cb_err_usage(e, "%s given twice; give it once", names);
		}
	if (s->n < CB_CLI_SEEN_MAX)
		s->opt[s->n++] = opt;
	return 0;
}

int cb_cli_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts,
		  struct cb_run_opts *o, struct cb_cli_seen *seen, struct cb_err *e)
{
	int opt, h, li = -1;
	opterr = 0; /* errors are ours: cb_cli_bad_flag */
	while ((opt = getopt_long(argc, argv, shortopts, longopts, &li)) != -1) {
		if (cb_cli_once(seen, opt, li, shortopts, longopts, e) < 0)
			return CB_CLI_ERROR;
		li = -1;
		h = cb_cli_common(opt, optarg, o, e);
		if (h < 0)
			return CB_CLI_ERROR;
		if (h == 0)
			return opt;
	}
	return -1;
}

/* The signals that stop a run as Ctrl-C does: drain, report, clean up.
 * SIGUSR2 because mpirun forwards it to every rank, where its SIGINT and
 * SIGTERM end the ranks within a second. */
static void stop_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGUSR2);
}

/* Blocked in every thread to come, so the runner reads them from a
 * signalfd between ops. */
int cb_cli_block_signals(struct cb_err *e)
{
	sigset_t set;
	stop_signals(&set);
	if (pthread_sigmask(SIG_BLOCK, &set, NULL) != 0)
		return cb_err_usage(e, "cannot block signals");
	return 0;
}

static int cli_signals(struct cb_err *e)
{
	sigset_t set;
	stop_signals(&set);
	if (cb_cli_block_signals(e) < 0)
		return -EINVAL;
	int fd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	if (fd < 0)
		return cb_err_usage(e, "signalfd: %s", strerror(errno));
	return fd;
}

int cb_cli_run(struct cb_profile *p, struct cb_run_opts *o, struct cb_err *e)
{
	cb_profile_seed(p, o->ranks);
	o->sigfd = cli_signals(e);
	if (o->sigfd < 0)
		return (int)e->exit;
	int rc = cb_run_profile(p, o, e);
	close(o->sigfd);
	o->sigfd = -1;
	return rc;
}
