/* Live progress: the reporter thread and its lines (progress.h). */
#include "progress.h"
#include "clock.h"
#include "term_esc.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int cb_progress_mode_parse(const char *s, enum cb_progress_mode *m)
{
	static const char *const names[] = {"auto", "always", "never", "jsonl"};
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(s, names[i]) == 0) {
			*m = (enum cb_progress_mode)i;
			return 0;
		}
	return -EINVAL;
}

bool cb_progress_out_init(struct cb_progress_out *po, enum cb_progress_mode m, bool quiet, FILE *f)
{
	bool tty = isatty(fileno(f));
	*po = (struct cb_progress_out){.out = f, .tty = tty, .jsonl = m == CB_PROGRESS_JSONL};
	switch (m) {
	case CB_PROGRESS_AUTO:
		return tty && !quiet;
	case CB_PROGRESS_ALWAYS:
	case CB_PROGRESS_JSONL:
		return true;
	case CB_PROGRESS_NEVER:
		break;
	}
	return false;
}

unsigned cb_live_bucket(uint64_t ns)
{
	if (ns < 8)
		return (unsigned)ns;
	unsigned msb = 63u - (unsigned)__builtin_clzll(ns);
	return 8u * (msb - 2u) + (unsigned)((ns >> (msb - 3u)) & 7u);
}

/* A bucket's upper edge: p99 is never said lower than it was. */
static uint64_t bucket_top(unsigned b)
{
	if (b < 8)
		return b + 1;
	unsigned msb = b / 8u + 2u;
	return (uint64_t)(9u + b % 8u) << (msb - 3u);
}

struct cb_live {
	struct cb_progress_out po;
	struct cb_live_info info;
	char name[160]; /* escaped for the terminal */
	pthread_t tid;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool stop;
	uint64_t prev_ops, prev_bytes, prev_now; /* the last tick's */
	struct cb_live_slot *slots;
};

/* The clients' figures summed; the ramp's end and start are slot 0's
 * (the clients start together at the start line). */
struct sums {
	uint64_t ops, bytes, mops, mbytes, errors, t0, ramp_end;
	uint64_t lat[CB_LIVE_BUCKETS];
};

static void sum(const struct cb_live *lv, struct sums *s)
{
	memset(s, 0, sizeof(*s));
	for (unsigned k = 0; k < lv->info.clients; k++) {
		const struct cb_live_slot *c = &lv->slots[k];
		s->ops += atomic_load_explicit(&c->ops, memory_order_relaxed);
		s->bytes += atomic_load_explicit(&c->bytes, memory_order_relaxed);
		s->mops += atomic_load_explicit(&c->mops, memory_order_relaxed);
		s->mbytes += atomic_load_explicit(&c->mbytes, memory_order_relaxed);
		s->errors += atomic_load_explicit(&c->errors, memory_order_relaxed);
		uint64_t t0 = atomic_load_explicit(&c->t0, memory_order_relaxed);
		if (t0 && !s->t0) {
			s->t0 = t0;
			s->ramp_end = atomic_load_explicit(&c->ramp_end, memory_order_relaxed);
		}
		for (unsigned b = 0; b < CB_LIVE_BUCKETS; b++)
			s->lat[b] += atomic_load_explicit(&c->lat[b], memory_order_relaxed);
	}
}

/* p99 of the measured ops so far in ns; 0: none yet. */
static uint64_t p99(const struct sums *s)
{
	if (!s->mops)
		return 0;
	uint64_t want = s->mops - s->mops / 100, seen = 0;
	for (unsigned b = 0; b < CB_LIVE_BUCKETS; b++)
		if ((seen += s->lat[b]) >= want && s->lat[b])
			return bucket_top(b);
	return 0;
}

/* Seconds left, or a negative number when the phase has no limit that
 * says: the duration's end, or the ops or bytes left at the measured rate. */
