/* The checks of how a workload's load is applied (rate, steady, search),
 * one call for the plan (profile_item.c). */
#ifndef CB_LOAD_CHECK_H
#define CB_LOAD_CHECK_H

#include <stddef.h>

struct cb_workload;

/* 0, or -EINVAL with the reason in why. */
int cb_load_check(const struct cb_workload *wl, char *why, size_t n);

#endif
