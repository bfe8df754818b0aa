/* The page as one file: style, data, Chart.js and the page's script in
 * that order, so the data is parsed before the script that draws it. */
#include "html.h"
#include "outfile.h"

#include <errno.h>
#include <stdlib.h>
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
int cb_html_open(struct cb_html *h, struct cb_err *e)
{
	FILE *js = fopen(CB_HTML_CHARTJS, "r");
	if (!js)
		return cb_err_set(e, CB_EXIT_USAGE, -errno,
				  "cannot read %s (%s): the HTML page needs Chart.js; install "
				  "Debian's package libjs-chart.js",
				  CB_HTML_CHARTJS, strerror(errno));
	FILE *mem = open_memstream(&h->chartjs, &h->chartjs_len);
	char buf[65536];
	size_t n;
	while (mem && (n = fread(buf, 1, sizeof(buf), js)) > 0)
		fwrite(buf, 1, n, mem);
	int r = !mem ? -ENOMEM : ferror(js) ? -EIO : 0;
	fclose(js);
	if (mem && fclose(mem) != 0 && r == 0)
		r = -ENOMEM;
	if (r < 0) {
		cb_html_close(h);
		return cb_err_set(e, CB_EXIT_USAGE, r, "cannot read %s: %s", CB_HTML_CHARTJS,
				  strerror(-r));
	}
	return 0;
}

void cb_html_put_json(FILE *f, const char *json)
{
	for (const unsigned char *p = (const unsigned char *)json; *p; p++) {
		/* these bytes occur only inside JSON strings, where \uXXXX means
		 * the same character to JSON.parse; outside a string JSON has no
		 * '<', '>', '&' or non-ASCII byte at all */
		if (*p == '<')
			fputs("\\u003c", f);
		else if (*p == '>')
			fputs("\\u003e", f);
		else if (*p == '&')
			fputs("\\u0026", f);
		else if (p[0] == 0xe2 && p[1] == 0x80 && (p[2] == 0xa8 || p[2] == 0xa9)) {
			/* U+2028 and U+2029: line ends to a JavaScript parser older
			 * than ES2019, should the data ever be read as script */
			fputs(p[2] == 0xa8 ? "\\u2028" : "\\u2029", f);
			p += 2;
		} else
			fputc(*p, f);
	}
}

int cb_html_render(FILE *f, const void *arg)
{
	const struct cb_html *h = arg;
	/* a shallow copy: "kind" beside the data's members, the record not copied */
	json_t *doc = json_copy((json_t *)h->data);
	if (!doc || json_object_set_new(doc, "kind", json_string(h->kind)) < 0) {
		json_decref(doc);
		return -ENOMEM;
	}
	char *text = json_dumps(doc, JSON_COMPACT);
	json_decref(doc);
	if (!text)
		return -ENOMEM;
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>", f);
	put_escaped(f, h->title);
	fprintf(f, "</title>\n<style>\n%s</style>\n", cb_html_page_css);
	fputs("<script type=\"application/json\" id=\"cb-data\">", f);
	cb_html_put_json(f, text);
	free(text);
	fputs("</script>\n<script>\n", f);
	fwrite(h->chartjs, 1, h->chartjs_len, f);
	fprintf(f,
		"</script>\n</head><body><div id=\"cb-root\"></div>\n<script>\n%s</script>\n"
		"</body></html>\n",
		cb_html_page_js);
	return ferror(f) ? -EIO : 0;
}

void cb_html_close(struct cb_html *h)
{
	free(h->chartjs);
	h->chartjs = NULL;
	h->chartjs_len = 0;
}

int cb_html_target(const char *path, struct cb_out **out, struct cb_html *page, struct cb_err *e)
{
	char what[4200];
	snprintf(what, sizeof(what), "--html %s", path);
	if (cb_out_open(what, path, CB_OUT_REPORT, out, e) < 0)
		return -EINVAL;
	if (cb_html_open(page, e) < 0) {
		cb_out_close(*out);
		*out = NULL;
		return -EINVAL;
	}
	return 0;
}

int cb_html_run_write(struct cb_out *o, struct cb_html *page, const json_t *rec, const char *title,
		      struct cb_err *e)
{
	json_t *data = json_pack("{s:O}", "record", (json_t *)rec);
	if (!data)
		return cb_err_usage(e, "out of memory");
	page->kind = "run";
	page->title = title ? title : "cephbench";
	page->data = data;
	int r = cb_out_write(o, cb_html_render, page, e);
	page->data = NULL;
	json_decref(data);
	return r;
}

int cb_html_run_page(struct cb_out *o, const json_t *rec, const char *title, struct cb_err *e)
{
	struct cb_html page = {0};
	int r = cb_html_open(&page, e);
	if (r == 0)
		r = cb_html_run_write(o, &page, rec, title, e);
	cb_html_close(&page);
	return r;
}
