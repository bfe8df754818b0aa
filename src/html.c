/* The page as one file: style, data, Chart.js and the page's script in
 * that order, so the data is parsed before the script that draws it. */
#include "html.h"

#include <errno.h>
#include <string.h>

extern const char cb_html_page_js[];
extern const char cb_html_page_css[];

/* Text that goes inside an element: <, > and & as entities. */
static void put_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else
			fputc(*s, f);
	}
}

/* Chart.js is read at render time, from the package, not copied into the
 * binary: Debian's security updates of it reach the next page. */
static int put_chartjs(FILE *f, struct cb_err *e)
{
	FILE *js = fopen(CB_HTML_CHARTJS, "r");
	if (!js)
		return cb_err_set(e, CB_EXIT_USAGE, -errno,
				  "cannot read %s (%s): the HTML page needs Chart.js; install "
				  "Debian's package libjs-chart.js",
				  CB_HTML_CHARTJS, strerror(errno));
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), js)) > 0)
		fwrite(buf, 1, n, f);
	int r = ferror(js) ? -EIO : 0;
	fclose(js);
	if (r < 0)
		return cb_err_set(e, CB_EXIT_USAGE, r, "cannot read %s", CB_HTML_CHARTJS);
	return 0;
}

int cb_html_write(FILE *f, const struct cb_html *h, struct cb_err *e)
{
	json_t *doc = json_deep_copy(h->data);
	if (!doc || json_object_set_new(doc, "kind", json_string(h->kind)) < 0) {
		json_decref(doc);
		return cb_err_set(e, CB_EXIT_USAGE, -ENOMEM, "out of memory");
	}
	/* JSON_ESCAPE_SLASH: no "</script>" can end the data early */
	char *text = json_dumps(doc, JSON_COMPACT | JSON_ESCAPE_SLASH);
	json_decref(doc);
	if (!text)
		return cb_err_set(e, CB_EXIT_USAGE, -ENOMEM, "out of memory");
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>", f);
	put_escaped(f, h->title);
	fprintf(f, "</title>\n<style>\n%s</style>\n", cb_html_page_css);
	fputs("<script type=\"application/json\" id=\"cb-data\">", f);
	fputs(text, f);
	free(text);
	fputs("</script>\n<script>\n", f);
	int r = put_chartjs(f, e);
	if (r < 0)
		return r;
	fprintf(f,
		"</script>\n</head><body><div id=\"cb-root\"></div>\n<script>\n%s</script>\n"
		"</body></html>\n",
		cb_html_page_js);
	return ferror(f) ? -EIO : 0;
}
