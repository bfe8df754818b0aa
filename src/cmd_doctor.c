/* `cephbench doctor [PROFILE]`: would a run start here? One line per check,
 * each with what to do when it fails; exit 0 when a run would start, 3 when
 * not (doctor.c does the checks). */
#include "cli.h"
#include "commands.h"
#include "doctor.h"
#include "profiles_dir.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char doctor_help[] =
    "usage: cephbench doctor [PROFILE] [flags] [-o KEY=VALUE]...\n"
    "\n"
    "Checks what a run needs, one line per check (ok, warn or FAIL), each failure\n"
    "with what to do: the ceph conf found and read, the keyring, the monitors\n"
    "reached and the key accepted, the cluster's status readable (mon read:\n"
    "telemetry and the pre-flight gate; a warning only, a run starts without it)\n"
    "and the pre-flight gate's verdict, the run directory and the cluster's run\n"
    "lock. With PROFILE (as cephbench run takes it), also what each workload's\n"
    "layer needs: its pool, file system or named image present, and the client's\n"
    "caps tried the way a run uses them, on names of the doctor's own run\n"
    "(cbdoctor-<16 hex digits>), each removed at once: a test object in the\n"
    "pool's namespace 'cephbench' (rados), a test image (rbd, krbd), a test\n"
    "directory and file under /cephbench (cephfs); for krbd, the kernel's rbd\n"
    "module and the rbd command. Nothing else is written, read or removed.\n"
    "Exit 0 when a run would start, 3 when not, 2 for a bad flag or profile.\n"
    "\n"
    "  -o, --set KEY=VALUE  override a profile key, as cephbench run takes it\n"
    "      --format F       text (default) or json: an array of {check, ok, status,\n"
    "                       detail, hint}\n"
    "      --preflight R    the pre-flight gate checked: ok, warn (default) or any\n"
    "      --no-preflight   no gate to check\n";

int cb_cmd_doctor(int argc, char **argv, enum cb_cmd_mode mode, struct cb_err *e)
{
	static const char shortopts[] = "c:o:h";
	static const struct option longopts[] = {
	    CB_CLI_CLUSTER_OPTIONS,
	    {"format", required_argument, NULL, CB_OPT_FORMAT},
	    {"set", required_argument, NULL, 'o'},
	    {"preflight", required_argument, NULL, CB_OPT_PREFLIGHT},
	    {"no-preflight", no_argument, NULL, CB_OPT_NO_PREFLIGHT},
	    {NULL, 0, NULL, 0},
	};
	struct cb_run_opts o = {.sigfd = -1};
	/* -o KEY=VALUE adds an override each time; every other value is given once */
	struct cb_cli_seen seen = {.repeat = (const int[]){'o', 0}};
	char **ov = calloc((size_t)argc + 1, sizeof(*ov));
	size_t nov = 0;
	int opt, rc = CB_EXIT_USAGE;
	struct cb_profile *p = NULL;
	struct cb_doctor d = {0};

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
		case 'h':
		case CB_OPT_HELP:
			printf("%s\n%s", doctor_help, cb_cli_cluster_help);
			rc = 0;
			goto out;
		default:
			cb_cli_bad_flag("doctor", shortopts, argc, argv, longopts, e);
			goto out;
		}
	}
	if (argc - optind > 1) {
		cb_err_usage(e, "unexpected argument '%s' (cephbench doctor [PROFILE])",
			     CB_ECHO(argv[optind + 1]));
		goto out;
	}
	if (nov && optind == argc) {
		cb_err_usage(e, "-o needs a profile (cephbench doctor PROFILE -o KEY=VALUE)");
		goto out;
	}
	if (mode == CB_CMD_PARSE) {
		rc = CB_EXIT_OK;
		goto out;
	}
	if (optind < argc) {
		char found[4200];
		const char *path = cb_profile_path(argv[optind], found, sizeof(found), e);
		if (!path || cb_profile_load(path, ov, nov, &p, e) < 0)
			goto out;
	}
	/* the cluster as a run takes it: flags first, then the profile's */
	struct cb_cluster_opts co = o.cluster;
	struct cb_preflight_opts pf = {.require = CB_PF_UNSET};
	if (p) {
		co.conf = co.conf ? co.conf : p->conf;
		co.client = co.client ? co.client : p->client;
		co.keyring = co.keyring ? co.keyring : p->keyring;
		co.timeout_ns = co.timeout_ns ? co.timeout_ns : p->timeout_ns;
		pf = p->preflight;
	}
	if (o.preflight)
		pf.require = o.preflight;
	rc = cb_doctor_run(&co, p, &pf, &d);
	if (o.format == CB_FORMAT_JSON) {
		json_t *j = cb_doctor_json(&d);
		if (!j || json_dumpf(j, stdout, JSON_INDENT(2)) < 0) {
			json_decref(j);
			cb_err_usage(e, "out of memory");
			rc = CB_EXIT_USAGE;
			goto out;
		}
		json_decref(j);
		fputc('\n', stdout);
	} else if (!o.quiet || rc != CB_EXIT_OK) {
		cb_doctor_text(&d, stdout);
	}
	size_t nfail = cb_doctor_count(&d, CB_CHECK_FAIL),
	       nwarn = cb_doctor_count(&d, CB_CHECK_WARN);
	if (rc != CB_EXIT_OK)
		cb_err_cluster(e, -EAGAIN, "%zu of %zu checks failed: a run would not start", nfail,
			       d.n);
	else if (nwarn && !o.quiet)
		fprintf(stderr, "cephbench doctor: %zu warning%s: a run would start\n", nwarn,
			nwarn == 1 ? "" : "s");
out:
	cb_doctor_release(&d);
	cb_profile_free(p);
	free(ov);
	return rc;
}
