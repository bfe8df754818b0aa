/* The completion queue (cq.h). Completions arrive from library threads
 * through a lock-free stack (one CAS per op) and a futex that is woken only
 * when the runner is actually asleep, so the per-op path takes no lock and
 * usually no syscall. */
#include "cq.h"
#include "clock.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

struct cb_cq {
	_Atomic(struct cb_op *) head;
	atomic_int waiting; /* the futex word: 1 while the runner sleeps */
};

void cb_op_done(struct cb_op *op, int64_t result)
{
	struct cb_cq *q = op->cq;
	op->t_end = cb_now_ns();
	op->result = result;
	struct cb_op *h = atomic_load(&q->head);
	do
		op->next = h;
	while (!atomic_compare_exchange_weak(&q->head, &h, op));
	if (atomic_exchange(&q->waiting, 0))
		syscall(SYS_futex, &q->waiting, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

struct cb_cq *cb_cq_new(void)
{
	return calloc(1, sizeof(struct cb_cq));
}

void cb_cq_free(struct cb_cq *q)
{
	free(q);
}

size_t cb_cq_bytes(void)
{
	return sizeof(struct cb_cq);
}

struct cb_op *cb_cq_take(struct cb_cq *q)
{
	struct cb_op *lifo = atomic_exchange(&q->head, NULL), *fifo = NULL;
	while (lifo) {
		struct cb_op *n = lifo->next;
		lifo->next = fifo;
		fifo = lifo;
		lifo = n;
	}
	return fifo;
}

bool cb_cq_empty(struct cb_cq *q)
{
	return atomic_load(&q->head) == NULL;
}

/* The seq_cst store of waiting before the second look at the stack pairs
 * with cb_op_done's push then exchange: either the runner sees the op or the
 * completer sees waiting == 1 and wakes it; FUTEX_WAIT returns at once if
 * waiting was already cleared. */
struct cb_op *cb_cq_wait(struct cb_cq *q, uint64_t timeout_ns)
{
	struct cb_op *ops = cb_cq_take(q);
	if (ops || timeout_ns == 0)
		return ops;
	atomic_store(&q->waiting, 1);
	ops = cb_cq_take(q);
	if (ops) {
		atomic_store(&q->waiting, 0);
		return ops;
	}
	struct timespec ts = {.tv_sec = (time_t)(timeout_ns / 1000000000ULL),
			      .tv_nsec = (long)(timeout_ns % 1000000000ULL)};
	syscall(SYS_futex, &q->waiting, FUTEX_WAIT_PRIVATE, 1, &ts, NULL, 0);
	atomic_store(&q->waiting, 0);
	return cb_cq_take(q);
}
