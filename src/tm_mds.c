/* The MDS's request counters over a CephFS phase (tm_mds.h), every active
 * rank's. libcephfs is the only client library with a command path to an
 * MDS; its client is made from the run's librados handle (the same conf and
 * key) and only initialized: no mount, so no MDS session and no caps of its
 * own. Its command call waits with no timeout, so each ask runs on a thread
 * of its own and is waited for up to the run's timeout: a daemon that does
 * not answer by then is left out until that ask ends, which it does when
 * the daemon answers at last, its return. */
#include "tm_mds.h"
#include "clock.h"
#include "json_wide.h"
#include "jget.h"
#include "conn.h"
#include "tm_osd_perf.h"

#include <cephfs/libcephfs.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* More active ranks than any file system runs (Ceph allows 256; the
 * largest deployments documented run tens). */
#define MAX_RANKS 64
#define MAX_STUCK 16

/* One ask of one daemon, shared by its thread and the asker: the last of
 * the two to let go frees it. */
struct ask {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int refs;
	bool done;
	int r;
	char *out, *outs;
	size_t len, outslen;
	struct ceph_mount_info *cm;
	char name[64];
};

/* A daemon whose ask outlived the timeout: not asked again until it ends. */
struct stuck {
	char name[64];
	struct ask *a;
};

struct cb_tm_mds_run {
	struct ceph_mount_info *cm; /* made at the first CephFS phase */
	bool off;		    /* it cannot be asked: said once */
	struct stuck stuck[MAX_STUCK];
	size_t nstuck;
	bool keep_cm; /* an ask it could not watch may still be inside cm */
};

/* One active rank over a phase. */
struct mds_rank {
	int rank;
	char name[64]; /* the daemon holding it at the phase's start */
	struct cb_mds_perf start, d;
	bool done; /* d holds the phase's delta */
};

struct cb_tm_mds {
	struct mds_rank r[MAX_RANKS];
	size_t n;
};

int cb_tm_mds_open(struct cb_tm *tm, struct cb_tm_mds_run **out)
{
	(void)tm;
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : -ENOMEM;
}

static void ask_put(struct ask *a)
{
	pthread_mutex_lock(&a->mu);
	bool last = --a->refs == 0;
	pthread_mutex_unlock(&a->mu);
	if (!last)
		return;
	ceph_buffer_free(a->out);
	ceph_buffer_free(a->outs);
	pthread_mutex_destroy(&a->mu);
	pthread_cond_destroy(&a->cv);
	free(a);
}

static bool ask_done(struct ask *a)
{
	pthread_mutex_lock(&a->mu);
	bool d = a->done;
	pthread_mutex_unlock(&a->mu);
	return d;
}

void cb_tm_mds_close(struct cb_tm_mds_run *run)
{
	if (!run)
		return;
	/* a client with an ask still waiting inside it cannot be shut down
	 * (the ask's thread would wake in a freed client): it is left to the
	 * process's exit, as an abandoned CephFS client is */
	bool busy = run->keep_cm;
	for (size_t i = 0; i < run->nstuck; i++) {
		busy |= !ask_done(run->stuck[i].a);
		ask_put(run->stuck[i].a);
	}
	if (run->cm && !busy)
		ceph_shutdown(run->cm);
	free(run);
}

static void *ask_thread(void *arg)
{
	struct ask *a = arg;
	const char *cmd[] = {"{\"prefix\": \"perf dump\", \"format\": \"json\"}"};
	char *out = NULL, *outs = NULL;
	size_t len = 0, outslen = 0;
	pthread_setname_np(pthread_self(), "cb-mds");
	int r = ceph_mds_command(a->cm, a->name, cmd, 1, "", 0, &out, &len, &outs, &outslen);
	pthread_mutex_lock(&a->mu);
	a->r = r;
	a->out = out;
	a->len = len;
	a->outs = outs;
	a->outslen = outslen;
	a->done = true;
	pthread_cond_broadcast(&a->cv);
	pthread_mutex_unlock(&a->mu);
	ask_put(a);
	return NULL;
}

