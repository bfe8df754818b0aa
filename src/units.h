/* Parsing and printing of the units profiles and flags use: binary sizes
 * (4K, 1M, 2G, 1T) and durations (500ms, 30s, 5m, 1h). */
#ifndef CB_UNITS_H
#define CB_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* Parse "4096", "4K", "4k", "4KiB": an integer with an optional binary suffix
 * K M G T, optionally followed by "iB" or "B" (all case-insensitive, so "4kb"
 * is 4096 too); a bare "B" means bytes ("512B"). E.g. "64K" -> 65536.
 * Returns 0, -EINVAL for a malformed string (empty, sign, space, decimal,
 * junk, unknown suffix) or -ERANGE when the value overflows uint64_t. *out is
 * written only on success. */
int cb_parse_size(const char *s, uint64_t *out);

/* Parse a duration into nanoseconds: "10" (seconds), "10s", "250ms", "2m",
 * "1h", "1us"/"1ns" accepted too. Integers only; units are case-sensitive
 * ("1M" and "1S" are errors). Returns 0, -EINVAL or -ERANGE (more than
 * UINT64_MAX ns, about 584 years). *ns is written only on success. */
int cb_parse_duration(const char *s, uint64_t *ns);

/* A percentage, "5%" or "0.25%" (up to 4 decimals), in parts per million.
 * 0, -EINVAL, -ERANGE. */
int cb_parse_percent(const char *s, uint64_t *ppm);

/* A rate: ops per second ("10000", "10000/s") into *ops, or a bandwidth
 * ("200MiB/s", "200M/s": a size per second) into *bytes; the other is 0.
 * A size with a unit but no "/s" is -EINVAL: it is neither. */
int cb_parse_rate(const char *s, uint64_t *ops, uint64_t *bytes);

/* Parse a plain unsigned decimal integer (no sign, no suffix). 0/-EINVAL/-ERANGE. */
int cb_parse_uint(const char *s, uint64_t *out);

/* Print a size the way it is written in profiles: the largest binary suffix
 * that divides it exactly ("4K", "4M", "1536K", "100"). Returns buf. */
char *cb_format_size(uint64_t bytes, char *buf, size_t len);

/* A count with thousands separators: 40112 -> "40,112". Returns buf. */
const char *cb_format_count(uint64_t v, char *buf, size_t n);

/* Print a duration in ns compactly ("10s", "250ms", "1.5s", "5m", "1h"): whole
 * hours or minutes as h/m, otherwise the largest of s/ms/us/ns with up to 3
 * decimals, rounded. For display: output with decimals does not parse back.
 * Truncates to len like snprintf. Returns buf. */
char *cb_format_duration(uint64_t ns, char *buf, size_t len);

/* A value written "NAME" or "NAME:PARAM" (distribution: zipf:1.2, data:
 * compressible:60): the index of NAME in the NULL-terminated list, or -1,
 * and *param the text after the ':' (NULL when there is none). */
int cb_parse_named(const char *s, const char *const *names, const char **param);

#endif
