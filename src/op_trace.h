/* A test hook, not a feature: with CEPHBENCH_OP_TRACE=FILE in the
 * environment, each client of each phase appends to FILE (a regular file,
 * not followed through a symlink) the targets
 * (op->where, the engine's encoding) and lengths of the ops it started, so
 * the cluster tests can see which blocks, objects and files a distribution,
 * coverage or seed chose, and the sizes a size distribution drew. Off, it costs one branch per op.
 */
#ifndef CB_OP_TRACE_H
#define CB_OP_TRACE_H

#include "engine.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cb_op_trace {
	const char *path; /* NULL: off */
	uint64_t *where;  /* where, len: two an op */
	size_t n, cap;
};

/* On when the environment names a file. */
void cb_op_trace_begin(struct cb_op_trace *t);

/* The target and length of one op started; past 16M ops, or out of memory, the
 * trace stops growing (a test's phase is short). */
void cb_op_trace_add(struct cb_op_trace *t, uint64_t where, uint64_t len);

/* Appends "# WORKLOAD STEP CLIENT" and "WHERE LEN", one op a line, in one
 * write(2) to the file (O_APPEND: clients do not interleave), and frees. A
 * failure is silent: the hook never fails a run. */
void cb_op_trace_end(struct cb_op_trace *t, const struct cb_phase *ph);

#endif