/* Ask daemon name for its perf dump on a thread, waiting up to timeout_s.
 * 0 with *out the finished ask (the caller puts it), -ETIMEDOUT with
 * *out the ask still waiting (the caller keeps it as stuck), or -errno. */
static int ask(struct ceph_mount_info *cm, const char *name, double timeout_s, struct ask **out)
{
	struct ask *a = calloc(1, sizeof(*a));
	pthread_attr_t at;
	pthread_t t;
	*out = NULL;
	if (!a)
		return -ENOMEM;
	pthread_mutex_init(&a->mu, NULL);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&a->cv, &ca);
	pthread_condattr_destroy(&ca);
	a->refs = 2;
	a->cm = cm;
	snprintf(a->name, sizeof(a->name), "%s", name);
	pthread_attr_init(&at);
	pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
	int r = -pthread_create(&t, &at, ask_thread, a);
	pthread_attr_destroy(&at);
	if (r < 0) {
		a->refs = 1;
		ask_put(a);
		return r;
	}
	struct timespec until = cb_monotonic_after((uint64_t)(timeout_s * 1e9));
	pthread_mutex_lock(&a->mu);
	while (!a->done && pthread_cond_timedwait(&a->cv, &a->mu, &until) != ETIMEDOUT)
		;
	bool done = a->done;
	pthread_mutex_unlock(&a->mu);
	*out = a;
	return done ? 0 : -ETIMEDOUT;
}

static double timeout_s(struct cb_tm *tm)
{
	uint64_t ns = cb_conn_options(tm->conn)->timeout_ns;
	return ns ? (double)ns / 1e9 : 30.0;
}

/* The client, made at the first ask. 0 or -errno (noted, the part off). */
static int client(struct cb_tm *tm, struct cb_tm_mds_run *run)
{
	if (run->cm)
		return 0;
	int r = ceph_create_from_rados(&run->cm, cb_conn_rados(tm->conn));
	if (r == 0 && (r = ceph_init(run->cm)) < 0)
		ceph_release(run->cm);
	if (r < 0) {
		run->cm = NULL;
		cb_tm_note(tm,
			   "cannot make a CephFS client to ask the MDS (%s): its counters are "
			   "left out",
			   strerror(-r));
		run->off = true;
	}
	return r;
}

/* Whether daemon name has an ask still waiting; one that ended since is
 * its return: noted, and dropped from the list. */
static bool still_stuck(struct cb_tm *tm, struct cb_tm_mds_run *run, const char *name)
{
	for (size_t i = 0; i < run->nstuck; i++) {
		if (strcmp(run->stuck[i].name, name) != 0)
			continue;
		if (!ask_done(run->stuck[i].a))
			return true;
		cb_tm_note(tm,
			   "mds.%s answered again: its counters are read again from this "
			   "phase on",
			   name);
		ask_put(run->stuck[i].a);
		run->stuck[i] = run->stuck[--run->nstuck];
		return false;
	}
	return false;
}

/* Daemon name's perf dump into *p. 0, or -errno: a timeout leaves it out
 * until its ask ends (a note); a refusal turns the part off (a note). */
