/* Textfile exposition. Every phase metric carries the labels profile,
 * workload, layer, op, pool, so runs of several profiles can share one
 * collector directory (one file each). */
#include "prom.h"
#include "preflight.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* A label value as the exposition format wants it: \, " and newline
 * escaped. Names come from profiles and may hold any of them. */
static void put_value(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '\\' || *s == '"')
			fputc('\\', out);
		if (*s == '\n')
			fputs("\\n", out);
		else
			fputc(*s, out);
	}
}

static void put_labels(FILE *out, const char *profile, const json_t *ph, const char *quantile)
{
	static const char *const keys[][2] = {
	    {"workload", "name"}, {"layer", "layer"}, {"op", "op"}, {"pool", "pool"}};
	fputs("{profile=\"", out);
	put_value(out, profile);
	fputc('"', out);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		fprintf(out, ",%s=\"", keys[i][0]);
		put_value(out, json_string_value(json_object_get(ph, keys[i][1])));
		fputc('"', out);
	}
	if (quantile)
		fprintf(out, ",quantile=\"%s\"", quantile);
	fputc('}', out);
}

/* What each metric line takes from a phase. */
enum what {
	IOPS,
	BW,
	LAT_Q,
	LAT_SUM,
	LAT_COUNT,
	LAT_MEAN,
	ERRORS,
	REGRESSION,
	CPU_PER_OP,
	CLUSTER_LAT,
	SLOW_OSDS,
	DISTURBED,
	CACHED
};

static const json_t *tm_part(const json_t *ph, const char *part)
{
	return json_object_get(json_object_get(ph, "telemetry"), part);
}

static double opt_num(const json_t *v)
{
	return json_is_number(v) ? json_number_value(v) : NAN;
}

static double figure(const json_t *ph, enum what w, const char *lat_key)
{
	const json_t *lat = json_object_get(ph, "latency_us");
	double ops = json_number_value(json_object_get(ph, "ops"));
	double mean = json_number_value(json_object_get(lat, "mean"));
	const char *v;
	switch (w) {
	case IOPS:
		return json_number_value(json_object_get(ph, "iops"));
	case BW:
		return json_number_value(json_object_get(ph, "bw_bytes_per_s"));
	case LAT_Q:
		return json_number_value(json_object_get(lat, lat_key)) / 1e6;
	case LAT_SUM:
		return mean * ops / 1e6;
	case LAT_COUNT:
		return ops;
	case LAT_MEAN:
		return mean / 1e6;
	case ERRORS:
		return json_number_value(json_object_get(ph, "errors"));
	case REGRESSION:
		v = json_string_value(
		    json_object_get(json_object_get(ph, "regression"), "verdict"));
		return v && strcmp(v, "regression") == 0;
	/* telemetry's: NAN (no sample) where a part measured nothing */
	case CPU_PER_OP:
		return opt_num(json_object_get(tm_part(ph, "client"), "cpu_us_per_op")) / 1e6;
	case CLUSTER_LAT:
		return opt_num(json_object_get(tm_part(ph, "cluster"), "lat_mean_us")) / 1e6;
	case SLOW_OSDS:
		return json_is_array(json_object_get(tm_part(ph, "cluster"), "slow_osds"))
			   ? (double)json_array_size(
				 json_object_get(tm_part(ph, "cluster"), "slow_osds"))
			   : NAN;
	case DISTURBED:
		return json_is_array(json_object_get(ph, "disturbed"))
			   ? json_array_size(json_object_get(ph, "disturbed")) > 0
			   : NAN;
	case CACHED: {
		/* no sample where nothing was judged (writes) or known */
		const char *by =
		    json_string_value(json_object_get(json_object_get(ph, "served"), "by"));
		return !by || strcmp(by, "unknown") == 0 ? NAN : strcmp(by, "client cache") == 0;
	}
	}
	return 0;
}

