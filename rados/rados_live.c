/* Whether a run is live, asked of the cluster rather than of a host: while
 * a phase of a run uses its objects, it watches its record (<run>.meta),
 * and answers a notify there with who it is. A cleanup or a namesake run,
 * on this host or another, notifies first and leaves a run that answers
 * alone. librados keeps the watch up across OSD restarts on its own, and
 * a killed run's watch answers nothing (the OSDs drop it after
 * osd_client_watch_timeout): a killed run's objects stay removable. */
#include "rados_priv.h"

#include <errno.h>
#include <rados/rados_types.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* What a live run answers begins so: a watcher of a user's object named
 * like a record answers something else, and does not count. */
#define LIVE_PREFIX "cephbench live run: "

/* A live run answers at once, from librados's own thread; a watch that
 * does not answer within this is a killed run's, left until the OSDs drop
 * it. */
#define LIVE_ASK_MS 3000

static void on_notify(void *arg, uint64_t notify_id, uint64_t cookie, uint64_t notifier, void *data,
		      size_t len)
{
	struct rados_live *l = arg;
	(void)notifier;
	(void)data;
	(void)len;
	rados_notify_ack(l->io, l->name, notify_id, cookie, l->who, (int)strlen(l->who));
}

/* librados re-establishes the watch itself when it can; a watch it lost
 * only leaves the run unprotected, which the run's end finds out (its
 * record gone or another run's). */
static void on_error(void *arg, uint64_t cookie, int err)
{
	(void)arg;
	(void)cookie;
	(void)err;
}

int cb_rados_live_hold(rados_ioctx_t io, const char *run, struct rados_live *l)
{
	char host[64] = "?";
	gethostname(host, sizeof(host));
	host[sizeof(host) - 1] = '\0';
	l->io = io;
	cb_rados_meta_name(l->name, sizeof(l->name), run, 0);
	snprintf(l->who, sizeof(l->who), LIVE_PREFIX "pid %d on host %s", (int)getpid(), host);
	int r = rados_watch2(io, l->name, &l->cookie, on_notify, on_error, l);
	l->held = r == 0;
	return r;
}

void cb_rados_live_drop(struct rados_live *l)
{
	if (!l->held)
		return;
	rados_unwatch2(l->io, l->cookie);
	/* no callback may run on l once the caller frees it */
	rados_watch_flush(rados_ioctx_get_cluster(l->io));
	l->held = false;
}

int cb_rados_live_ask(rados_ioctx_t io, const char *run, char *who, size_t n)
{
	char name[128];
	char *reply = NULL;
	size_t len = 0;
	cb_rados_meta_name(name, sizeof(name), run, 0);
	int r = rados_notify2(io, name, "live?", 5, LIVE_ASK_MS, &reply, &len);
	int live = 0;
	/* a watcher that did not answer (a killed run's) makes it -ETIMEDOUT;
	 * those that did are in the reply all the same */
	if (reply && (r == 0 || r == -ETIMEDOUT)) {
		struct notify_ack_t *acks = NULL;
		struct notify_timeout_t *late = NULL;
		size_t na = 0, nl = 0;
		r = rados_decode_notify_response(reply, len, &acks, &na, &late, &nl);
		for (size_t i = 0; r == 0 && i < na && !live; i++) {
			const struct notify_ack_t *a = &acks[i];
			size_t pl = strlen(LIVE_PREFIX);
			if (a->payload && a->payload_len > pl &&
			    memcmp(a->payload, LIVE_PREFIX, pl) == 0) {
				live = 1;
				snprintf(who, n, "%.*s", (int)(a->payload_len - pl),
					 a->payload + pl);
			}
		}
		if (r == 0)
			rados_free_notify_response(acks, na, late);
	}
	if (reply)
		rados_buffer_free(reply);
	if (r == -ENOENT || r == -ETIMEDOUT)
		r = 0; /* no record, or only killed runs' watches: nobody live */
	return r < 0 ? r : live;
}
