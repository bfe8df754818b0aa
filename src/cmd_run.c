/* `cephbench run PROFILE`: load and validate, then run it (or, with
 * --dry-run, print the plan without connecting). */
#include "cli.h"
#include "commands.h"
#include "cost.h"
#include "expect.h"
#include "health.h"
#include "profiles_dir.h"
#include "ranks.h"
#include "units.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

static const char run_help[] =
    "usage: cephbench run PROFILE [flags] [-o KEY=VALUE]...\n"
    "\n"
    "Runs every workload of the YAML profile in order, prints one report row per\n"
    "workload, then removes what the run created.\n"
    "\n"
    "  -o, --set KEY=VALUE  override a profile key: workloads.NAME.KEY=V (or NAME.KEY=V)\n"
    "                       (repeat for more; every other flag is given once)\n"
    "                       for one workload, KEY=V for every workload whose layer has\n"
    "                       KEY, defaults.KEY=V as a default, cluster.KEY=V\n"
    "      --dry-run        validate the profile and print the plan; connect to nothing\n"
    "      --run-name N     names the run's objects (default: the profile's name)\n";

static void print_expect(const struct cb_expect *x)
{
	if (!x->set)
		return;
	const char *sep = "";
	printf("    expect:");
	for (unsigned m = 0; m < CB_EXPECT_NMETRICS; m++) {
		char v[48];
		if (!(x->set & (1u << m)))
			continue;
		cb_expect_format((enum cb_expect_metric)m, (double)x->v[m], v, sizeof(v));
		printf("%s %s %s %s", sep, cb_expect_options[m].name,
		       cb_expect_is_min((enum cb_expect_metric)m) ? ">=" : "<=", v);
		sep = ",";
	}
	printf("\n");
}

/* What the loader held against the bounds (cost.h): the memory the
 * runner will take, its op slots and threads. */
static void print_cost(const struct cb_workload *w)
{
	struct cb_cost c;
	char a[32], b[32];
	cb_cost_of(w, &c);
	printf("    memory about %s: %llu op slot%s of %s, %llu client thread%s\n",
	       cb_cost_format(c.bytes, a, sizeof(a)), (unsigned long long)c.slots,
	       c.slots == 1 ? "" : "s", cb_cost_format(c.slot_bytes, b, sizeof(b)),
	       (unsigned long long)c.threads, c.threads == 1 ? "" : "s");
}

static void print_plan(const struct cb_profile *p)
{
	printf("profile %s (sha256 %.12s): %zu workload%s\n", p->name, p->sha256, p->n,
	       p->n == 1 ? "" : "s");
	int nw = 20; /* a matrix's row names run long: the column fits the longest */
	for (size_t i = 0; i < p->n; i++) {
		int n = (int)strlen(p->items[i].wl.name);
		nw = n > nw ? n : nw;
	}
	for (size_t i = 0; i < p->n; i++) {
		const struct cb_workload *w = &p->items[i].wl;
		char bs[128], d[32];
		const struct cb_engine *eng = p->items[i].engine;
		struct cb_step st[CB_MAX_STEPS] = {{.suffix = NULL}};
		unsigned iters = 1;
		size_t n = eng->steps ? eng->steps(w, p->items[i].lopts, st, &iters) : 1;
		/* a fill pass then the workload: the common case gets a short note */
		bool fill = n == 2 && cb_step_is_prefill(&st[0]);
		/* steps that end on their own have no duration but their time limit */
		bool own = n > 0 && st[n - 1].own_limits;
		uint64_t dur = own ? st[0].duration_ns : w->duration_ns;
		for (size_t k = 1; own && k < n; k++)
			dur = st[k].duration_ns > dur ? st[k].duration_ns : dur;
		/* 0: a read in the size its data was written with, or no data at
		 * all (a metadata tree test) */
		if (cb_sizes_varies(&w->sizes))
			cb_sizes_format(&w->sizes, bs, sizeof(bs));
		/* a metadata op (a tree test, a stat) has none */
		bool data = !eng->sized_ops || cb_op_listed(eng->sized_ops, w->op) ||
			    cb_op_listed(eng->write_ops, w->op) ||
			    cb_engine_reads_as_written(eng, w->op);
		const char *bsv = !data			       ? "-"
				  : cb_sizes_varies(&w->sizes) ? bs
				  : w->block_size ? cb_format_size(w->block_size, bs, sizeof(bs))
				  : cb_engine_reads_as_written(eng, w->op) ? "as written"
									   : "-";
		printf("  %-*s %-6s %-9s bs %-10s concurrency %-4llu duration %s%s\n", nw, w->name,
		       eng->name, w->op, bsv, (unsigned long long)w->concurrency,
		       dur ? cb_format_duration(dur, d, sizeof(d)) : "-",
		       fill ? ", after a prefill" : "");
		if (w->clients > 1)
			printf("    %llu clients\n", (unsigned long long)w->clients);
		print_cost(w);
		if (w->repeat > 1)
			printf("    repeated %llu times\n", (unsigned long long)w->repeat);
		if (w->optional)
			printf("    optional: skipped where layer %s is unavailable\n", eng->name);
		print_expect(&w->expect);
		if (n < 2 || fill)
			continue;
		printf("    phases:");
		for (size_t k = 0; k < n; k++)
			printf("%s %s", k ? "," : "", st[k].suffix ? st[k].suffix : w->op);
		printf(iters > 1 ? " (%u iterations)\n" : "\n", iters);
	}
}

