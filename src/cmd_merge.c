/* `cephbench merge A.json B.json... -o C.json`: the records of one profile
 * run at the same time from several hosts without MPI (cron on each),
 * merged phase by phase as the MPI ranks' phases are (cb_phase_merge_host),
 * each host's own figures and what cannot be summed kept under its row. */
#include "cli.h"
#include "commands.h"
#include "jget.h"
#include "options.h"
#include "outfile.h"
#include "report.h"
#include "result_check.h"
#include "result_load.h"
#include "result_rebuild.h"
#include "served.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char merge_help[] =
    "usage: cephbench merge [flags] A.json B.json [C.json...] -o OUT.json\n"
    "\n"
    "Merges the result files of one profile run at the same time from several\n"
    "hosts (each its own cephbench, e.g. from cron; no MPI) into one record, phase\n"
    "by phase, as a run over MPI ranks merges its ranks: ops, bytes and errors\n"
    "add, histograms add bucket by bucket (so the percentiles are those of every\n"
    "op), the per-second samples add by wall-clock second, duration_s is the\n"
    "span the files ran over, IOPS and bandwidth are over it. Each file stays\n"
    "a row of its own under each phase (ranks: host, ops, ..., file) with what\n"
    "cannot be summed (its telemetry, expect verdicts, disturbed, iterations);\n"
    "its run-wide sections (verdict, client, preflight, ...) are in merged_from.\n"
    "The files must hold the same profile (name and sha256), the same cluster\n"
    "and the same phases. See docs/merge.md.\n"
    "\n"
    "  -o, --output FILE   where the merged record goes (written whole, or not at\n"
    "                      all)\n"
    "\n"
    "Exit codes: 0 merged, 2 bad input (nothing written).\n";

/* A phase's keys that say what it was: the first file's, kept. */
static const char *const same_keys[] = {
    "name",   "layer",	"op",	"pool",	 "block_size", "concurrency", "workload", "step",
    "matrix", "params", "uses", "group", "role",       "alone",	      "cold",	  NULL,
};

/* A phase's keys cb_phase_figures_json writes from the merged figures. */
static const char *const summed_keys[] = {
    "clients",	    "duration_s",
    "ops",	    "bytes",
    "iops",	    "bw_bytes_per_s",
    "errors",	    "interrupted",
    "failed",	    "latency_us",
    "histogram",    "samples",
    "read_ops",	    "read_bytes",
    "write_ops",    "write_bytes",
    "per_client",   "ranks",
    "first_done_s", "last_done_s",
    "open_loop",    "window_start_unix_s",
    "by_op",	    "start_skew_ms",
    NULL,
};

/* A record's keys that hold for the merge as the first file has them. */
static const char *const run_keys[] = {
    "schema", "tool", "cluster", "host", "run_name", "profile", "context", NULL,
};

/* A record's keys every file holds alike (checked, or the cluster's). */
static const char *const shared_keys[] = {
    "schema", "tool", "cluster", "profile", "context", "phases", NULL,
};

static bool listed(const char *const *keys, const char *k)
{
	for (; *keys; keys++)
		if (strcmp(*keys, k) == 0)
			return true;
	return false;
}

struct input {
	const char *path;
	json_t *root;
};

/* b is a's kind: the same profile, cluster and phases, not a's own file,
 * and no host's rows in it yet. */
