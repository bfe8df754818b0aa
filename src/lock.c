/* The per-cluster run lock (lock.h): flock on <run dir>/cephbench-<fsid>.lock,
 * the holder's pid and run written into the file for the next run's refusal. */
#include "lock.h"
#include "shquote.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

/* How often a --wait run tries the lock again, and how long a refused run
 * waits for a holder that has the lock but has not written its pid yet. */
#define RETRY_MS       250
#define HOLDER_TRIES   40
#define HOLDER_WAIT_MS 50

static int run_dir_path(char *buf, size_t n, struct cb_err *e)
{
	const char *env = getenv("CEPHBENCH_RUN_DIR"), *xdg = getenv("XDG_RUNTIME_DIR");
	int len;
	if (env && *env)
		len = snprintf(buf, n, "%s", env);
	else if (geteuid() == 0)
		len = snprintf(buf, n, "/run/cephbench");
	else if (xdg && *xdg)
		len = snprintf(buf, n, "%s/cephbench", xdg);
	else
		len = snprintf(buf, n, "/tmp/cephbench-%u", (unsigned)geteuid());
	if (len < 0 || (size_t)len >= n)
		return cb_err_usage(e, "run directory '%s': path too long: set CEPHBENCH_RUN_DIR",
				    buf);
	return 0;
}

/* Open the run directory, made 0700 if missing. One that another user owns,
 * or others may write to, could hold a planted file: refused. */
static int open_run_dir(const char *dir, struct cb_err *e)
{
	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		return cb_err_usage(e,
				    "run directory %s: cannot create it: %s: set CEPHBENCH_RUN_DIR",
				    dir, strerror(errno));
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return cb_err_usage(
		    e,
		    "run directory %s: %s (a symlink or not a directory?): remove it "
		    "or set CEPHBENCH_RUN_DIR",
		    dir, strerror(errno));
	struct stat st;
	char cmd[CB_SH_CMD_MAX];
	int r = 0;
	if (fstat(fd, &st) < 0)
		r = cb_err_usage(e, "run directory %s: %s", dir, strerror(errno));
	else if (st.st_uid != geteuid())
		r = cb_err_usage(
		    e,
		    "run directory %s belongs to uid %u, not to us (uid %u): remove it "
		    "or set CEPHBENCH_RUN_DIR",
		    dir, (unsigned)st.st_uid, (unsigned)geteuid());
	else if (st.st_mode & 022)
		r = cb_err_usage(e, "run directory %s is writable by others: make it private (%s)",
				 dir, CB_SH_CMD(cmd, "chmod", "700", "--", dir));
	if (r < 0) {
		close(fd);
		return r;
	}
	return fd;
}

/* What the holder wrote: "pid=N run=R host=H started=T\n". */
struct holder {
	long pid;
	char run[72];
	char started[32];
};

static bool alive(long pid)
{
	return pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM);
}

/* The pid holding an flock on the file (dev, ino), from /proc/locks; 0 when
 * unknown. The file may not say yet: the holder writes it after locking. */
static long flock_holder(const struct stat *st)
{
	FILE *f = fopen("/proc/locks", "re");
	if (!f)
		return 0;
	char line[256], type[16];
	long pid, found = 0;
	unsigned maj, min;
	unsigned long long ino;
	while (!found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%*d: %15s %*s %*s %ld %x:%x:%llu", type, &pid, &maj, &min,
			   &ino) == 5 &&
		    strcmp(type, "FLOCK") == 0 && ino == (unsigned long long)st->st_ino &&
		    maj == major(st->st_dev) && min == minor(st->st_dev))
			found = pid;
	fclose(f);
	return found;
}

/* Parse the holder's record; false while it is missing, half written or not
 * the process /proc/locks names. */
static bool read_holder(int fd, struct holder *h)
{
	char buf[512], *save = NULL;
	struct stat st;
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0 || fstat(fd, &st) < 0)
		return false;
	buf[n] = '\0';
	char *nl = strchr(buf, '\n');
	if (!nl)
		return false;
	*nl = '\0';
	memset(h, 0, sizeof(*h));
	for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		char *end;
		if (strncmp(t, "pid=", 4) == 0) {
			h->pid = strtol(t + 4, &end, 10);
			if (*end)
				h->pid = 0;
		} else if (strncmp(t, "run=", 4) == 0)
			snprintf(h->run, sizeof(h->run), "%s", t + 4);
		else if (strncmp(t, "started=", 8) == 0)
			snprintf(h->started, sizeof(h->started), "%s", t + 8);
	}
	long locker = flock_holder(&st);
	return alive(h->pid) && (locker == 0 || locker == h->pid);
}

/* Record this process as the holder: the next run names it when refused. */
static void write_holder(int fd, const char *run_name)
{
	char host[128] = "?", ts[32], buf[512];
	struct tm tm;
	time_t now = time(NULL);
	gethostname(host, sizeof(host) - 1);
	host[strcspn(host, " \n")] = '\0';
	gmtime_r(&now, &tm);
	strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", &tm);
	int n = snprintf(buf, sizeof(buf), "pid=%ld run=%s host=%s started=%s\n", (long)getpid(),
			 run_name, host, ts);
	/* one write then the truncation: a reader sees the old record, the new
	 * one (maybe with an old tail after its newline), never no newline */
	if (n > 0 && (size_t)n < sizeof(buf) && pwrite(fd, buf, (size_t)n, 0) == n)
		(void)!ftruncate(fd, n);
}

static bool signalled(int sigfd, int timeout_ms)
{
	struct pollfd p = {.fd = sigfd, .events = POLLIN};
	return poll(&p, 1, timeout_ms) > 0 && (p.revents & POLLIN);
}

