/* Telemetry's host part, after the phase: rows merged (a later run's
 * samples follow, its columns matched by name), and the samples' deltas
 * turned into percentages and iostat's figures for the JSON and the text. */
#include "result.h"
#include "tm_host_priv.h"
#include "jget.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static size_t col_find(const struct host_col *c, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(c[i].name, name) == 0)
			return i;
	return SIZE_MAX;
}

/* src's columns in dst's list (added where there is room); map[i] is src's
 * column i's place, SIZE_MAX when left out. */
static void cols_union(struct host_col *d, size_t *nd, size_t max, const struct host_col *s,
		       size_t ns, size_t *map)
{
	for (size_t i = 0; i < ns; i++) {
		size_t k = col_find(d, *nd, s[i].name);
		if (k == SIZE_MAX && *nd < max) {
			d[*nd] = s[i];
			k = (*nd)++;
		}
		map[i] = k;
	}
}

/* A sample's values (stride of h) into row at the union's places. */
static void vals_put(uint64_t *row, size_t nif, const uint64_t *v, const struct cb_tm_host *h,
		     const size_t *imap, const size_t *dmap)
{
	for (size_t i = 0; i < h->nif; i++)
		if (imap[i] != SIZE_MAX)
			memcpy(row + imap[i] * TM_NET_N, v + i * TM_NET_N, TM_NET_N * sizeof(*v));
	v += h->nif * TM_NET_N;
	for (size_t i = 0; i < h->ndisk; i++)
		if (dmap[i] != SIZE_MAX)
			memcpy(row + nif * TM_NET_N + dmap[i] * TM_DISK_N, v + i * TM_DISK_N,
			       TM_DISK_N * sizeof(*v));
}

int cb_tm_host_merge(struct cb_tm_host *dst, const struct cb_tm_host *src)
{
	struct host_col ifs[HOST_MAX_IF], disks[HOST_MAX_DISK];
	size_t nif = dst->nif, ndisk = dst->ndisk;
	size_t id_if[HOST_MAX_IF], id_disk[HOST_MAX_DISK], imap[HOST_MAX_IF], dmap[HOST_MAX_DISK];
	memcpy(ifs, dst->ifs, sizeof(ifs));
	memcpy(disks, dst->disks, sizeof(disks));
	for (size_t i = 0; i < HOST_MAX_IF; i++)
		id_if[i] = i;
	for (size_t i = 0; i < HOST_MAX_DISK; i++)
		id_disk[i] = i;
	cols_union(ifs, &nif, HOST_MAX_IF, src->ifs, src->nif, imap);
	cols_union(disks, &ndisk, HOST_MAX_DISK, src->disks, src->ndisk, dmap);
	size_t stride = nif * TM_NET_N + ndisk * TM_DISK_N, n = dst->ns + src->ns;
	struct host_sample *s = n ? malloc(n * sizeof(*s)) : NULL;
	uint64_t *v = n && stride ? malloc(n * stride * sizeof(*v)) : NULL;
	if ((n && !s) || (n && stride && !v)) {
		free(s);
		free(v);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n * stride; i++)
		v[i] = HOST_ABSENT;
	for (size_t i = 0; i < dst->ns; i++) {
		s[i] = dst->s[i];
		vals_put(v + i * stride, nif, dst->vals + i * HOST_STRIDE(dst), dst, id_if,
			 id_disk);
	}
	for (size_t i = 0; i < src->ns; i++) {
		s[dst->ns + i] = src->s[i];
		s[dst->ns + i].t += (uint32_t)dst->nsecs;
		vals_put(v + (dst->ns + i) * stride, nif, src->vals + i * HOST_STRIDE(src), src,
			 imap, dmap);
	}
	for (size_t i = 0; i < src->ndisk; i++) {
		size_t k = dmap[i];
		if (k == SIZE_MAX || !src->disk_seen[i])
			continue;
		if (k >= dst->ndisk || !dst->disk_seen[k])
			memset(dst->disk_tot[k], 0, sizeof(dst->disk_tot[k]));
		for (int f = 0; f < TM_DISK_N; f++)
			dst->disk_tot[k][f] += src->disk_tot[i][f];
		dst->disk_seen[k] = true;
	}
	free(dst->s);
	free(dst->vals);
	dst->s = s;
	dst->vals = v;
	dst->ns = dst->cap = n;
	memcpy(dst->ifs, ifs, sizeof(ifs));
	memcpy(dst->disks, disks, sizeof(disks));
	dst->nif = nif;
	dst->ndisk = ndisk;
	if (src->have_cpu) {
		for (int i = 0; i < TM_CPU_N; i++)
			dst->cpu.v[i] = (dst->have_cpu ? dst->cpu.v[i] : 0) + src->cpu.v[i];
		dst->cpu.total = (dst->have_cpu ? dst->cpu.total : 0) + src->cpu.total;
		dst->have_cpu = true;
	}
	dst->window_ns += src->window_ns;
	dst->nsecs += src->nsecs;
	return 0;
}

