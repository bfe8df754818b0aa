/* Telemetry's osd part, rendered: a row's per-OSD deltas summed and held
 * against cephbench's count, the slow OSDs found, into the record's
 * telemetry.cluster and the text report's lines (tm_osd.h). Everything is
 * computed here from the row, so the text, the JSON and expect agree. */
#include "tm_osd.h"
#include "tm_osd_priv.h"
#include "engines.h"
#include "jget.h"
#include "result.h"
#include "tm_mds.h"
#include "tm_slow.h"
#include "units.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Within this much of each other cephbench's and the cluster's counts agree. */
#define AGREE_FRACTION 0.01

/* The phase's figures, computed from the row's deltas alone. */
struct osd_sum {
	uint64_t ops, bytes, reads, writes;
	struct cb_perf_lat lat; /* every client op's */
	uint64_t mine;		/* cephbench's count of what is compared */
	uint64_t theirs;
	const char *compared; /* "ops" or "bytes"; NULL: nothing to compare */
	bool agree;
	double diff; /* (theirs - mine) / mine */
};

/* The row's layer, for how its counts compare (engine->osd_counts_bytes);
 * NULL for a row of no known layer. */
static const struct cb_engine *row_engine(const struct cb_phase_result *pr)
{
	return pr->layer ? cb_engine_find(pr->layer) : NULL;
}

/* By bytes, too, where sizes vary: a large op at an offset near an
 * object's end is two OSD ops (on the sandbox, 4K-64K over 4M objects
 * counted 1.3 % more ops than were sent), the bytes stay the same. */
static bool compares_bytes(const struct cb_phase_result *pr)
{
	const struct cb_engine *eng = row_engine(pr);
	return eng && (eng->osd_counts_bytes || pr->sizes[0]);
}

static void summarize(const struct cb_tm_osd *x, const struct cb_phase_result *pr,
		      struct osd_sum *s)
{
	*s = (struct osd_sum){0};
	for (size_t i = 0; i < x->n; i++) {
		const struct cb_osd_perf *d = &x->rows[i].d;
		s->ops += d->op;
		s->bytes += d->in_bytes + d->out_bytes;
		s->reads += d->op_r;
		s->writes += d->op_w + d->op_rw;
		s->lat = cb_perf_lat_sum(&s->lat, &d->lat[CB_OSD_LAT_OP]);
	}
	/* over ranks the counters span rank 0's marks, the row's ops every
	 * rank's: not the same span, so not compared */
	if (!x->n || pr->nranks > 1)
		return;
	bool bytes = compares_bytes(pr);
	s->mine = bytes ? pr->all_bytes : pr->all_ops;
	s->theirs = bytes ? s->bytes : s->ops;
	/* a metadata phase moves no data: the MDS's counters tell it */
	if (s->mine == 0 && bytes)
		return;
	s->compared = bytes ? "bytes" : "ops";
	s->diff = s->mine ? ((double)s->theirs - (double)s->mine) / (double)s->mine
			  : (s->theirs ? INFINITY : 0);
	s->agree = fabs(s->diff) <= AGREE_FRACTION;
}

/* Ops the OSDs may count beyond a writing phase's own, its layer's
 * (osd_more_why): at most one per write, and these few (an exclusive
 * lock's, an image header's). */
#define MORE_OPS_SLACK 16

/* The known mechanism that explains why s's counts disagree, NULL when
 * they agree or none does (then the operator has something to look at). */
static const char *mismatch_why(const struct osd_sum *s, const struct cb_phase_result *pr)
{
	const struct cb_engine *eng = row_engine(pr);
	if (!s->compared || s->agree || !eng)
		return NULL;
	if (eng->osd_mismatch_why)
		return eng->osd_mismatch_why;
	bool ops = strcmp(s->compared, "ops") == 0;
	if (eng->osd_more_why && ops && pr->write_ops && s->theirs > s->mine &&
	    s->theirs - s->mine <= pr->write_ops + MORE_OPS_SLACK)
		return eng->osd_more_why;
	return NULL;
}

