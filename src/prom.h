/* --prom FILE: the run's figures in the Prometheus text exposition format,
 * for node_exporter's textfile collector. */
#ifndef CB_PROM_H
#define CB_PROM_H

#include "err.h"

#include <jansson.h>
#include <stdio.h>

/* Render rec (a checked record, maybe with "regression" annotations) as
 * metric families. 0 or -EIO. */
int cb_prom_render(FILE *out, const json_t *rec);

/* Write it to path through a temporary file in the same directory, renamed
 * over path: a scrape never reads half a file. 0 or -errno with e set. */
int cb_prom_write(const char *path, const json_t *rec, struct cb_err *e);

#endif
