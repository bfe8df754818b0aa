/* Telemetry's osd part: the OSDs' perf counters before and after each phase (the `osd`
 * section of each up OSD's `perf dump`, through the session for commands): the cluster's
 * count of ops and bytes beside cephbench's, its mean latency beside the client's, and the
 * slow OSD (tm_slow.c). The MDS's counters are tm_mds.c's. */
#include "units.h"
#include "clock.h"
#include "tm_osd.h"
#include "jget.h"
#include "conn.h"
#include "engines.h"
#include "result.h"
#include "tm_mds.h"
#include "tm_osd_perf.h"
#include "tm_slow.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Within this much of each other cephbench's and the cluster's counts agree. */
#define AGREE_FRACTION 0.01

struct osd_host {
	int id;
	char host[64];
	/* the map epoch it came up at; away: it did not answer, and is asked
	 * again once the map says it came up anew (up_from past this), or
	 * once its backoff passes */
	long long up_from;
	bool away;
	struct cb_tm_backoff retry;
};

/* An OSD that timed out is asked again after a minute, then after a wait
 * that doubles: each ask of a hung OSD holds a phase's mark for the
 * timeout, so it must be rare, yet one that comes back is read again. */
#define OSD_FIRST_WAIT_S 60.0

/* The run's OSDs: those up when it started, with their hosts. */
struct cb_tm_osd_run {
	struct osd_host *osds;
	size_t n;
	bool off; /* their counters cannot be read: said once, left out */
	struct cb_tm_mds_run *mds;
};

/* The kinds of op an OSD is judged on (find_slow). */
enum slow_kind { K_READ, K_WRITE, K_REPLICA, K_N };

/* An OSD's intervals (tm_slow.h): in how many it was judged, and slow,
 * for each kind. */
struct steady {
	unsigned judged[K_N], slow[K_N];
};

struct osd_row {
	int osd;
	char host[64];
	struct cb_osd_perf d; /* over the phase */
	struct steady st;
};

struct cb_tm_osd {
	struct osd_row *rows;
	size_t n;
	/* the rows' intervals were measured (not a row made by
	 * cb_tm_osd_from): the slow OSD must be slow throughout */
	bool intervals;
	/* between START and END: each run OSD's first snapshot, if it had
	 * one; the last cut's (prev), and its intervals so far */
	struct cb_osd_perf *start, *prev;
	bool *have, *have_prev;
	struct steady *st;
	/* the sampler that cuts the intervals, START to END */
	struct cb_tm *tm;
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool started, stop;
	struct cb_tm_mds *mds; /* NULL: not a CephFS phase, or not measured */
};

static int perf_dump(struct cb_tm *tm, int osd, struct cb_osd_perf *p, char *why, size_t n)
{
	json_t *j = NULL;
	/* one OSD's silence is not the cluster's: the others, and the
	 * monitors, are still asked (its own timeout marks it away); the
	 * monitors' is not the OSDs': the command goes to the OSD */
	int r = cb_conn_osd_json(tm->conn, osd, CB_OSD_PERF_DUMP_CMD, &j, why, n);
	if (r == 0 && (r = cb_osd_perf_parse(j, p)) < 0)
		snprintf(why, n, "its osd section lacks a counter this part reads");
	json_decref(j);
	return r;
}

static void snapshot(struct cb_tm *tm, struct cb_osd_perf *p, bool *have)
{
	struct cb_tm_osd_run *run = tm->osd;
	for (size_t i = 0; i < run->n; i++)
		have[i] = false;
	for (size_t i = 0; i < run->n && !run->off; i++) {
		char why[256];
		int id = run->osds[i].id;
		if (run->osds[i].away)
			continue;
		int r = perf_dump(tm, id, &p[i], why, sizeof(why));
		if (r == 0) {
			have[i] = true;
			if (cb_tm_backoff_ok(&run->osds[i].retry))
				cb_tm_note(tm,
					   "osd.%d answered again: its counters are read again "
					   "from this phase on",
					   id);
			continue;
		}
		/* an OSD that does not answer costs the op timeout each time it
		 * is asked (and a stop signal waits for it): asked again once
		 * the map says it came up anew, or its backoff passed (back()) */
		if (r == -ETIMEDOUT) {
			cb_tm_note(tm,
				   "osd.%d did not answer for its perf counters (%s): left out "
				   "until it comes up again or answers a later ask",
				   id, why);
			run->osds[i].away = true;
			cb_tm_backoff_failed(&run->osds[i].retry, cb_now_s(), OSD_FIRST_WAIT_S);
			continue;
		}
		/* an OSD gone down mid-run: tm_state says it; here it only
		 * leaves the phases it missed */
		cb_tm_note(tm,
			   "osd.%d's perf counters could not be read (%s): left out of the phases "
			   "it missed",
			   id, why);
	}
}

