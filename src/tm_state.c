/* Telemetry's state part: the cluster's state during the run (PGs, OSDs up/in,
 * scrubs, health checks), sampled by a thread of its own every SAMPLE_MS and
 * at each phase's start and end marks: a phase during which it changed
 * from what it was at the phase's start is disturbed, each change one
 * reason ("osd.1 down at +3.2 s"). The judging is cluster_state.c's. */
#include "clock.h"
#include "tm_state.h"
#include "jget.h"
#include "cluster_state.h"
#include "result.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A monitor command every 2 s is nothing to the monitors, and an OSD that
 * goes down is marked so by them only after its heartbeat grace anyway. */
#define SAMPLE_MS   2000
#define MAX_REASONS 16
#define MAX_ACTIVE  8

struct reason {
	char key[96];
	char text[256];
	double t; /* first seen, seconds after the phase's start */
};

struct cb_tm_state {
	struct reason r[MAX_REASONS];
	size_t n;
};

/* A phase between its start and end marks. */
struct active {
	struct cb_tm_state *x;
	struct cb_cstate start;
	double t0;
};

struct cb_tm_state_run {
	struct cb_tm *tm;
	pthread_mutex_t lock;
	pthread_cond_t cond; /* a phase started, or close */
	pthread_t thread;
	bool started, stop;
	bool off; /* a command was refused: no phase is judged */
	struct active act[MAX_ACTIVE];
	size_t nact;
};

struct adding {
	struct cb_tm_state *x;
	double t;
};

/* A reason under its key: once, at the time first seen; a count of PGs
 * kept at its highest. */
static void add_reason(void *arg, const char *key, const char *text)
{
	struct adding *a = arg;
	struct cb_tm_state *x = a->x;
	for (size_t i = 0; i < x->n; i++) {
		if (strcmp(x->r[i].key, key) != 0)
			continue;
		if (strtoull(text, NULL, 10) > strtoull(x->r[i].text, NULL, 10))
			snprintf(x->r[i].text, sizeof(x->r[i].text), "%s", text);
		return;
	}
	if (x->n == MAX_REASONS)
		return;
	struct reason *r = &x->r[x->n++];
	snprintf(r->key, sizeof(r->key), "%s", key);
	snprintf(r->text, sizeof(r->text), "%s", text);
	r->t = a->t;
}

/* The state now, with the OSDs' ids when one of the phases saw others up
 * or in at its start (so a reason names the OSD). Called without the lock.
 * 0 or -errno: -EAGAIN while the monitors are in their backoff, and
 * -ETIMEDOUT, leave the part on (they are asked again once the backoff
 * passes); any other failure turns it off (one note). */
static int sample(struct cb_tm_state_run *s, const struct cb_cstate *ref, struct cb_cstate *now)
{
	char why[256];
	if (cb_tm_mons_away(s->tm))
		return -EAGAIN;
	int r = cb_cstate_fetch(s->tm->conn, now, why, sizeof(why));
	if (r == 0 && ref && (now->up != ref->up || now->in != ref->in))
		r = cb_cstate_fetch_osds(s->tm->conn, now, why, sizeof(why));
	cb_tm_mons_answered(s->tm, r);
	if (r < 0 && r != -ETIMEDOUT) {
		pthread_mutex_lock(&s->lock);
		if (!s->off)
			cb_tm_note(s->tm,
				   "cluster state: %s: phases are not checked for disturbance",
				   why);
		s->off = true;
		pthread_mutex_unlock(&s->lock);
	}
	return r;
}

/* now against every phase running; under the lock. */
static void judge(struct cb_tm_state_run *s, const struct cb_cstate *now, double t)
{
	for (size_t i = 0; i < s->nact; i++) {
		struct adding a = {s->act[i].x, t - s->act[i].t0};
		cb_cstate_changes(&s->act[i].start, now, add_reason, &a);
	}
}

static void *sampler(void *arg)
{
	struct cb_tm_state_run *s = arg;
	struct cb_cstate *now = malloc(sizeof(*now)), *ref = malloc(sizeof(*ref));
	pthread_mutex_lock(&s->lock);
	while (now && ref && !s->stop && !s->off) {
		if (!s->nact) {
			pthread_cond_wait(&s->cond, &s->lock);
			continue;
		}
		struct timespec until;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += SAMPLE_MS / 1000;
		while (!s->stop && s->nact &&
		       pthread_cond_timedwait(&s->cond, &s->lock, &until) != ETIMEDOUT)
			;
		if (s->stop || !s->nact)
			continue;
		*ref = s->act[0].start;
		pthread_mutex_unlock(&s->lock);
		int r = sample(s, ref, now);
		pthread_mutex_lock(&s->lock);
		if (r == 0)
			judge(s, now, cb_now_s());
	}
	pthread_mutex_unlock(&s->lock);
	free(now);
	free(ref);
	return NULL;
}

int cb_tm_state_open(struct cb_tm *tm)
{
	struct cb_tm_state_run *s = calloc(1, sizeof(*s));
	struct cb_cstate *first = malloc(sizeof(*first));
	if (!s || !first) {
		free(s);
		free(first);
		return -ENOMEM;
	}
	s->tm = tm;
	tm->state = s;
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->cond, NULL);
	/* asked once here, on the run's thread: it opens the monitor session
	 * before any other thread would */
	int r = sample(s, NULL, first);
	if (r == 0 || r == -ETIMEDOUT)
		s->started = pthread_create(&s->thread, NULL, sampler, s) == 0;
	if (!s->started && !s->off) {
		cb_tm_note(tm, "cluster state: no sampler thread: phases are not checked for "
			       "disturbance");
		s->off = true;
	}
	free(first);
	return 0;
}