static double remaining(const struct cb_live *lv, const struct sums *s, uint64_t now)
{
	const struct cb_live_info *in = &lv->info;
	double left = -1;
	if (!s->t0)
		return left;
	if (in->duration_ns) {
		uint64_t end = s->ramp_end + in->duration_ns;
		left = end > now ? (double)(end - now) / 1e9 : 0;
	}
	double secs = now > s->ramp_end ? (double)(now - s->ramp_end) / 1e9 : 0;
	double by = -1;
	if (in->ops && s->mops && secs > 0) {
		uint64_t total = in->ops * in->clients;
		by = total > s->mops ? (double)(total - s->mops) / ((double)s->mops / secs) : 0;
	} else if (in->bytes && s->mbytes && secs > 0) {
		uint64_t total = in->bytes * in->clients;
		by = total > s->mbytes ? (double)(total - s->mbytes) / ((double)s->mbytes / secs)
				       : 0;
	}
	if (by >= 0 && (left < 0 || by < left))
		left = by;
	return left;
}

struct figures {
	double elapsed, left, iops, mibs;
	uint64_t p99_ns, ops, errors;
	bool started, ramping, bytes;
};

static void figures(struct cb_live *lv, struct figures *f, bool end)
{
	struct sums s;
	uint64_t now = cb_now_ns();
	sum(lv, &s);
	*f = (struct figures){.left = remaining(lv, &s, now),
			      .p99_ns = p99(&s),
			      .ops = s.mops,
			      .errors = s.errors,
			      .started = s.t0 != 0,
			      .bytes = s.bytes};
	f->elapsed = s.t0 && now > s.t0 ? (double)(now - s.t0) / 1e9 : 0;
	f->ramping = s.t0 && now < s.ramp_end;
	if (end) { /* the measured window's average, as the report will say */
		double secs = s.t0 && now > s.ramp_end ? (double)(now - s.ramp_end) / 1e9 : 0;
		f->iops = secs > 0 ? (double)s.mops / secs : 0;
		f->mibs = secs > 0 ? (double)s.mbytes / 1048576.0 / secs : 0;
		f->left = 0;
	} else { /* the last second's */
		double secs = now > lv->prev_now ? (double)(now - lv->prev_now) / 1e9 : 0;
		f->iops = secs > 0 ? (double)(s.ops - lv->prev_ops) / secs : 0;
		f->mibs = secs > 0 ? (double)(s.bytes - lv->prev_bytes) / 1048576.0 / secs : 0;
	}
	lv->prev_ops = s.ops;
	lv->prev_bytes = s.bytes;
	lv->prev_now = now;
}

static void line_text(struct cb_live *lv, const struct figures *f, bool first, bool end)
{
	const struct cb_live_info *in = &lv->info;
	char left[48] = "", lat[48] = "-", bw[48] = "-", errs[48] = "";
	if (end)
		snprintf(left, sizeof(left), "done");
	else if (!f->started)
		snprintf(left, sizeof(left), "starting");
	else if (f->ramping)
		snprintf(left, sizeof(left), "ramp");
	else if (f->left >= 0)
		snprintf(left, sizeof(left), "%.0fs left", f->left);
	else
		snprintf(left, sizeof(left), "? left");
	if (f->p99_ns)
		snprintf(lat, sizeof(lat), "%.3g ms", (double)f->p99_ns / 1e6);
	if (f->errors)
		snprintf(errs, sizeof(errs), " | %llu errors", (unsigned long long)f->errors);
	if (f->bytes)
		snprintf(bw, sizeof(bw), "%.2f", f->mibs);
	/* a terminal's line starts over; a file's lines follow each other */
	fprintf(lv->po.out,
		"%s== %s: %s %s, %u client%s | %.0fs, %s | %s %.0f | MiB/s %s | p99 %s%s%s",
		lv->po.tty && !first ? "\r\033[K" : "", lv->name, in->layer, in->op, in->clients,
		in->clients == 1 ? "" : "s", f->elapsed, left, end ? "IOPS avg" : "IOPS", f->iops,
		bw, lat, errs, lv->po.tty && !end ? "" : "\n");
	fflush(lv->po.out);
}