int cb_cmd_run(int argc, char **argv, enum cb_cmd_mode mode, struct cb_err *e)
{
	static const char shortopts[] = "c:o:h";
	static const struct option longopts[] = {
	    CB_CLI_CLUSTER_OPTIONS,
	    CB_CLI_RUN_OPTIONS,
	    {"set", required_argument, NULL, 'o'},
	    {"dry-run", no_argument, NULL, CB_OPT_CMD_BASE},
	    {NULL, 0, NULL, 0},
	};
	struct cb_run_opts o = {.sigfd = -1};
	/* -o KEY=VALUE adds an override each time; every other value is given once */
	struct cb_cli_seen seen = {.repeat = (const int[]){'o', 0}};
	char **ov = calloc((size_t)argc + 1, sizeof(*ov));
	size_t nov = 0;
	bool dry = false;
	int opt, rc = CB_EXIT_USAGE;
	struct cb_profile *p = NULL;

	if (!ov)
		return cb_err_usage(e, "out of memory"), CB_EXIT_USAGE;
	optind = 0;
	while ((opt = cb_cli_getopt(argc, argv, shortopts, longopts, &o, &seen, e)) != -1) {
		switch (opt) {
		case CB_CLI_ERROR:
			goto out;
		case 'o':
			ov[nov++] = optarg;
			break;
		case CB_OPT_CMD_BASE:
			dry = true;
			break;
		case 'h':
		case CB_OPT_HELP:
			printf("%s\n%s\n%s", run_help, cb_cli_cluster_help, cb_cli_run_help);
			rc = 0;
			goto out;
		default:
			cb_cli_bad_flag("run", shortopts, argc, argv, longopts, e);
			goto out;
		}
	}
	if (optind != argc - 1) {
		cb_err_usage(e, optind >= argc
				    ? "no profile given (cephbench run PROFILE)"
				    : "give exactly one profile (cephbench run PROFILE)");
		goto out;
	}
	if (mode == CB_CMD_PARSE) {
		rc = cb_health_check(&o.health, e) < 0 ? CB_EXIT_USAGE : CB_EXIT_OK;
		goto out;
	}
	/* Under an MPI launcher the ranks start first, with the signals
	 * blocked before MPI's threads exist (a stop signal the launcher
	 * forwards must reach the signalfd, not end the process), and they
	 * agree on the profile: a rank that cannot read it is named once, by
	 * rank 0. */
	if (!dry && cb_ranks_launched() &&
	    (cb_cli_block_signals(e) < 0 || cb_ranks_init(&o.ranks, e) < 0))
		goto out;
	char found[4200];
	const char *path = cb_profile_path(argv[optind], found, sizeof(found), e);
	if (cb_ranks_agree(o.ranks, path ? cb_profile_load(path, ov, nov, &p, e) : -EINVAL, e) < 0)
		goto out;
	/* the health flags' own consistency: a dry run that passes must not
	 * hide a combination the real run refuses (their files are left to it) */
	if (dry && cb_health_check(&o.health, e) < 0)
		goto out;
	if (dry) {
		print_plan(p);
		rc = 0;
		goto out;
	}
	rc = cb_cli_run(p, &o, e);
out:
	cb_profile_free(p);
	free(ov);
	if (o.ranks && cb_ranks_rank(o.ranks) != 0 && !cb_ranks_root_lost(o.ranks))
		e->msg[0] = '\0'; /* rank 0 says it */
	if (cb_ranks_lost(o.ranks) && e->msg[0]) {
		/* now: with a rank lost, finalizing waits for the launcher */
		fprintf(stderr, "cephbench run: %s\n", e->msg);
		e->msg[0] = '\0';
	}
	cb_ranks_finalize(o.ranks);
	return rc;
}
