/* The noop layer's ops that are not due yet: a min-heap by due time,
 * emptied either by the runner's poll (inline completion) or by a thread of
 * its own (completion: thread, as librados's callback threads do). */
#ifndef CB_NOOP_QUEUE_H
#define CB_NOOP_QUEUE_H

#include "engine.h"

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct noop_entry {
	uint64_t due; /* ns, monotonic */
	struct cb_op *op;
	int64_t result;
};

struct noop_queue {
	struct noop_entry *ops; /* NULL: no queue, ops complete in submit */
	size_t n;
	bool threaded; /* its thread runs: release joins it */
	/* with a thread: mu guards the heap and stop */
	pthread_t tid;
	pthread_mutex_t mu;
	pthread_cond_t work; /* the thread waits for an op or its due time */
	bool stop;
};

/* Room for cap ops in flight; with threaded, starts the completion thread.
 * 0 or -errno. */
int noop_queue_init(struct noop_queue *q, size_t cap, bool threaded);
/* Queue op to complete with result at due. The runner never has more than
 * cap ops in flight, so there is always room. */
void noop_queue_push(struct noop_queue *q, struct cb_op *op, uint64_t due, int64_t result);
/* The runner's poll, inline completion only: complete the ops due,
 * sleeping until one is when none is and min > 0, at most timeout_ms.
 * Returns how many were completed. (Threaded, the thread completes them and
 * the runner waits on its completion queue, as for librados.) */
int noop_queue_reap(struct noop_queue *q, unsigned min, int timeout_ms);
/* Stop the thread (no op may be queued) and free the heap; safe on a
 * zeroed or released queue. */
void noop_queue_release(struct noop_queue *q);

void noop_sleep_until(uint64_t t_ns);

#endif
