/* The completion queue between an engine's library threads and the runner:
 * a lock-free stack (one CAS per op) and a futex woken only when the runner
 * is actually asleep, so the per-op path takes no lock and usually no
 * syscall. Engines reach it only through cb_op_done (engine.h). */
#ifndef CB_CQ_H
#define CB_CQ_H

#include "engine.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The completion queue ops report to. A library thread may still be inside
 * cb_op_done, past handing its op over, when the runner has already reaped
 * it; so the queue must outlive the connection whose threads call it: free
 * it only after cb_conn_close. NULL on ENOMEM. */
struct cb_cq *cb_cq_new(void);
void cb_cq_free(struct cb_cq *q);

/* Every completion so far, oldest first, linked by op->next; NULL: none. */
struct cb_op *cb_cq_take(struct cb_cq *q);

/* Whether no completion is waiting (a look, taking none). */
bool cb_cq_empty(struct cb_cq *q);

/* As cb_cq_take, but sleeps up to timeout_ns when there is none yet. */
struct cb_op *cb_cq_wait(struct cb_cq *q, uint64_t timeout_ns);

/* The bytes of one queue: part of a client's memory estimate. */
size_t cb_cq_bytes(void);

#endif
