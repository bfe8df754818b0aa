/* The slow OSD finder: a pure function of each OSD's mean latency over a
 * phase, so it is unit-tested without a cluster (tm_osd.c feeds it). */
#ifndef CB_TM_SLOW_H
#define CB_TM_SLOW_H

#include <stddef.h>
#include <stdint.h>

/* Slow: a mean above both this times the median of its peers ... */
#define CB_SLOW_RATIO 2.0
/* ... and this floor, so a fast cluster's noise (0.3 ms against 0.1 ms)
 * names nobody. */
#define CB_SLOW_FLOOR_MS 1.0
/* An OSD that timed fewer ops of the kind has no mean worth judging (a
 * watch ping, a header read): it is neither judged nor anyone's peer. */
#define CB_SLOW_MIN_OPS 10

/* Slow throughout, not in one stall: the phase is cut into intervals of
 * CB_SLOW_INTERVAL_S (telemetry's osd part reads the counters at each
 * cut), each judged as the whole phase is, and an OSD is named only when
 * it was judged in CB_SLOW_MIN_INTERVALS of them and found slow in more
 * than half. A host stall (an OSD's process not run for a few hundred ms
 * on a loaded host) holds every op it has in flight, and one stall's
 * seconds of latency, over a short phase's few thousand ops, lift a mean
 * past twice its peers'; it spans one interval or two, a slow OSD all. */
#define CB_SLOW_INTERVAL_S    0.5
#define CB_SLOW_MIN_INTERVALS 3
/* An interval is judged on fewer ops than a phase (an OSD's replica
 * writes at 8 in flight through a 10 ms delay were 3 a half second); its
 * noise is what the majority of intervals is there for. */
#define CB_SLOW_MIN_INTERVAL_OPS 3

/* One OSD's figure of one kind of op (reads, writes) over a phase. */
struct cb_slow_in {
	int osd;
	uint64_t ops; /* how many were timed */
	double mean_ms;
};

struct cb_slow {
	int osd;
	double mean_ms;
	double median_ms; /* of its peers */
	double ratio;	  /* mean_ms / median_ms */
	unsigned peers;	  /* the OSDs the median is of, not counting itself */
};

/* The slow OSDs among in[0..n), in input order, into out (room for n).
 * Only OSDs that timed CB_SLOW_MIN_OPS count; an OSD's peers are the
 * others that count. With no peer (one OSD served the phase) nobody is
 * slow; with one, each is compared with the other. Returns how many, or
 * -ENOMEM. */
int cb_slow_find(const struct cb_slow_in *in, size_t n, struct cb_slow *out);

/* Whether an OSD judged in `judged` intervals and found slow in `slow` of
 * them was slow throughout (the rule above). */
static inline int cb_slow_steady(unsigned judged, unsigned slow)
{
	return judged >= CB_SLOW_MIN_INTERVALS && 2 * slow > judged;
}

/* One interval of one kind of op judged as a phase is, but with
 * CB_SLOW_MIN_INTERVAL_OPS for an OSD to count: judged[i] counts each in[i]
 * that counts and has a peer that does, slow[i] each named.
 * 0 or -ENOMEM. */
int cb_slow_tally(const struct cb_slow_in *in, size_t n, unsigned *judged, unsigned *slow);

/* Whether in counts: enough ops timed to be judged (or be a peer). */
int cb_slow_counts(const struct cb_slow_in *in);

/* The median of v[0..n) (sorts v); n > 0. */
double cb_slow_median(double *v, size_t n);

#endif
