/* JSON from Ceph whose integers may not fit jansson's: its counters are
 * unsigned 64-bit, and a gauge that went below zero reads near 2^64 (Reef's
 * numpg_stray on a memstore OSD: 18446744073709551608), which jansson
 * refuses, and with it the whole reply. */
#ifndef CB_JSON_WIDE_H
#define CB_JSON_WIDE_H

#include <jansson.h>
#include <stddef.h>

/* json_loadb(buf, len, flags), but an integer past INT64_MAX is read as a
 * real (and every other integer stays an integer). A new reference, or
 * NULL with je set when je is not NULL. */
json_t *cb_json_loadb_wide(const char *buf, size_t len, size_t flags, json_error_t *je);

#endif
