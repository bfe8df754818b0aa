/* A binary min-heap of ops by due time. Only delayed or threaded noop ops
 * come here; the default (instant, inline) path never touches it. */
#include "noop_queue.h"
#include "clock.h"

#include <errno.h>
#include <stdlib.h>
#include <time.h>

static void push(struct noop_queue *q, struct noop_entry e)
{
	size_t i = q->n++;
	while (i > 0 && q->ops[(i - 1) / 2].due > e.due) {
		q->ops[i] = q->ops[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	q->ops[i] = e;
}

static struct noop_entry pop(struct noop_queue *q)
{
	struct noop_entry top = q->ops[0], last = q->ops[--q->n];
	size_t i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= q->n)
			break;
		if (c + 1 < q->n && q->ops[c + 1].due < q->ops[c].due)
			c++;
		if (q->ops[c].due >= last.due)
			break;
		q->ops[i] = q->ops[c];
		i = c;
	}
	if (q->n)
		q->ops[i] = last;
	return top;
}

static struct timespec abs_ts(uint64_t t_ns)
{
	return (struct timespec){.tv_sec = (time_t)(t_ns / 1000000000ULL),
				 .tv_nsec = (long)(t_ns % 1000000000ULL)};
}

void noop_sleep_until(uint64_t t_ns)
{
	struct timespec ts = abs_ts(t_ns);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* The completion thread: delivers each op when due, outside the lock, as a
 * library's callback thread would. */
static void *deliver(void *arg)
{
	struct noop_queue *q = arg;
	pthread_mutex_lock(&q->mu);
	while (!q->stop) {
		if (q->n == 0) {
			pthread_cond_wait(&q->work, &q->mu);
			continue;
		}
		if (q->ops[0].due > cb_now_ns()) {
			struct timespec ts = abs_ts(q->ops[0].due);
			pthread_cond_timedwait(&q->work, &q->mu, &ts);
			continue;
		}
		struct noop_entry e = pop(q);
		pthread_mutex_unlock(&q->mu);
		cb_op_done(e.op, e.result);
		pthread_mutex_lock(&q->mu);
	}
	pthread_mutex_unlock(&q->mu);
	return NULL;
}

int noop_queue_init(struct noop_queue *q, size_t cap, bool threaded)
{
	pthread_condattr_t ca;
	*q = (struct noop_queue){0};
	q->ops = calloc(cap ? cap : 1, sizeof(*q->ops));
	if (!q->ops)
		return -ENOMEM;
	if (!threaded)
		return 0;
	/* due times are monotonic; so is the wait */
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_mutex_init(&q->mu, NULL);
	pthread_cond_init(&q->work, &ca);
	pthread_condattr_destroy(&ca);
	int r = pthread_create(&q->tid, NULL, deliver, q);
	if (r != 0) {
		pthread_cond_destroy(&q->work);
		pthread_mutex_destroy(&q->mu);
		return -r;
	}
	/* only now: release joins the thread and destroys the lock */
	q->threaded = true;
	return 0;
}

void noop_queue_push(struct noop_queue *q, struct cb_op *op, uint64_t due, int64_t result)
{
	struct noop_entry e = {.due = due, .op = op, .result = result};
	if (!q->threaded) {
		push(q, e);
		return;
	}
	pthread_mutex_lock(&q->mu);
	push(q, e);
	pthread_cond_signal(&q->work);
	pthread_mutex_unlock(&q->mu);
}

int noop_queue_reap(struct noop_queue *q, unsigned min, int timeout_ms)
{
	uint64_t now = cb_now_ns();
	if (min > 0 && q->n && q->ops[0].due > now) {
		uint64_t until = now + (uint64_t)timeout_ms * 1000000ULL;
		noop_sleep_until(q->ops[0].due < until ? q->ops[0].due : until);
		now = cb_now_ns();
	}
	int k = 0;
	while (q->n && q->ops[0].due <= now) {
		struct noop_entry e = pop(q);
		cb_op_done(e.op, e.result);
		k++;
	}
	return k;
}

void noop_queue_release(struct noop_queue *q)
{
	if (q->threaded) {
		pthread_mutex_lock(&q->mu);
		q->stop = true;
		pthread_cond_signal(&q->work);
		pthread_mutex_unlock(&q->mu);
		pthread_join(q->tid, NULL);
		pthread_cond_destroy(&q->work);
		pthread_mutex_destroy(&q->mu);
		q->threaded = false;
	}
	free(q->ops);
	q->ops = NULL;
	q->n = 0;
}