/* The epoch each OSD came up at, from `osd dump`: into up_from by id (-1
 * for one not up), for the n OSDs of run. 0, or -errno (said once by
 * the caller's note). */
static int up_epochs(struct cb_tm *tm, const struct cb_tm_osd_run *run, long long *up_from,
		     char *why, size_t n)
{
	json_t *d = NULL, *o;
	size_t i;
	int r = cb_conn_mon_json(tm->conn, "{\"prefix\": \"osd dump\", \"format\": \"json\"}", &d,
				 why, n);
	cb_tm_mons_answered(tm, r);
	for (size_t k = 0; k < run->n; k++)
		up_from[k] = -1;
	json_array_foreach(json_object_get(d, "osds"), i, o)
	{
		json_int_t id = json_integer_value(json_object_get(o, "osd"));
		for (size_t k = 0; k < run->n; k++)
			if (run->osds[k].id == id &&
			    json_integer_value(json_object_get(o, "up")) == 1)
				up_from[k] = json_integer_value(json_object_get(o, "up_from"));
	}
	json_decref(d);
	return r;
}

/* At a phase's start: an OSD away since it stopped answering is asked
 * again once its backoff passed (snapshot() then notes its return or
 * lengthens the wait), or at once when the map says it came up anew
 * (restarted, or marked down and up). */
static void back(struct cb_tm *tm)
{
	struct cb_tm_osd_run *run = tm->osd;
	size_t away = 0;
	double now = cb_now_s();
	for (size_t i = 0; i < run->n; i++) {
		struct osd_host *h = &run->osds[i];
		if (h->away && cb_tm_backoff_ready(&h->retry, now))
			h->away = false;
		away += h->away;
	}
	long long *up_from = away && !cb_tm_mons_away(tm) ? calloc(run->n, sizeof(*up_from)) : NULL;
	char why[256];
	if (!up_from || up_epochs(tm, run, up_from, why, sizeof(why)) < 0) {
		free(up_from);
		return;
	}
	for (size_t i = 0; i < run->n; i++) {
		struct osd_host *h = &run->osds[i];
		if (!h->away || up_from[i] <= h->up_from)
			continue;
		cb_tm_note(tm,
			   "osd.%d is up again (since map epoch %lld): its counters are read "
			   "again from this phase on",
			   h->id, up_from[i]);
		h->away = false;
		h->up_from = up_from[i];
		cb_tm_backoff_ok(&h->retry);
	}
	free(up_from);
}

/* What lives from START to END only. */
static void free_marks(struct cb_tm_osd *x)
{
	free(x->start);
	free(x->have);
	free(x->prev);
	free(x->have_prev);
	free(x->st);
	x->start = x->prev = NULL;
	x->have = x->have_prev = NULL;
	x->st = NULL;
}

static struct cb_perf_lat kind_lat(const struct cb_osd_perf *d, enum slow_kind k)
{
	return k == K_READ    ? d->lat[CB_OSD_LAT_R]
	       : k == K_WRITE ? cb_perf_lat_sum(&d->lat[CB_OSD_LAT_W], &d->lat[CB_OSD_LAT_RW])
			      : d->lat[CB_OSD_LAT_SUBOP_W];
}

/* One interval, from x's last cut to now (cur, have): each kind judged
 * among the OSDs read at both, into x->st; then now is the last cut. */
