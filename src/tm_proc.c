/* The /proc readers of telemetry (tm_proc.h): fixed stack buffers and
 * strtoull, no allocation but the thread list's. */
#include "tm_proc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Call fn on each line of fd (read from offset 0 in chunks; a line longer
 * than the buffer is cut). 0 or -errno. */
static int each_line(int fd, void (*fn)(void *arg, char *line), void *arg)
{
	char buf[8192];
	size_t have = 0;
	off_t off = 0;
	for (;;) {
		ssize_t got = pread(fd, buf + have, sizeof(buf) - 1 - have, off);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		off += got;
		have += (size_t)got;
		buf[have] = '\0';
		char *p = buf, *nl;
		while ((nl = strchr(p, '\n'))) {
			*nl = '\0';
			fn(arg, p);
			p = nl + 1;
		}
		size_t rest = have - (size_t)(p - buf);
		if (got == 0) {
			if (rest)
				fn(arg, p);
			return 0;
		}
		if (rest == sizeof(buf) - 1) { /* one line fills it: take it cut */
			fn(arg, p);
			rest = 0;
		}
		memmove(buf, p, rest);
		have = rest;
	}
}

/* Up to n numbers after p; how many were read. */
static size_t numbers(const char *p, uint64_t *v, size_t n)
{
	size_t k = 0;
	while (k < n) {
		char *end;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p < '0' || *p > '9')
			break;
		v[k++] = strtoull(p, &end, 10);
		p = end;
	}
	return k;
}

struct cpu_arg {
	struct tm_cpu *c;
	bool found;
};

static void cpu_line(void *arg, char *line)
{
	struct cpu_arg *a = arg;
	uint64_t v[8] = {0};
	if (a->found || strncmp(line, "cpu ", 4) != 0)
		return;
	/* user nice system idle iowait irq softirq steal (guest is in user) */
	if (numbers(line + 4, v, 8) < 4)
		return;
	a->found = true;
	a->c->v[TM_CPU_USR] = v[0] + v[1];
	a->c->v[TM_CPU_SYS] = v[2] + v[5] + v[6];
	a->c->v[TM_CPU_IDLE] = v[3];
	a->c->v[TM_CPU_IOWAIT] = v[4];
	a->c->v[TM_CPU_STEAL] = v[7];
	a->c->total = 0;
	for (int i = 0; i < 8; i++)
		a->c->total += v[i];
}

int tm_proc_cpu(int fd, struct tm_cpu *c)
{
	struct cpu_arg a = {c, false};
	int r = each_line(fd, cpu_line, &a);
	return r < 0 ? r : a.found ? 0 : -EINVAL;
}

int tm_proc_load1(int fd, double *load1)
{
	char buf[128];
	ssize_t got = pread(fd, buf, sizeof(buf) - 1, 0);
	if (got <= 0)
		return got < 0 ? -errno : -EINVAL;
	buf[got] = '\0';
	char *end;
	*load1 = strtod(buf, &end);
	return end == buf ? -EINVAL : 0;
}

struct mem_arg {
	uint64_t total, avail;
	unsigned found;
};

static void mem_line(void *arg, char *line)
{
	struct mem_arg *a = arg;
	uint64_t kib;
	if (strncmp(line, "MemTotal:", 9) == 0 && numbers(line + 9, &kib, 1) == 1) {
		a->total = kib * 1024;
		a->found |= 1;
	} else if (strncmp(line, "MemAvailable:", 13) == 0 && numbers(line + 13, &kib, 1) == 1) {
		a->avail = kib * 1024;
		a->found |= 2;
	}
}

int tm_proc_mem(int fd, uint64_t *used, uint64_t *available)
{
	struct mem_arg a = {0};
	int r = each_line(fd, mem_line, &a);
	if (r < 0)
		return r;
	if (a.found != 3)
		return -EINVAL;
	*used = a.total > a.avail ? a.total - a.avail : 0;
	*available = a.avail;
	return 0;
}

struct lines_arg {
	tm_line_fn fn;
	void *arg;
};

