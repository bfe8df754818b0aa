/* Telemetry's client part: what the benchmark itself cost over the measured window: CPU, context
 * switches, peak RSS, per thread; and whether the row's figures are the client's limit
 * (client-bound) rather than the cluster's. */
#include "units.h"
#include "tm_client.h"
#include "jget.h"
#include "clock.h"
#include "result.h"
#include "tm_host.h"
#include "tm_proc.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* Under this much host CPU left (idle + iowait), or a thread at this much
 * of a core, the client was using what the host could give it. */
#define BOUND_IDLE_PCT	 10.0
#define BOUND_THREAD_PCT 90.0
/* ... over at least this much: a shorter window's clock ticks (100 a
 * second) make no share worth a verdict. */
#define BOUND_MIN_TICKS	   100
#define BOUND_MIN_WINDOW_S 0.5

/* Threads of one name (digits stripped: librados' msgr-worker-0..2 are one). */
struct tm_group {
	char name[16];
	unsigned count;
	double cpu_s;
	double core_pct; /* the busiest one's CPU, % of one core over the window */
};

struct cb_tm_client {
	/* Between the WINDOW and END marks */
	bool open;
	struct rusage ru0;
	uint64_t t0_ns;
	struct tm_thread *base;
	size_t nbase;
	struct tm_cpu cpu0; /* the host's, when the host part is off */
	bool have_cpu0;
	/* Over the window(s) */
	double window_s;
	double user_s, sys_s;
	uint64_t nvcsw, nivcsw;
	uint64_t max_rss_kib;
	struct tm_group *groups;
	size_t ngroups;
	bool have_cpu; /* cpu: the host's own CPU over the window (host part off) */
	struct tm_cpu cpu;
};

static double tv_s(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

/* The host's /proc/stat once, for the client-bound check without the host part. */
static bool host_cpu_read(struct tm_cpu *c)
{
	int fd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	bool ok = tm_proc_cpu(fd, c) == 0;
	close(fd);
	return ok;
}

static void window_open(struct cb_tm_client **xp, const struct cb_tm_phase *tp)
{
	struct cb_tm_client *x = *xp ? *xp : calloc(1, sizeof(*x));
	if (!x)
		return;
	*xp = x;
	if (tm_proc_threads(&x->base, &x->nbase) < 0) {
		cb_tm_note(tp->tm, "no per-thread CPU: /proc/self/task cannot be read");
		x->base = NULL;
		x->nbase = 0;
	}
	x->have_cpu0 = !tp->tm->o.host && host_cpu_read(&x->cpu0);
	getrusage(RUSAGE_SELF, &x->ru0);
	x->t0_ns = cb_now_ns();
	x->open = true;
}

/* "msgr-worker-2" -> "msgr-worker": digits out, then trailing separators. */
static void group_name(const char *comm, char *out, size_t n)
{
	size_t k = 0;
	for (const char *p = comm; *p && k + 1 < n; p++)
		if (!isdigit((unsigned char)*p))
			out[k++] = *p;
	while (k > 0 && strchr("-_:. ", out[k - 1]))
		k--;
	out[k] = '\0';
	if (k == 0)
		snprintf(out, n, "%s", comm);
}

static struct tm_group *group_get(struct cb_tm_client *x, const char *name, size_t *cap)
{
	for (size_t i = 0; i < x->ngroups; i++)
		if (strcmp(x->groups[i].name, name) == 0)
			return &x->groups[i];
	if (x->ngroups == *cap) {
		size_t nc = *cap ? *cap * 2 : 16;
		struct tm_group *g = realloc(x->groups, nc * sizeof(*g));
		if (!g)
			return NULL;
		x->groups = g;
		*cap = nc;
	}
	struct tm_group *g = &x->groups[x->ngroups++];
	memset(g, 0, sizeof(*g));
	snprintf(g->name, sizeof(g->name), "%s", name);
	return g;
}

/* Each thread's CPU since its baseline (a thread born in the window: all of
 * its CPU), grouped by name. */
static void threads_close(struct cb_tm_client *x, double window_s)
{
	struct tm_thread *now = NULL;
	size_t n = 0, cap = 0;
	double hz = tm_proc_hz();
	if (x->base && tm_proc_threads(&now, &n) == 0) {
		for (size_t i = 0; i < n; i++) {
			uint64_t t0 = 0;
			for (size_t k = 0; k < x->nbase; k++)
				if (x->base[k].tid == now[i].tid) {
					t0 = x->base[k].ticks;
					break;
				}
			char name[16];
			group_name(now[i].name, name, sizeof(name));
			struct tm_group *g = group_get(x, name, &cap);
			if (!g)
				break;
			double s = (double)(now[i].ticks > t0 ? now[i].ticks - t0 : 0) / hz;
			double pct = window_s > 0 ? s / window_s * 100 : 0;
			g->count++;
			g->cpu_s += s;
			g->core_pct = pct > g->core_pct ? pct : g->core_pct;
		}
	}
	free(now);
	free(x->base);
	x->base = NULL;
	x->nbase = 0;
}

static void window_close(struct cb_tm_client *x)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	uint64_t t1 = cb_now_ns();
	x->open = false;
	x->window_s = (double)(t1 - x->t0_ns) / 1e9;
	x->user_s = tv_s(&ru.ru_utime) - tv_s(&x->ru0.ru_utime);
	x->sys_s = tv_s(&ru.ru_stime) - tv_s(&x->ru0.ru_stime);
	x->nvcsw = (uint64_t)(ru.ru_nvcsw - x->ru0.ru_nvcsw);
	x->nivcsw = (uint64_t)(ru.ru_nivcsw - x->ru0.ru_nivcsw);
	x->max_rss_kib = (uint64_t)ru.ru_maxrss;
	struct tm_cpu c1;
	if (x->have_cpu0 && host_cpu_read(&c1)) {
		x->have_cpu = true;
		tm_cpu_delta(&c1, &x->cpu0, &x->cpu);
	}
	threads_close(x, x->window_s);
}