static void cut(struct cb_tm_osd *x, size_t n, const struct cb_osd_perf *cur, const bool *have)
{
	struct cb_slow_in *in = calloc(n ? n : 1, sizeof(*in));
	size_t *at = calloc(n ? n : 1, sizeof(*at));
	unsigned *judged = calloc(n ? n : 1, sizeof(*judged));
	unsigned *slow = calloc(n ? n : 1, sizeof(*slow));
	for (int k = 0; in && at && judged && slow && k < K_N; k++) {
		size_t m = 0;
		for (size_t i = 0; i < n; i++) {
			struct cb_osd_perf d;
			if (!x->have_prev[i] || !have[i] ||
			    cb_osd_perf_delta(&x->prev[i], &cur[i], &d) < 0)
				continue;
			struct cb_perf_lat l = kind_lat(&d, (enum slow_kind)k);
			in[m] = (struct cb_slow_in){(int)i, l.count, cb_perf_lat_ms(&l)};
			judged[m] = slow[m] = 0;
			at[m++] = i;
		}
		if (cb_slow_tally(in, m, judged, slow) < 0)
			continue;
		for (size_t j = 0; j < m; j++) {
			x->st[at[j]].judged[k] += judged[j];
			x->st[at[j]].slow[k] += slow[j];
		}
	}
	free(in);
	free(at);
	free(judged);
	free(slow);
	memcpy(x->prev, cur, n * sizeof(*cur));
	memcpy(x->have_prev, have, n * sizeof(*have));
}

/* The sampler: a cut every CB_SLOW_INTERVAL_S (or as soon as the last
 * round of perf dumps ended, with many OSDs) until END stops it. It alone
 * asks the OSDs meanwhile: the marks ask before it starts and after it
 * stopped. */
static void *sampler(void *arg)
{
	struct cb_tm_osd *x = arg;
	size_t n = x->tm->osd->n;
	struct cb_osd_perf *cur = calloc(n, sizeof(*cur));
	bool *have = calloc(n, sizeof(*have));
	pthread_mutex_lock(&x->mu);
	while (cur && have && !x->stop) {
		struct timespec until;
		clock_gettime(CLOCK_MONOTONIC, &until);
		long ns = (long)(CB_SLOW_INTERVAL_S * 1e9) + until.tv_nsec;
		until.tv_sec += ns / 1000000000L;
		until.tv_nsec = ns % 1000000000L;
		while (!x->stop && pthread_cond_timedwait(&x->cv, &x->mu, &until) != ETIMEDOUT)
			;
		if (x->stop)
			break;
		pthread_mutex_unlock(&x->mu);
		snapshot(x->tm, cur, have);
		cut(x, n, cur, have);
		pthread_mutex_lock(&x->mu);
	}
	pthread_mutex_unlock(&x->mu);
	free(cur);
	free(have);
	return NULL;
}

/* After START's snapshot: the intervals' state, and the sampler. Without
 * them (ENOMEM, no thread) the row's OSDs are judged on the whole phase
 * alone, as a row of cb_tm_osd_from is. */
static void sampler_start(struct cb_tm *tm, struct cb_tm_osd *x)
{
	size_t n = tm->osd->n;
	x->tm = tm;
	x->prev = malloc(n * sizeof(*x->prev));
	x->have_prev = malloc(n * sizeof(*x->have_prev));
	x->st = calloc(n, sizeof(*x->st));
	if (!x->prev || !x->have_prev || !x->st)
		return;
	memcpy(x->prev, x->start, n * sizeof(*x->prev));
	memcpy(x->have_prev, x->have, n * sizeof(*x->have_prev));
	pthread_mutex_init(&x->mu, NULL);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&x->cv, &ca);
	pthread_condattr_destroy(&ca);
	x->started = pthread_create(&x->thread, NULL, sampler, x) == 0;
	if (!x->started) {
		pthread_mutex_destroy(&x->mu);
		pthread_cond_destroy(&x->cv);
	}
}

static void sampler_stop(struct cb_tm_osd *x)
{
	if (!x->started)
		return;
	pthread_mutex_lock(&x->mu);
	x->stop = true;
	pthread_cond_broadcast(&x->cv);
	pthread_mutex_unlock(&x->mu);
	pthread_join(x->thread, NULL);
	pthread_mutex_destroy(&x->mu);
	pthread_cond_destroy(&x->cv);
	x->started = false;
}

static void phase_end(struct cb_tm *tm, struct cb_tm_osd *x)
{
	const struct cb_tm_osd_run *run = tm->osd;
	struct cb_osd_perf *end = calloc(run->n, sizeof(*end));
	bool *have = calloc(run->n, sizeof(*have));
	bool intervals = x->started;
	sampler_stop(x);
	if (end && have && (x->rows = calloc(run->n, sizeof(*x->rows)))) {
		snapshot(tm, end, have);
		if (intervals)
			cut(x, run->n, end, have);
		x->intervals = intervals;
		for (size_t i = 0; i < run->n; i++) {
			struct osd_row *w = &x->rows[x->n];
			/* a counter that went back: the OSD restarted */
			if (!x->have[i] || !have[i] ||
			    cb_osd_perf_delta(&x->start[i], &end[i], &w->d) < 0)
				continue;
			w->osd = run->osds[i].id;
			snprintf(w->host, sizeof(w->host), "%s", run->osds[i].host);
			if (intervals)
				w->st = x->st[i];
			x->n++;
		}
	}
	free(end);
	free(have);
	free_marks(x);
}