void cb_tm_state_close(struct cb_tm *tm)
{
	struct cb_tm_state_run *s = tm->state;
	if (!s)
		return;
	pthread_mutex_lock(&s->lock);
	s->stop = true;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
	if (s->started)
		pthread_join(s->thread, NULL);
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->cond);
	free(s);
	tm->state = NULL;
}

/* s->off is the sampler's to set: read under its lock. */
static bool is_off(struct cb_tm_state_run *s)
{
	pthread_mutex_lock(&s->lock);
	bool off = s->off;
	pthread_mutex_unlock(&s->lock);
	return off;
}

static void phase_start(struct cb_tm_state_run *s, struct cb_tm_state **x)
{
	struct cb_cstate *st = malloc(sizeof(*st));
	if (!st)
		return;
	/* the OSDs' ids too: a reason names the one that went down */
	if (sample(s, NULL, st) == 0) {
		char why[256];
		if (cb_cstate_fetch_osds(s->tm->conn, st, why, sizeof(why)) < 0)
			st->have_osds = false;
		pthread_mutex_lock(&s->lock);
		if (!s->off && s->nact < MAX_ACTIVE && (*x = calloc(1, sizeof(**x)))) {
			s->act[s->nact++] = (struct active){*x, *st, cb_now_s()};
			pthread_cond_broadcast(&s->cond);
		}
		pthread_mutex_unlock(&s->lock);
	}
	free(st);
}

static void phase_end(struct cb_tm_state_run *s, struct cb_tm_state *x)
{
	struct cb_cstate *now = malloc(sizeof(*now));
	pthread_mutex_lock(&s->lock);
	size_t i = 0;
	while (i < s->nact && s->act[i].x != x)
		i++;
	/* off: a command was refused: not asked again */
	struct cb_cstate *ref = i < s->nact && now && !s->off ? malloc(sizeof(*ref)) : NULL;
	if (ref)
		*ref = s->act[i].start;
	pthread_mutex_unlock(&s->lock);
	int r = ref ? sample(s, ref, now) : -ENOMEM;
	pthread_mutex_lock(&s->lock);
	for (i = 0; i < s->nact && s->act[i].x != x; i++)
		;
	if (i < s->nact) {
		if (r == 0) {
			struct adding a = {x, cb_now_s() - s->act[i].t0};
			cb_cstate_changes(&s->act[i].start, now, add_reason, &a);
		}
		s->act[i] = s->act[--s->nact];
	}
	pthread_mutex_unlock(&s->lock);
	free(ref);
	free(now);
}

void cb_tm_state_mark(struct cb_tm_state **x, enum cb_mark m, const struct cb_tm_phase *tp)
{
	struct cb_tm_state_run *s = tp->tm->state;
	if (!s)
		return;
	/* END even when off: the phase leaves the list the sampler reads */
	if (m == CB_MARK_START && !*x && !is_off(s))
		phase_start(s, x);
	else if (m == CB_MARK_END && *x)
		phase_end(s, *x);
}

int cb_tm_state_merge(struct cb_tm_state *dst, const struct cb_tm_state *src)
{
	for (size_t i = 0; i < src->n; i++) {
		size_t j = 0;
		while (j < dst->n && strcmp(dst->r[j].key, src->r[i].key) != 0)
			j++;
		if (j == dst->n && dst->n < MAX_REASONS)
			dst->r[dst->n++] = src->r[i];
	}
	return 0;
}

/* Whether r says what another reason of x says already: a health check
 * about down OSDs or degraded PGs beside the OSD or PG reason. */
static bool redundant(const struct cb_tm_state *x, const struct reason *r)
{
	if (strncmp(r->key, "check:", 6) != 0 || !cb_cstate_told_by_state(r->key + 6))
		return false;
	for (size_t i = 0; i < x->n; i++)
		if (strncmp(x->r[i].key, "check:", 6) != 0)
			return true;
	return false;
}

static void reason_text(const struct reason *r, char *buf, size_t len)
{
	snprintf(buf, len, "%s at +%.1f s", r->text, r->t);
}

void cb_tm_state_json(const struct cb_tm_state *x, const struct cb_phase_result *pr, json_t *phase)
{
	(void)pr;
	if (!x)
		return;
	json_t *a = json_array();
	char s[300];
	for (size_t i = 0; a && i < x->n; i++) {
		if (redundant(x, &x->r[i]))
			continue;
		reason_text(&x->r[i], s, sizeof(s));
		json_array_append_new(a, json_string(s));
	}
	if (a)
		json_object_set_new(phase, "disturbed", a);
}

void cb_tm_state_text(const json_t *row, FILE *out)
{
	const json_t *a = json_object_get(row, "disturbed"), *r;
	size_t i;
	if (!json_array_size(a))
		return;
	fprintf(out, "%s: disturbed: ", cb_jstr(row, "name", ""));
	json_array_foreach(a, i, r)
	{
		fprintf(out, "%s%s", i ? "; " : "",
			json_string_value(r) ? json_string_value(r) : "");
	}
	fputc('\n', out);
}

void cb_tm_state_free(struct cb_tm_state *x)
{
	free(x);
}
