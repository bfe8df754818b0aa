/* Every release's saved cluster output (tests/data/releases/RELEASE, made by
 * tests/compat/capture from that release's sandbox after a short run) read
 * by the parsers telemetry, the pre-flight gate and the context use, and
 * what they read checked against what that cluster was: one OSD up and in,
 * every PG active+clean, pool bench of size 1, the MDS active, counters that
 * moved, the release's own version. A format change in a future release
 * shows as one failing line naming the file.
 *
 * usage: check_fixtures DIR...   (exit 0 when every file of every DIR reads
 * as expected, 1 naming each that does not, 2 on bad usage) */
#include "../../cephfs/cephfs_context.h"
#include "client_lib.h"
#include "cluster_state.h"
#include "context.h"
#include "infile.h"
#include "json_wide.h"
#include "tm_osd_perf.h"

#include <jansson.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct checker {
	const char *dir;
	int failed;
};

static void bad(struct checker *c, const char *file, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void bad(struct checker *c, const char *file, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "check_fixtures: %s/%s: ", c->dir, file);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	c->failed++;
}

static const char *str(const json_t *j)
{
	const char *s = json_string_value(j);
	return s ? s : "";
}

static json_t *load(struct checker *c, const char *file)
{
	char path[4096];
	json_error_t je;
	snprintf(path, sizeof(path), "%s/%s.json", c->dir, file);
	/* read as cephbench reads a reply (conn.c: its counters may pass
	 * INT64_MAX) */
	char *buf = NULL;
	size_t len = 0;
	struct cb_err e = {0};
	json_t *j = NULL;
	if (cb_infile_read(path, "fixture", CB_RESULT_MAX_BYTES, &buf, &len, &e) < 0)
		snprintf(je.text, sizeof(je.text), "%.150s", e.msg), je.line = -1;
	else
		j = cb_json_loadb_wide(buf, len, 0, &je);
	free(buf);
	if (!j)
		bad(c, file, "not read: %s (line %d)", je.text, je.line);
	return j;
}

/* The Ceph major release a fixture directory's name says it is from. */
static int major_of(const char *dir)
{
	char copy[4096];
	snprintf(copy, sizeof(copy), "%s", dir);
	const char *base = basename(copy);
	static const struct {
		const char *name;
		int major;
	} rel[] = {{"bookworm", 16}, {"trixie", 18}, {"sid", 20}};
	for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++)
		if (!strcmp(base, rel[i].name))
			return rel[i].major;
	return 0;
}

static void check_status(struct checker *c)
{
	json_t *j = load(c, "status");
	struct cb_cstate st;
	if (!j)
		return;
	if (cb_cstate_parse(j, &st) < 0)
		bad(c, "status", "no health, pgmap or osdmap");
	else if (st.osds < 1 || st.up != st.osds || st.in != st.osds)
		bad(c, "status", "OSDs %llu, up %llu, in %llu: expected all up and in",
		    (unsigned long long)st.osds, (unsigned long long)st.up,
		    (unsigned long long)st.in);
	else if (st.pgs == 0 || cb_cstate_pgs(&st, "inactive") != 0 || st.nwords != 0)
		bad(c, "status", "%llu PGs, %zu states other than active+clean",
		    (unsigned long long)st.pgs, st.nwords);
	else if (st.health == CB_CS_ERR)
		bad(c, "status", "health read as HEALTH_ERR");
	json_decref(j);
}

static void check_osd_dump(struct checker *c)
{
	json_t *dump = load(c, "osd-dump"), *rules = load(c, "crush-rule-dump");
	struct cb_cstate st = {0};
	if (!dump || !rules)
		goto out;
	if (cb_cstate_parse_osds(dump, &st) < 0)
		bad(c, "osd-dump", "no osds array");
	else if (st.osd[0] != (CB_CS_EXISTS | CB_CS_UP | CB_CS_IN))
		bad(c, "osd-dump", "osd.0 read as %d, expected exists, up and in", st.osd[0]);
	struct cb_ctx x = {.quiet = true, .dump_tried = true, .rules_tried = true};
	x.osd_dump = dump, x.rules = rules;
	json_t *p = cb_ctx_pool(&x, "bench");
	if (!json_is_object(p))
		bad(c, "osd-dump", "pool bench not found");
	else if (strcmp(str(json_object_get(p, "type")), "replicated") ||
		 json_integer_value(json_object_get(p, "size")) != 1 ||
		 json_integer_value(json_object_get(p, "pg_num")) < 1)
		bad(c, "osd-dump", "pool bench not read as replicated, size 1, PGs: %s",
		    json_dumps(p, JSON_COMPACT));
	else if (!json_is_string(json_object_get(p, "crush_rule")))
		bad(c, "crush-rule-dump", "pool bench's rule not named");
	json_decref(p);
	json_t *fs = load(c, "fs-get");
	json_t *d = fs ? cfs_fs_of(&x, fs) : NULL;
	const json_t *r0 = json_array_get(json_object_get(d, "ranks"), 0);
	if (fs && (!d || json_integer_value(json_object_get(d, "max_mds")) != 1 ||
		   strcmp(str(json_object_get(r0, "state")), "up:active") ||
		   strcmp(str(json_object_get(d, "metadata_pool")), "cephfs_metadata") ||
		   strcmp(str(json_array_get(json_object_get(d, "data_pools"), 0)), "cephfs_data")))
		bad(c, "fs-get", "not read as one active rank over cephfs_metadata/cephfs_data");
	json_decref(d);
	json_decref(fs);
out:
	json_decref(dump);
	json_decref(rules);
}