static const char *const cpu_keys[TM_CPU_N] = {"usr", "sys", "iowait", "steal", "idle"};

static json_t *cpu_json(const struct tm_cpu *c)
{
	json_t *o = json_object();
	for (int i = 0; o && i < TM_CPU_N; i++)
		json_object_set_new(
		    o, cpu_keys[i],
		    json_real(c->total ? (double)c->v[i] / (double)c->total * 100 : 0.0));
	return o;
}

/* iostat's figures of one device over ms milliseconds from its deltas d
 * (tm_proc.h's order). */
struct iostat {
	double r_await, w_await, await, aqu, util;
};

static struct iostat iostat_of(const uint64_t *d, double ms)
{
	struct iostat s = {0};
	uint64_t r = d[0], w = d[4];
	s.r_await = r ? (double)d[3] / (double)r : 0;
	s.w_await = w ? (double)d[7] / (double)w : 0;
	s.await = r + w ? (double)(d[3] + d[7]) / (double)(r + w) : 0;
	s.aqu = ms > 0 ? (double)d[9] / ms : 0;
	s.util = ms > 0 ? (double)d[8] / ms * 100 : 0;
	s.util = s.util > 100 ? 100 : s.util;
	return s;
}

static json_t *disk_json(const uint64_t *d, double ms)
{
	struct iostat s = iostat_of(d, ms);
	return json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:f, s:f, s:f, s:f, s:f}", "reads",
			 (json_int_t)d[0], "writes", (json_int_t)d[4], "read_sectors",
			 (json_int_t)d[2], "write_sectors", (json_int_t)d[6], "reads_merged",
			 (json_int_t)d[1], "writes_merged", (json_int_t)d[5], "r_await_ms",
			 s.r_await, "w_await_ms", s.w_await, "await_ms", s.await, "aqu_sz", s.aqu,
			 "util_pct", s.util);
}

static json_t *sample_json(const struct cb_tm_host *h, size_t k)
{
	const struct host_sample *s = &h->s[k];
	const uint64_t *v = h->vals + k * HOST_STRIDE(h);
	json_t *o =
	    json_pack("{s:I, s:f}", "t", (json_int_t)s->t, "interval_s", (double)s->dt_ns / 1e9);
	if (!o)
		return NULL;
	if (s->have_cpu)
		json_object_set_new(o, "cpu", cpu_json(&s->cpu));
	if (s->have_load)
		json_object_set_new(o, "load1", json_real(s->load1));
	if (s->have_mem) {
		json_object_set_new(o, "mem_used_bytes", json_integer((json_int_t)s->mem_used));
		json_object_set_new(o, "mem_available_bytes",
				    json_integer((json_int_t)s->mem_avail));
	}
	json_t *net = json_object();
	for (size_t i = 0; net && i < h->nif; i++, v += TM_NET_N)
		if (v[0] != HOST_ABSENT)
			json_object_set_new(
			    net, h->ifs[i].name,
			    json_pack("{s:I, s:I, s:I, s:I}", "rx_bytes", (json_int_t)v[0],
				      "tx_bytes", (json_int_t)v[1], "rx_packets", (json_int_t)v[2],
				      "tx_packets", (json_int_t)v[3]));
	json_object_set_new(o, "net", net);
	if (h->ndisk) {
		json_t *disks = json_object();
		for (size_t i = 0; disks && i < h->ndisk; i++, v += TM_DISK_N)
			if (v[0] != HOST_ABSENT)
				json_object_set_new(disks, h->disks[i].name,
						    disk_json(v, (double)s->dt_ns / 1e6));
		json_object_set_new(o, "disks", disks);
	}
	return o;
}

void cb_tm_host_json(const struct cb_tm_host *x, const struct cb_phase_result *pr, json_t *phase)
{
	(void)pr;
	if (!x || x->live)
		return;
	json_t *o = cb_tm_json_section(phase, "host");
	json_t *samples = json_array(), *disks = json_object();
	if (!o || !samples || !disks) {
		json_decref(samples);
		json_decref(disks);
		return;
	}
	for (size_t i = 0; i < x->ns; i++)
		json_array_append_new(samples, sample_json(x, i));
	for (size_t i = 0; i < x->ndisk; i++)
		if (x->disk_seen[i])
			json_object_set_new(disks, x->disks[i].name,
					    disk_json(x->disk_tot[i], (double)x->window_ns / 1e6));
	json_object_set_new(o, "window_s", json_real((double)x->window_ns / 1e9));
	if (x->have_cpu)
		json_object_set_new(o, "cpu", cpu_json(&x->cpu));
	json_object_set_new(o, "samples", samples);
	json_object_set_new(o, "disks", disks);
}

