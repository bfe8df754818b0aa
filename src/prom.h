/* --prom FILE: the run's figures in the Prometheus text exposition format,
 * for node_exporter's textfile collector. */
#ifndef CB_PROM_H
#define CB_PROM_H

#include "err.h"
#include "outfile.h"

#include <jansson.h>
#include <stdio.h>

/* Render rec (a checked record, maybe with "regression" annotations) as
 * metric families. 0 or -EIO. */
int cb_prom_render(FILE *out, const json_t *rec);

/* Write it to the --prom file opened before the run (cb_out_open): a new
 * file renamed into place, so a scrape never reads half a file. 0 or
 * -errno with e set. */
int cb_prom_write(struct cb_out *out, const json_t *rec, struct cb_err *e);

#endif
