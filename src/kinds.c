/* A row's figures per kind of op (kinds.h). */
#include "kinds.h"
#include "jget.h"
#include "hist_json.h"
#include "result_rebuild.h"
#include "units.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct cb_kind *cb_kinds_find(struct cb_kinds *ks, const char *name)
{
	for (unsigned i = 0; i < ks->n; i++)
		if (strcmp(ks->k[i].name, name) == 0)
			return &ks->k[i];
	return NULL;
}

struct cb_kind *cb_kinds_get(struct cb_kinds *ks, const char *name)
{
	struct cb_kind *found = cb_kinds_find(ks, name);
	if (found)
		return found;
	if (ks->n == CB_KINDS)
		return NULL;
	struct cb_kind *k = &ks->k[ks->n];
	memset(k, 0, sizeof(*k));
	if (!(k->hist = cb_hist_new()))
		return NULL;
	snprintf(k->name, sizeof(k->name), "%s", name);
	ks->n++;
	return k;
}

int cb_kinds_merge(struct cb_kinds *dst, const struct cb_kinds *src)
{
	for (unsigned i = 0; i < src->n; i++) {
		struct cb_kind *d = cb_kinds_get(dst, src->k[i].name);
		if (!d)
			return -ENOMEM;
		d->ops += src->k[i].ops;
		d->bytes += src->k[i].bytes;
		d->expected_failures += src->k[i].expected_failures;
		d->unmapped += src->k[i].unmapped;
		cb_hist_merge(d->hist, src->k[i].hist);
	}
	return 0;
}

void cb_kinds_free(struct cb_kinds *ks)
{
	for (unsigned i = 0; i < ks->n; i++)
		cb_hist_free(ks->k[i].hist);
	ks->n = 0;
}

bool cb_kinds_shown(const struct cb_kinds *ks)
{
	unsigned with_ops = 0;
	for (unsigned i = 0; i < ks->n; i++) {
		if ((ks->k[i].ops && strcmp(ks->k[i].name, "sync") == 0) || ks->k[i].unmapped)
			return true;
		with_ops += ks->k[i].ops > 0;
	}
	return with_ops > 1;
}

json_t *cb_kinds_json(const struct cb_kinds *ks, uint64_t elapsed_ns)
{
	if (!cb_kinds_shown(ks))
		return NULL;
	json_t *o = json_object();
	double secs = (double)elapsed_ns / 1e9;
	for (unsigned i = 0; o && i < ks->n; i++) {
		const struct cb_kind *k = &ks->k[i];
		json_t *j = json_pack(
		    "{s:I, s:I, s:f, s:f, s:o, s:o}", "ops", (json_int_t)k->ops, "bytes",
		    (json_int_t)k->bytes, "iops", secs > 0 ? (double)k->ops / secs : 0.0,
		    "bw_bytes_per_s", secs > 0 ? (double)k->bytes / secs : 0.0, "latency_us",
		    cb_latency_json(k->hist), "histogram", cb_histogram_json(k->hist));
		/* only where there are any: most kinds never fail on purpose */
		if (j && k->expected_failures)
			json_object_set_new(j, "expected_failures",
					    json_integer((json_int_t)k->expected_failures));
		if (j && k->unmapped)
			json_object_set_new(j, "unmapped", json_integer((json_int_t)k->unmapped));
		if (!j || json_object_set_new(o, k->name, j) < 0) {
			json_decref(o);
			return NULL;
		}
	}
	return o;
}

int cb_kinds_rebuild(struct cb_kinds *ks, const json_t *by_op, const char *where, struct cb_err *e)
{
	const char *name;
	json_t *v;
	if (!by_op)
		return 0;
	if (!json_is_object(by_op))
		return cb_err_usage(e, "%s by_op: expected an object of kinds", where);
	json_object_foreach((json_t *)by_op, name, v)
	{
		char at[200];
		snprintf(at, sizeof(at), "%s by_op.%.40s", where, name);
		const json_t *ops = json_object_get(v, "ops"), *bytes = json_object_get(v, "bytes");
		if (strlen(name) >= CB_KIND_NAME || !json_is_integer(ops) ||
		    json_integer_value(ops) < 0 || !json_is_integer(bytes) ||
		    json_integer_value(bytes) < 0)
			return cb_err_usage(
			    e, "%s: expected a kind's ops and bytes (whole numbers)", at);
		struct cb_kind *k = cb_kinds_get(ks, name);
		if (!k)
			return cb_err_usage(e, "%s: more than %d kinds, or out of memory", at,
					    CB_KINDS);
		k->ops = (uint64_t)json_integer_value(ops);
		k->bytes = (uint64_t)json_integer_value(bytes);
		const char *const counts[] = {"expected_failures", "unmapped"};
		uint64_t *to[] = {&k->expected_failures, &k->unmapped};
		for (int c = 0; c < 2; c++) {
			const json_t *n = json_object_get(v, counts[c]);
			if (n && (!json_is_integer(n) || json_integer_value(n) < 0))
				return cb_err_usage(e, "%s %s: expected a whole number", at,
						    counts[c]);
			*to[c] = n ? (uint64_t)json_integer_value(n) : 0;
		}
		if (cb_hist_rebuild(k->hist, json_object_get(v, "histogram"),
				    json_object_get(v, "latency_us"), at, e) < 0)
			return -EINVAL;
		if (k->hist->count != k->ops)
			return cb_err_usage(e, "%s: the histogram holds %llu ops, the kind %llu",
					    at, (unsigned long long)k->hist->count,
					    (unsigned long long)k->ops);
	}
	return 0;
}

void cb_kinds_text(const json_t *p, FILE *out)
{
	const json_t *by = json_object_get(p, "by_op"), *k;
	const char *name;
	json_object_foreach((json_t *)by, name, k)
	{
		const json_t *lat = json_object_get(k, "latency_us");
		char ops[32], bw[32] = "", more[96] = "";
		bool sync = strcmp(name, "sync") == 0;
		uint64_t unmapped = cb_jcount(k, "unmapped"),
			 ef = cb_jcount(k, "expected_failures");
		if (unmapped && !cb_jcount(k, "ops")) {
			fprintf(out, "%s: %s %s ops not replayed: no call for them\n",
				cb_jstr(p, "name", ""), name,
				cb_format_count(unmapped, ops, sizeof(ops)));
			continue;
		}
		if (ef)
			snprintf(more, sizeof(more), " (%s failed as expected)",
				 cb_format_count(ef, bw, sizeof(bw)));
		bw[0] = '\0';
		if (!sync) /* a sync moves no bytes of its own */
			snprintf(bw, sizeof(bw), ", %.2f MiB/s",
				 cb_jnum(k, "bw_bytes_per_s") / 1048576.0);
		fprintf(out,
			"%s: %s %s ops, %.1f IOPS%s, latency mean %.3f ms, p50 %.3f, "
			"p99 %.3f, p99.9 %.3f, max %.3f ms%s%s\n",
			cb_jstr(p, "name", ""), name,
			cb_format_count(cb_jcount(k, "ops"), ops, sizeof(ops)), cb_jnum(k, "iops"),
			bw, cb_jnum(lat, "mean") / 1e3, cb_jnum(lat, "p50") / 1e3,
			cb_jnum(lat, "p99") / 1e3, cb_jnum(lat, "p99.9") / 1e3,
			cb_jnum(lat, "max") / 1e3, sync ? " (not in the row's ops)" : "", more);
	}
}