static int check_alike(const struct input *a, const struct input *b, struct cb_err *e)
{
	const char *pa = cb_jstr(json_object_get(a->root, "profile"), "name", ""),
		   *pb = cb_jstr(json_object_get(b->root, "profile"), "name", "");
	const char *sa = cb_jstr(json_object_get(a->root, "profile"), "sha256", "");
	const char *sb = cb_jstr(json_object_get(b->root, "profile"), "sha256", "");
	if (strcmp(pa, pb) != 0 || strcmp(sa, sb) != 0)
		return cb_err_usage(e,
				    "%s: profile '%s' (sha256 %.12s...), %s's is '%s' (%.12s...): "
				    "merge the runs of one profile, with the same -o",
				    b->path, pb, sb, a->path, pa, sa);
	const char *fa = cb_jstr(json_object_get(a->root, "cluster"), "fsid", ""),
		   *fb = cb_jstr(json_object_get(b->root, "cluster"), "fsid", "");
	if (strcmp(fa, fb) != 0)
		return cb_err_usage(e, "%s: cluster %s, %s's is %s: merge the runs on one cluster",
				    b->path, CB_ECHO(fb), a->path, CB_ECHO(fa));
	if (strcmp(cb_jstr(a->root, "host", ""), cb_jstr(b->root, "host", "")) == 0 &&
	    strcmp(cb_jstr(a->root, "run_name", ""), cb_jstr(b->root, "run_name", "")) == 0 &&
	    strcmp(cb_jstr(a->root, "started", ""), cb_jstr(b->root, "started", "")) == 0)
		return cb_err_usage(e,
				    "%s: the same run as %s (host, run name, start): give each "
				    "host's file once",
				    b->path, a->path);
	const json_t *qa = json_object_get(a->root, "phases"),
		     *qb = json_object_get(b->root, "phases");
	if (json_array_size(qa) != json_array_size(qb))
		return cb_err_usage(e, "%s: %zu phases, %s has %zu: merge runs of the same phases",
				    b->path, json_array_size(qb), a->path, json_array_size(qa));
	for (size_t i = 0; i < json_array_size(qa); i++) {
		const json_t *x = json_array_get(qa, i), *y = json_array_get(qb, i);
		const char *nx = cb_jstr(x, "name", ""), *ny = cb_jstr(y, "name", "");
		if (strcmp(nx, ny) != 0 ||
		    strcmp(cb_jstr(x, "layer", ""), cb_jstr(y, "layer", "")) ||
		    strcmp(cb_jstr(x, "op", ""), cb_jstr(y, "op", "")))
			return cb_err_usage(
			    e,
			    "%s: phases[%zu] is '%s', %s's is '%s' (or its layer or "
			    "op differs): merge runs of the same phases",
			    b->path, i, ny, a->path, nx);
	}
	return 0;
}

/* Every file's phases without hosts' rows of their own: a merge of merges
 * (or of an MPI run) would number its hosts twice. */
static int check_plain(const struct input *in, struct cb_err *e)
{
	const json_t *q = json_object_get(in->root, "phases");
	for (size_t i = 0; i < json_array_size(q); i++)
		if (json_object_get(json_array_get(q, i), "ranks"))
			return cb_err_usage(e,
					    "%s: phases[%zu] already holds several hosts' rows "
					    "(ranks: a run over MPI, or a merge): merge the hosts' "
					    "own files",
					    in->path, i);
	return 0;
}

/* The phase was disturbed when a host saw it so: every file's disturbed
 * entries, each once, on the merged phase too (a disturbed phase is no
 * regression baseline); absent when no file sampled the state. */
static int disturbed_union(const struct input *in, size_t n, size_t i, json_t *o)
{
	json_t *all = NULL;
	for (size_t k = 0; k < n; k++) {
		const json_t *ph = json_array_get(json_object_get(in[k].root, "phases"), i);
		const json_t *d = json_object_get(ph, "disturbed");
		if (!json_is_array(d))
			continue;
		if (!all && !(all = json_array()))
			return -ENOMEM;
		size_t j, h;
		json_t *v, *w;
		json_array_foreach(d, j, v)
		{
			bool seen = false;
			json_array_foreach(all, h, w) seen |= json_equal(v, w);
			if (!seen && json_array_append(all, v) < 0) {
				json_decref(all);
				return -ENOMEM;
			}
		}
	}
	return all ? json_object_set_new(o, "disturbed", all) : 0;
}

