/* The cluster's state from the monitors' `status` (cluster_state.h): read,
 * judged ready or not, and compared with a phase's start. */
#include "cluster_state.h"
#include "conn.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *cb_cstate_health_name(enum cb_cs_health h)
{
	return h == CB_CS_OK ? "HEALTH_OK" : h == CB_CS_WARN ? "HEALTH_WARN" : "HEALTH_ERR";
}

static enum cb_cs_health health_of(const char *s)
{
	if (s && strcmp(s, "HEALTH_OK") == 0)
		return CB_CS_OK;
	if (s && strcmp(s, "HEALTH_WARN") == 0)
		return CB_CS_WARN;
	return CB_CS_ERR;
}

static void add_word(struct cb_cstate *st, const char *w, size_t len, uint64_t n)
{
	if (len >= sizeof(st->words[0].word))
		len = sizeof(st->words[0].word) - 1;
	for (size_t i = 0; i < st->nwords; i++)
		if (strlen(st->words[i].word) == len && memcmp(st->words[i].word, w, len) == 0) {
			st->words[i].pgs += n;
			return;
		}
	if (st->nwords == CB_CS_MAX_WORDS)
		return;
	memcpy(st->words[st->nwords].word, w, len);
	st->words[st->nwords].word[len] = '\0';
	st->words[st->nwords++].pgs = n;
}

/* One pgs_by_state entry: "active+clean+scrubbing+deep" of n PGs. */
static void add_state(struct cb_cstate *st, const char *state, uint64_t n)
{
	bool active = false, scrubbing = false, deep = false;
	for (const char *w = state; *w;) {
		size_t len = strcspn(w, "+");
		if (len == 6 && memcmp(w, "active", 6) == 0)
			active = true;
		else if (len == 9 && memcmp(w, "scrubbing", 9) == 0)
			scrubbing = true;
		else if (len == 4 && memcmp(w, "deep", 4) == 0)
			deep = true;
		else if (!(len == 5 && memcmp(w, "clean", 5) == 0) && len)
			add_word(st, w, len, n);
		w += len + (w[len] == '+');
	}
	if (scrubbing)
		add_word(st, deep ? "deep-scrubbing" : "scrubbing", deep ? 14 : 9, n);
	if (!active)
		add_word(st, "inactive", 8, n);
}

int cb_cstate_parse(const json_t *status, struct cb_cstate *st)
{
	const json_t *h = json_object_get(status, "health");
	const json_t *pg = json_object_get(status, "pgmap");
	const json_t *om = json_object_get(status, "osdmap");
	/* before Pacific, osdmap nested its figures one level deeper */
	if (json_object_get(om, "osdmap"))
		om = json_object_get(om, "osdmap");
	memset(st, 0, sizeof(*st));
	if (!json_is_object(h) || !json_is_object(pg) || !json_is_object(om))
		return -EINVAL;
	st->health = health_of(json_string_value(json_object_get(h, "status")));
	const char *name;
	const json_t *c;
	json_object_foreach((json_t *)json_object_get(h, "checks"), name, c)
	{
		if (st->nchecks == CB_CS_MAX_CHECKS)
			break;
		struct cb_cs_check *k = &st->checks[st->nchecks++];
		snprintf(k->name, sizeof(k->name), "%s", name);
		k->severity = health_of(json_string_value(json_object_get(c, "severity")));
		const char *m =
		    json_string_value(json_object_get(json_object_get(c, "summary"), "message"));
		snprintf(k->msg, sizeof(k->msg), "%s", m ? m : "");
		k->muted = json_is_true(json_object_get(c, "muted"));
	}
	st->pgs = (uint64_t)json_integer_value(json_object_get(pg, "num_pgs"));
	size_t i;
	const json_t *s;
	json_array_foreach(json_object_get(pg, "pgs_by_state"), i, s)
	{
		const char *state = json_string_value(json_object_get(s, "state_name"));
		json_int_t n = json_integer_value(json_object_get(s, "count"));
		if (state && n > 0)
			add_state(st, state, (uint64_t)n);
	}
	st->osds = (uint64_t)json_integer_value(json_object_get(om, "num_osds"));
	st->up = (uint64_t)json_integer_value(json_object_get(om, "num_up_osds"));
	st->in = (uint64_t)json_integer_value(json_object_get(om, "num_in_osds"));
	return 0;
}

