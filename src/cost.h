/* What a workload will take of the host it runs on (memory and threads),
 * computed at load from the runner's own structures (phase.c), so that a
 * profile the host cannot hold is refused before anything starts, and
 * --dry-run prints what each workload needs. The bounds are stated here and
 * in docs/profiles.md ("What a run may allocate"). */
#ifndef CB_COST_H
#define CB_COST_H

#include <stddef.h>
#include <stdint.h>

struct cb_workload;

/* Op slots (clients x concurrency) of the workloads that run at once (one,
 * or a group's members together): 512 clients of 1024 ops in flight, as
 * many as librados lets a client keep (objecter_inflight_ops). */
#define CB_COST_MAX_SLOTS (1u << 19)
/* The runner's threads at once: one a client. */
#define CB_COST_MAX_THREADS 4096u
/* Memory: at most this fraction (1/N) of the host's MemAvailable at load. */
#define CB_COST_MEM_SHARE 2

struct cb_cost {
	uint64_t clients, slots; /* slots: the op slots, clients x concurrency */
	uint64_t slot_bytes;	 /* one slot: its op and its buffer */
	uint64_t client_bytes;	 /* one client beside its slots */
	uint64_t bytes;		 /* clients x (client_bytes + concurrency x slot_bytes) */
	uint64_t threads;	 /* the runner's: one a client */
};

/* wl's cost, its defaults settled (block size, concurrency). */
void cb_cost_of(const struct cb_workload *wl, struct cb_cost *c);

/* sum += c: workloads that run together (a group's members). */
void cb_cost_add(struct cb_cost *sum, const struct cb_cost *c);

/* The host's MemAvailable from /proc/meminfo, bytes; 0 when it cannot be
 * read (then only the stated bounds apply). */
uint64_t cb_cost_mem_available(void);

/* 0 when c is within the bounds (mem_available 0: no memory bound), else
 * -EINVAL with one line in why naming what was asked (what: "clients 8 x
 * concurrency 16 x block_size 4K"), the estimate, the bound, and what to
 * lower. */
int cb_cost_check(const struct cb_cost *c, const char *what, uint64_t mem_available, char *why,
		  size_t n);

/* bytes as "1.9 GiB", "678 MiB", "12 KiB". Returns buf. */
const char *cb_cost_format(uint64_t bytes, char *buf, size_t n);

#endif
