/* Telemetry's frame: the run's parts opened and closed, a phase's marks
 * handed to each part in the order that keeps them out of each other's
 * figures, rows merged, rendered and freed part by part. */
#include "telemetry.h"
#include "result.h"
#include "tm_client.h"
#include "tm_host.h"
#include "tm_osd.h"
#include "tm_state.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int cb_tm_open(const struct cb_tm_opts *o, struct cb_conn *conn, struct cb_tm **out)
{
	struct cb_tm *tm = calloc(1, sizeof(*tm));
	if (!tm)
		return -ENOMEM;
	tm->o = *o;
	pthread_mutex_init(&tm->notes_mu, NULL);
	pthread_mutex_init(&tm->mon_mu, NULL);
	tm->o.cluster = o->cluster && conn;
	tm->conn = tm->o.cluster ? conn : NULL;
	int r = tm->o.cluster ? cb_tm_state_open(tm) : 0;
	if (r == 0 && tm->o.cluster)
		r = cb_tm_osd_open(tm);
	if (r < 0) {
		cb_tm_close(tm);
		return r;
	}
	*out = tm;
	return 0;
}

void cb_tm_close(struct cb_tm *tm)
{
	if (!tm)
		return;
	if (tm->o.cluster) {
		cb_tm_osd_close(tm);
		cb_tm_state_close(tm);
	}
	pthread_mutex_destroy(&tm->notes_mu);
	pthread_mutex_destroy(&tm->mon_mu);
	free(tm);
}

int cb_tm_phase_begin(struct cb_tm *tm, const struct cb_phase *ph, const struct cb_engine *eng,
		      struct cb_tm_phase *tp, struct cb_runner_opts *ro)
{
	*tp = (struct cb_tm_phase){.tm = tm, .ph = ph, .eng = eng};
	if (!tm)
		return 0;
	if (!(tp->got = calloc(1, sizeof(*tp->got))))
		return -ENOMEM;
	ro->mark = cb_tm_mark;
	ro->mark_arg = tp;
	return 0;
}

void cb_tm_mark(void *arg, enum cb_mark m)
{
	struct cb_tm_phase *tp = arg;
	struct cb_phase_tm *g = tp->got;
	struct cb_tm_opts *o = &tp->tm->o;
	/* The slow parts (cluster commands) outside the client's window, the
	 * client's own figures nearest to it: at START the cluster first, at
	 * END the client first. */
	if (m == CB_MARK_END)
		cb_tm_client_mark(&g->client, m, tp);
	if (o->host)
		cb_tm_host_mark(&g->host, m, tp);
	if (o->cluster) {
		cb_tm_osd_mark(&g->osd, m, tp);
		cb_tm_state_mark(&g->state, m, tp);
	}
	if (m != CB_MARK_END)
		cb_tm_client_mark(&g->client, m, tp);
}

struct cb_phase_tm *cb_tm_phase_end(struct cb_tm_phase *tp)
{
	struct cb_phase_tm *g = tp->got;
	tp->got = NULL;
	if (g && !g->client && !g->host && !g->osd && !g->state) {
		free(g);
		g = NULL;
	}
	return g;
}

/* dst += src for one part: src's taken whole when dst has none. */
#define MERGE_PART(part, d, s)                                                                     \
	do {                                                                                       \
		if ((s)->part && !(d)->part) {                                                     \
			(d)->part = (s)->part;                                                     \
			(s)->part = NULL;                                                          \
		} else if ((s)->part && cb_tm_##part##_merge((d)->part, (s)->part) < 0) {          \
			r = -ENOMEM;                                                               \
		}                                                                                  \
	} while (0)

int cb_tm_merge(struct cb_phase_tm **dst, struct cb_phase_tm *src)
{
	int r = 0;
	if (!src)
		return 0;
	if (!*dst) {
		*dst = src;
		return 0;
	}
	MERGE_PART(client, *dst, src);
	MERGE_PART(host, *dst, src);
	MERGE_PART(osd, *dst, src);
	MERGE_PART(state, *dst, src);
	cb_phase_tm_free(src);
	return r;
}

void cb_tm_json(const struct cb_phase_result *pr, json_t *phase)
{
	const struct cb_phase_tm *t = pr->tm;
	if (!t)
		return;
	cb_tm_client_json(t->client, t->host, pr, phase);
	cb_tm_host_json(t->host, pr, phase);
	cb_tm_osd_json(t->osd, pr, phase);
	cb_tm_state_json(t->state, pr, phase);
}

void cb_tm_text(const json_t *row, FILE *out)
{
	cb_tm_client_text(row, out);
	cb_tm_host_text(row, out);
	cb_tm_osd_text(row, out);
	cb_tm_state_text(row, out);
}

void cb_phase_tm_free(struct cb_phase_tm *t)
{
	if (!t)
		return;
	cb_tm_client_free(t->client);
	cb_tm_host_free(t->host);
	cb_tm_osd_free(t->osd);
	cb_tm_state_free(t->state);
	free(t);
}