int cb_cstate_parse_osds(const json_t *dump, struct cb_cstate *st)
{
	const json_t *osds = json_object_get(dump, "osds"), *o;
	size_t i;
	if (!json_is_array(osds))
		return -EINVAL;
	memset(st->osd, 0, sizeof(st->osd));
	json_array_foreach(osds, i, o)
	{
		json_int_t id = json_integer_value(json_object_get(o, "osd"));
		if (id < 0 || id >= CB_CS_MAX_OSDS)
			continue;
		st->osd[id] = CB_CS_EXISTS |
			      (json_integer_value(json_object_get(o, "up")) ? CB_CS_UP : 0) |
			      (json_integer_value(json_object_get(o, "in")) ? CB_CS_IN : 0);
	}
	st->have_osds = true;
	return 0;
}

/* A monitor command's JSON answer. 0 or -errno with why set. */
static int mon_json(struct cb_conn *c, const char *prefix, json_t **out, char *why, size_t len)
{
	char cmd[128], reason[200];
	snprintf(cmd, sizeof(cmd), "{\"prefix\": \"%s\", \"format\": \"json\"}", prefix);
	int r = cb_conn_mon_json(c, cmd, out, reason, sizeof(reason));
	if (r < 0)
		snprintf(why, len, "'%s' refused: %s", prefix, reason);
	return r;
}

int cb_cstate_fetch(struct cb_conn *c, struct cb_cstate *st, char *why, size_t len)
{
	json_t *j = NULL;
	int r = mon_json(c, "status", &j, why, len);
	if (r == 0 && (r = cb_cstate_parse(j, st)) < 0)
		snprintf(why, len, "'status' answered without health, pgmap or osdmap");
	json_decref(j);
	return r;
}

int cb_cstate_fetch_osds(struct cb_conn *c, struct cb_cstate *st, char *why, size_t len)
{
	json_t *j = NULL;
	int r = mon_json(c, "osd dump", &j, why, len);
	if (r == 0 && (r = cb_cstate_parse_osds(j, st)) < 0)
		snprintf(why, len, "'osd dump' answered without osds");
	json_decref(j);
	return r;
}

uint64_t cb_cstate_pgs(const struct cb_cstate *st, const char *word)
{
	for (size_t i = 0; i < st->nwords; i++)
		if (strcmp(st->words[i].word, word) == 0)
			return st->words[i].pgs;
	return 0;
}

static bool listed(const char *name, char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(list[i], name) == 0)
			return true;
	return false;
}

/* The PG states a run tolerates under require: warn: the background work
 * every cluster does on its own schedule. */
static bool background(const char *word)
{
	static const char *const bg[] = {"scrubbing", "deep-scrubbing", "snaptrim", "snaptrim_wait",
					 NULL};
	for (size_t i = 0; bg[i]; i++)
		if (strcmp(word, bg[i]) == 0)
			return true;
	return false;
}

/* OSDs in but down: their data degraded, not moved away. By id once the
 * OSD map was read: the counts alone cannot tell, since an OSD up but out
 * beside one in but down leaves in - up at 0. */
static uint64_t in_but_down(const struct cb_cstate *st)
{
	if (!st->have_osds)
		return st->in > st->up ? st->in - st->up : 0;
	uint64_t n = 0;
	for (int id = 0; id < CB_CS_MAX_OSDS; id++)
		if ((st->osd[id] & (CB_CS_EXISTS | CB_CS_IN | CB_CS_UP)) ==
		    (CB_CS_EXISTS | CB_CS_IN))
			n++;
	return n;
}

bool cb_cstate_transient(const struct cb_cstate *st)
{
	static const char *const t[] = {"peering", "activating", "creating",
					"unknown", "inactive",	 NULL};
	if (!st->nwords || in_but_down(st))
		return false;
	for (size_t i = 0; i < st->nwords; i++) {
		size_t k = 0;
		while (t[k] && strcmp(st->words[i].word, t[k]) != 0)
			k++;
		if (!t[k])
			return false;
	}
	return true;
}

/* The checks whose news the PG and OSD reasons already give. */
bool cb_cstate_told_by_state(const char *name)
{
	static const char *const t[] = {"OSD_DOWN",    "OSD_HOST_DOWN",	  "OSD_ROOT_DOWN",
					"PG_DEGRADED", "PG_AVAILABILITY", NULL};
	for (size_t i = 0; t[i]; i++)
		if (strcmp(name, t[i]) == 0)
			return true;
	return false;
}

static bool nearfull(const char *name)
{
	return strstr(name, "NEARFULL") || strstr(name, "BACKFILLFULL");
}

static int by_pgs(const void *a, const void *b)
{
	const struct cb_cs_word *x = a, *y = b;
	if (x->pgs != y->pgs)
		return x->pgs > y->pgs ? -1 : 1;
	return strcmp(x->word, y->word);
}