/* One slow OSD as the row names it. */
struct slow_osd {
	struct cb_slow s;
	const char *op;
	const char *host;
	bool intervals; /* judged, slow: its intervals' figures */
	unsigned judged, slow;
};

/* The row's slow OSDs into *out (the caller frees it); how many, or
 * -ENOMEM. A read phase is judged on op_r_latency. A write phase is judged
 * on the replicas' own write latency (subop_w_latency) when it had
 * replicas: a primary's write latency holds its replicas', so one slow OSD
 * raises every peer writing to it (measured: 10 ms of dispatch delay on
 * osd.1 of 3 made the others' primary writes 13 and 79 ms against its 96),
 * and on the sandbox a primary's few hundred writes drifted to 1.8x its
 * peers' with no fault; a replica's latency is its own alone, and every OSD
 * of a replicated pool is some PGs' replica. Without replicas (size 1) the
 * primaries' write latency (w and rw) is all there is. With its intervals
 * measured, one slow over the phase is named only when it was slow
 * throughout (cb_slow_steady), not in one stall. */
static int find_slow(const struct cb_tm_osd *x, struct slow_osd **out)
{
	size_t m = x->n ? x->n : 1;
	struct cb_slow_in *in = calloc(m, sizeof(*in));
	struct cb_slow *got = calloc(m, sizeof(*got));
	struct slow_osd *res = calloc(m, sizeof(*res));
	uint64_t reads = 0, writes = 0, subops = 0;
	int n = -ENOMEM, named = 0;
	*out = NULL;
	if (!in || !got || !res)
		goto out;
	for (size_t i = 0; i < x->n; i++) {
		const struct cb_osd_perf *d = &x->rows[i].d;
		reads += d->op_r;
		writes += d->op_w + d->op_rw;
		if (d->lat[CB_OSD_LAT_SUBOP_W].count >= CB_SLOW_MIN_OPS)
			subops += d->lat[CB_OSD_LAT_SUBOP_W].count;
	}
	enum slow_kind k = writes < reads ? K_READ : subops ? K_REPLICA : K_WRITE;
	static const char *const kinds[] = {"read", "write", "replica write"};
	for (size_t i = 0; i < x->n; i++) {
		struct cb_perf_lat l = osd_kind_lat(&x->rows[i].d, k);
		in[i] = (struct cb_slow_in){x->rows[i].osd, l.count, cb_perf_lat_ms(&l)};
	}
	if ((n = cb_slow_find(in, x->n, got)) <= 0)
		goto out;
	for (int j = 0; j < n; j++) {
		const struct osd_row *w = NULL;
		for (size_t i = 0; i < x->n; i++)
			if (x->rows[i].osd == got[j].osd)
				w = &x->rows[i];
		if (!w || (x->intervals && !cb_slow_steady(w->st.judged[k], w->st.slow[k])))
			continue;
		res[named++] = (struct slow_osd){got[j],       kinds[k],	w->host,
						 x->intervals, w->st.judged[k], w->st.slow[k]};
	}
	n = named;
	*out = res;
	res = NULL;
out:
	free(in);
	free(got);
	free(res);
	return n;
}

int cb_tm_osd_slow_count(const struct cb_tm_osd *x)
{
	struct slow_osd *s = NULL;
	if (!x || !x->n)
		return -1;
	int n = find_slow(x, &s);
	free(s);
	return n < 0 ? -1 : n;
}

static json_t *ms_or_null(const struct cb_perf_lat *l)
{
	return l->count ? json_real(cb_perf_lat_ms(l)) : json_null();
}

