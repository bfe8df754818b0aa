/* A run's findings: the few lines of its record that deserve the
 * operator's attention (a failed row, a failed expectation, a rate target
 * missed, a disturbed phase, a slow OSD, counts that disagree unexplained,
 * a client-bound row, a row the client's cache served), computed once from
 * the record and kept in it as "findings", so the text report, `cephbench
 * report` and the HTML page show the same lines. */
#ifndef CB_FINDINGS_H
#define CB_FINDINGS_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

/* The text report shows at most this many lines of findings; past it, the
 * most important ones and a line saying how many more. */
#define CB_FINDINGS_SHOWN 10

/* The findings of record rec: an array of strings, each one line naming
 * its phase ("w: client-bound: ..."), the most important kind first, in
 * phase order within a kind; empty when nothing needs attention. The
 * caller owns it. NULL on ENOMEM. */
json_t *cb_findings_json(const json_t *rec);

/* Set rec's "findings" to cb_findings_json(rec). 0 or -ENOMEM. */
int cb_findings_record(json_t *rec);

/* The text report's findings block: rec's "findings" (computed here for a
 * record written before they were: an older one, a merge), at most
 * CB_FINDINGS_SHOWN lines unless all. */
void cb_findings_text(FILE *out, const json_t *rec, bool all);

#endif
