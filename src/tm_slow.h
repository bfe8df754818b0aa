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

/* The median of v[0..n) (sorts v); n > 0. */
double cb_slow_median(double *v, size_t n);

#endif