/* "  eth0: rx_bytes rx_packets errs drop fifo frame compressed multicast
 * tx_bytes tx_packets ..." */
static void net_line(void *arg, char *line)
{
	struct lines_arg *a = arg;
	char *colon = strchr(line, ':');
	uint64_t v[10];
	if (!colon)
		return; /* the two header lines */
	*colon = '\0';
	while (*line == ' ')
		line++;
	if (numbers(colon + 1, v, 10) < 10)
		return;
	uint64_t out[TM_NET_N] = {v[0], v[8], v[1], v[9]};
	a->fn(a->arg, line, 0, 0, out);
}

int tm_proc_net(int fd, tm_line_fn fn, void *arg)
{
	struct lines_arg a = {fn, arg};
	return each_line(fd, net_line, &a);
}

/* "   7       0 loop0 reads merged sectors ms writes merged sectors ms
 * in_flight io_ms weighted_ms ..." */
static void disk_line(void *arg, char *line)
{
	struct lines_arg *a = arg;
	unsigned major, minor;
	int at = 0;
	char name[64];
	uint64_t v[11];
	if (sscanf(line, "%u %u %63s %n", &major, &minor, name, &at) != 3 || at == 0)
		return;
	if (numbers(line + at, v, 11) < 11)
		return;
	/* in_flight (v[8]) is a level, not a count: left out */
	uint64_t out[TM_DISK_N] = {v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[9], v[10]};
	a->fn(a->arg, name, major, minor, out);
}

int tm_proc_disks(int fd, tm_line_fn fn, void *arg)
{
	struct lines_arg a = {fn, arg};
	return each_line(fd, disk_line, &a);
}

/* One thread's stat: "tid (comm) state ppid ... utime stime ..." with
 * comm possibly holding spaces and parentheses: the last ')' ends it. */
static int thread_read(int dirfd, const char *tid, struct tm_thread *t)
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "%s/stat", tid);
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t got = pread(fd, buf, sizeof(buf) - 1, 0);
	int e = errno;
	close(fd);
	if (got <= 0)
		return got < 0 ? -e : -EINVAL;
	buf[got] = '\0';
	char *open = strchr(buf, '('), *close_p = strrchr(buf, ')');
	if (!open || !close_p || close_p < open)
		return -EINVAL;
	size_t len = (size_t)(close_p - open - 1);
	if (len >= sizeof(t->name))
		len = sizeof(t->name) - 1;
	memcpy(t->name, open + 1, len);
	t->name[len] = '\0';
	/* after ") ": state, then fields 4.. : utime is field 14, stime 15 */
	char *p = close_p + 2;
	for (int field = 3; field < 14 && p; field++) {
		p = strchr(p, ' ');
		p = p ? p + 1 : NULL;
	}
	uint64_t v[2];
	if (!p || numbers(p, v, 2) != 2)
		return -EINVAL;
	t->tid = (pid_t)atoi(tid);
	t->ticks = v[0] + v[1];
	return 0;
}

int tm_proc_threads(struct tm_thread **out, size_t *n)
{
	DIR *d = opendir("/proc/self/task");
	if (!d)
		return -errno;
	struct tm_thread *a = NULL;
	size_t cnt = 0, cap = 0;
	int r = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		if (cnt == cap) {
			size_t nc = cap ? cap * 2 : 64;
			struct tm_thread *na = realloc(a, nc * sizeof(*a));
			if (!na) {
				r = -ENOMEM;
				break;
			}
			a = na;
			cap = nc;
		}
		/* a thread that ended since readdir is simply not there */
		if (thread_read(dirfd(d), de->d_name, &a[cnt]) == 0)
			cnt++;
	}
	closedir(d);
	if (r < 0) {
		free(a);
		return r;
	}
	*out = a;
	*n = cnt;
	return 0;
}

double tm_proc_hz(void)
{
	long hz = sysconf(_SC_CLK_TCK);
	return hz > 0 ? (double)hz : 100.0;
}
