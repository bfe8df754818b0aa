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

/* The absolute CLOCK_MONOTONIC time ns from now, for
 * pthread_cond_timedwait on a condition set to that clock. */
static inline struct timespec cb_monotonic_after(uint64_t ns)
{
	uint64_t at = cb_now_ns() + ns;
	return (struct timespec){.tv_sec = (time_t)(at / 1000000000ULL),
				 .tv_nsec = (long)(at % 1000000000ULL)};
}

#endif