void cb_tm_osd_mark(struct cb_tm_osd **xp, enum cb_mark m, const struct cb_tm_phase *tp)
{
	struct cb_tm *tm = tp->tm;
	struct cb_tm_osd *x = *xp;
	if (!tm->osd)
		return;
	const char *fs =
	    tp->eng && tp->eng->mds_fs && tp->ph ? tp->eng->mds_fs(tp->ph->lopts) : NULL;
	bool mds = fs != NULL;
	bool osds = !tm->osd->off && tm->osd->n;
	if (m == CB_MARK_START && !x && (osds || mds)) {
		if (osds)
			back(tm);
		if (!(x = calloc(1, sizeof(*x))))
			return;
		if (osds) {
			x->start = calloc(tm->osd->n, sizeof(*x->start));
			x->have = calloc(tm->osd->n, sizeof(*x->have));
			if (!x->start || !x->have) {
				cb_tm_osd_free(x);
				return;
			}
			snapshot(tm, x->start, x->have);
			sampler_start(tm, x);
		}
		*xp = x;
	}
	if (tm->osd->mds && mds) {
		/* at START after the OSDs, at END before them: the MDS's
		 * span is the inner one either way */
		if (m == CB_MARK_END)
			cb_tm_mds_mark(tm, tm->osd->mds, fs, x ? &x->mds : NULL, m);
		else if (m == CB_MARK_START && x)
			cb_tm_mds_mark(tm, tm->osd->mds, fs, &x->mds, m);
	}
	if (m == CB_MARK_END && x) {
		if (x->start)
			phase_end(tm, x);
		if (x->n == 0 && !x->mds) {
			cb_tm_osd_free(x);
			*xp = NULL;
		}
	}
}

int cb_tm_osd_merge(struct cb_tm_osd *dst, const struct cb_tm_osd *src)
{
	if (src->n)
		dst->intervals = (dst->intervals || !dst->n) && src->intervals;
	for (size_t i = 0; i < src->n; i++) {
		size_t k = 0;
		while (k < dst->n && dst->rows[k].osd != src->rows[i].osd)
			k++;
		if (k == dst->n) {
			struct osd_row *r = realloc(dst->rows, (dst->n + 1) * sizeof(*r));
			if (!r)
				return -ENOMEM;
			dst->rows = r;
			r[dst->n] = (struct osd_row){.osd = src->rows[i].osd};
			memcpy(r[dst->n].host, src->rows[i].host, sizeof(r->host));
			dst->n++;
		}
		cb_osd_perf_add(&dst->rows[k].d, &src->rows[i].d);
		for (int j = 0; j < K_N; j++) {
			dst->rows[k].st.judged[j] += src->rows[i].st.judged[j];
			dst->rows[k].st.slow[j] += src->rows[i].st.slow[j];
		}
	}
	return cb_tm_mds_merge(&dst->mds, src->mds);
}

/* The phase's figures, computed from the row's deltas alone. */
struct osd_sum {
	uint64_t ops, bytes, reads, writes;
	struct cb_perf_lat lat; /* every client op's */
	uint64_t mine;		/* cephbench's count of what is compared */
	uint64_t theirs;
	const char *compared; /* "ops" or "bytes"; NULL: nothing to compare */
	bool agree;
	double diff; /* (theirs - mine) / mine */
};

/* The row's layer, for how its counts compare (engine->osd_counts_bytes);
 * NULL for a row of no known layer. */
static const struct cb_engine *row_engine(const struct cb_phase_result *pr)
{
	return pr->layer ? cb_engine_find(pr->layer) : NULL;
}

/* By bytes, too, where sizes vary: a large op at an offset near an
 * object's end is two OSD ops (on the sandbox, 4K-64K over 4M objects
 * counted 1.3 % more ops than were sent), the bytes stay the same. */
static bool compares_bytes(const struct cb_phase_result *pr)
{
	const struct cb_engine *eng = row_engine(pr);
	return eng && (eng->osd_counts_bytes || pr->sizes[0]);
}