/* 0 locked, 1 held by another, -errno. */
static int try_lock(int fd)
{
	while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		if (errno == EWOULDBLOCK)
			return 1;
		if (errno != EINTR)
			return -errno;
	}
	return 0;
}

/* The lock is held by another: fill h, or the lock came free (0). */
static int find_holder(int fd, struct holder *h)
{
	for (int i = 0; i < HOLDER_TRIES; i++) {
		if (read_holder(fd, h))
			return 1;
		int r = try_lock(fd);
		if (r <= 0)
			return r;
		poll(NULL, 0, HOLDER_WAIT_MS);
	}
	struct stat st;
	memset(h, 0, sizeof(*h));
	h->pid = fstat(fd, &st) == 0 ? flock_holder(&st) : 0;
	return 1;
}

static void describe(const struct holder *h, const char *path, char *buf, size_t n)
{
	if (h->pid > 0 && h->run[0])
		snprintf(buf, n, "pid %ld (run '%s'%s%s, lock %s)", h->pid, h->run,
			 h->started[0] ? " since " : "", h->started, path);
	else if (h->pid > 0)
		snprintf(buf, n, "pid %ld (lock %s)", h->pid, path);
	else
		snprintf(buf, n, "another cephbench (its pid not recorded; lock %s)", path);
}

int cb_lock_take(const struct cb_lock_opts *o, struct cb_err *e)
{
	char dir[4096], name[72], path[4200], who[4400];
	int r = run_dir_path(dir, sizeof(dir), e);
	if (r < 0)
		return r;
	/* an fsid is a UUID; anything else must not make a path */
	size_t k = 0;
	for (const char *s = o->fsid; *s && k < 64; s++, k++)
		name[k] = (*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'z') ||
				  (*s >= 'A' && *s <= 'Z') || *s == '-'
			      ? *s
			      : '_';
	name[k] = '\0';
	snprintf(path, sizeof(path), "%s/cephbench-%s.lock", dir, name);
	int dfd = open_run_dir(dir, e);
	if (dfd < 0)
		return dfd;
	char file[96];
	snprintf(file, sizeof(file), "cephbench-%s.lock", name);
	int fd = openat(dfd, file, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	close(dfd);
	if (fd < 0)
		return cb_err_usage(e, "lock file %s: %s: remove it or set CEPHBENCH_RUN_DIR", path,
				    strerror(errno));
	bool told = false;
	for (;;) {
		struct holder h;
		r = try_lock(fd);
		if (r == 1)
			r = find_holder(fd, &h);
		if (r == 0) {
			write_holder(fd, o->run_name);
			return fd;
		}
		if (r < 0)
			break;
		describe(&h, path, who, sizeof(who));
		if (!o->wait) {
			r = cb_err_cluster(e, -EBUSY,
					   "cluster %s is being benchmarked by %s: wait for it, or "
					   "pass --wait",
					   o->fsid, who);
			break;
		}
		if (!told && !o->quiet)
			fprintf(stderr,
				"waiting for %s to finish benchmarking cluster %s (Ctrl-C gives "
				"up)\n",
				who, o->fsid);
		told = true;
		if (signalled(o->sigfd, RETRY_MS)) {
			close(fd);
			return -EINTR;
		}
	}
	close(fd);
	if (r != -EBUSY)
		return cb_err_usage(e, "lock file %s: %s: remove it or set CEPHBENCH_RUN_DIR", path,
				    strerror(-r));
	return r;
}

int cb_lock_check(const char *fsid, char *dir, size_t n, char *who, size_t wn, struct cb_err *e)
{
	struct stat st;
	char path[4200], name[72];
	int r = run_dir_path(dir, n, e);
	if (r < 0)
		return r;
	/* absent: a run makes it, where it may write */
	if (lstat(dir, &st) < 0 && errno == ENOENT) {
		char parent[4096];
		snprintf(parent, sizeof(parent), "%s", dir);
		char *slash = strrchr(parent, '/');
		if (slash)
			*(slash == parent ? slash + 1 : slash) = '\0';
		if (access(slash ? parent : ".", W_OK) < 0)
			return cb_err_usage(e,
					    "run directory %s: cannot create it in %s: %s: set "
					    "CEPHBENCH_RUN_DIR",
					    dir, slash ? parent : ".", strerror(errno));
		return 2;
	}
	int dfd = open_run_dir(dir, e);
	if (dfd < 0)
		return dfd;
	if (faccessat(dfd, ".", W_OK, AT_EACCESS) < 0) {
		r = cb_err_usage(e, "run directory %s: not writable: %s: set CEPHBENCH_RUN_DIR",
				 dir, strerror(errno));
		close(dfd);
		return r;
	}
	if (!fsid) {
		close(dfd);
		return 0;
	}
	size_t k = 0;
	for (const char *s = fsid; *s && k < 64; s++, k++)
		name[k] = (*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'z') ||
				  (*s >= 'A' && *s <= 'Z') || *s == '-'
			      ? *s
			      : '_';
	name[k] = '\0';
	char file[96];
	snprintf(file, sizeof(file), "cephbench-%s.lock", name);
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	/* never created here: no file, no holder */
	int fd = openat(dfd, file, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	close(dfd);
	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0)
		return cb_err_usage(e, "lock file %s: %s: remove it or set CEPHBENCH_RUN_DIR", path,
				    strerror(errno));
	r = try_lock(fd);
	if (r == 1) {
		struct holder h;
		r = find_holder(fd, &h);
		if (r == 1)
			describe(&h, path, who, wn);
	}
	close(fd); /* a lock taken here goes with it */
	if (r < 0)
		return cb_err_usage(e, "lock file %s: %s: remove it or set CEPHBENCH_RUN_DIR", path,
				    strerror(-r));
	return r;
}

void cb_lock_release(int fd)
{
	if (fd >= 0)
		close(fd);
}