static int dump(struct cb_tm *tm, struct cb_tm_mds_run *run, const char *name,
		struct cb_mds_perf *p)
{
	struct ask *a = NULL;
	if (still_stuck(tm, run, name))
		return -ETIMEDOUT;
	int r = ask(run->cm, name, timeout_s(tm), &a);
	if (r == -ETIMEDOUT) {
		cb_tm_note(tm,
			   "mds.%s did not answer for its perf counters in time: left out until "
			   "it answers",
			   name);
		if (run->nstuck < MAX_STUCK) {
			run->stuck[run->nstuck] = (struct stuck){.a = a};
			snprintf(run->stuck[run->nstuck].name, sizeof(run->stuck[0].name), "%s",
				 name);
			run->nstuck++;
		} else {
			/* no room to watch for its return: it is left out for
			 * good, and the client is never shut down */
			run->keep_cm = true;
			ask_put(a);
		}
		return r;
	}
	if (r < 0)
		return r;
	if ((r = a->r) < 0) {
		cb_tm_note(tm,
			   "cannot read the MDS's perf counters (mds.%s perf dump: %s%s%.*s): its "
			   "counters are left out",
			   name, strerror(-r), a->outslen ? ": " : "", (int)a->outslen,
			   a->outs ? a->outs : "");
		if (r == -EACCES || r == -EPERM)
			run->off = true;
	} else {
		json_t *j =
		    cb_json_loadb_wide(a->out ? a->out : "", a->len, JSON_DISABLE_EOF_CHECK, NULL);
		if ((r = cb_mds_perf_parse(j, p)) < 0) {
			cb_tm_note(tm, "the MDS's perf dump lacks its request counters: they are "
				       "left out");
			run->off = true;
		}
		json_decref(j);
	}
	ask_put(a);
	return r;
}

/* The active ranks of file system fs (their daemons' names) from the
 * monitors' `fs dump`, in rank order, into x->r. 0 or -errno (noted). */
static int list_ranks(struct cb_tm *tm, const char *fs, struct cb_tm_mds *x)
{
	json_t *d = NULL, *f, *info;
	char why[256];
	const char *key;
	size_t i;
	/* libcephfs asks the monitors for the MDS map first and waits for them
	 * with no timeout: with the monitors away the mark would hang (and the
	 * run with it). Asked first here, they time out. */
	if (cb_tm_mons_away(tm))
		return -EAGAIN;
	int r = cb_conn_mon_json(tm->conn, "{\"prefix\": \"fs dump\", \"format\": \"json\"}", &d,
				 why, sizeof(why));
	cb_tm_mons_answered(tm, r);
	if (r < 0) {
		cb_tm_note(tm,
			   "cannot list the MDS ranks (fs dump: %s): their counters are left out "
			   "of the phases meanwhile",
			   why);
		return r;
	}
	x->n = 0;
	json_array_foreach(json_object_get(d, "filesystems"), i, f)
	{
		const json_t *m = json_object_get(f, "mdsmap");
		if (!fs || strcmp(cb_jstr(m, "fs_name", ""), fs) != 0)
			continue;
		json_object_foreach(json_object_get(m, "info"), key, info)
		{
			if (strcmp(cb_jstr(info, "state", ""), "up:active") != 0 ||
			    x->n == MAX_RANKS)
				continue;
			struct mds_rank *k = &x->r[x->n++];
			k->rank = (int)json_integer_value(json_object_get(info, "rank"));
			snprintf(k->name, sizeof(k->name), "%s", cb_jstr(info, "name", ""));
		}
	}
	json_decref(d);
	/* in rank order: the record lists them so */
	for (size_t a = 1; a < x->n; a++)
		for (size_t b = a; b > 0 && x->r[b - 1].rank > x->r[b].rank; b--) {
			struct mds_rank t = x->r[b];
			x->r[b] = x->r[b - 1];
			x->r[b - 1] = t;
		}
	if (x->n == 0)
		cb_tm_note(tm, "file system %s has no active MDS rank: its counters are left out",
			   fs ? fs : "(none)");
	return 0;
}