/* Whether the cluster served the merged row: the first file's row the
 * client's cache served, if any (its figures are in the sums: the merged
 * row is no baseline either), else the first file's judgement; absent
 * when no file judged it. */
static int served_of(const struct input *in, size_t n, size_t i, json_t *o)
{
	const json_t *pick = NULL;
	for (size_t k = 0; k < n; k++) {
		const json_t *ph = json_array_get(json_object_get(in[k].root, "phases"), i);
		const json_t *s = json_object_get(ph, "served");
		if (s && cb_row_cached(ph)) {
			pick = s;
			break;
		}
		if (s && !pick)
			pick = s;
	}
	return pick ? json_object_set_new(o, "served", json_deep_copy(pick)) : 0;
}

/* Rows that ran at the same time: src's window starts within the longer
 * of the two windows (and a minute of slack: cron's hosts start apart) of
 * where the merge's starts; not yesterday's file beside today's. */
#define MERGE_SLACK_S 60

static int check_overlap(const struct input *in, size_t k, size_t i,
			 const struct cb_phase_result *m, const struct cb_phase_result *src,
			 int64_t off, struct cb_err *e)
{
	uint64_t longer = m->elapsed_ns > src->elapsed_ns ? m->elapsed_ns : src->elapsed_ns;
	int64_t bound = (int64_t)(longer / 1000000000u) + 1 + MERGE_SLACK_S;
	if (off <= bound && off >= -bound)
		return 0;
	return cb_err_usage(e,
			    "%s: phases[%zu] '%s' started %lld s %s the files before it, longer "
			    "than either ran (+%d s): merge runs that ran at the same time",
			    in[k].path, i, src->name, (long long)(off < 0 ? -off : off),
			    off < 0 ? "before" : "after", MERGE_SLACK_S);
}

/* Phase i of every file, merged into *out. */
static int merge_phase(const struct input *in, size_t n, size_t i, json_t **out, struct cb_err *e)
{
	struct cb_phase_result *p = calloc(n, sizeof(*p));
	if (!p)
		return cb_err_usage(e, "out of memory");
	int r = 0;
	for (size_t k = 0; k < n && r == 0; k++) {
		char where[160];
		snprintf(where, sizeof(where), "%s: phases[%zu]", in[k].path, i);
		const json_t *o = json_array_get(json_object_get(in[k].root, "phases"), i);
		if ((r = cb_phase_init(&p[k])) < 0)
			r = cb_err_usage(e, "out of memory");
		else
			r = cb_phase_rebuild(&p[k], o, where, e);
	}
	struct cb_phase_result *m = &p[0];
	if (r == 0 && cb_phase_add_host(m, 0, cb_jstr(in[0].root, "host", ""), m) < 0)
		r = cb_err_usage(e, "out of memory");
	uint64_t clients = m->clients;
	for (size_t k = 1; k < n && r == 0; k++) {
		clients += p[k].clients;
		m->rate_ops += p[k].rate_ops; /* each host's schedule, at once */
		int64_t off = cb_phase_offset_s(m, &p[k]);
		if ((r = check_overlap(in, k, i, m, &p[k], off, e)) < 0)
			break;
		if (cb_phase_add_host(m, (unsigned)k, cb_jstr(in[k].root, "host", ""), &p[k]) < 0 ||
		    cb_phase_merge_host(m, &p[k], off) < 0)
			r = cb_err_usage(e, "out of memory");
	}
	m->clients = clients;
	json_t *o = r == 0 ? json_object() : NULL;
	const json_t *first = json_array_get(json_object_get(in[0].root, "phases"), i);
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)first, key, v)
	{
		if (o && listed(same_keys, key))
			json_object_set(o, key, v);
	}
	if (r == 0 && (!o || cb_phase_figures_json(o, m) < 0))
		r = cb_err_usage(e, "out of memory");
	/* params.clients counts every host's, as a run over MPI's does */
	json_t *params = o ? json_object_get(o, "params") : NULL;
	if (r == 0 && params) {
		json_t *c = json_deep_copy(params);
		if (!c ||
		    json_object_set_new(c, "clients", json_integer((json_int_t)m->clients)) < 0 ||
		    json_object_set_new(o, "params", c) < 0)
			r = cb_err_usage(e, "out of memory");
	}
	if (r == 0 && (disturbed_union(in, n, i, o) < 0 || served_of(in, n, i, o) < 0))
		r = cb_err_usage(e, "out of memory");
	/* each file's row keeps what the file alone can say */
	json_t *rows = o ? json_object_get(o, "ranks") : NULL;
	bool bad = false;
	for (size_t k = 0; r == 0 && k < n; k++) {
		json_t *row = json_array_get(rows, k);
		const json_t *ph = json_array_get(json_object_get(in[k].root, "phases"), i);
		bad |= json_object_set_new(row, "file", json_string(in[k].path)) < 0;
		/* whole: a rank's row holds 63 bytes of it, a record 255 */
		bad |= json_object_set(row, "host", json_object_get(in[k].root, "host")) < 0;
		json_object_foreach((json_t *)ph, key, v)
		{
			if (!listed(same_keys, key) && !listed(summed_keys, key))
				bad |= json_object_set(row, key, v) < 0;
		}
	}
	if (r == 0 && bad) /* a record missing a part is not written */
		r = cb_err_usage(e, "out of memory");
	for (size_t k = 0; k < n; k++) /* calloc'ed: release takes an unused one */
		cb_phase_release(&p[k]);
	free(p);
	if (r < 0)
		json_decref(o);
	else
		*out = o;
	return r;
}