static void check_perf(struct checker *c)
{
	json_t *o = load(c, "osd-perf-dump"), *m = load(c, "mds-perf-dump");
	struct cb_osd_perf op;
	struct cb_mds_perf mp;
	if (o && cb_osd_perf_parse(o, &op) < 0)
		bad(c, "osd-perf-dump", "its osd section or a counter is missing");
	else if (o && (op.op_w == 0 || op.in_bytes == 0 || op.lat[CB_OSD_LAT_OP].count == 0 ||
		       op.lat[CB_OSD_LAT_OP].sum_s <= 0))
		bad(c, "osd-perf-dump", "writes %llu, bytes in %llu, op latency count %llu",
		    (unsigned long long)op.op_w, (unsigned long long)op.in_bytes,
		    (unsigned long long)op.lat[CB_OSD_LAT_OP].count);
	if (m && cb_mds_perf_parse(m, &mp) < 0)
		bad(c, "mds-perf-dump", "its request counters are missing");
	else if (m && (mp.request == 0 || mp.reply == 0 || mp.reply_latency.count == 0))
		bad(c, "mds-perf-dump", "requests %llu, replies %llu",
		    (unsigned long long)mp.request, (unsigned long long)mp.reply);
	json_decref(o);
	json_decref(m);
}

static void check_versions(struct checker *c)
{
	json_t *v = load(c, "version"), *vs = load(c, "versions");
	int major = major_of(c->dir);
	struct cb_ceph_version cv;
	const char *text = json_string_value(json_object_get(v, "version"));
	char ver[64] = "";
	if (v && (!text || sscanf(text, "ceph version %63s", ver) != 1 ||
		  !cb_ceph_version_parse(ver, &cv)))
		bad(c, "version", "no 'ceph version X.Y.Z' in it");
	else if (v && major && cv.major != major)
		bad(c, "version", "Ceph %s, expected major %d for this directory", ver, major);
	json_t *short_by = vs ? cb_ctx_versions_of(vs) : NULL;
	const json_t *mon = json_object_get(short_by, "mon");
	if (vs && (json_object_size(mon) != 1 || !json_object_get(mon, ver) ||
		   json_integer_value(json_object_get(json_object_get(short_by, "osd"), ver)) < 1))
		bad(c, "versions", "not read as one mon and OSDs of %s", ver);
	json_decref(short_by);
	json_decref(v);
	json_decref(vs);
}

/* osd metadata: telemetry names each OSD's host from its id and hostname */
static void check_metadata(struct checker *c)
{
	json_t *md = load(c, "osd-metadata"), *o;
	size_t i, found = 0;
	json_array_foreach(md, i, o)
	{
		if (json_is_integer(json_object_get(o, "id")) &&
		    str(json_object_get(o, "hostname"))[0])
			found++;
	}
	if (md && (found == 0 || found != json_array_size(md)))
		bad(c, "osd-metadata", "%zu of %zu OSDs with an id and a hostname", found,
		    json_array_size(md));
	json_decref(md);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: check_fixtures DIR...\n");
		return 2;
	}
	int failed = 0;
	for (int i = 1; i < argc; i++) {
		struct checker c = {.dir = argv[i]};
		check_status(&c);
		check_osd_dump(&c);
		check_perf(&c);
		check_versions(&c);
		check_metadata(&c);
		if (!c.failed)
			printf("check_fixtures: %s: every file read as its cluster was\n", c.dir);
		failed += c.failed;
	}
	return failed ? 1 : 0;
}
