/* A latency histogram as the record holds it: its summary and its sparse
 * buckets with their layout, so that records merge losslessly. Beside
 * hist.h so that whatever writes a histogram needs no report. */
#ifndef CB_HIST_JSON_H
#define CB_HIST_JSON_H

#include "hist.h"

#include <jansson.h>

/* A histogram's summary (min, mean, max, stddev, p50 ... p99.99 in us) and
 * its sparse buckets ([bucket index, count] pairs), as the record holds
 * them. The caller owns the result; NULL on ENOMEM. */
json_t *cb_latency_json(const struct cb_hist *h);
json_t *cb_histogram_json(const struct cb_hist *h);

#endif