/* The interface that moved the most over the samples (where a cluster on
 * this host talks, lo), its bytes and the seconds they were counted in:
 * one pass, each name summed where it first appeared (at most as many as
 * a run records; a file's extra names are left out). */
struct if_sum {
	const char *name;
	uint64_t rx, tx;
	double secs;
};

static const char *busiest_if(const json_t *samples, uint64_t *rx, uint64_t *tx, double *secs)
{
	struct if_sum ifs[HOST_MAX_IF];
	size_t nif = 0, i, k;
	const json_t *s, *v;
	const char *name;
	json_array_foreach(samples, i, s)
	{
		json_object_foreach((json_t *)json_object_get(s, "net"), name, v)
		{
			for (k = 0; k < nif && strcmp(ifs[k].name, name) != 0; k++)
				;
			if (k == nif && nif == HOST_MAX_IF)
				continue;
			if (k == nif)
				ifs[nif++] = (struct if_sum){.name = name};
			ifs[k].rx += cb_jcount(v, "rx_bytes");
			ifs[k].tx += cb_jcount(v, "tx_bytes");
			ifs[k].secs += cb_jnum(s, "interval_s");
		}
	}
	const char *best = NULL;
	uint64_t most = 0;
	for (k = 0; k < nif; k++)
		if (ifs[k].rx + ifs[k].tx > most) {
			most = ifs[k].rx + ifs[k].tx;
			best = ifs[k].name;
			*rx = ifs[k].rx;
			*tx = ifs[k].tx;
			*secs = ifs[k].secs;
		}
	return best;
}

void cb_tm_host_text(const json_t *row, FILE *out)
{
	const json_t *x = json_object_get(json_object_get(row, "telemetry"), "host");
	if (!x)
		return;
	const char *name = cb_jstr(row, "name", "");
	const json_t *samples = json_object_get(x, "samples"), *cpu = json_object_get(x, "cpu");
	const json_t *last = NULL, *s;
	size_t i;
	json_array_foreach(samples, i, s)
	{
		if (json_object_get(s, "mem_used_bytes"))
			last = s;
	}
	if (cpu) {
		fprintf(out,
			"%s: host CPU usr %.1f %%, sys %.1f %%, iowait %.1f %%, steal %.1f %%, "
			"idle %.1f %% (%zu samples)",
			name, cb_jnum(cpu, "usr"), cb_jnum(cpu, "sys"), cb_jnum(cpu, "iowait"),
			cb_jnum(cpu, "steal"), cb_jnum(cpu, "idle"), json_array_size(samples));
		if (last)
			fprintf(out, ", load1 %.2f, mem used %.1f GiB, available %.1f GiB",
				cb_jnum(last, "load1"),
				(double)cb_jcount(last, "mem_used_bytes") / 1073741824.0,
				(double)cb_jcount(last, "mem_available_bytes") / 1073741824.0);
		fputc('\n', out);
	}
	uint64_t rx = 0, tx = 0;
	double secs = 0;
	const char *nif = busiest_if(samples, &rx, &tx, &secs);
	if (nif && secs > 0)
		fprintf(out, "%s: host net %s: rx %.2f MiB/s, tx %.2f MiB/s\n", name, nif,
			(double)rx / 1048576.0 / secs, (double)tx / 1048576.0 / secs);
	const char *dev;
	const json_t *d;
	json_object_foreach((json_t *)json_object_get(x, "disks"), dev, d)
	{
		fprintf(out,
			"%s: disk %s: %llu reads, %llu writes (%llu, %llu sectors), r_await %.3f "
			"ms, w_await %.3f ms, aqu-sz %.2f, util %.1f %%\n",
			name, dev, (unsigned long long)cb_jcount(d, "reads"),
			(unsigned long long)cb_jcount(d, "writes"),
			(unsigned long long)cb_jcount(d, "read_sectors"),
			(unsigned long long)cb_jcount(d, "write_sectors"), cb_jnum(d, "r_await_ms"),
			cb_jnum(d, "w_await_ms"), cb_jnum(d, "aqu_sz"), cb_jnum(d, "util_pct"));
	}
}
