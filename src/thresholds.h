/* A workload's acceptance thresholds as its profile gives them (the
 * `expect:` mapping): data only. The workload carries them (engine.h), so
 * the layer contract sees them, but not their judging against a report row
 * (expect.h), which is the report's concern. */
#ifndef CB_THRESHOLDS_H
#define CB_THRESHOLDS_H

#include <stdint.h>

enum cb_expect_metric {
	CB_EXPECT_MIN_IOPS,
	CB_EXPECT_MIN_BW,
	CB_EXPECT_MAX_MEAN_LATENCY,
	CB_EXPECT_MAX_P99,
	CB_EXPECT_MAX_P999,
	CB_EXPECT_MAX_ERRORS,
	CB_EXPECT_MAX_SLOW_OSDS, /* telemetry's slow OSD finder (tm_osd.h) */
	CB_EXPECT_MIN_CAPACITY,	 /* a capacity search's finding (search.h) */
	CB_EXPECT_NMETRICS
};

struct cb_expect {
	uint64_t v[CB_EXPECT_NMETRICS]; /* ops/s, bytes/s, ns, ns, ns, errors, OSDs, ops/s */
	unsigned set;			/* bit m: metric m was given */
};

#endif