void cb_tm_client_mark(struct cb_tm_client **x, enum cb_mark m, const struct cb_tm_phase *tp)
{
	if (m == CB_MARK_WINDOW)
		window_open(x, tp);
	else if (m == CB_MARK_END && *x && (*x)->open)
		window_close(*x);
}

int cb_tm_client_merge(struct cb_tm_client *dst, const struct cb_tm_client *src)
{
	size_t cap = dst->ngroups;
	for (size_t i = 0; i < src->ngroups; i++) {
		const struct tm_group *s = &src->groups[i];
		struct tm_group *g = group_get(dst, s->name, &cap);
		if (!g)
			return -ENOMEM;
		/* the same threads ran again: their number is one run's */
		g->count = s->count > g->count ? s->count : g->count;
		g->cpu_s += s->cpu_s;
		g->core_pct = s->core_pct > g->core_pct ? s->core_pct : g->core_pct;
	}
	dst->window_s += src->window_s;
	dst->user_s += src->user_s;
	dst->sys_s += src->sys_s;
	dst->nvcsw += src->nvcsw;
	dst->nivcsw += src->nivcsw;
	dst->max_rss_kib =
	    src->max_rss_kib > dst->max_rss_kib ? src->max_rss_kib : dst->max_rss_kib;
	if (src->have_cpu) {
		for (int i = 0; i < TM_CPU_N; i++)
			dst->cpu.v[i] += src->cpu.v[i];
		dst->cpu.total += src->cpu.total;
		dst->have_cpu = true;
	}
	return 0;
}

bool cb_tm_client_bound(const struct cb_tm_client *x, const struct cb_tm_host *host, char *why,
			size_t n)
{
	if (!x || x->open)
		return false;
	struct tm_cpu c;
	bool have = cb_tm_host_cpu(host, &c);
	if (!have && x->have_cpu) {
		c = x->cpu;
		have = true;
	}
	if (have && c.total >= BOUND_MIN_TICKS) {
		/* iowait is idle time too: the CPU was there to take */
		double left =
		    (double)(c.v[TM_CPU_IDLE] + c.v[TM_CPU_IOWAIT]) / (double)c.total * 100;
		if (left < BOUND_IDLE_PCT) {
			snprintf(why, n, "host CPU idle %.1f %% over the window", left);
			return true;
		}
	}
	const struct tm_group *busy = NULL;
	for (size_t i = 0; i < x->ngroups; i++)
		if (!busy || x->groups[i].core_pct > busy->core_pct)
			busy = &x->groups[i];
	if (busy && busy->core_pct >= BOUND_THREAD_PCT && x->window_s >= BOUND_MIN_WINDOW_S) {
		snprintf(why, n, "thread %s at %.0f %% of a core", busy->name, busy->core_pct);
		return true;
	}
	return false;
}

