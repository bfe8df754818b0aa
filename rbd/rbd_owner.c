/* Whose an image is: the run mark that makes a `cephbench.<run>.<n>` image
 * ours, and the owner mark that tells a killed run's lingering watch from a
 * live run's. A live client must never be blocklisted, so a process counts
 * as dead only when the mark names this very boot of this machine and that
 * pid, with the same start time, no longer exists. */
#include "conn.h"
#include "rbd_priv.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Longer than the OSDs' drop of a blocklisted watch, short enough that an
 * address recycled later is not refused for long. */
#define BLOCKLIST_SECS 120

static void read_line(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "r");
	buf[0] = '\0';
	if (f) {
		if (!fgets(buf, (int)n, f))
			buf[0] = '\0';
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = '\0';
}

/* "<machine-id>/<boot-id>": host names repeat across machines and
 * containers, these do not. Empty when unknown. */
static void boot_key(char *buf, size_t n)
{
	char machine[64], boot[64];
	read_line("/etc/machine-id", machine, sizeof(machine));
	read_line("/proc/sys/kernel/random/boot_id", boot, sizeof(boot));
	if (machine[0] && boot[0])
		snprintf(buf, n, "%s/%s", machine, boot);
	else
		buf[0] = '\0';
}

/* Field 22 of /proc/PID/stat (start time in clock ticks since boot): a pid
 * reused by another process has another one. 0 when the process is gone. */
static unsigned long long start_time(int pid)
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	read_line(path, buf, sizeof(buf));
	const char *p = strrchr(buf, ')'); /* the command name may hold spaces */
	unsigned long long t = 0;
	if (p && sscanf(p + 1,
			" %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d "
			"%*d %*d %*d %*d %llu",
			&t) != 1)
		t = 0;
	return t;
}

int cb_rbd_mark_owner(struct cb_conn *conn, rbd_image_t img)
{
	char key[160], v[320];
	boot_key(key, sizeof(key));
	snprintf(v, sizeof(v), "%s %d %llu %llu", key[0] ? key : "-", (int)getpid(),
		 start_time((int)getpid()),
		 (unsigned long long)rados_get_instance_id(cb_conn_rados(conn)));
	return rbd_metadata_set(img, CB_RBD_KEY_OWNER, v);
}

/* True when the owner mark names a process of this boot that is gone. */
static bool owner_dead(const char *owner, unsigned long long *gid)
{
	char okey[160], key[160];
	unsigned long long t;
	int pid;
	boot_key(key, sizeof(key));
	if (!key[0] || sscanf(owner, "%159s %d %llu %llu", okey, &pid, &t, gid) != 4 || pid <= 0)
		return false;
	return strcmp(okey, key) == 0 && start_time(pid) != t;
}

int cb_rbd_inspect(struct cb_conn *conn, rados_ioctx_t io, const char *name, const char *run,
		   bool *ours, unsigned *live)
{
	char mark[80], owner[320];
	unsigned long long gid = 0;
	rbd_image_t img;
	int r = rbd_open_read_only(io, name, &img, NULL);
	if (r < 0)
		return r;
	*ours =
	    cb_rbd_meta_get(img, CB_RBD_KEY_RUN, mark, sizeof(mark)) == 0 && strcmp(mark, run) == 0;
	bool dead = *ours && cb_rbd_meta_get(img, CB_RBD_KEY_OWNER, owner, sizeof(owner)) == 0 &&
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
