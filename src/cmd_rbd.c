/* `cephbench rbd [POOL/]IMAGE | --image-size SIZE`: the flags an rbd bench
 * user knows, turned into a one-workload profile and run through the same
 * path as `cephbench run`. */
#include "cli.h"
#include "commands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char rbd_help[] =
    "usage: cephbench rbd [POOL/]IMAGE [flags]    (an existing image: read-only\n"
    "                                             unless --allow-destructive)\n"
    "       cephbench rbd --image-size SIZE [flags] (images the run creates)\n"
    "\n"
    "RBD image bench through librbd, as rbd bench does it, with latency percentiles.\n"
    "Created images are named cephbench.<run-name>.<n> and removed at the end.\n"
    "\n"
    "  -p, --pool POOL        pool of the images (default rbd)\n"
    "      --io-type T        read, write, readwrite (or rw); default write for\n"
    "                         created images, required for an existing one\n"
    "      --io-size SIZE     bytes per op (default 4K)\n"
    "      --io-threads N     ops in flight (default 16; per client)\n"
    "      --clients N        clients, each with its own connection, ops in\n"
    "                         flight and images (default 1); limits are per client\n"
    "      --io-total SIZE    stop after SIZE bytes (default 1G unless --duration)\n"
    "      --io-pattern P     seq or rand (default seq)\n"
    "      --rw-mix-read N    readwrite: percent of reads (default 50)\n"
    "      --image-size SIZE  create images of SIZE\n"
    "      --images N         create N images; each op picks one (default 1)\n"
    "      --object-size SIZE object size of created images (default 4M)\n"
    "      --features LIST    features of created images, e.g. layering,exclusive-lock\n"
    "      --data-pool POOL   data pool of created images (e.g. erasure-coded)\n"
    "      --prefill          write the images in full first (a phase of its own)\n"
    "      --reuse            keep created images for later runs of this --run-name\n"
    "      --verify           reads check the prefill pattern\n"
    "      --cache MODE       librbd's cache: off (default: every op reaches the\n"
    "                         OSDs), writethrough, writeback (rbd bench's and fio's\n"
    "                         default: they flush once, which turns writeback on)\n"
    "      --duration T       measured time instead of --io-total\n"
    "      --ramp T           run first for T without counting\n"
    "      --ops N            stop after N ops\n"
    "      --max-errors N     op errors tolerated (default 0)\n"
    "      --op-timeout T     fail an OSD op stuck for T and count it as an error\n"
    "                         (default: --timeout)\n"
    "      --rate R           open loop: R ops/s (or a bandwidth, 200MiB/s) for all\n"
    "                         clients; latency from each op's scheduled start\n"
    "      --cold             reads: the OSDs of the pool drop their caches first\n"
    "      --run-name N       names the created images (default: bench)\n";

enum {
	OPT_IO_TYPE = CB_OPT_CMD_BASE,
	OPT_IO_SIZE,
	OPT_IO_THREADS,
	OPT_IO_TOTAL,
	OPT_IO_PATTERN,
	OPT_RW_MIX_READ,
	OPT_IMAGE_SIZE,
	OPT_IMAGES,
	OPT_OBJECT_SIZE,
	OPT_FEATURES,
	OPT_DATA_POOL,
	OPT_PREFILL,
	OPT_REUSE,
	OPT_VERIFY,
	OPT_CACHE,
	OPT_DURATION,
	OPT_RAMP,
	OPT_OPS,
	OPT_MAX_ERRORS,
	OPT_CLIENTS,
	OPT_OP_TIMEOUT,
	OPT_RATE,
	OPT_COLD,
};

/* --io-type and --io-pattern together name the op, as in rbd bench. */
static const char *op_of(const char *type, const char *pattern, struct cb_err *e)
{
	static const char *const ops[][2] = {
	    {"write", "randwrite"}, {"read", "randread"}, {"rw", "randrw"}};
	int t, p;
	if (!strcmp(type, "write"))
		t = 0;
	else if (!strcmp(type, "read"))
		t = 1;
	else if (!strcmp(type, "readwrite") || !strcmp(type, "rw"))
		t = 2;
	else
		return cb_err_usage(e, "--io-type '%s': use read, write or readwrite",
				    CB_ECHO(type)),
		       NULL;
	if (!strcmp(pattern, "seq"))
		p = 0;
	else if (!strcmp(pattern, "rand"))
		p = 1;
	else
		return cb_err_usage(e, "--io-pattern '%s': use seq or rand", CB_ECHO(pattern)),
		       NULL;
	return ops[t][p];
}

