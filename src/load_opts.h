/* How a workload's load is applied, as its profile gives it: an open-loop
 * rate (rate.h), a stop rule at steady state (steady.h), a search for the
 * highest rate under a latency target (search.h), and membership of a
 * group run together (group.h). Data only, like thresholds.h: the workload
 * carries them (engine.h), the subsystems give them meaning. */
#ifndef CB_LOAD_OPTS_H
#define CB_LOAD_OPTS_H

#include <stdbool.h>
#include <stdint.h>

/* `rate:` ops/s for the whole workload (its clients split it), or a
 * bandwidth; the plan settles a bandwidth into ops by the block size, so
 * ops is what the runner schedules. Both 0: closed loop. */
struct cb_rate {
	uint64_t ops;	/* ops/s */
	uint64_t bytes; /* bytes/s as written, 0 when given in ops */
};

enum cb_arrival { CB_ARRIVAL_UNIFORM, CB_ARRIVAL_POISSON };

/* role: what a group member's row is: measured (judged, in the breakdown)
 * or load beside the measured ones (neither). */
enum cb_role { CB_ROLE_MEASURE, CB_ROLE_LOAD };

enum cb_steady_metric { CB_STEADY_OFF, CB_STEADY_IOPS, CB_STEADY_BW, CB_STEADY_P99 };

/* `steady:` end the phase once the metric over the last window seconds
 * stays within `within` of its mean, or at max. */
struct cb_steady {
	int metric; /* enum cb_steady_metric */
	uint64_t window_ns;
	uint64_t within_ppm; /* parts per million of the window's mean */
	uint64_t max_ns;
};

/* `search:` the highest rate whose percentile stays at or under its target
 * (one of p99, p999, mean given; 0: not given), found by stepping from
 * `rate` and bisecting, within steps phases, to within error. */
struct cb_search {
	uint64_t p99_ns, p999_ns, mean_ns;
	uint64_t steps;
	uint64_t error_ppm;
};

/* The search's target, ns (the first given of p99, p999, mean); 0: none. */
static inline uint64_t cb_search_target_ns(const struct cb_search *s)
{
	return s->p99_ns ? s->p99_ns : s->p999_ns ? s->p999_ns : s->mean_ns;
}

/* Whether a search was asked for: a target given. */
static inline bool cb_search_given(const struct cb_search *s)
{
	return cb_search_target_ns(s) != 0;
}

#endif
