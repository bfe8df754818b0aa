/* What `cephbench doctor` asks a layer (engine->probe): would a run of this
 * workload start here? The layer tries what the run would do on names of its
 * own (a test object, a test image, a test directory), removes each, and
 * says one line per check through cb_probe_line. */
#ifndef CB_PROBE_H
#define CB_PROBE_H

#include <rados/librados.h>
#include <stdbool.h>
#include <stddef.h>

struct cb_conn;
struct cb_workload;

enum cb_check_status {
	CB_CHECK_OK,
	CB_CHECK_WARN, /* a run would start, but something is missing (telemetry) */
	CB_CHECK_FAIL, /* a run would not start */
};

struct cb_probe_req {
	struct cb_conn *conn;
	const struct cb_workload *wl;
	const void *lopts;
	/* the doctor's own run name ("cbdoctor-" and 16 hex digits) and id:
	 * whatever a probe makes is named and marked as this run's, so a
	 * cleanup of it finds what a killed doctor left */
	const char *run_name;
	const char *run_id;
	const char *client; /* "client.X", for hints */
	/* where the lines go (doctor.c) */
	void (*line)(void *arg, enum cb_check_status st, const char *check, const char *detail,
		     const char *hint);
	void *arg;
};

/* Say one check: check names it ("pool 'bench'"), detail what was found,
 * hint (NULL: none) what to do when it is not ok. Lines the same as an
 * earlier one (several workloads on one pool) are said once. */
void cb_probe_line(const struct cb_probe_req *req, enum cb_check_status st, const char *check,
		   const char *detail, const char *hint) __attribute__((nonnull(1, 3, 4)));

/* The check "pool 'P'": an ioctx on pool in namespace ns (NULL: the
 * default) into *io, the caller's, and an ok line; or a FAIL line (absent:
 * how to create it) and -errno. */
int cb_probe_pool(const struct cb_probe_req *req, const char *pool, const char *ns,
		  rados_ioctx_t *io);

/* A FAIL line for an op the cluster refused with r (-EPERM, -EACCES: the
 * client's `kind` caps, "osd" or "mds", must allow `what`, with the command
 * that shows them; otherwise r's text). */
void cb_probe_refused(const struct cb_probe_req *req, const char *check, const char *kind,
		      const char *what, const char *op, int r);

#endif
