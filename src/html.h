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

/* A page to write: what it draws (kind "run": data {"record": R}), its
 * title, and Chart.js, read by cb_html_open so that writing it can fail
 * only as a write does. */
struct cb_html {
	const char *kind;
	const char *title;
	const json_t *data; /* borrowed; its members go into the page beside "kind" */
	char *chartjs;	    /* owned */
	size_t chartjs_len;
};

/* Read Chart.js into h. 0, or -errno with e set naming the package. */
int cb_html_open(struct cb_html *h, struct cb_err *e);

/* The JSON text json written to f for a <script> element, with '<', '>',
 * '&', U+2028 and U+2029 as \u003c-style escapes: it reads back the same
 * through JSON.parse, and no string in it can end the element ("</script>")
 * or put the HTML parser in the script's escaped states ("<!--<script>"),
 * which would swallow the page's scripts after it. */
void cb_html_put_json(FILE *f, const char *json);

/* Write the page (arg: a struct cb_html opened) to f, as cb_out_write's
 * render. 0, -ENOMEM or -EIO. */
int cb_html_render(FILE *f, const void *arg);

void cb_html_close(struct cb_html *h);

struct cb_out;
/* A page a command was asked for (--html path): the target looked at
 * (outfile.h) and Chart.js read into page, before the command does any
 * work. 0, or -errno with e set (one line, exit 2) and nothing held. */
int cb_html_target(const char *path, struct cb_out **out, struct cb_html *page, struct cb_err *e);

/* The page of one run's record rec, titled title, written whole to o
 * with page (opened) as the run kind. 0, or -errno with e set. */
int cb_html_run_write(struct cb_out *o, struct cb_html *page, const json_t *rec, const char *title,
		      struct cb_err *e);

/* The same, Chart.js read here: a run's --html at its end. */
int cb_html_run_page(struct cb_out *o, const json_t *rec, const char *title, struct cb_err *e);

#endif
