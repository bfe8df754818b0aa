/* The pre-flight gate (preflight.h): the monitors' status judged by
 * cluster_state.c, polled while the profile's wait lasts. */
#include "clock.h"
#include "preflight.h"
#include "cluster_state.h"
#include "units.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

/* How often the state is asked again while waiting: a monitor command
 * costs little, and a PG that turned clean is seen within this. */
#define POLL_MS 2000

/* How long PGs that are only peering, activating or being created are
 * waited for whatever wait: says: a pool made a moment before the run is
 * not a cluster in trouble. */
#define TRANSIENT_S 15.0

const char *cb_pf_require_name(enum cb_pf_require r)
{
	switch (r) {
	case CB_PF_OK:
		return "ok";
	case CB_PF_ANY:
		return "any";
	case CB_PF_OFF:
		return "off";
	default:
		return "warn";
	}
}

enum cb_pf_require cb_pf_require_parse(const char *s)
{
	static const enum cb_pf_require all[] = {CB_PF_OK, CB_PF_WARN, CB_PF_ANY};
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (strcmp(s, cb_pf_require_name(all[i])) == 0)
			return all[i];
	return CB_PF_UNSET;
}

/* The object with what every verdict has. */
static json_t *base_json(const struct cb_preflight_opts *o, enum cb_pf_require req)
{
	json_t *allow = json_array();
	for (size_t i = 0; allow && i < o->nallow; i++)
		json_array_append_new(allow, json_string(o->allow[i]));
	return json_pack("{s:s, s:f, s:o, s:s, s:f, s:n, s:[], s:[]}", "require",
			 cb_pf_require_name(req), "wait_s", (double)o->wait_ns / 1e9, "allow",
			 allow ? allow : json_array(), "verdict", "off", "waited_s", 0.0, "health",
			 "checks", "reasons");
}

static void set_state(json_t *pf, const struct cb_cstate *st)
{
	json_t *checks = json_array();
	for (size_t i = 0; checks && i < st->nchecks; i++)
		json_array_append_new(checks, json_string(st->checks[i].name));
	json_object_set_new(pf, "health", json_string(cb_cstate_health_name(st->health)));
	if (checks)
		json_object_set_new(pf, "checks", checks);
}

/* The reasons as "a, b, c" (at most len bytes). */
static void join(const json_t *reasons, char *buf, size_t len)
{
	size_t i, at = 0;
	const json_t *r;
	buf[0] = '\0';
	json_array_foreach(reasons, i, r)
	{
		int n = snprintf(buf + at, len - at, "%s%s", i ? ", " : "", json_string_value(r));
		if (n < 0 || (size_t)n >= len - at)
			break;
		at += (size_t)n;
	}
}

/* Sleep up to ms; true when a stop signal came meanwhile. */
static bool signalled(int sigfd, int ms)
{
	if (sigfd < 0) {
		usleep((useconds_t)ms * 1000);
		return false;
	}
	struct pollfd p = {.fd = sigfd, .events = POLLIN};
	struct signalfd_siginfo si;
	return poll(&p, 1, ms) > 0 && read(sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si);
}

int cb_preflight_run(struct cb_conn *c, const struct cb_preflight_opts *o, bool quiet, int sigfd,
		     json_t **out, struct cb_err *e)
{
	enum cb_pf_require req = o->require ? o->require : CB_PF_WARN;
	json_t *pf = *out = base_json(o, req);
	if (!pf)
		return cb_err_usage(e, "out of memory");
	if (!c || req == CB_PF_OFF)
		return 0;
	double t0 = cb_now_s(), wait_s = (double)o->wait_ns / 1e9;
	bool said = false;
	char why[256], line[768];
	for (;;) {
		struct cb_cstate st;
		json_t *reasons = json_array();
		if (!reasons)
			return cb_err_usage(e, "out of memory");
		if (cb_cstate_fetch(c, &st, why, sizeof(why)) < 0) {
			/* a client without the caps runs, as telemetry does */
			if (!quiet)
				fprintf(stderr,
					"preflight: %s: the cluster's state is not checked\n", why);
			json_decref(reasons);
			return 0;
		}
		/* which OSDs are down and which out, by id: best effort, the
		 * counts of 'status' stand in without it */
		char why_osds[256];
		cb_cstate_fetch_osds(c, &st, why_osds, sizeof(why_osds));
		bool ready = cb_cstate_ready(&st, req, o->allow, o->nallow, reasons);
		double waited = cb_now_s() - t0;
		set_state(pf, &st);
		json_object_set_new(pf, "reasons", reasons);
		json_object_set_new(pf, "waited_s", json_real(said ? waited : 0));
		if (ready) {
			json_object_set_new(pf, "verdict", json_string(said ? "waited" : "ready"));
			return 0;
		}
		join(reasons, line, sizeof(line));
		double limit = wait_s;
		if (cb_cstate_transient(&st) && limit < TRANSIENT_S)
			limit = TRANSIENT_S;
		if (waited >= limit) {
			char d[48] = "";
			if (said)
				snprintf(d, sizeof(d), " after waiting %.0f s", waited);
			json_object_set_new(pf, "verdict", json_string("refused"));
			return cb_err_cluster(e, -EAGAIN,
					      "cluster not ready%s: %s (preflight require: %s)", d,
					      line, cb_pf_require_name(req));
		}
		/* the moment a new pool's PGs peer is no news: only the wait the
		 * profile asked for is said */
		if (!said && !quiet && o->wait_ns) {
			char d[32];
			fprintf(
			    stderr,
			    "cephbench: cluster not ready: %s (preflight require: %s); waiting up "
			    "to %s\n",
			    line, cb_pf_require_name(req),
			    cb_format_duration((uint64_t)(limit * 1e9), d, sizeof(d)));
		}
		said = true;
		/* never a negative timeout: poll would wait for ever */
		double left = limit - waited;
		int ms = left * 1000 < POLL_MS ? (int)(left * 1000) + 1 : POLL_MS;
		if (ms < 1)
			ms = 1;
		if (signalled(sigfd, ms))
			return -EINTR;
	}
}

void cb_preflight_text(const json_t *pf, FILE *out)
{
	const char *v = json_string_value(json_object_get(pf, "verdict"));
	const char *req = json_string_value(json_object_get(pf, "require"));
	const char *h = json_string_value(json_object_get(pf, "health"));
	if (!v)
		return;
	if (strcmp(v, "off") == 0) {
		fprintf(out, "preflight: off (%s)\n",
			req && strcmp(req, "off") == 0 ? "--no-preflight"
						       : "the cluster's status could not be read");
		return;
	}
	char checks[512];
	join(json_object_get(pf, "checks"), checks, sizeof(checks));
	fprintf(out, "preflight: %s", v);
	if (strcmp(v, "waited") == 0)
		fprintf(out, " %.1f s", json_number_value(json_object_get(pf, "waited_s")));
	fprintf(out, " (require: %s): %s%s%s%s\n", req, h ? h : "?", checks[0] ? " (" : "", checks,
		checks[0] ? ")" : "");
}

bool cb_preflight_refused(const json_t *rec, char *buf, size_t len)
{
	const json_t *pf = json_object_get(rec, "preflight");
	const char *v = json_string_value(json_object_get(pf, "verdict"));
	if (!v || strcmp(v, "refused") != 0)
		return false;
	join(json_object_get(pf, "reasons"), buf, len);
	return true;
}
