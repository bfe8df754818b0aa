/* The block layers' shared ops (see blk_ops.h). */
#include "blk_ops.h"

#include <string.h>

const char *const cb_blk_ops[] = {"read", "write", "randread", "randwrite", "rw", "randrw", NULL};
const char *const cb_blk_random_ops[] = {"randread", "randwrite", "randrw", NULL};
const char *const cb_blk_write_ops[] = {"write", "randwrite", "rw", "randrw", NULL};
const char *const cb_blk_read_ops[] = {"read", "randread", "rw", "randrw", NULL};

enum cb_blk_op cb_blk_op_of(const char *op)
{
	int i = 0;
	while (cb_blk_ops[i] && strcmp(cb_blk_ops[i], op) != 0)
		i++;
	return cb_blk_ops[i] ? (enum cb_blk_op)(i + 1) : CB_BLK_PREFILL;
}

size_t cb_blk_steps(bool prefill, bool create_only, int fill_id, struct cb_step *out)
{
	if (!prefill && !create_only)
		return 1;
	out[0] = (struct cb_step){
	    .suffix = CB_STEP_PREFILL, .op = CB_STEP_PREFILL, .id = fill_id, .own_limits = true};
	out[1] = (struct cb_step){.suffix = NULL};
	return create_only ? 1 : 2;
}
