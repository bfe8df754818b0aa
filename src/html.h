/* The self-contained HTML page (docs/result.md#the-html-page): the data as
 * JSON, Chart.js from Debian's libjs-chart.js and the page's own script
 * and style, all inlined, so it opens with no network. */
#ifndef CB_HTML_H
#define CB_HTML_H

#include "err.h"

#include <jansson.h>
#include <stdio.h>

/* Where libjs-chart.js puts the library the page inlines. */
#define CB_HTML_CHARTJS "/usr/share/javascript/chart.js/chart.min.js"

/* What the page draws: "run" (data: {"record": R}), "compare" or
 * "history"; data's members go into the page beside "kind". */
struct cb_html {
	const char *kind;
	const char *title;
	const json_t *data;
};

/* Write the page to f. 0, or -errno with e set: Chart.js missing names its
 * package; a write error names nothing (the caller's file does). */
int cb_html_write(FILE *f, const struct cb_html *h, struct cb_err *e);

#endif
