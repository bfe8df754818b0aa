/* Naming and run metadata of the RADOS layer: the names it makes, read back
 * exactly, and the records of what each client wrote. */
#include "marked.h"
#include "options.h"
#include "rados_priv.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* v in decimal, as printf's %llu, ending at end (exclusive): its start. */
static char *decimal_before(char *end, uint64_t v)
{
	do
		*--end = (char)('0' + v % 10);
	while (v /= 10);
	return end;
}

/* Every write names its object: by hand, not snprintf, which measured
 * ~1,300 instructions a call (callgrind), 2 % of a 4K write's client cost.
 * The bytes are snprintf's exactly (a name that does not fit goes through
 * it, to be cut the same way). */
void cb_rados_obj_name(char *buf, size_t n, const char *run, unsigned client, uint64_t idx)
{
	char c[24], i[24];
	char *cs = decimal_before(c + sizeof(c), client), *is = decimal_before(i + sizeof(i), idx);
	size_t rl = strlen(run), cl = (size_t)(c + sizeof(c) - cs),
	       il = (size_t)(i + sizeof(i) - is);
	if (rl + 2 + cl + 1 + il >= n) {
		snprintf(buf, n, "%s.c%u.%llu", run, client, (unsigned long long)idx);
		return;
	}
	char *p = buf;
	memcpy(p, run, rl);
	p += rl;
	*p++ = '.';
	*p++ = 'c';
	memcpy(p, cs, cl);
	p += cl;
	*p++ = '.';
	memcpy(p, is, il);
	p[il] = '\0';
}

/* Client 0's is the run's record, named as before clients existed; the
 * others' do not end in ".meta", so cleanup removes them with the data and
 * keeps only the run's record for last. */
void cb_rados_meta_name(char *buf, size_t n, const char *run, unsigned client)
{
	if (client == 0)
		snprintf(buf, n, "%s.meta", run);
	else
		snprintf(buf, n, "%s.meta.c%u", run, client);
}

/* A decimal number as printf prints one (no sign, no leading zero) that
 * fits in max, at the start of s: its length, or 0. */
static size_t decimal(const char *s, uint64_t max, uint64_t *v)
{
	size_t i = 0;
	*v = 0;
	for (; s[i] >= '0' && s[i] <= '9'; i++) {
		unsigned d = (unsigned)(s[i] - '0');
		if ((i == 1 && s[0] == '0') || *v > (max - d) / 10)
			return 0;
		*v = *v * 10 + d;
	}
	return i;
}

enum rados_name cb_rados_name_parse(const char *name, char run[65])
{
	const char *dot = strchr(name, '.');
	uint64_t k, idx;
	size_t len;
	if (!dot || dot - name > 64)
		return RADOS_NAME_NONE;
	memcpy(run, name, (size_t)(dot - name));
	run[dot - name] = '\0';
	if (!cb_name_valid(run))
		return RADOS_NAME_NONE;
	const char *p = dot + 1;
	if (strncmp(p, "meta", 4) == 0) {
		if (p[4] == '\0')
			return RADOS_NAME_META;
		/* client 0's record is "<run>.meta" */
		if (p[4] == '.' && p[5] == 'c' && (len = decimal(p + 6, UINT32_MAX, &k)) &&
		    p[6 + len] == '\0' && k > 0)
			return RADOS_NAME_META_CLIENT;
		return RADOS_NAME_NONE;
	}
	if (p[0] != 'c' || !(len = decimal(p + 1, UINT32_MAX, &k)) || p[1 + len] != '.')
		return RADOS_NAME_NONE;
	p += 2 + len;
	if (!(len = decimal(p, UINT64_MAX, &idx)) || p[len] != '\0')
		return RADOS_NAME_NONE;
	return RADOS_NAME_DATA;
}

int cb_rados_meta_write(rados_ioctx_t io, const char *run, unsigned client, const char *run_id,
			const struct rados_meta *m, bool exists)
{
	char name[128];
	json_t *j = json_pack("{s:s, s:s, s:s, s:s, s:I, s:I, s:I, s:I, s:I}", "layer", "rados",
			      "run", run, "run_id", run_id, "state", m->state, "object_size",
			      (json_int_t)m->object_size, "block_size", (json_int_t)m->block_size,
			      "objects", (json_int_t)m->objects, "started", (json_int_t)m->started,
			      "failed_writes", (json_int_t)m->failed);
	if (j &&
	    json_object_set_new(j, "content", json_string(m->pattern ? "pattern" : "data")) < 0) {
		json_decref(j);
		j = NULL;
	}
	/* objects of sizes that vary say so; fixed ones keep the older form */
	if (j && m->sizes[0] &&
	    json_object_update_new(j, json_pack("{s:s, s:I, s:I}", "sizes", m->sizes, "size_align",
						(json_int_t)m->size_align, "size_seed",
						(json_int_t)m->size_seed)) < 0) {
		json_decref(j);
		j = NULL;
	}
	/* the run's record says how many wrote; another client's, which it is */
	if (j &&
	    json_object_set_new(j, client ? "client" : "clients",
				json_integer((json_int_t)(client ? client : m->clients))) < 0) {
		json_decref(j);
		j = NULL;
	}
	if (!j)
		return -ENOMEM;
	char *s = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	if (!s)
		return -ENOMEM;
	cb_rados_meta_name(name, sizeof(name), run, client);
	int r = cb_marked_put(io, name, run, s, strlen(s), exists, 0);
	free(s);
	return r;
}

int cb_rados_meta_read(rados_ioctx_t io, const char *run, unsigned client, struct rados_meta *m)
{
	char name[128], buf[4096];
	cb_rados_meta_name(name, sizeof(name), run, client);
	int r = cb_marked_read(io, name, run, buf, sizeof(buf) - 1);
	if (r < 0)
		return r;
	json_t *j = json_loadb(buf, (size_t)r, 0, NULL);
	json_int_t os = 0, bs = 0, objs = 0, clients = 1, started = -1, failed = 0;
	json_int_t align = 1, seed = 0;
	const char *state = NULL, *id = "", *sizes = "", *content = "data";
	r = json_unpack(j, "{s:s, s:I, s:I, s:I, s?:s, s?:I, s?:I, s?:I, s?:s, s?:I, s?:I, s?:s}",
			"state", &state, "object_size", &os, "block_size", &bs, "objects", &objs,
			"run_id", &id, "clients", &clients, "started", &started, "failed_writes",
			&failed, "sizes", &sizes, "size_align", &align, "size_seed", &seed,
			"content", &content);
	if (started < 0)
		started = objs;
	if (r == 0 && os > 0 && bs > 0 && objs >= 0 && started >= objs && failed >= 0 &&
	    clients >= 1 && clients <= 1024 && align >= 1 && strlen(sizes) < sizeof(m->sizes)) {
		snprintf(m->sizes, sizeof(m->sizes), "%s", sizes);
		m->size_align = (uint64_t)align;
		m->size_seed = (uint64_t)seed;
		m->pattern = strcmp(content, "pattern") == 0;
		snprintf(m->state, sizeof(m->state), "%s", state);
		snprintf(m->run_id, sizeof(m->run_id), "%s", id);
		m->object_size = (uint64_t)os;
		m->block_size = (uint64_t)bs;
		m->objects = (uint64_t)objs;
		m->started = (uint64_t)started;
		m->failed = (uint64_t)failed;
		m->clients = (uint64_t)clients;
	} else {
		r = -EINVAL;
	}
	json_decref(j);
	return r;
}