/* The record: the first file's run keys, the earliest start, interrupted
 * when any was, the merged phases, and every file's own sections. */
static int merge_record(const struct input *in, size_t n, json_t **out, struct cb_err *e)
{
	json_t *root = json_object(), *phases = json_array(), *from = json_array();
	const char *key;
	json_t *v;
	bool bad = false;
	if (!root || !phases || !from)
		goto oom;
	json_object_foreach(in[0].root, key, v)
	{
		if (listed(run_keys, key))
			bad |= json_object_set(root, key, v) < 0;
	}
	const char *started = cb_jstr(in[0].root, "started", "");
	bool interrupted = false, mixed = false;
	for (size_t k = 0; k < n; k++) {
		const char *s = cb_jstr(in[k].root, "started", "");
		started = strcmp(s, started) < 0 ? s : started; /* one fixed format */
		interrupted |= json_is_true(json_object_get(in[k].root, "interrupted"));
		json_t *f = json_pack("{s:s}", "file", in[k].path);
		if (!f || json_array_append_new(from, f) < 0)
			goto oom;
		json_object_foreach(in[k].root, key, v)
		{
			if (!listed(shared_keys, key))
				bad |= json_object_set(f, key, v) < 0;
		}
		/* hosts may run builds on different client libraries: each
		 * file's own, and the merge's says when they differ */
		const json_t *tool = json_object_get(in[k].root, "tool");
		if (tool)
			bad |= json_object_set(f, "tool", (json_t *)tool) < 0;
		if (strcmp(cb_jstr(tool, "ceph_client", ""),
			   cb_jstr(json_object_get(in[0].root, "tool"), "ceph_client", "")) != 0)
			mixed = true;
	}
	if (mixed) {
		json_t *t = json_deep_copy(json_object_get(root, "tool"));
		bad |= !t || json_object_set_new(t, "ceph_client", json_string("mixed")) < 0 ||
		       json_object_set_new(root, "tool", t) < 0;
	}
	bad |= json_object_set_new(root, "started", json_string(started)) < 0;
	bad |= json_object_set_new(root, "interrupted", json_boolean(interrupted)) < 0;
	if (bad)
		goto oom;
	for (size_t i = 0; i < json_array_size(json_object_get(in[0].root, "phases")); i++) {
		json_t *o = NULL;
		if (merge_phase(in, n, i, &o, e) < 0) {
			json_decref(root);
			json_decref(phases);
			json_decref(from);
			return -EINVAL;
		}
		if (json_array_append_new(phases, o) < 0)
			goto oom;
	}
	/* root owns them now, or they are gone */
	bad = json_object_set_new(root, "phases", phases) < 0;
	bad |= json_object_set_new(root, "merged_from", from) < 0;
	phases = from = NULL;
	if (bad)
		goto oom;
	*out = root;
	return 0;
oom:
	json_decref(root);
	json_decref(phases);
	json_decref(from);
	return cb_err_usage(e, "out of memory");
}

