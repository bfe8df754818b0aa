/* Telemetry's host part: the host beside the run, once a second: CPU, load, memory, network, the
 * disks a phase used. A sampler thread runs from the WINDOW mark to the END mark, reading /proc
 * through files it keeps open; what it keeps per sample is deltas, turned into percentages and
 * iostat's figures only when the row is rendered (tm_host_report.c). */
#include "tm_host_priv.h"
#include "clock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* A last, partial second shorter than this is left out of the samples
 * (a few clock ticks make no percentage); the totals still cover it. */
#define TAIL_MIN_NS 200000000ULL

static const char *const files[HOST_NFILES] = {"/proc/stat", "/proc/loadavg", "/proc/meminfo",
					       "/proc/net/dev", "/proc/diskstats"};

struct reading {
	struct tm_cpu cpu;
	double load1;
	uint64_t mem_used, mem_avail;
	uint64_t net[HOST_MAX_IF][TM_NET_N];
	uint64_t disk[HOST_MAX_DISK][TM_DISK_N];
	bool net_seen[HOST_MAX_IF], disk_seen[HOST_MAX_DISK];
	bool ok[HOST_NFILES];
};

/* Live state of the sampler, freed at END. */
struct host_live {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool stop;
	int fd[HOST_NFILES];
	uint64_t t0_ns, prev_ns;
	struct reading first, prev, cur;
	bool nomem; /* a sample could not be kept */
};

struct net_arg {
	struct cb_tm_host *h;
	struct reading *rd;
	bool add; /* at the baseline: take each interface as a column */
};

static void net_col(void *arg, const char *name, unsigned major, unsigned minor, const uint64_t *v)
{
	struct net_arg *a = arg;
	struct cb_tm_host *h = a->h;
	(void)major;
	(void)minor;
	size_t i = 0;
	while (i < h->nif && strcmp(h->ifs[i].name, name) != 0)
		i++;
	if (i == h->nif) {
		if (!a->add || h->nif == HOST_MAX_IF)
			return;
		snprintf(h->ifs[h->nif++].name, sizeof(h->ifs[0].name), "%s", name);
	}
	memcpy(a->rd->net[i], v, sizeof(a->rd->net[i]));
	a->rd->net_seen[i] = true;
}

static void disk_col(void *arg, const char *name, unsigned major, unsigned minor, const uint64_t *v)
{
	struct net_arg *a = arg;
	struct cb_tm_host *h = a->h;
	for (size_t i = 0; i < h->ndisk; i++)
		if (h->disks[i].major == major && h->disks[i].minor == minor) {
			if (a->add)
				snprintf(h->disks[i].name, sizeof(h->disks[i].name), "%s", name);
			memcpy(a->rd->disk[i], v, sizeof(a->rd->disk[i]));
			a->rd->disk_seen[i] = true;
		}
}

static void read_all(struct cb_tm_host *h, struct host_live *l, struct reading *rd, bool add)
{
	struct net_arg a = {h, rd, add};
	memset(rd->net_seen, 0, sizeof(rd->net_seen));
	memset(rd->disk_seen, 0, sizeof(rd->disk_seen));
	rd->ok[HOST_STAT] = l->fd[HOST_STAT] >= 0 && tm_proc_cpu(l->fd[HOST_STAT], &rd->cpu) == 0;
	rd->ok[HOST_LOAD] =
	    l->fd[HOST_LOAD] >= 0 && tm_proc_load1(l->fd[HOST_LOAD], &rd->load1) == 0;
	rd->ok[HOST_MEM] = l->fd[HOST_MEM] >= 0 &&
			   tm_proc_mem(l->fd[HOST_MEM], &rd->mem_used, &rd->mem_avail) == 0;
	rd->ok[HOST_NET] = l->fd[HOST_NET] >= 0 && tm_proc_net(l->fd[HOST_NET], net_col, &a) == 0;
	rd->ok[HOST_DISK] =
	    h->ndisk && l->fd[HOST_DISK] >= 0 && tm_proc_disks(l->fd[HOST_DISK], disk_col, &a) == 0;
}

/* One sample: cur - prev, over [prev_ns, now). False on ENOMEM. */
/* A counter's growth; one that went back was made anew (an interface or a
 * device re-created): its figure that second is absent. */
