/* The /proc readers of telemetry's client and host parts: the host's CPU,
 * load, memory, network and disks, and this process's threads. Each reads
 * a file it keeps open (pread from 0: a /proc file is made anew at each
 * read) through a stack buffer, so a sample allocates nothing. */
#ifndef CB_TM_PROC_H
#define CB_TM_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The host's CPU time since boot, in clock ticks, as /proc/stat's "cpu"
 * line adds it up: usr = user + nice, sys = system + irq + softirq. */
enum { TM_CPU_USR, TM_CPU_SYS, TM_CPU_IOWAIT, TM_CPU_STEAL, TM_CPU_IDLE, TM_CPU_N };
struct tm_cpu {
	uint64_t v[TM_CPU_N];
	uint64_t total;
};

/* c - p, each field at least 0 and the total their sum: the kernel's
 * iowait may go back (proc(5)), and a share of a wrapped total is none. */
static inline void tm_cpu_delta(const struct tm_cpu *c, const struct tm_cpu *p, struct tm_cpu *d)
{
	d->total = 0;
	for (int i = 0; i < TM_CPU_N; i++)
		d->total += d->v[i] = c->v[i] > p->v[i] ? c->v[i] - p->v[i] : 0;
}

/* Of fd (/proc/stat). 0 or -errno (-EINVAL: no cpu line). */
int tm_proc_cpu(int fd, struct tm_cpu *c);
/* /proc/loadavg's first figure. 0 or -errno. */
int tm_proc_load1(int fd, double *load1);
/* /proc/meminfo: MemTotal - MemAvailable, and MemAvailable, in bytes. */
int tm_proc_mem(int fd, uint64_t *used, uint64_t *available);

/* One /proc/net/dev or /proc/diskstats line's figures, for the caller's
 * columns: each[] is called with the line's name (and the device's
 * major:minor for diskstats) and may take its values. */
#define TM_NET_N 4 /* rx_bytes, tx_bytes, rx_packets, tx_packets */
/* reads, reads merged, sectors read, ms reading, writes, writes merged,
 * sectors written, ms writing, ms doing I/O, weighted ms (the fields of
 * Documentation/admin-guide/iostats.rst in that order) */
#define TM_DISK_N 10
typedef void (*tm_line_fn)(void *arg, const char *name, unsigned major, unsigned minor,
			   const uint64_t *vals);
/* Every interface of fd (/proc/net/dev) to fn, with TM_NET_N values. */
int tm_proc_net(int fd, tm_line_fn fn, void *arg);
/* Every device of fd (/proc/diskstats) to fn, with TM_DISK_N values. */
int tm_proc_disks(int fd, tm_line_fn fn, void *arg);

/* One thread of this process: its id, name and CPU ticks (utime + stime). */
struct tm_thread {
	pid_t tid;
	uint64_t ticks;
	char name[16];
};
/* This process's threads (/proc/self/task) into *out (malloc'd, the
 * caller's), *n of them. 0 or -errno. */
int tm_proc_threads(struct tm_thread **out, size_t *n);

/* Ticks per second of the figures above (sysconf(_SC_CLK_TCK)). */
double tm_proc_hz(void);

#endif
