/* Private to telemetry's host part: what a row keeps of the host, shared by
 * tm_host.c (the sampler) and tm_host_report.c (merge, JSON, text). */
#ifndef CB_TM_HOST_PRIV_H
#define CB_TM_HOST_PRIV_H

#include "tm_host.h"
#include "tm_proc.h"

#include <pthread.h>
#include <stdint.h>

#define HOST_MAX_IF   32
#define HOST_MAX_DISK 64
enum { HOST_STAT, HOST_LOAD, HOST_MEM, HOST_NET, HOST_DISK, HOST_NFILES };
/* A column a sample has no figure for (its interface or device was gone). */
#define HOST_ABSENT UINT64_MAX
/* uint64 deltas per sample: each interface's, then each disk's */
#define HOST_STRIDE(h) ((h)->nif * TM_NET_N + (h)->ndisk * TM_DISK_N)

struct host_col {
	char name[32];
	unsigned major, minor; /* disks */
};

/* One second (the last may be shorter) from the window's start. */
struct host_sample {
	uint32_t t;	/* seconds from the window's start, as the phase's samples */
	uint64_t dt_ns; /* its length */
	bool have_cpu, have_load, have_mem;
	struct tm_cpu cpu; /* ticks in it */
	double load1;
	uint64_t mem_used, mem_avail;
};

struct host_live;

struct cb_tm_host {
	struct host_live *live; /* the sampler, WINDOW to END; NULL after */
	struct host_col ifs[HOST_MAX_IF];
	size_t nif;
	struct host_col disks[HOST_MAX_DISK];
	size_t ndisk;
	struct host_sample *s;
	uint64_t *vals; /* ns * HOST_STRIDE deltas */
	size_t ns, cap;
	/* Over the window(s) */
	uint64_t window_ns;
	uint64_t nsecs; /* seconds the phase's series has for it: the next run's t starts here */
	bool have_cpu;
	struct tm_cpu cpu;
	bool disk_seen[HOST_MAX_DISK];
	uint64_t disk_tot[HOST_MAX_DISK][TM_DISK_N];
};

#endif
