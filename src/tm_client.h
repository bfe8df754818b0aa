/* Telemetry's client part (telemetry.h): what the benchmark itself cost over the measured window:
 * CPU, context switches, peak RSS, per thread. */
#ifndef CB_TM_CLIENT_H
#define CB_TM_CLIENT_H

#include "tm_core.h"

/* At each of the phase's marks; *x is made at the first one it needs. */
void cb_tm_client_mark(struct cb_tm_client **x, enum cb_mark m, const struct cb_tm_phase *tp);
/* dst += src, a later run of the same step. 0 or -ENOMEM. */
int cb_tm_client_merge(struct cb_tm_client *dst, const struct cb_tm_client *src);
/* Its keys into the phase's JSON object; x NULL: it measured nothing. host:
 * the row's host part (NULL: none), whose CPU figures judge client_bound. */
void cb_tm_client_json(const struct cb_tm_client *x, const struct cb_tm_host *host,
		       const struct cb_phase_result *pr, json_t *phase);
/* Its lines under the phase's row in the text report, from its section
 * of the row's record (row); none when the section is absent. */
void cb_tm_client_text(const json_t *row, FILE *out);
void cb_tm_client_free(struct cb_tm_client *x);

/* Whether a row's figures are the client's limit, not the cluster's: over
 * its window the host had under 10 % of its CPU left (idle + iowait; the
 * host part's figures, else the client part's own /proc/stat reads), or one
 * thread of the client ran at 90 % of a core or more. The reason, a phrase,
 * into why. x (a row's tm->client) may be NULL (false); host may be NULL. */
bool cb_tm_client_bound(const struct cb_tm_client *x, const struct cb_tm_host *host, char *why,
			size_t n);

#endif