static int group_cmp(const void *a, const void *b)
{
	const struct tm_group *x = a, *y = b;
	return x->cpu_s < y->cpu_s ? 1 : x->cpu_s > y->cpu_s ? -1 : strcmp(x->name, y->name);
}

/* The ops this process ran: over ranks the row's are every rank's, the
 * CPU this process's (rank 0's: its figures come first). */
static uint64_t own_ops(const struct cb_phase_result *pr)
{
	return pr->nranks > 1 ? pr->ranks[0].ops : pr->ops;
}

void cb_tm_client_json(const struct cb_tm_client *x, const struct cb_tm_host *host,
		       const struct cb_phase_result *pr, json_t *phase)
{
	if (!x || x->open)
		return;
	json_t *o = cb_tm_json_section(phase, "client");
	json_t *threads = json_array();
	if (!o || !threads) {
		json_decref(threads);
		return;
	}
	/* busiest first; sorted in a copy, the row stays as measured */
	struct tm_group *g = x->ngroups ? malloc(x->ngroups * sizeof(*g)) : NULL;
	if (g) {
		memcpy(g, x->groups, x->ngroups * sizeof(*g));
		qsort(g, x->ngroups, sizeof(*g), group_cmp);
		for (size_t i = 0; i < x->ngroups; i++)
			json_array_append_new(threads,
					      json_pack("{s:s, s:I, s:f, s:f}", "name", g[i].name,
							"count", (json_int_t)g[i].count, "cpu_s",
							g[i].cpu_s, "core_pct", g[i].core_pct));
		free(g);
	}
	char why[128];
	bool bound = cb_tm_client_bound(x, host, why, sizeof(why));
	double cpu = x->user_s + x->sys_s;
	json_object_set_new(o, "cpu_user_s", json_real(x->user_s));
	json_object_set_new(o, "cpu_sys_s", json_real(x->sys_s));
	json_object_set_new(o, "cpu_us_per_op",
			    own_ops(pr) ? json_real(cpu * 1e6 / (double)own_ops(pr)) : json_null());
	json_object_set_new(o, "ctx_voluntary", json_integer((json_int_t)x->nvcsw));
	json_object_set_new(o, "ctx_involuntary", json_integer((json_int_t)x->nivcsw));
	json_object_set_new(o, "max_rss_kib", json_integer((json_int_t)x->max_rss_kib));
	json_object_set_new(o, "threads", threads);
	json_object_set_new(o, "bound", json_boolean(bound));
	json_object_set_new(o, "bound_reason", bound ? json_string(why) : json_null());
}

void cb_tm_client_text(const json_t *row, FILE *out)
{
	const json_t *x = json_object_get(json_object_get(row, "telemetry"), "client");
	if (!x)
		return;
	const char *name = cb_jstr(row, "name", "");
	char c[40], per[48] = "no ops";
	if (cb_jhas(x, "cpu_us_per_op"))
		snprintf(per, sizeof(per), "%.1f us/op", cb_jnum(x, "cpu_us_per_op"));
	fprintf(out,
		"%s: client CPU %s (user %.2f s, sys %.2f s), %s ctx switches, peak RSS %llu MiB\n",
		name, per, cb_jnum(x, "cpu_user_s"), cb_jnum(x, "cpu_sys_s"),
		cb_format_count(cb_jcount(x, "ctx_voluntary") + cb_jcount(x, "ctx_involuntary"), c,
				sizeof(c)),
		(unsigned long long)(cb_jcount(x, "max_rss_kib") / 1024));
	/* the busiest three names (the JSON's are busiest first): where a
	 * client's CPU went; idle threads say nothing here */
	const json_t *g;
	size_t i, k = 0;
	json_array_foreach(json_object_get(x, "threads"), i, g)
	{
		if (k == 3 || cb_jnum(g, "cpu_s") <= 0)
			break;
		if (k == 0)
			fprintf(out, "%s: client threads:", name);
		fprintf(out, "%s %s x%llu %.2f s (busiest %.0f %% of a core)", k++ ? "," : "",
			cb_jstr(g, "name", ""), (unsigned long long)cb_jcount(g, "count"),
			cb_jnum(g, "cpu_s"), cb_jnum(g, "core_pct"));
	}
	if (k)
		fputc('\n', out);
	if (cb_jtrue(x, "bound"))
		fprintf(out, "%s: client-bound: %s\n", name, cb_jstr(x, "bound_reason", ""));
}

void cb_tm_client_free(struct cb_tm_client *x)
{
	if (!x)
		return;
	free(x->base);
	free(x->groups);
	free(x);
}
