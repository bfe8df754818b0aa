/* The block layers' shared checks (see blk_check.h). */
#include "blk_check.h"
#include "units.h"

#include <errno.h>
#include <stdio.h>

int cb_blk_check_clients(const struct cb_workload *wl, const struct cb_blk_target *t, char *why,
			 size_t n)
{
	if (t->given && wl->clients > 1 && t->writes) {
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

int cb_blk_check_verify_bs(uint64_t bs, char *why, size_t n)
{
	if (bs % sizeof(uint64_t) == 0)
		return 0;
	snprintf(why, n, "verify needs a block_size that is a multiple of 8");
	return -EINVAL;
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
