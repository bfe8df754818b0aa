/* Whose an image is: the run mark that makes a `cephbench.<run>.<n>` image
 * ours, and the owner mark (src/owner.h, plus the client id) that tells a
 * killed run's lingering watch from a live run's. A live client must never
 * be blocklisted. */
#include "conn.h"
#include "owner.h"
#include "blk_creating.h"
#include "rbd_priv.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Longer than the OSDs' drop of a blocklisted watch, short enough that an
 * address recycled later is not refused for long. */
#define BLOCKLIST_SECS 120

int cb_rbd_mark_owner(struct cb_conn *conn, rbd_image_t img)
{
	char mark[256], v[320];
	cb_owner_mark(mark, sizeof(mark), ' ');
	snprintf(v, sizeof(v), "%s %llu", mark,
		 (unsigned long long)rados_get_instance_id(cb_conn_rados(conn)));
	return rbd_metadata_set(img, CB_RBD_KEY_OWNER, v);
}

/* True when the owner mark names a process of this boot that is gone; gid
 * is its client id, the watch to blocklist. */
static bool owner_dead(const char *owner, unsigned long long *gid)
{
	int pid;
	return cb_owner_state(owner, &pid) == CB_OWNER_GONE &&
	       sscanf(owner, "%*s %*d %*u %llu", gid) == 1;
}

int cb_rbd_inspect(struct cb_conn *conn, rados_ioctx_t io, const char *name, const char *run,
		   bool *ours, unsigned *live)
{
	char owner[320];
	unsigned long long gid = 0;
	rbd_image_t img;
	int r = rbd_open_read_only(io, name, &img, NULL);
	if (r < 0)
		return r;
	*ours = cb_blk_is_runs(io, img, name, CB_RBD_KEY_RUN, run);
	bool dead = *ours && cb_blk_meta_get(img, CB_RBD_KEY_OWNER, owner, sizeof(owner)) == 0 &&
		    owner_dead(owner, &gid);
	rbd_image_watcher_t w[16];
	size_t nw = sizeof(w) / sizeof(w[0]);
	*live = 0;
	r = rbd_watchers_list(img, w, &nw);
	if (r == -ERANGE) {
		*live = (unsigned)nw; /* more than we list: busy either way */
		r = 0;
	} else if (r == 0) {
		struct cb_err ignored = {0}; /* refused: the watch stays, the caller waits */
		for (size_t i = 0; i < nw; i++)
			if (!dead || (unsigned long long)w[i].id != gid ||
			    cb_conn_blocklist(conn, w[i].addr, BLOCKLIST_SECS, &ignored) < 0)
				(*live)++;
		rbd_watchers_list_cleanup(w, nw);
	}
	rbd_close(img);
	return r;
}