void cb_tm_mds_mark(struct cb_tm *tm, struct cb_tm_mds_run *run, const char *fs,
		    struct cb_tm_mds **x, enum cb_mark m)
{
	if (!run || run->off || !x)
		return;
	if (m == CB_MARK_START && !*x) {
		struct cb_tm_mds *n = calloc(1, sizeof(*n));
		size_t have = 0;
		if (n && list_ranks(tm, fs, n) == 0 && n->n && client(tm, run) == 0)
			for (size_t i = 0; i < n->n && !run->off; i++) {
				struct mds_rank *k = &n->r[i];
				if (dump(tm, run, k->name, &k->start) == 0)
					n->r[have++] = *k;
			}
		if (n)
			n->n = have;
		if (have)
			*x = n;
		else
			free(n);
		return;
	}
	if (m != CB_MARK_END || !*x)
		return;
	struct cb_tm_mds *c = *x;
	size_t kept = 0;
	for (size_t i = 0; i < c->n; i++) {
		struct mds_rank *k = &c->r[i];
		struct cb_mds_perf end;
		/* a rank that failed over mid-phase: another daemon's counters
		 * are no delta of the first's (a counter gone back says so) */
		if (k->done || run->off || dump(tm, run, k->name, &end) < 0 ||
		    cb_mds_perf_delta(&k->start, &end, &k->d) < 0)
			continue;
		k->done = true;
		c->r[kept++] = *k;
	}
	c->n = kept;
	if (!kept) {
		free(c);
		*x = NULL;
	}
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
	struct cb_tm_mds *d = *dst;
	for (size_t i = 0; i < src->n; i++) {
		size_t k = 0;
		while (k < d->n && d->r[k].rank != src->r[i].rank)
			k++;
		if (k == d->n) {
			if (d->n == MAX_RANKS)
				continue;
			d->r[d->n++] = src->r[i];
			continue;
		}
		cb_mds_perf_add(&d->r[k].d, &src->r[i].d);
	}
	return 0;
}

static json_t *perf_json(const struct cb_mds_perf *d)
{
	return json_pack("{s:I, s:I, s:I, s:o}", "requests", (json_int_t)d->request, "replies",
			 (json_int_t)d->reply, "client_requests",
			 (json_int_t)d->handle_client_request, "reply_latency_ms",
			 d->reply_latency.count ? json_real(cb_perf_lat_ms(&d->reply_latency))
						: json_null());
}

json_t *cb_tm_mds_json(const struct cb_tm_mds *x)
{
	struct cb_mds_perf sum = {0};
	json_t *ranks = json_array();
	for (size_t i = 0; i < x->n; i++) {
		cb_mds_perf_add(&sum, &x->r[i].d);
		json_t *o = perf_json(&x->r[i].d);
		json_object_set_new(o, "rank", json_integer(x->r[i].rank));
		json_object_set_new(o, "name", json_string(x->r[i].name));
		json_array_append_new(ranks, o);
	}
	json_t *o = perf_json(&sum);
	json_object_set_new(o, "ranks", ranks);
	return o;
}

static void perf_text(const json_t *m, FILE *out)
{
	fprintf(out, "%llu requests (%llu from clients), %llu replies",
		(unsigned long long)cb_jcount(m, "requests"),
		(unsigned long long)cb_jcount(m, "client_requests"),
		(unsigned long long)cb_jcount(m, "replies"));
	if (cb_jhas(m, "reply_latency_ms"))
		fprintf(out, ", reply mean %.2f ms", cb_jnum(m, "reply_latency_ms"));
}

void cb_tm_mds_text(const json_t *mds, const char *name, uint64_t mine, FILE *out)
{
	const json_t *ranks = json_object_get(mds, "ranks"), *k;
	size_t n = json_array_size(ranks), i;
	fprintf(out, "%s: MDS counted ", name);
	perf_text(mds, out);
	if (n > 1)
		fprintf(out, " over %zu ranks", n);
	if (mine)
		fprintf(out, "; cephbench %llu ops", (unsigned long long)mine);
	fputc('\n', out);
	/* one rank is the line above */
	json_array_foreach(ranks, i, k)
	{
		if (n < 2)
			break;
		fprintf(out, "%s: MDS rank %lld (mds.%s): ", name,
			(long long)json_integer_value(json_object_get(k, "rank")),
			cb_jstr(k, "name", "?"));
		perf_text(k, out);
		fputc('\n', out);
	}
}

void cb_tm_mds_free(struct cb_tm_mds *x)
{
	free(x);
}