static uint64_t since(uint64_t c, uint64_t p)
{
	return c >= p ? c - p : HOST_ABSENT;
}

static bool sample_add(struct cb_tm_host *h, struct host_live *l, uint64_t now)
{
	size_t stride = HOST_STRIDE(h);
	if (h->ns == h->cap) {
		size_t nc = h->cap ? h->cap * 2 : 16;
		struct host_sample *s = realloc(h->s, nc * sizeof(*s));
		if (!s)
			return false;
		h->s = s;
		uint64_t *v = stride ? realloc(h->vals, nc * stride * sizeof(*v)) : NULL;
		if (stride && !v)
			return false;
		h->vals = v;
		h->cap = nc;
	}
	struct host_sample *s = &h->s[h->ns];
	uint64_t *v = h->vals + h->ns * stride;
	const struct reading *c = &l->cur, *p = &l->prev;
	memset(s, 0, sizeof(*s));
	s->t = (uint32_t)((l->prev_ns - l->t0_ns + 500000000ULL) / 1000000000ULL);
	s->dt_ns = now - l->prev_ns;
	if ((s->have_cpu = c->ok[HOST_STAT] && p->ok[HOST_STAT]))
		tm_cpu_delta(&c->cpu, &p->cpu, &s->cpu);
	if ((s->have_load = c->ok[HOST_LOAD]))
		s->load1 = c->load1;
	if ((s->have_mem = c->ok[HOST_MEM])) {
		s->mem_used = c->mem_used;
		s->mem_avail = c->mem_avail;
	}
	for (size_t i = 0; i < h->nif; i++)
		for (int k = 0; k < TM_NET_N; k++)
			*v++ = c->net_seen[i] && p->net_seen[i] ? since(c->net[i][k], p->net[i][k])
								: HOST_ABSENT;
	for (size_t i = 0; i < h->ndisk; i++)
		for (int k = 0; k < TM_DISK_N; k++)
			*v++ = c->disk_seen[i] && p->disk_seen[i]
				   ? since(c->disk[i][k], p->disk[i][k])
				   : HOST_ABSENT;
	h->ns++;
	return true;
}

static void *sampler(void *arg)
{
	struct cb_tm_host *h = arg;
	struct host_live *l = h->live;
	uint64_t next = l->t0_ns;
	/* its own name: its CPU is not the benchmark's threads' */
	pthread_setname_np(pthread_self(), "cb-host");
	pthread_mutex_lock(&l->mu);
	while (!l->stop) {
		next += 1000000000ULL;
		struct timespec ts = {(time_t)(next / 1000000000ULL), (long)(next % 1000000000ULL)};
		while (!l->stop && cb_now_ns() < next)
			pthread_cond_timedwait(&l->cv, &l->mu, &ts);
		if (l->stop)
			break;
		pthread_mutex_unlock(&l->mu);
		uint64_t now = cb_now_ns();
		read_all(h, l, &l->cur, false);
		if (!l->nomem && !sample_add(h, l, now))
			l->nomem = true;
		l->prev = l->cur;
		l->prev_ns = now;
		pthread_mutex_lock(&l->mu);
	}
	pthread_mutex_unlock(&l->mu);
	return NULL;
}

/* The block devices of the phase (engine->block_devices over its clients'
 * sessions) as diskstats columns, by major:minor; a path that is not a
 * block device (rbd-fuse's file) has none. */
static void disks_find(struct cb_tm_host *h, const struct cb_tm_phase *tp)
{
	const struct cb_phase *ph = tp->ph;
	if (!tp->eng->block_devices || !ph->session)
		return;
	for (unsigned c = 0; c < ph->clients; c++) {
		const char *paths[HOST_MAX_DISK];
		size_t n = tp->eng->block_devices(ph->session[c], paths, HOST_MAX_DISK);
		for (size_t i = 0; i < n && h->ndisk < HOST_MAX_DISK; i++) {
			struct stat st;
			if (stat(paths[i], &st) < 0 || !S_ISBLK(st.st_mode))
				continue;
			unsigned ma = major(st.st_rdev), mi = minor(st.st_rdev);
			size_t k = 0;
			while (k < h->ndisk &&
			       !(h->disks[k].major == ma && h->disks[k].minor == mi))
				k++;
			if (k < h->ndisk)
				continue;
			h->disks[h->ndisk].major = ma;
			h->disks[h->ndisk].minor = mi;
			/* the kernel's name comes with the baseline; the path until then */
			snprintf(h->disks[h->ndisk].name, sizeof(h->disks[0].name), "%s",
				 strrchr(paths[i], '/') ? strrchr(paths[i], '/') + 1 : paths[i]);
			h->ndisk++;
		}
	}
}