static int render(FILE *f, const void *rec)
{
	return cb_report_json_dump(f, rec);
}

static int merge_files(char **paths, size_t n, struct cb_out *out, struct cb_err *e)
{
	struct input *in = calloc(n, sizeof(*in));
	if (!in)
		return cb_err_usage(e, "out of memory");
	int r = 0;
	for (size_t k = 0; k < n && r == 0; k++) {
		in[k].path = paths[k];
		r = cb_result_load(paths[k], &in[k].root, e);
		if (r == 0)
			r = cb_result_check(in[k].root, paths[k], e);
		if (r == 0)
			r = check_plain(&in[k], e);
		for (size_t j = 0; j < k && r == 0; j++)
			r = check_alike(&in[j], &in[k], e);
	}
	json_t *rec = NULL;
	if (r == 0)
		r = merge_record(in, n, &rec, e);
	if (r == 0)
		r = cb_out_write(out, render, rec, e);
	json_decref(rec);
	for (size_t k = 0; k < n; k++)
		json_decref(in[k].root);
	free(in);
	return r;
}

int cb_cmd_merge(int argc, char **argv, enum cb_cmd_mode mode, struct cb_err *e)
{
	static const char shortopts[] = "ho:";
	static const struct option longopts[] = {
	    {"output", required_argument, NULL, 'o'},
	    {"help", no_argument, NULL, CB_OPT_HELP},
	    {NULL, 0, NULL, 0},
	};
	struct cb_run_opts ro = {.sigfd = -1};
	struct cb_cli_seen seen = {0};
	const char *output = NULL;
	int opt;

	optind = 0;
	while ((opt = cb_cli_getopt(argc, argv, shortopts, longopts, &ro, &seen, e)) != -1) {
		switch (opt) {
		case CB_CLI_ERROR:
			return CB_EXIT_USAGE;
		case 'o':
			output = optarg;
			if (cb_err_rule(e, "-o", optarg, cb_path_rule(optarg)) < 0)
				return CB_EXIT_USAGE;
			break;
		case 'h':
		case CB_OPT_HELP:
			printf("%s", merge_help);
			return 0;
		default:
			cb_cli_bad_flag("merge", shortopts, argc, argv, longopts, e);
			return CB_EXIT_USAGE;
		}
	}
	size_t n = (size_t)(argc - optind);
	if (n < 2)
		return cb_err_usage(e, "give two result files or more to merge (A.json B.json... "
				       "-o OUT.json; see cephbench merge --help)"),
		       CB_EXIT_USAGE;
	if (!output)
		return cb_err_usage(e, "give -o OUT.json: where the merged record goes"),
		       CB_EXIT_USAGE;
	if (mode == CB_CMD_PARSE)
		return CB_EXIT_OK;
	struct cb_out *out = NULL;
	char what[CB_ECHO_SIZE + 8];
	snprintf(what, sizeof(what), "-o %s", CB_ECHO(output));
	if (cb_out_open(what, output, CB_OUT_REPORT, &out, e) < 0)
		return (int)e->exit;
	int r = merge_files(argv + optind, n, out, e);
	cb_out_close(out);
	return r < 0 ? (int)e->exit : 0;
}
