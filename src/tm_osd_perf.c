/* Perf-dump parsing and deltas (tm_osd_perf.h). */
#include "tm_osd_perf.h"

#include <errno.h>

const char *const cb_osd_lat_names[CB_OSD_NLAT] = {
    [CB_OSD_LAT_OP] = "op_latency",
    [CB_OSD_LAT_R] = "op_r_latency",
    [CB_OSD_LAT_W] = "op_w_latency",
    [CB_OSD_LAT_RW] = "op_rw_latency",
    [CB_OSD_LAT_W_PROCESS] = "op_w_process_latency",
    [CB_OSD_LAT_BEFORE_QUEUE] = "op_before_queue_op_lat",
    [CB_OSD_LAT_SUBOP_W] = "subop_w_latency",
};

static int get_u64(const json_t *sec, const char *key, uint64_t *v)
{
	const json_t *j = json_object_get(sec, key);
	if (!json_is_integer(j) || json_integer_value(j) < 0)
		return -EBADMSG;
	*v = (uint64_t)json_integer_value(j);
	return 0;
}

/* {"avgcount": N, "sum": seconds, "avgtime": ...} */
static int get_lat(const json_t *sec, const char *key, struct cb_perf_lat *l)
{
	const json_t *j = json_object_get(sec, key);
	const json_t *s = json_object_get(j, "sum");
	if (!json_is_number(s) || get_u64(j, "avgcount", &l->count) < 0)
		return -EBADMSG;
	l->sum_s = json_number_value(s);
	return 0;
}

int cb_osd_perf_parse(const json_t *dump, struct cb_osd_perf *out)
{
	const json_t *o = json_object_get(dump, "osd");
	int r = 0;
	*out = (struct cb_osd_perf){0};
	if (!json_is_object(o))
		return -EBADMSG;
	r |= get_u64(o, "op", &out->op);
	r |= get_u64(o, "op_r", &out->op_r);
	r |= get_u64(o, "op_w", &out->op_w);
	r |= get_u64(o, "op_rw", &out->op_rw);
	r |= get_u64(o, "op_in_bytes", &out->in_bytes);
	r |= get_u64(o, "op_out_bytes", &out->out_bytes);
	for (int i = 0; i < CB_OSD_NLAT; i++)
		r |= get_lat(o, cb_osd_lat_names[i], &out->lat[i]);
	return r ? -EBADMSG : 0;
}

static int sub_u64(uint64_t a, uint64_t b, uint64_t *out)
{
	if (b < a)
		return -ERANGE;
	*out = b - a;
	return 0;
}

static int sub_lat(const struct cb_perf_lat *a, const struct cb_perf_lat *b,
		   struct cb_perf_lat *out)
{
	if (b->count < a->count || b->sum_s < a->sum_s)
		return -ERANGE;
	out->count = b->count - a->count;
	out->sum_s = b->sum_s - a->sum_s;
	return 0;
}

int cb_osd_perf_delta(const struct cb_osd_perf *a, const struct cb_osd_perf *b,
		      struct cb_osd_perf *out)
{
	int r = 0;
	r |= sub_u64(a->op, b->op, &out->op);
	r |= sub_u64(a->op_r, b->op_r, &out->op_r);
	r |= sub_u64(a->op_w, b->op_w, &out->op_w);
	r |= sub_u64(a->op_rw, b->op_rw, &out->op_rw);
	r |= sub_u64(a->in_bytes, b->in_bytes, &out->in_bytes);
	r |= sub_u64(a->out_bytes, b->out_bytes, &out->out_bytes);
	for (int i = 0; i < CB_OSD_NLAT; i++)
		r |= sub_lat(&a->lat[i], &b->lat[i], &out->lat[i]);
	return r ? -ERANGE : 0;
}

static void add_lat(struct cb_perf_lat *d, const struct cb_perf_lat *s)
{
	d->count += s->count;
	d->sum_s += s->sum_s;
}

void cb_osd_perf_add(struct cb_osd_perf *dst, const struct cb_osd_perf *src)
{
	dst->op += src->op;
	dst->op_r += src->op_r;
	dst->op_w += src->op_w;
	dst->op_rw += src->op_rw;
	dst->in_bytes += src->in_bytes;
	dst->out_bytes += src->out_bytes;
	for (int i = 0; i < CB_OSD_NLAT; i++)
		add_lat(&dst->lat[i], &src->lat[i]);
}

int cb_mds_perf_parse(const json_t *dump, struct cb_mds_perf *out)
{
	const json_t *m = json_object_get(dump, "mds");
	const json_t *s = json_object_get(dump, "mds_server");
	int r = 0;
	*out = (struct cb_mds_perf){0};
	r |= get_u64(m, "request", &out->request);
	r |= get_u64(m, "reply", &out->reply);
	r |= get_lat(m, "reply_latency", &out->reply_latency);
	r |= get_u64(s, "handle_client_request", &out->handle_client_request);
	return r ? -EBADMSG : 0;
}

int cb_mds_perf_delta(const struct cb_mds_perf *a, const struct cb_mds_perf *b,
		      struct cb_mds_perf *out)
{
	int r = 0;
	r |= sub_u64(a->request, b->request, &out->request);
	r |= sub_u64(a->reply, b->reply, &out->reply);
	r |= sub_u64(a->handle_client_request, b->handle_client_request,
		     &out->handle_client_request);
	r |= sub_lat(&a->reply_latency, &b->reply_latency, &out->reply_latency);
	return r ? -ERANGE : 0;
}

void cb_mds_perf_add(struct cb_mds_perf *dst, const struct cb_mds_perf *src)
{
	dst->request += src->request;
	dst->reply += src->reply;
	dst->handle_client_request += src->handle_client_request;
	add_lat(&dst->reply_latency, &src->reply_latency);
}

double cb_perf_lat_ms(const struct cb_perf_lat *l)
{
	return l->count ? l->sum_s * 1e3 / (double)l->count : -1;
}

struct cb_perf_lat cb_perf_lat_sum(const struct cb_perf_lat *a, const struct cb_perf_lat *b)
{
	return (struct cb_perf_lat){a->count + b->count, a->sum_s + b->sum_s};
}
