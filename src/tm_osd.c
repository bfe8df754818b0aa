/* Telemetry's osd part: the OSDs' perf counters before and after each phase (the `osd`
 * section of each up OSD's `perf dump`, through the session for commands), and every
 * half second between them for the slow OSD's intervals (tm_slow.h); which OSDs are
 * asked, and when one that stopped answering is asked again. The row's figures are
 * tm_osd_report.c's, the MDS's counters tm_mds.c's. */
#include "clock.h"
#include "tm_osd.h"
#include "tm_osd_priv.h"
#include "jget.h"
#include "conn.h"
#include "tm_mds.h"
#include "tm_osd_perf.h"
#include "tm_slow.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
	/* the monitors did not answer for the list: asked for it again at a
	 * phase's start once their backoff has passed */
	bool unlisted;
	struct cb_tm_mds_run *mds;
};

static int list_osds(struct cb_tm *tm, struct cb_tm_osd_run *run);

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
			struct cb_perf_lat l = osd_kind_lat(&d, (enum slow_kind)k);
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

/* the sampler's rest after a round, in rounds (below) */
#define SAMPLER_REST 9

/* The sampler: a cut every CB_SLOW_INTERVAL_S until END stops it. It alone
 * asks the OSDs meanwhile: the marks ask before it starts and after it
 * stopped. A round of perf dumps grows with the OSDs (hundreds on a real
 * cluster), and the client host is what is measured: it rests at least
 * SAMPLER_REST times as long as its last round took, so it takes at most
 * a tenth of a core; the intervals lengthen instead, and a phase too short
 * for CB_SLOW_MIN_INTERVALS of them names no OSD. */
static void *sampler(void *arg)
{
	struct cb_tm_osd *x = arg;
	size_t n = x->tm->osd->n;
	pthread_setname_np(pthread_self(), "cb-osd"); /* its CPU told from the client's */
	struct cb_osd_perf *cur = calloc(n, sizeof(*cur));
	bool *have = calloc(n, sizeof(*have));
	uint64_t round_ns = 0;
	pthread_mutex_lock(&x->mu);
	while (cur && have && !x->stop) {
		uint64_t wait = (uint64_t)(CB_SLOW_INTERVAL_S * 1e9);
		if (round_ns * SAMPLER_REST > wait)
			wait = round_ns * SAMPLER_REST;
		struct timespec until = cb_monotonic_after(wait);
		while (!x->stop && pthread_cond_timedwait(&x->cv, &x->mu, &until) != ETIMEDOUT)
			;
		if (x->stop)
			break;
		pthread_mutex_unlock(&x->mu);
		uint64_t t0 = cb_now_ns();
		snapshot(x->tm, cur, have);
		cut(x, n, cur, have);
		round_ns = cb_now_ns() - t0;
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
	if (m == CB_MARK_START && !x && tm->osd->unlisted && !cb_tm_mons_away(tm) &&
	    list_osds(tm, tm->osd) == 0 && !tm->osd->unlisted)
		cb_tm_note(tm,
			   "the OSDs were listed once the monitors answered: their counters are "
			   "read from then on");
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

/* An OSD whose metadata named no host (not reported yet, or the command
 * refused): its host bucket in the CRUSH map (`osd tree`), which is the
 * host's name unless the operator placed it otherwise. */
static void crush_hosts(struct cb_tm *tm, struct cb_tm_osd_run *run)
{
	json_t *t = NULL, *node, *c;
	char why[256];
	size_t i, j, unknown = 0;
	for (size_t k = 0; k < run->n; k++)
		unknown += strcmp(run->osds[k].host, "unknown") == 0;
	if (!unknown ||
	    cb_conn_mon_json(tm->conn, "{\"prefix\": \"osd tree\", \"format\": \"json\"}", &t, why,
			     sizeof(why)) < 0)
		return;
	json_array_foreach(json_object_get(t, "nodes"), i, node)
	{
		if (strcmp(cb_jstr(node, "type", ""), "host") != 0)
			continue;
		json_array_foreach(json_object_get(node, "children"), j, c)
		{
			for (size_t k = 0; k < run->n; k++)
				if (run->osds[k].id == json_integer_value(c) &&
				    strcmp(run->osds[k].host, "unknown") == 0)
					snprintf(run->osds[k].host, sizeof(run->osds[k].host), "%s",
						 cb_jstr(node, "name", "unknown"));
		}
	}
	json_decref(t);
}

/* The up OSDs from `osd dump`; their hosts from `osd metadata`, else the
 * CRUSH map. */
static int list_osds(struct cb_tm *tm, struct cb_tm_osd_run *run)
{
	json_t *d = NULL, *md = NULL;
	char why[256];
	int r = cb_conn_mon_json(tm->conn, "{\"prefix\": \"osd dump\", \"format\": \"json\"}", &d,
				 why, sizeof(why));
	cb_tm_mons_answered(tm, r);
	if (r == -ETIMEDOUT) {
		cb_tm_note(tm,
			   "cannot list the OSDs (osd dump: %s): their counters are left out until "
			   "the monitors answer",
			   why);
		run->unlisted = true;
		return 0;
	}
	if (r < 0) {
		cb_tm_note(tm, "cannot list the OSDs (osd dump: %s): their counters are left out",
			   why);
		run->off = true;
		return r == -ENOMEM ? r : 0;
	}
	run->unlisted = false;
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
			     why, sizeof(why)) < 0)
		cb_tm_note(tm,
			   "cannot read the OSDs' hosts (osd metadata: %s): the CRUSH map's are "
			   "named",
			   why);
	json_array_foreach(md, i, o)
	{
		int id = (int)json_integer_value(json_object_get(o, "id"));
		const char *host = json_string_value(json_object_get(o, "hostname"));
		for (size_t k = 0; host && *host && k < run->n; k++)
			if (run->osds[k].id == id)
				snprintf(run->osds[k].host, sizeof(run->osds[k].host), "%s", host);
	}
	json_decref(md);
	crush_hosts(tm, run);
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