static void line_json(struct cb_live *lv, const struct figures *f, bool end)
{
	const struct cb_live_info *in = &lv->info;
	/* milliseconds and thousandths: a dashboard's figures, not %.17g's */
	json_t *o = json_pack(
	    "{s:s, s:s, s:s, s:s, s:I, s:f, s:o, s:b, s:I, s:I, s:f, s:o, s:o, s:I}", "event",
	    end ? "end" : "tick", "phase", in->name, "layer", in->layer, "op", in->op, "clients",
	    (json_int_t)in->clients, "elapsed_s", round(f->elapsed * 1000) / 1000, "remaining_s",
	    f->left >= 0 ? json_real(round(f->left * 1000) / 1000) : json_null(), "ramping",
	    f->ramping, "ops", (json_int_t)f->ops, "errors", (json_int_t)f->errors, "iops",
	    round(f->iops * 10) / 10, "mib_s",
	    f->bytes ? json_real(round(f->mibs * 1000) / 1000) : json_null(), "p99_us",
	    f->p99_ns ? json_integer((json_int_t)((f->p99_ns + 999) / 1000)) : json_null(), "time",
	    (json_int_t)time(NULL));
	if (!o)
		return;
	json_dumpf(o, lv->po.out, JSON_COMPACT | JSON_REAL_PRECISION(12));
	fputc('\n', lv->po.out);
	fflush(lv->po.out);
	json_decref(o);
}

static void emit(struct cb_live *lv, bool first, bool end)
{
	struct figures f;
	figures(lv, &f, end);
	if (lv->po.jsonl)
		line_json(lv, &f, end);
	else
		line_text(lv, &f, first, end);
}

static void *reporter(void *arg)
{
	struct cb_live *lv = arg;
	struct timespec at;
	clock_gettime(CLOCK_MONOTONIC, &at);
	pthread_mutex_lock(&lv->mu);
	for (;;) {
		at.tv_sec++;
		while (!lv->stop && pthread_cond_timedwait(&lv->cv, &lv->mu, &at) != ETIMEDOUT)
			;
		if (lv->stop)
			break;
		pthread_mutex_unlock(&lv->mu);
		emit(lv, false, false);
		pthread_mutex_lock(&lv->mu);
	}
	pthread_mutex_unlock(&lv->mu);
	return NULL;
}

struct cb_live *cb_live_start(const struct cb_progress_out *po, const struct cb_live_info *info)
{
	struct cb_live *lv = calloc(1, sizeof(*lv));
	if (!lv || info->clients == 0)
		goto fail;
	lv->slots = aligned_alloc(64, sizeof(*lv->slots) * info->clients);
	if (!lv->slots)
		goto fail;
	memset(lv->slots, 0, sizeof(*lv->slots) * info->clients);
	lv->po = *po;
	lv->info = *info;
	cb_esc_str(info->name, lv->name, sizeof(lv->name));
	lv->prev_now = cb_now_ns();
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&lv->cv, &ca);
	pthread_condattr_destroy(&ca);
	pthread_mutex_init(&lv->mu, NULL);
	if (!lv->po.jsonl)
		emit(lv, true, false);
	if (pthread_create(&lv->tid, NULL, reporter, lv) != 0) {
		if (!lv->po.jsonl && lv->po.tty)
			fputc('\n', lv->po.out);
		pthread_cond_destroy(&lv->cv);
		pthread_mutex_destroy(&lv->mu);
		goto fail;
	}
	return lv;
fail:
	if (lv)
		free(lv->slots);
	free(lv);
	return NULL;
}

struct cb_live_slot *cb_live_slot(struct cb_live *lv, unsigned k)
{
	return lv && k < lv->info.clients ? &lv->slots[k] : NULL;
}

void cb_live_stop(struct cb_live *lv)
{
	if (!lv)
		return;
	pthread_mutex_lock(&lv->mu);
	lv->stop = true;
	pthread_cond_signal(&lv->cv);
	pthread_mutex_unlock(&lv->mu);
	pthread_join(lv->tid, NULL);
	emit(lv, false, true);
	pthread_cond_destroy(&lv->cv);
	pthread_mutex_destroy(&lv->mu);
	free(lv->slots);
	free(lv);
}
