/* The runner's clock: monotonic nanoseconds. */
#ifndef CB_CLOCK_H
#define CB_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t cb_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* The same clock in seconds, for waits and offsets that are printed. */
static inline double cb_now_s(void)
{
	return (double)cb_now_ns() / 1e9;
}

#endif