static void summarize(const struct cb_tm_osd *x, const struct cb_phase_result *pr,
		      struct osd_sum *s)
{
	*s = (struct osd_sum){0};
	for (size_t i = 0; i < x->n; i++) {
		const struct cb_osd_perf *d = &x->rows[i].d;
		s->ops += d->op;
		s->bytes += d->in_bytes + d->out_bytes;
		s->reads += d->op_r;
		s->writes += d->op_w + d->op_rw;
		s->lat = cb_perf_lat_sum(&s->lat, &d->lat[CB_OSD_LAT_OP]);
	}
	/* over ranks the counters span rank 0's marks, the row's ops every
	 * rank's: not the same span, so not compared */
	if (!x->n || pr->nranks > 1)
		return;
	bool bytes = compares_bytes(pr);
	s->mine = bytes ? pr->all_bytes : pr->all_ops;
	s->theirs = bytes ? s->bytes : s->ops;
	/* a metadata phase moves no data: the MDS's counters tell it */
	if (s->mine == 0 && bytes)
		return;
	s->compared = bytes ? "bytes" : "ops";
	s->diff = s->mine ? ((double)s->theirs - (double)s->mine) / (double)s->mine
			  : (s->theirs ? INFINITY : 0);
	s->agree = fabs(s->diff) <= AGREE_FRACTION;
}

/* One slow OSD as the row names it. */
struct slow_osd {
	struct cb_slow s;
	const char *op;
	const char *host;
	bool intervals; /* judged, slow: its intervals' figures */
	unsigned judged, slow;
};

/* The row's slow OSDs into *out (the caller frees it); how many, or
 * -ENOMEM. A read phase is judged on op_r_latency. A write phase is judged
 * on the replicas' own write latency (subop_w_latency) when it had
 * replicas: a primary's write latency holds its replicas', so one slow OSD
 * raises every peer writing to it (measured: 10 ms of dispatch delay on
 * osd.1 of 3 made the others' primary writes 13 and 79 ms against its 96),
 * and on the sandbox a primary's few hundred writes drifted to 1.8x its
 * peers' with no fault; a replica's latency is its own alone, and every OSD
 * of a replicated pool is some PGs' replica. Without replicas (size 1) the
 * primaries' write latency (w and rw) is all there is. With its intervals
 * measured, one slow over the phase is named only when it was slow
 * throughout (cb_slow_steady), not in one stall. */
static int find_slow(const struct cb_tm_osd *x, struct slow_osd **out)
{
	size_t m = x->n ? x->n : 1;
	struct cb_slow_in *in = calloc(m, sizeof(*in));
	struct cb_slow *got = calloc(m, sizeof(*got));
	struct slow_osd *res = calloc(m, sizeof(*res));
	uint64_t reads = 0, writes = 0, subops = 0;
	int n = -ENOMEM, named = 0;
	*out = NULL;
	if (!in || !got || !res)
		goto out;
	for (size_t i = 0; i < x->n; i++) {
		const struct cb_osd_perf *d = &x->rows[i].d;
		reads += d->op_r;
		writes += d->op_w + d->op_rw;
		if (d->lat[CB_OSD_LAT_SUBOP_W].count >= CB_SLOW_MIN_OPS)
			subops += d->lat[CB_OSD_LAT_SUBOP_W].count;
	}
	enum slow_kind k = writes < reads ? K_READ : subops ? K_REPLICA : K_WRITE;
	static const char *const kinds[] = {"read", "write", "replica write"};
	for (size_t i = 0; i < x->n; i++) {
		struct cb_perf_lat l = kind_lat(&x->rows[i].d, k);
		in[i] = (struct cb_slow_in){x->rows[i].osd, l.count, cb_perf_lat_ms(&l)};
	}
	if ((n = cb_slow_find(in, x->n, got)) <= 0)
		goto out;
	for (int j = 0; j < n; j++) {
		const struct osd_row *w = NULL;
		for (size_t i = 0; i < x->n; i++)
			if (x->rows[i].osd == got[j].osd)
				w = &x->rows[i];
		if (!w || (x->intervals && !cb_slow_steady(w->st.judged[k], w->st.slow[k])))
			continue;
		res[named++] = (struct slow_osd){got[j],       kinds[k],	w->host,
						 x->intervals, w->st.judged[k], w->st.slow[k]};
	}
	n = named;
	*out = res;
	res = NULL;
out:
	free(in);
	free(got);
	free(res);
	return n;
}