int cb_cmd_rbd(int argc, char **argv, enum cb_cmd_mode mode, struct cb_err *e)
{
	static const char shortopts[] = "c:p:h";
	static const struct option longopts[] = {
	    CB_CLI_CLUSTER_OPTIONS,
	    CB_CLI_RUN_OPTIONS,
	    {"pool", required_argument, NULL, 'p'},
	    {"io-type", required_argument, NULL, OPT_IO_TYPE},
	    {"io-size", required_argument, NULL, OPT_IO_SIZE},
	    {"io-threads", required_argument, NULL, OPT_IO_THREADS},
	    {"io-total", required_argument, NULL, OPT_IO_TOTAL},
	    {"io-pattern", required_argument, NULL, OPT_IO_PATTERN},
	    {"rw-mix-read", required_argument, NULL, OPT_RW_MIX_READ},
	    {"image-size", required_argument, NULL, OPT_IMAGE_SIZE},
	    {"images", required_argument, NULL, OPT_IMAGES},
	    {"object-size", required_argument, NULL, OPT_OBJECT_SIZE},
	    {"features", required_argument, NULL, OPT_FEATURES},
	    {"data-pool", required_argument, NULL, OPT_DATA_POOL},
	    {"prefill", no_argument, NULL, OPT_PREFILL},
	    {"reuse", no_argument, NULL, OPT_REUSE},
	    {"verify", no_argument, NULL, OPT_VERIFY},
	    {"cache", required_argument, NULL, OPT_CACHE},
	    {"duration", required_argument, NULL, OPT_DURATION},
	    {"ramp", required_argument, NULL, OPT_RAMP},
	    {"ops", required_argument, NULL, OPT_OPS},
	    {"max-errors", required_argument, NULL, OPT_MAX_ERRORS},
	    {"clients", required_argument, NULL, OPT_CLIENTS},
	    {"op-timeout", required_argument, NULL, OPT_OP_TIMEOUT},
	    {"rate", required_argument, NULL, OPT_RATE},
	    {"cold", no_argument, NULL, OPT_COLD},
	    {NULL, 0, NULL, 0},
	};
	/* flags that are one profile key each */
	static const struct cb_adhoc_flag map[] = {
	    {OPT_IO_SIZE, "--io-size", "block_size"},
	    {OPT_IO_THREADS, "--io-threads", "concurrency"},
	    {OPT_IO_TOTAL, "--io-total", "bytes"},
	    {OPT_RW_MIX_READ, "--rw-mix-read", "rw_mix_read"},
	    {OPT_IMAGE_SIZE, "--image-size", "image_size"},
	    {OPT_IMAGES, "--images", "images"},
	    {OPT_OBJECT_SIZE, "--object-size", "object_size"},
	    {OPT_FEATURES, "--features", "features"},
	    {OPT_DATA_POOL, "--data-pool", "data_pool"},
	    {OPT_PREFILL, "--prefill", "prefill"},
	    {OPT_REUSE, "--reuse", "reuse"},
	    {OPT_VERIFY, "--verify", "verify"},
	    {OPT_CACHE, "--cache", "cache"},
	    {OPT_DURATION, "--duration", "duration"},
	    {OPT_RAMP, "--ramp", "ramp"},
	    {OPT_OPS, "--ops", "ops"},
	    {OPT_MAX_ERRORS, "--max-errors", "max_errors"},
	    {OPT_CLIENTS, "--clients", "clients"},
	    {OPT_OP_TIMEOUT, "--op-timeout", "op_timeout"},
	    {OPT_RATE, "--rate", "rate"},
	    {OPT_COLD, "--cold", "cold"},
	};
	struct cb_run_opts o = {.sigfd = -1, .run_name = "bench"};
	struct cb_adhoc a = {0};
	const char *pool = "rbd", *type = NULL, *pattern = "seq", *image = NULL;
	char *poolbuf = NULL;
	int opt, rc = CB_EXIT_USAGE;

	const struct cb_adhoc_cmd cmd = {.name = "rbd",
					 .help = rbd_help,
					 .shortopts = shortopts,
					 .longopts = longopts,
					 .map = map,
					 .nmap = sizeof(map) / sizeof(map[0])};
	optind = 0;
	while ((opt = cb_adhoc_getopt(&cmd, argc, argv, &a, &o, e)) != -1) {
		if (opt == CB_CLI_HELP || opt == CB_CLI_ERROR) {
			rc = opt == CB_CLI_HELP ? 0 : CB_EXIT_USAGE;
			goto out;
		}
		/* -p, --io-type, --io-pattern: turned into keys below */
		*(opt == 'p' ? &pool : opt == OPT_IO_TYPE ? &type : &pattern) = optarg;
	}
	if (optind < argc) {
		image = argv[optind++];
		const char *slash = strchr(image, '/');
		if (slash) { /* POOL/IMAGE, as the rbd tool takes it */
			if (!(poolbuf = strndup(image, (size_t)(slash - image)))) {
				cb_err_usage(e, "out of memory");
				goto out;
			}
			pool = poolbuf;
			image = slash + 1;
		}
	}
	if (optind < argc) {
		cb_err_usage(e, "unexpected argument '%s' (give one image)", CB_ECHO(argv[optind]));
		goto out;
	}
	bool limited =
	    cb_adhoc_has(&a, "bytes") || cb_adhoc_has(&a, "duration") || cb_adhoc_has(&a, "ops");
	if (!image && !cb_adhoc_has(&a, "image_size")) {
		cb_err_usage(e, "give an image ([POOL/]IMAGE) or --image-size SIZE to create one "
				"(see cephbench rbd --help)");
		goto out;
	}
	if (image && !type) {
		/* as rbd bench: on someone's image, writing is never a default */
		cb_err_usage(e,
			     "give --io-type for image %s/%s: read, write or readwrite (writes "
			     "need --allow-destructive)",
			     pool, image);
		goto out;
	}
	const char *op = op_of(type ? type : "write", pattern, e);
	if (!op)
		goto out;
	if ((image && cb_adhoc_add(&a, "IMAGE", "image", image, e) < 0) ||
	    (!limited && cb_adhoc_add(&a, "--io-total", "bytes", "1G", e) < 0) ||
	    cb_adhoc_add(&a, "-p", "pool", pool, e) < 0 ||
	    cb_adhoc_add(&a, "--io-type", "layer", "rbd", e) < 0 ||
	    cb_adhoc_add(&a, "--io-type", "op", op, e) < 0 ||
	    cb_adhoc_add(&a, "--io-type", "name", op, e) < 0)
		goto out;
	rc = cb_adhoc_run("rbd", &a, &o, mode, e);
out:
	free(poolbuf);
	cb_adhoc_free(&a);
	return rc;
}
