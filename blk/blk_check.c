/* The block layers' shared checks (see blk_check.h). */
#include "blk_check.h"
#include "blk_ops.h"
#include "units.h"

#include <errno.h>
#include <stdio.h>

int cb_blk_check_verify(const struct cb_workload *wl, const struct cb_blk_target *t, char *why,
			size_t n)
{
	if (!t->verify)
		return 0;
	if (!cb_blk_op_reads(cb_blk_op_of(wl->op), t->mix)) {
		snprintf(why, n,
			 "verify checks reads against the prefill pattern: use it with op read, "
			 "randread, or rw or randrw with rw_mix_read above 0");
		return -EINVAL;
	}
	if (t->create_only) {
		snprintf(why, n, "verify and create_only: create_only makes only the prefill row");
		return -EINVAL;
	}
	/* a distribution's sizes are all multiples of its alignment */
	uint64_t bs = cb_sizes_varies(&wl->sizes) ? wl->block_align : wl->block_size;
	if (bs % sizeof(uint64_t)) {
		snprintf(why, n, "verify needs a block_size that is a multiple of 8");
		return -EINVAL;
	}
	if (!t->prefill && !t->marks_pattern) {
		snprintf(why, n,
			 "verify needs prefill: true (only the prefill pattern can be checked)");
		return -EINVAL;
	}
	return 0;
}

int cb_blk_check_clients(const struct cb_workload *wl, const struct cb_blk_target *t, char *why,
			 size_t n)
{
	bool writes =
	    cb_blk_workload_writes(t->prefill || t->create_only, cb_blk_op_of(wl->op), t->mix);
	if (t->given && wl->clients > 1 && writes) {
		snprintf(why, n,
			 "clients: %llu would write %s '%s' together (prefill or op %s): %s",
			 (unsigned long long)wl->clients, t->noun, t->given, wl->op, t->shared);
		return -EINVAL;
	}
	if (!t->given && wl->clients * t->images > CB_BLK_MAX_IMAGES) {
		snprintf(why, n, "clients: %llu x images: %llu is %llu images, at most %d",
			 (unsigned long long)wl->clients, (unsigned long long)t->images,
			 (unsigned long long)(wl->clients * t->images), CB_BLK_MAX_IMAGES);
		return -EINVAL;
	}
	return 0;
}

int cb_blk_check_fits(uint64_t bs, uint64_t image_size, char *why, size_t n)
{
	char a[32], b[32];
	if (bs <= image_size)
		return 0;
	snprintf(why, n, "block_size %s is larger than image_size %s",
		 cb_format_size(bs, a, sizeof(a)), cb_format_size(image_size, b, sizeof(b)));
	return -EINVAL;
}
