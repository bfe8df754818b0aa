/* `cephbench rbd [POOL/]IMAGE | --image-size SIZE`: the flags an rbd bench
 * user knows, turned into a one-workload profile and run through the same
 * path as `cephbench run`. */
#include "cli.h"
#include "commands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char rbd_usage[] =
    "usage: cephbench rbd [POOL/]IMAGE [flags]    (an existing image: read-only\n"
    "                                             unless --allow-destructive)\n"
    "       cephbench rbd --image-size SIZE [flags] (images the run creates)\n"
    "\n"
    "RBD image bench through librbd, as rbd bench does it, with latency percentiles.\n"
    "Created images are named cephbench.<run-name>.<n> and removed at the end.\n"
    "\n";

/* -p, --io-type and --io-pattern have no key: they are read below */
static const struct cb_adhoc_flag rbd_flags[] = {
    {"-p", "pool", "POOL", NULL, "pool of the images (default rbd)"},
    {"--io-type", NULL, "T", NULL,
     "read, write, readwrite (or rw); default write for\n"
     "created images, required for an existing one"},
    {"--io-size", NULL, "SIZE", "block_size", "bytes per op (default 4K)"},
    {"--io-threads", NULL, "N", "concurrency", "ops in flight (default 16; per client)"},
    CB_ADHOC_CLIENTS("clients, each with its own connection, ops in\n"
		     "flight and images (default 1); limits are per client"),
    {"--io-total", NULL, "SIZE", "bytes", "stop after SIZE bytes (default 1G unless --duration)"},
    {"--io-pattern", NULL, "P", NULL, "seq or rand (default seq)"},
    {"--rw-mix-read", NULL, "N", "rw_mix_read", "readwrite: percent of reads (default 50)"},
    {"--image-size", NULL, "SIZE", "image_size", "create images of SIZE"},
    {"--images", NULL, "N", "images", "create N images; each op picks one (default 1)"},
    {"--object-size", NULL, "SIZE", "object_size", "object size of created images (default 4M)"},
    {"--features", NULL, "LIST", "features",
     "features of created images, e.g. layering,exclusive-lock"},
    {"--data-pool", NULL, "POOL", "data_pool", "data pool of created images (e.g. erasure-coded)"},
    {"--prefill", NULL, NULL, "prefill", "write the images in full first (a phase of its own)"},
    {"--reuse", NULL, NULL, "reuse", "keep created images for later runs of this --run-name"},
    {"--verify", NULL, NULL, "verify", "reads check the prefill pattern"},
    {"--cache", NULL, "MODE", "cache",
     "librbd's cache: off (default: every op reaches the\n"
     "OSDs), writethrough, writeback (rbd bench's and fio's\n"
     "default: they flush once, which turns writeback on)"},
    CB_ADHOC_DURATION("measured time instead of --io-total"),
    CB_ADHOC_RAMP(CB_ADHOC_RAMP_HELP),
    CB_ADHOC_LIMITS,
    {"--run-name", NULL, "N", NULL, "names the created images (default: bench)"},
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
	struct cb_run_opts o = {.sigfd = -1, .run_name = "bench"};
	struct cb_adhoc a = {0};
	const char *pool = "rbd", *type = NULL, *pattern = "seq", *image = NULL;
	char *poolbuf = NULL;
	int opt, rc = CB_EXIT_USAGE;

	static const struct cb_adhoc_cmd cmd = CB_ADHOC_CMD("rbd", rbd_usage, rbd_flags, 22);
	while ((opt = cb_adhoc_getopt(&cmd, argc, argv, &a, &o, e)) != -1) {
		if (opt == CB_CLI_HELP || opt == CB_CLI_ERROR) {
			rc = opt == CB_CLI_HELP ? 0 : CB_EXIT_USAGE;
			goto out;
		}
		/* -p, --io-type, --io-pattern: turned into keys below */
		const char *flag = cb_adhoc_row(&cmd, opt)->flag;
		*(opt == 'p' ? &pool : !strcmp(flag, "--io-type") ? &type : &pattern) = optarg;
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
