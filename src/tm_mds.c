/* The MDS's request counters over a CephFS phase (tm_mds.h). libcephfs is
 * the only client library with a command path to an MDS; its client is
 * made from the run's librados handle (the same conf and key) and only
 * initialized: no mount, so no MDS session and no caps of its own. */
#include "tm_mds.h"
#include "json_wide.h"
#include "jget.h"
#include "conn.h"
#include "tm_osd_perf.h"

#include <cephfs/libcephfs.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The file system's first rank: with several active ranks, the others'
 * requests are not counted (said in docs/result.md). */
#define MDS_SPEC "0"

struct cb_tm_mds_run {
	struct ceph_mount_info *cm; /* made at the first CephFS phase */
	bool off;		    /* it cannot be asked: said once */
};

struct cb_tm_mds {
	struct cb_mds_perf start, d;
	bool done; /* d holds the phase's delta */
};

int cb_tm_mds_open(struct cb_tm *tm, struct cb_tm_mds_run **out)
{
	(void)tm;
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : -ENOMEM;
}

void cb_tm_mds_close(struct cb_tm_mds_run *run)
{
	if (!run)
		return;
	if (run->cm) {
		ceph_shutdown(run->cm);
	}
	free(run);
}

static int dump(struct cb_tm *tm, struct cb_tm_mds_run *run, struct cb_mds_perf *p)
{
	const char *cmd[] = {"{\"prefix\": \"perf dump\", \"format\": \"json\"}"};
	char *out = NULL, *outs = NULL;
	size_t len = 0, outslen = 0;
	char why[256];
	json_t *v = NULL;
	if (cb_tm_gone(tm))
		return -ETIMEDOUT;
	/* libcephfs asks the monitors for the MDS map first and waits for them
	 * with no timeout: with the monitors away the mark would hang (and the
	 * run with it). Asked first here, they time out. */
	int r = cb_conn_mon_json(tm->conn, "{\"prefix\": \"version\", \"format\": \"json\"}", &v,
				 why, sizeof(why));
	json_decref(v);
	cb_tm_timed_out(tm, r);
	if (r < 0) {
		cb_tm_note(tm,
			   "the monitors did not answer (%s): the MDS's counters are left out of "
			   "the phases meanwhile",
			   why);
		return r;
	}
	if (!run->cm) {
		r = ceph_create_from_rados(&run->cm, cb_conn_rados(tm->conn));
		if (r == 0 && (r = ceph_init(run->cm)) < 0) {
			ceph_release(run->cm);
			run->cm = NULL;
		}
		if (r < 0) {
			run->cm = NULL;
			cb_tm_note(tm,
				   "cannot make a CephFS client to ask the MDS (%s): its counters "
				   "are left out",
				   strerror(-r));
			run->off = true;
			return r;
		}
	}
	r = ceph_mds_command(run->cm, MDS_SPEC, cmd, 1, "", 0, &out, &len, &outs, &outslen);
	if (r < 0) {
		cb_tm_note(tm,
			   "cannot read the MDS's perf counters (mds.%s perf dump: %s%s%.*s): its "
			   "counters are left out",
			   MDS_SPEC, strerror(-r), outslen ? ": " : "", (int)outslen,
			   outs ? outs : "");
		run->off = true;
	} else {
		json_t *j = cb_json_loadb_wide(out ? out : "", len, JSON_DISABLE_EOF_CHECK, NULL);
		if ((r = cb_mds_perf_parse(j, p)) < 0) {
			cb_tm_note(
			    tm,
			    "the MDS's perf dump lacks its request counters: they are left out");
			run->off = true;
		}
		json_decref(j);
	}
	ceph_buffer_free(out);
	ceph_buffer_free(outs);
	return r;
}

void cb_tm_mds_mark(struct cb_tm *tm, struct cb_tm_mds_run *run, struct cb_tm_mds **x,
		    enum cb_mark m)
{
	if (!run || run->off || !x)
		return;
	if (m == CB_MARK_START && !*x) {
		struct cb_tm_mds *n = calloc(1, sizeof(*n));
		if (n && dump(tm, run, &n->start) == 0)
			*x = n;
		else
			free(n);
		return;
	}
	if (m != CB_MARK_END || !*x || (*x)->done)
		return;
	struct cb_mds_perf end;
	if (dump(tm, run, &end) < 0 || cb_mds_perf_delta(&(*x)->start, &end, &(*x)->d) < 0) {
		free(*x);
		*x = NULL;
		return;
	}
	(*x)->done = true;
}

int cb_tm_mds_merge(struct cb_tm_mds **dst, const struct cb_tm_mds *src)
{
	if (!src)
		return 0;
	if (!*dst) {
		if (!(*dst = malloc(sizeof(**dst))))
			return -ENOMEM;
		**dst = *src;
		return 0;
	}
	cb_mds_perf_add(&(*dst)->d, &src->d);
	return 0;
}

json_t *cb_tm_mds_json(const struct cb_tm_mds *x)
{
	const struct cb_mds_perf *d = &x->d;
	return json_pack("{s:I, s:I, s:I, s:o}", "requests", (json_int_t)d->request, "replies",
			 (json_int_t)d->reply, "client_requests",
			 (json_int_t)d->handle_client_request, "reply_latency_ms",
			 d->reply_latency.count ? json_real(cb_perf_lat_ms(&d->reply_latency))
						: json_null());
}

void cb_tm_mds_text(const json_t *mds, const char *name, uint64_t mine, FILE *out)
{
	fprintf(out, "%s: MDS counted %llu requests (%llu from clients), %llu replies", name,
		(unsigned long long)cb_jcount(mds, "requests"),
		(unsigned long long)cb_jcount(mds, "client_requests"),
		(unsigned long long)cb_jcount(mds, "replies"));
	if (cb_jhas(mds, "reply_latency_ms"))
		fprintf(out, ", reply mean %.2f ms", cb_jnum(mds, "reply_latency_ms"));
	if (mine)
		fprintf(out, "; cephbench %llu ops", (unsigned long long)mine);
	fputc('\n', out);
}

void cb_tm_mds_free(struct cb_tm_mds *x)
{
	free(x);
}