static void reason(json_t *reasons, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void reason(json_t *reasons, const char *fmt, ...)
{
	char s[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s, sizeof(s), fmt, ap);
	va_end(ap);
	json_array_append_new(reasons, json_string(s));
}

bool cb_cstate_ready(const struct cb_cstate *st, enum cb_pf_require req, char *const *allow,
		     size_t nallow, json_t *reasons)
{
	if (req == CB_PF_ANY || req == CB_PF_OFF)
		return true;
	bool ok = req == CB_PF_OK;
	struct cb_cs_word w[CB_CS_MAX_WORDS];
	memcpy(w, st->words, st->nwords * sizeof(w[0]));
	qsort(w, st->nwords, sizeof(w[0]), by_pgs);
	size_t before = json_array_size(reasons);
	for (size_t i = 0; i < st->nwords; i++)
		if (ok || !background(w[i].word))
			reason(reasons, "%llu pg%s %s", (unsigned long long)w[i].pgs,
			       w[i].pgs == 1 ? "" : "s", w[i].word);
	uint64_t down = st->osds > st->up ? st->osds - st->up : 0;
	uint64_t out = st->osds > st->in ? st->osds - st->in : 0;
	/* under warn an OSD out (its data moved away) is a smaller cluster,
	 * one that is in but down is a degraded one */
	if (!ok)
		down = in_but_down(st);
	if (down)
		reason(reasons, "%llu osd%s down", (unsigned long long)down, down == 1 ? "" : "s");
	if (ok && out)
		reason(reasons, "%llu osd%s out", (unsigned long long)out, out == 1 ? "" : "s");
	bool state_told = json_array_size(reasons) > before;
	for (size_t i = 0; i < st->nchecks; i++) {
		const struct cb_cs_check *k = &st->checks[i];
		if (k->muted || listed(k->name, allow, nallow))
			continue;
		if (!ok && k->severity != CB_CS_ERR && !nearfull(k->name))
			continue;
		if (state_told && cb_cstate_told_by_state(k->name))
			continue;
		reason(reasons, "%s %s (%s)", cb_cstate_health_name(k->severity), k->name, k->msg);
	}
	return json_array_size(reasons) == before;
}

void cb_cstate_changes(const struct cb_cstate *from, const struct cb_cstate *to,
		       void (*add)(void *arg, const char *key, const char *text), void *arg)
{
	char key[96], text[256];
	for (size_t i = 0; i < to->nwords; i++) {
		const struct cb_cs_word *w = &to->words[i];
		if (w->pgs <= cb_cstate_pgs(from, w->word))
			continue;
		snprintf(key, sizeof(key), "pg:%s", w->word);
		if (strstr(w->word, "scrubbing"))
			snprintf(text, sizeof(text), "pg %s", w->word);
		else
			snprintf(text, sizeof(text), "%llu pg%s %s", (unsigned long long)w->pgs,
				 w->pgs == 1 ? "" : "s", w->word);
		add(arg, key, text);
	}
	if (from->have_osds && to->have_osds) {
		for (int id = 0; id < CB_CS_MAX_OSDS; id++) {
			uint8_t a = from->osd[id], b = to->osd[id];
			if ((a & CB_CS_UP) && !(b & CB_CS_UP)) {
				snprintf(key, sizeof(key), "osd:%d:down", id);
				snprintf(text, sizeof(text), "osd.%d down", id);
				add(arg, key, text);
			}
			if ((a & CB_CS_IN) && !(b & CB_CS_IN)) {
				snprintf(key, sizeof(key), "osd:%d:out", id);
				snprintf(text, sizeof(text), "osd.%d out", id);
				add(arg, key, text);
			}
		}
	} else {
		if (to->up < from->up) {
			snprintf(text, sizeof(text), "%llu osd%s down",
				 (unsigned long long)(from->up - to->up),
				 from->up - to->up == 1 ? "" : "s");
			add(arg, "osd:down", text);
		}
		if (to->in < from->in) {
			snprintf(text, sizeof(text), "%llu osd%s out",
				 (unsigned long long)(from->in - to->in),
				 from->in - to->in == 1 ? "" : "s");
			add(arg, "osd:out", text);
		}
	}
	for (size_t i = 0; i < to->nchecks; i++) {
		const struct cb_cs_check *k = &to->checks[i];
		bool had = k->muted;
		for (size_t j = 0; j < from->nchecks && !had; j++)
			had = strcmp(from->checks[j].name, k->name) == 0;
		if (had)
			continue;
		snprintf(key, sizeof(key), "check:%s", k->name);
		snprintf(text, sizeof(text), "%s %s (%s)", cb_cstate_health_name(k->severity),
			 k->name, k->msg);
		add(arg, key, text);
	}
}