static void family(FILE *out, const json_t *rec, const char *name, const char *type,
		   const char *help, enum what w)
{
	static const char *const q[][2] = {{"0.5", "p50"}, {"0.99", "p99"}, {"0.999", "p99.9"}};
	const char *profile =
	    json_string_value(json_object_get(json_object_get(rec, "profile"), "name"));
	const json_t *phases = json_object_get(rec, "phases");
	const json_t *ph;
	size_t i;
	fprintf(out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
	json_array_foreach(phases, i, ph)
	{
		if (w != LAT_Q) {
			if (isnan(figure(ph, w, NULL)))
				continue; /* not measured: no sample rather than a 0 */
			fputs(name, out);
			put_labels(out, profile, ph, NULL);
			fprintf(out, " %.10g\n", figure(ph, w, NULL));
			continue;
		}
		/* a summary: its quantiles, then _sum and _count */
		for (size_t k = 0; k < sizeof(q) / sizeof(q[0]); k++) {
			fputs(name, out);
			put_labels(out, profile, ph, q[k][0]);
			fprintf(out, " %.10g\n", figure(ph, LAT_Q, q[k][1]));
		}
		fprintf(out, "%s_sum", name);
		put_labels(out, profile, ph, NULL);
		fprintf(out, " %.10g\n%s_count", figure(ph, LAT_SUM, NULL), name);
		put_labels(out, profile, ph, NULL);
		fprintf(out, " %.10g\n", figure(ph, LAT_COUNT, NULL));
	}
}

int cb_prom_render(FILE *out, const json_t *rec)
{
	family(out, rec, "cephbench_iops", "gauge", "Operations per second of the phase.", IOPS);
	family(out, rec, "cephbench_bandwidth_bytes", "gauge",
	       "Bytes per second moved by the phase.", BW);
	family(out, rec, "cephbench_latency_seconds", "summary",
	       "Latency of the phase's ops (quantiles; _count is its ops).", LAT_Q);
	family(out, rec, "cephbench_latency_mean_seconds", "gauge",
	       "Mean latency of the phase's ops.", LAT_MEAN);
	family(out, rec, "cephbench_errors_total", "counter", "Failed ops of the phase.", ERRORS);
	family(out, rec, "cephbench_regression", "gauge",
	       "1 when the phase regressed against its baseline (--regression), else 0.",
	       REGRESSION);
	family(out, rec, "cephbench_client_cpu_seconds_per_op", "gauge",
	       "The client's CPU time (user + system) per op of the phase.", CPU_PER_OP);
	family(out, rec, "cephbench_cluster_latency_mean_seconds", "gauge",
	       "Mean op latency of the phase as the OSDs counted it.", CLUSTER_LAT);
	family(out, rec, "cephbench_slow_osds", "gauge", "OSDs named slow during the phase.",
	       SLOW_OSDS);
	family(out, rec, "cephbench_disturbed", "gauge",
	       "1 when the cluster's state changed during the phase (no regression verdict).",
	       DISTURBED);
	family(out, rec, "cephbench_cache_served", "gauge",
	       "1 when the client's cache served most of the phase's reads or stats: its figures "
	       "are not the cluster's (no regression verdict), 0 when the cluster served them.",
	       CACHED);
	char why[8];
	fputs("# HELP cephbench_skipped 1 when the pre-flight gate refused the run (no phases).\n"
	      "# TYPE cephbench_skipped gauge\n"
	      "cephbench_skipped{profile=\"",
	      out);
	put_value(out, json_string_value(json_object_get(json_object_get(rec, "profile"), "name")));
	fprintf(out, "\"} %d\n", cb_preflight_refused(rec, why, sizeof(why)));
	/* when the figures were taken: an alert on its age catches a cron job
	 * that stopped running */
	fputs("# HELP cephbench_last_run_timestamp_seconds Start of the run, Unix time.\n"
	      "# TYPE cephbench_last_run_timestamp_seconds gauge\n"
	      "cephbench_last_run_timestamp_seconds{profile=\"",
	      out);
	put_value(out, json_string_value(json_object_get(json_object_get(rec, "profile"), "name")));
	struct tm tm = {0};
	strptime(json_string_value(json_object_get(rec, "started")), "%Y-%m-%dT%H:%M:%SZ", &tm);
	fprintf(out, "\"} %lld\n", (long long)timegm(&tm));
	return ferror(out) ? -EIO : 0;
}

static int render(FILE *f, const void *rec)
{
	return cb_prom_render(f, rec);
}

int cb_prom_write(struct cb_out *out, const json_t *rec, struct cb_err *e)
{
	return cb_out_write(out, render, rec, e);
}