static json_t *osd_json(const struct osd_row *w)
{
	const struct cb_osd_perf *d = &w->d;
	return json_pack(
	    "{s:i, s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:o, s:o, s:o, s:o, s:o, s:o, "
	    "s:o}",
	    "osd", w->osd, "host", w->host, "ops", (json_int_t)d->op, "read_ops",
	    (json_int_t)d->op_r, "write_ops", (json_int_t)d->op_w, "rw_ops", (json_int_t)d->op_rw,
	    "in_bytes", (json_int_t)d->in_bytes, "out_bytes", (json_int_t)d->out_bytes,
	    "subop_w_ops", (json_int_t)d->lat[CB_OSD_LAT_SUBOP_W].count, "op_latency_ms",
	    ms_or_null(&d->lat[CB_OSD_LAT_OP]), "op_r_latency_ms",
	    ms_or_null(&d->lat[CB_OSD_LAT_R]), "op_w_latency_ms", ms_or_null(&d->lat[CB_OSD_LAT_W]),
	    "op_rw_latency_ms", ms_or_null(&d->lat[CB_OSD_LAT_RW]), "op_w_process_latency_ms",
	    ms_or_null(&d->lat[CB_OSD_LAT_W_PROCESS]), "op_before_queue_op_lat_ms",
	    ms_or_null(&d->lat[CB_OSD_LAT_BEFORE_QUEUE]), "subop_w_latency_ms",
	    ms_or_null(&d->lat[CB_OSD_LAT_SUBOP_W]));
}

static double client_mean_us(const struct cb_phase_result *pr)
{
	return pr->all_ops ? (double)pr->all_lat_ns / (double)pr->all_ops / 1e3 : -1;
}

void cb_tm_osd_json(const struct cb_tm_osd *x, const struct cb_phase_result *pr, json_t *phase)
{
	if (!x)
		return;
	json_t *c = cb_tm_json_section(phase, "cluster");
	if (!c)
		return;
	/* the client's own count, beside the MDS's too */
	json_object_set_new(c, "client_ops", json_integer((json_int_t)pr->all_ops));
	json_object_set_new(c, "client_bytes", json_integer((json_int_t)pr->all_bytes));
	if (x->mds)
		json_object_set_new(c, "mds", cb_tm_mds_json(x->mds));
	if (!x->n)
		return;
	struct osd_sum s;
	summarize(x, pr, &s);
	json_t *osds = json_array();
	for (size_t i = 0; i < x->n; i++)
		json_array_append_new(osds, osd_json(&x->rows[i]));
	json_object_set_new(c, "osds", osds);
	json_object_set_new(c, "ops", json_integer((json_int_t)s.ops));
	json_object_set_new(c, "bytes", json_integer((json_int_t)s.bytes));
	json_object_set_new(c, "compared", s.compared ? json_string(s.compared) : json_null());
	json_object_set_new(c, "agree", s.compared ? json_boolean(s.agree) : json_null());
	char note[160];
	if (s.compared && !s.agree && isfinite(s.diff))
		snprintf(note, sizeof(note), "the cluster counted %+.1f %% %s", s.diff * 100,
			 s.compared);
	else if (s.compared && !s.agree)
		snprintf(note, sizeof(note), "cephbench counted no %s", s.compared);
	json_object_set_new(c, "agree_note",
			    s.compared && !s.agree ? json_string(note) : json_null());
	/* why this layer's counts may differ: the text's explanation, in
	 * place of a warning */
	const char *why = mismatch_why(&s, pr);
	if (why)
		json_object_set_new(c, "mismatch_why", json_string(why));
	json_object_set_new(c, "lat_mean_us",
			    s.lat.count ? json_real(cb_perf_lat_ms(&s.lat) * 1e3) : json_null());
	json_object_set_new(c, "client_lat_mean_us",
			    pr->all_ops ? json_real(client_mean_us(pr)) : json_null());
	struct slow_osd *sl = NULL;
	int ns = find_slow(x, &sl);
	json_t *a = json_array();
	for (int i = 0; i < ns; i++) {
		json_t *o = json_pack("{s:i, s:s, s:s, s:f, s:f, s:f, s:i}", "osd", sl[i].s.osd,
				      "host", sl[i].host, "op", sl[i].op, "mean_ms",
				      sl[i].s.mean_ms, "median_ms", sl[i].s.median_ms, "ratio",
				      sl[i].s.ratio, "peers", (int)sl[i].s.peers);
		if (o && sl[i].intervals) {
			json_object_set_new(o, "intervals", json_integer(sl[i].judged));
			json_object_set_new(o, "slow_intervals", json_integer(sl[i].slow));
		}
		json_array_append_new(a, o);
	}
	json_object_set_new(c, "slow_osds", ns < 0 ? json_null() : a);
	if (ns < 0)
		json_decref(a);
	free(sl);
}