static void live_free(struct host_live *l)
{
	for (int i = 0; i < HOST_NFILES; i++)
		if (l->fd[i] >= 0)
			close(l->fd[i]);
	pthread_cond_destroy(&l->cv);
	pthread_mutex_destroy(&l->mu);
	free(l);
}

static void window_open(struct cb_tm_host **xp, const struct cb_tm_phase *tp)
{
	struct cb_tm_host *h = calloc(1, sizeof(*h));
	struct host_live *l = calloc(1, sizeof(*l));
	pthread_condattr_t ca;
	if (!h || !l) {
		free(h);
		free(l);
		return;
	}
	pthread_mutex_init(&l->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&l->cv, &ca);
	pthread_condattr_destroy(&ca);
	disks_find(h, tp);
	for (int i = 0; i < HOST_NFILES; i++) {
		l->fd[i] = i == HOST_DISK && !h->ndisk ? -1 : open(files[i], O_RDONLY | O_CLOEXEC);
		if (l->fd[i] < 0 && (i != HOST_DISK || h->ndisk))
			cb_tm_note(tp->tm, "host stats: no figures from %s: %s", files[i],
				   strerror(errno));
	}
	h->live = l;
	l->t0_ns = l->prev_ns = cb_now_ns();
	read_all(h, l, &l->first, true);
	l->prev = l->first;
	int r = pthread_create(&l->th, NULL, sampler, h);
	if (r != 0) {
		cb_tm_note(tp->tm, "host stats: no sampler thread: %s", strerror(r));
		h->live = NULL;
		live_free(l);
		free(h);
		return;
	}
	*xp = h;
}

static void window_close(struct cb_tm_host *h)
{
	struct host_live *l = h->live;
	pthread_mutex_lock(&l->mu);
	l->stop = true;
	pthread_cond_signal(&l->cv);
	pthread_mutex_unlock(&l->mu);
	pthread_join(l->th, NULL);
	uint64_t now = cb_now_ns();
	read_all(h, l, &l->cur, false);
	if ((now - l->prev_ns >= TAIL_MIN_NS || h->ns == 0) && !l->nomem)
		sample_add(h, l, now);
	/* the totals: the whole window, from the baseline */
	const struct reading *f = &l->first, *c = &l->cur;
	h->window_ns = now - l->t0_ns;
	h->nsecs = h->window_ns / 1000000000ULL + 1;
	if ((h->have_cpu = f->ok[HOST_STAT] && c->ok[HOST_STAT]))
		tm_cpu_delta(&c->cpu, &f->cpu, &h->cpu);
	for (size_t i = 0; i < h->ndisk; i++) {
		h->disk_seen[i] = f->disk_seen[i] && c->disk_seen[i];
		for (int k = 0; h->disk_seen[i] && k < TM_DISK_N; k++)
			h->disk_tot[i][k] =
			    c->disk[i][k] > f->disk[i][k] ? c->disk[i][k] - f->disk[i][k] : 0;
	}
	h->live = NULL;
	live_free(l);
}

void cb_tm_host_mark(struct cb_tm_host **x, enum cb_mark m, const struct cb_tm_phase *tp)
{
	if (m == CB_MARK_WINDOW && !*x)
		window_open(x, tp);
	else if (m == CB_MARK_END && *x && (*x)->live)
		window_close(*x);
}

bool cb_tm_host_cpu(const struct cb_tm_host *h, struct tm_cpu *c)
{
	if (!h || h->live || !h->have_cpu)
		return false;
	*c = h->cpu;
	return true;
}

void cb_tm_host_free(struct cb_tm_host *x)
{
	if (!x)
		return;
	if (x->live) /* a row freed mid-phase: never, but the thread must not outlive it */
		window_close(x);
	free(x->s);
	free(x->vals);
	free(x);
}