int cb_tm_osd_slow_count(const struct cb_phase_result *pr)
{
	const struct cb_tm_osd *x = pr->tm ? pr->tm->osd : NULL;
	struct slow_osd *s = NULL;
	if (!x || !x->n)
		return -1;
	int n = find_slow(x, &s);
	free(s);
	return n < 0 ? -1 : n;
}

static json_t *ms_or_null(const struct cb_perf_lat *l)
{
	return l->count ? json_real(cb_perf_lat_ms(l)) : json_null();
}

static json_t *osd_json(const struct osd_row *w)
{
	const struct cb_osd_perf *d = &w->d;
	return json_pack(
	    "{s:i, s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:o, s:o, s:o, s:o, s:o, s:o, "
	    "s:o}",
	    "osd", w->osd, "host", w->host, "ops", (json_int_t)d->op, "read_ops",
	    (json_int_t)d->op_r, "write_ops", (json_int_t)d->op_w, "rw_ops", (json_int_t)d->op_rw,
	    "in_bytes", (json_int_t)d->in_bytes, "out_bytes", (json_int_t)d->out_bytes,
	    "subop_w_ops", (json_int_t)d->lat[CB_OSD_LAT_SUBOP_W].count, "op_latency_ms",
	    ms_or_null(&d->lat[CB_OSD_LAT_OP]), "op_r_latency_ms",
	    ms_or_null(&d->lat[CB_OSD_LAT_R]), "op_w_latency_ms", ms_or_null(&d->lat[CB_OSD_LAT_W]),
	    "op_rw_latency_ms", ms_or_null(&d->lat[CB_OSD_LAT_RW]), "op_w_process_latency_ms",
	    ms_or_null(&d->lat[CB_OSD_LAT_W_PROCESS]), "op_before_queue_op_lat_ms",
	    ms_or_null(&d->lat[CB_OSD_LAT_BEFORE_QUEUE]), "subop_w_latency_ms",
	    ms_or_null(&d->lat[CB_OSD_LAT_SUBOP_W]));
}

static double client_mean_us(const struct cb_phase_result *pr)
{
	return pr->all_ops ? (double)pr->all_lat_ns / (double)pr->all_ops / 1e3 : -1;
}

void cb_tm_osd_json(const struct cb_tm_osd *x, const struct cb_phase_result *pr, json_t *phase)
{
	if (!x)
		return;
	json_t *c = cb_tm_json_section(phase, "cluster");
	if (!c)
		return;
	/* the client's own count, beside the MDS's too */
	json_object_set_new(c, "client_ops", json_integer((json_int_t)pr->all_ops));
	json_object_set_new(c, "client_bytes", json_integer((json_int_t)pr->all_bytes));
	if (x->mds)
		json_object_set_new(c, "mds", cb_tm_mds_json(x->mds));
	if (!x->n)
		return;
	struct osd_sum s;
	summarize(x, pr, &s);
	json_t *osds = json_array();
	for (size_t i = 0; i < x->n; i++)
		json_array_append_new(osds, osd_json(&x->rows[i]));
	json_object_set_new(c, "osds", osds);
	json_object_set_new(c, "ops", json_integer((json_int_t)s.ops));
	json_object_set_new(c, "bytes", json_integer((json_int_t)s.bytes));
	json_object_set_new(c, "compared", s.compared ? json_string(s.compared) : json_null());
	json_object_set_new(c, "agree", s.compared ? json_boolean(s.agree) : json_null());
	char note[160];
	if (s.compared && !s.agree && isfinite(s.diff))
		snprintf(note, sizeof(note), "the cluster counted %+.1f %% %s", s.diff * 100,
			 s.compared);
	else if (s.compared && !s.agree)
		snprintf(note, sizeof(note), "cephbench counted no %s", s.compared);
	json_object_set_new(c, "agree_note",
			    s.compared && !s.agree ? json_string(note) : json_null());
	/* why this layer's counts may differ, the text's explanation */
	const struct cb_engine *eng = row_engine(pr);
	if (s.compared && !s.agree && eng && eng->osd_mismatch_why)
		json_object_set_new(c, "mismatch_why", json_string(eng->osd_mismatch_why));
	json_object_set_new(c, "lat_mean_us",
			    s.lat.count ? json_real(cb_perf_lat_ms(&s.lat) * 1e3) : json_null());
	json_object_set_new(c, "client_lat_mean_us",
			    pr->all_ops ? json_real(client_mean_us(pr)) : json_null());
	struct slow_osd *sl = NULL;
	int ns = find_slow(x, &sl);
	json_t *a = json_array();
	for (int i = 0; i < ns; i++) {
		json_t *o = json_pack("{s:i, s:s, s:s, s:f, s:f, s:f, s:i}", "osd", sl[i].s.osd,
				      "host", sl[i].host, "op", sl[i].op, "mean_ms",
				      sl[i].s.mean_ms, "median_ms", sl[i].s.median_ms, "ratio",
				      sl[i].s.ratio, "peers", (int)sl[i].s.peers);
		if (o && sl[i].intervals) {
			json_object_set_new(o, "intervals", json_integer(sl[i].judged));
			json_object_set_new(o, "slow_intervals", json_integer(sl[i].slow));
		}
		json_array_append_new(a, o);
	}
	json_object_set_new(c, "slow_osds", ns < 0 ? json_null() : a);
	if (ns < 0)
		json_decref(a);
	free(sl);
}