static const char *mib(uint64_t b, char *buf, size_t n)
{
	snprintf(buf, n, "%.1f MiB", (double)b / (1024.0 * 1024.0));
	return buf;
}

void cb_tm_osd_text(const json_t *row, FILE *out)
{
	const json_t *x = json_object_get(json_object_get(row, "telemetry"), "cluster");
	if (!x)
		return;
	const char *name = cb_jstr(row, "name", "phase");
	const char *compared = cb_jstr(x, "compared", NULL);
	uint64_t mine_ops = cb_jcount(x, "client_ops"), mine_bytes = cb_jcount(x, "client_bytes");
	if (json_object_get(x, "osds") && compared) {
		char a[32], b[32], c[32], verdict[320] = "agree within 1 %";
		bool agree = cb_jtrue(x, "agree");
		const char *why = cb_jstr(x, "mismatch_why", NULL);
		/* a known mechanism is said as the explanation; a difference
		 * none explains is a warning saying what to do about it */
		if (!agree && why)
			snprintf(verdict, sizeof(verdict),
				 "they differ by more than 1 %%, as expected: %s", why);
		else if (!agree)
			snprintf(verdict, sizeof(verdict),
				 "they differ by more than 1 %%: other clients of these OSDs count "
				 "too: rerun with the cluster otherwise idle");
		fprintf(out, "%s: %scluster counted %s ops, %s; cephbench %s (%s compared: %s)\n",
			name, agree || why ? "" : "warning: ",
			cb_format_count(cb_jcount(x, "ops"), a, sizeof(a)),
			mib(cb_jcount(x, "bytes"), b, sizeof(b)),
			strcmp(compared, "bytes") == 0 ? mib(mine_bytes, c, sizeof(c))
						       : cb_format_count(mine_ops, c, sizeof(c)),
			compared, verdict);
		/* the means are of the same ops only when the counts agree (a
		 * client cache's ops are not the OSDs'; a metadata phase's OSD
		 * ops are the MDS's own) */
		if (agree && cb_jhas(x, "lat_mean_us") && cb_jhas(x, "client_lat_mean_us")) {
			double cl = cb_jnum(x, "lat_mean_us") / 1e3;
			double me = cb_jnum(x, "client_lat_mean_us") / 1e3;
			fprintf(out,
				"%s: cluster mean %.2f ms, client mean %.2f ms: %.2f ms client, "
				"network and queueing\n",
				name, cl, me, me - cl);
		}
	}
	const json_t *sl;
	size_t i;
	json_array_foreach(json_object_get(x, "slow_osds"), i, sl)
	{
		uint64_t peers = cb_jcount(sl, "peers");
		fprintf(out,
			"%s: slow OSD: osd.%llu %s %.1f ms mean, %.1fx the median of %llu other "
			"OSD%s, host %s",
			name, (unsigned long long)cb_jcount(sl, "osd"), cb_jstr(sl, "op", ""),
			cb_jnum(sl, "mean_ms"), cb_jnum(sl, "ratio"), (unsigned long long)peers,
			peers == 1 ? "" : "s", cb_jstr(sl, "host", ""));
		if (cb_jhas(sl, "intervals"))
			fprintf(out, ", slow in %llu of %llu intervals",
				(unsigned long long)cb_jcount(sl, "slow_intervals"),
				(unsigned long long)cb_jcount(sl, "intervals"));
		fputc('\n', out);
	}
	const json_t *mds = json_object_get(x, "mds");
	if (mds)
		cb_tm_mds_text(mds, name, mine_bytes ? 0 : mine_ops, out);
}