static const char *mib(uint64_t b, char *buf, size_t n)
{
	snprintf(buf, n, "%.1f MiB", (double)b / (1024.0 * 1024.0));
	return buf;
}

void cb_tm_osd_text(const json_t *row, FILE *out)
{
	const json_t *x = json_object_get(json_object_get(row, "telemetry"), "cluster");
	if (!x)
		return;
	const char *name = cb_jstr(row, "name", "phase");
	const char *compared = cb_jstr(x, "compared", NULL);
	uint64_t mine_ops = cb_jcount(x, "client_ops"), mine_bytes = cb_jcount(x, "client_bytes");
	if (json_object_get(x, "osds") && compared) {
		char a[32], b[32], c[32], verdict[256] = "agree within 1 %";
		bool agree = cb_jtrue(x, "agree");
		const char *why = cb_jstr(x, "mismatch_why", NULL);
		if (!agree)
			snprintf(verdict, sizeof(verdict), "they differ by more than 1 %%%s%s",
				 why ? ": " : "", why ? why : "");
		fprintf(
		    out, "%s: %scluster counted %s ops, %s; cephbench %s (%s compared: %s)\n", name,
		    agree ? "" : "warning: ", cb_format_count(cb_jcount(x, "ops"), a, sizeof(a)),
		    mib(cb_jcount(x, "bytes"), b, sizeof(b)),
		    strcmp(compared, "bytes") == 0 ? mib(mine_bytes, c, sizeof(c))
						   : cb_format_count(mine_ops, c, sizeof(c)),
		    compared, verdict);
		/* the means are of the same ops only when the counts agree (a
		 * client cache's ops are not the OSDs'; a metadata phase's OSD
		 * ops are the MDS's own) */
		if (agree && cb_jhas(x, "lat_mean_us") && cb_jhas(x, "client_lat_mean_us")) {
			double cl = cb_jnum(x, "lat_mean_us") / 1e3;
			double me = cb_jnum(x, "client_lat_mean_us") / 1e3;
			fprintf(out,
				"%s: cluster mean %.2f ms, client mean %.2f ms: %.2f ms client, "
				"network and queueing\n",
				name, cl, me, me - cl);
		}
	}
	const json_t *sl;
	size_t i;
	json_array_foreach(json_object_get(x, "slow_osds"), i, sl)
	{
		uint64_t peers = cb_jcount(sl, "peers");
		fprintf(out,
			"%s: slow OSD: osd.%llu %s %.1f ms mean, %.1fx the median of %llu other "
			"OSD%s, host %s",
			name, (unsigned long long)cb_jcount(sl, "osd"), cb_jstr(sl, "op", ""),
			cb_jnum(sl, "mean_ms"), cb_jnum(sl, "ratio"), (unsigned long long)peers,
			peers == 1 ? "" : "s", cb_jstr(sl, "host", ""));
		if (cb_jhas(sl, "intervals"))
			fprintf(out, ", slow in %llu of %llu intervals",
				(unsigned long long)cb_jcount(sl, "slow_intervals"),
				(unsigned long long)cb_jcount(sl, "intervals"));
		fputc('\n', out);
	}
	const json_t *mds = json_object_get(x, "mds");
	if (mds)
		cb_tm_mds_text(mds, name, mine_bytes ? 0 : mine_ops, out);
}

struct cb_tm_osd *cb_tm_osd_from(const int *ids, const struct cb_osd_perf *d, size_t n)
{
	struct cb_tm_osd *x = calloc(1, sizeof(*x));
	if (!x || !(x->rows = calloc(n ? n : 1, sizeof(*x->rows)))) {
		free(x);
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		x->rows[i] = (struct osd_row){.osd = ids[i], .d = d[i]};
		snprintf(x->rows[i].host, sizeof(x->rows[i].host), "unknown");
	}
	x->n = n;
	return x;
}

void cb_tm_osd_set_intervals(struct cb_tm_osd *x, int osd, unsigned judged, unsigned slow)
{
	x->intervals = true;
	for (size_t i = 0; i < x->n; i++)
		for (int k = 0; x->rows[i].osd == osd && k < K_N; k++) {
			x->rows[i].st.judged[k] = judged;
			x->rows[i].st.slow[k] = slow;
		}
}

void cb_tm_osd_free(struct cb_tm_osd *x)
{
	if (!x)
		return;
	sampler_stop(x);
	free(x->rows);
	free_marks(x);
	cb_tm_mds_free(x->mds);
	free(x);
}

/* The up OSDs from `osd dump`; their hosts from `osd metadata`. */
static int list_osds(struct cb_tm *tm, struct cb_tm_osd_run *run)
{
	json_t *d = NULL, *md = NULL;
	char why[256];
	int r = cb_conn_mon_json(tm->conn, "{\"prefix\": \"osd dump\", \"format\": \"json\"}", &d,
				 why, sizeof(why));
	cb_tm_mons_answered(tm, r);
	if (r < 0) {
		cb_tm_note(tm, "cannot list the OSDs (osd dump: %s): their counters are left out",
			   why);
		run->off = true;
		return r == -ENOMEM ? r : 0;
	}
	json_t *osds = json_object_get(d, "osds");
	run->osds = calloc(json_array_size(osds) + 1, sizeof(*run->osds));
	if (!run->osds) {
		json_decref(d);
		return -ENOMEM;
	}
	size_t i;
	json_t *o;
	json_array_foreach(osds, i, o)
	{
		if (json_integer_value(json_object_get(o, "up")) != 1)
			continue;
		struct osd_host *h = &run->osds[run->n++];
		h->id = (int)json_integer_value(json_object_get(o, "osd"));
		h->up_from = json_integer_value(json_object_get(o, "up_from"));
		snprintf(h->host, sizeof(h->host), "unknown");
	}
	json_decref(d);
	if (cb_conn_mon_json(tm->conn, "{\"prefix\": \"osd metadata\", \"format\": \"json\"}", &md,
			     why, sizeof(why)) < 0) {
		cb_tm_note(tm, "cannot read the OSDs' hosts (osd metadata: %s)", why);
		return 0;
	}
	json_array_foreach(md, i, o)
	{
		int id = (int)json_integer_value(json_object_get(o, "id"));
		const char *host = json_string_value(json_object_get(o, "hostname"));
		for (size_t k = 0; host && k < run->n; k++)
			if (run->osds[k].id == id)
				snprintf(run->osds[k].host, sizeof(run->osds[k].host), "%s", host);
	}
	json_decref(md);
	return 0;
}

int cb_tm_osd_open(struct cb_tm *tm)
{
	struct cb_tm_osd_run *run = calloc(1, sizeof(*run));
	if (!run)
		return -ENOMEM;
	tm->osd = run;
	int r = list_osds(tm, run);
	if (r < 0)
		return r;
	/* one OSD asked now, so a client whose caps refuse the command is
	 * one note before the phases, not one per phase; another failure (an
	 * empty reply from a busy OSD) leaves it to the marks */
	if (!run->off && run->n) {
		struct cb_osd_perf p;
		char why[256];
		int pr = perf_dump(tm, run->osds[0].id, &p, why, sizeof(why));
		if (pr == -EACCES || pr == -EPERM) {
			cb_tm_note(tm,
				   "cannot read the OSDs' perf counters (osd.%d perf dump: %s; it "
				   "needs osd 'allow *'): the "
				   "cluster's count of ops and the slow OSD are left out",
				   run->osds[0].id, why);
			run->off = true;
		}
	}
	return cb_tm_mds_open(tm, &run->mds);
}

void cb_tm_osd_close(struct cb_tm *tm)
{
	if (!tm->osd)
		return;
	cb_tm_mds_close(tm->osd->mds);
	free(tm->osd->osds);
	free(tm->osd);
	tm->osd = NULL;
}
