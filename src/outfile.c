/* Output files (outfile.h): the path walk, the rules on the directory and
 * on the name, and the writes. */
#include "outfile.h"

#include "infile.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <pwd.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* Symlinks followed in one path, as the kernel's MAXSYMLINKS. */
#define MAX_LINKS 40
/* How long a FIFO's reader or a terminal may take nothing before the write
 * gives up: the run's signals go to its signalfd, so a reader that stopped
 * reading would otherwise hold the process for good. */
#define STALL_MS 60000

enum kind {
	K_NEW,	   /* no such name yet */
	K_FILE,	   /* a regular file */
	K_THROUGH, /* written through fd */
};

struct cb_out {
	enum cb_out_use use;
	enum kind kind;
	int dfd;	 /* the directory (O_PATH) */
	int fd;		 /* K_THROUGH: the FIFO, device or stream */
	int stream;	 /* 1 or 2 when fd is a copy of stdout or stderr, else 0 */
	struct stat dir; /* the directory, when opened */
	bool created;	 /* cb_out_create made the file (cdev, cino) */
	dev_t cdev;
	ino_t cino;
	int held;	 /* CB_OUT_DB: the file, flock(LOCK_SH) held (hold) */
	char *name;	 /* the last component of the path */
	char *dir_path;	 /* the directory's own path, or as given */
	char *db_path;	 /* dir_path/name */
	char what[1100]; /* "--json PATH", for messages */
};

/* A group that is its user's alone: named as the user, the user's primary
 * group, no other members (Debian's user private groups, whose umask 002
 * makes every directory group-writable). */
static bool private_group(uid_t uid, gid_t gid)
{
	struct passwd pw, *pp = NULL;
	struct group gr, *gp = NULL;
	char pb[4096], gb[16384];
	return getpwuid_r(uid, &pw, pb, sizeof(pb), &pp) == 0 && pp &&
	       getgrgid_r(gid, &gr, gb, sizeof(gb), &gp) == 0 && gp && pw.pw_gid == gid &&
	       strcmp(gr.gr_name, pw.pw_name) == 0 && !gr.gr_mem[0];
}

/* Others may make and remove names in the directory: the world, or a group
 * that is not its owner's private one. */
static bool shared(const struct stat *d)
{
	return (d->st_mode & S_IWOTH) ||
	       ((d->st_mode & S_IWGRP) && !private_group(d->st_uid, d->st_gid));
}

/* Devices that take any bytes and do nothing on open: /dev/null, /dev/zero,
 * /dev/full (1:3, 1:5, 1:7), virtual consoles (4:0-63), /dev/tty and
 * /dev/console (5:0, 5:1), pseudo-terminals (136-143:*). Other character
 * devices act when opened or written (a watchdog, a tape, /dev/mem, a
 * serial line's hardware), so a typo must not reach them. */
static bool sink_device(dev_t rdev)
{
	unsigned ma = major(rdev), mi = minor(rdev);
	return (ma == 1 && (mi == 3 || mi == 5 || mi == 7)) || (ma == 4 && mi < 64) ||
	       (ma == 5 && mi <= 1) || (ma >= 136 && ma <= 143);
}

/* Open the directory dir as the kernel would, except that a symlink in a
 * directory others may write to is followed only when it is ours or that
 * directory owner's: the rule of the kernel's fs.protected_symlinks, which
 * hosts may have off, so that a link another user planted in /tmp cannot
 * take a root run into /root. Each link is read from the link itself
 * (O_PATH), never looked up twice. */
static int open_dir(struct cb_out *o, const char *dir, struct cb_err *e)
{
	char rest[2 * PATH_MAX], link[PATH_MAX], comp[NAME_MAX + 1];
	int links = 0, err = 0;
	if (snprintf(rest, sizeof(rest), "%s", dir) >= (int)sizeof(rest))
		return cb_err_usage(e, "%s: cannot open: %s", o->what, strerror(ENAMETOOLONG));
	int cur = open(rest[0] == '/' ? "/" : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	struct stat cst, st;
	if (cur < 0 || fstat(cur, &cst) < 0)
		err = errno;
	for (char *p = rest; !err;) {
		while (*p == '/')
			p++;
		size_t n = strcspn(p, "/");
		if (n == 0)
			break;
		if (n > NAME_MAX) {
			err = ENAMETOOLONG;
			break;
		}
		memcpy(comp, p, n);
		comp[n] = '\0';
		p += n;
		if (strcmp(comp, ".") == 0)
			continue;
		int fd = openat(cur, comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st) < 0) {
			err = errno;
			if (fd >= 0)
				close(fd);
			break;
		}
		if (S_ISDIR(st.st_mode)) {
			close(cur);
			cur = fd;
			cst = st;
			continue;
		}
		if (!S_ISLNK(st.st_mode)) {
			close(fd);
			err = ENOTDIR;
			break;
		}
		if (shared(&cst) && st.st_uid != geteuid() && st.st_uid != cst.st_uid) {
			close(fd);
			close(cur);
			return cb_err_usage(e,
					    "%s: its path goes through symlink '%s' of uid %u in a "
					    "directory others may write to: not followed (anyone "
					    "there could have planted it); give the real path",
					    o->what, comp, (unsigned)st.st_uid);
		}
		ssize_t k = readlinkat(fd, "", link, sizeof(link) - 1);
		int rerr = errno;
		close(fd);
		size_t left = strlen(p);
		if (k <= 0 || ++links > MAX_LINKS || (size_t)k + 1 + left >= sizeof(rest)) {
			err = k < 0		  ? rerr
			      : k == 0		  ? ENOENT
			      : links > MAX_LINKS ? ELOOP
						  : ENAMETOOLONG;
			break;
		}
		/* the link's target, then what was left of the path */
		memmove(rest + k + 1, p, left + 1);
		memcpy(rest, link, (size_t)k);
		rest[k] = '/';
		p = rest;
		if (rest[0] == '/') {
			close(cur);
			cur = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
			if (cur < 0 || fstat(cur, &cst) < 0)
				err = errno;
		}
	}
	if (err) {
		if (cur >= 0)
			close(cur);
		return cb_err_usage(e, "%s: cannot open: %s (its directory must exist)", o->what,
				    strerror(err));
	}
	o->dfd = cur;
	o->dir = cst;
	return 0;
}

/* Who may change the names in the directory. A report goes into a new
 * file renamed in, so a shared directory is safe only with the sticky bit
 * (no one removes or renames another's names: /tmp). A history is opened
 * by name, by SQLite, which also makes FILE-journal there by name on every
 * store: only we (or root) may write there. */
static int check_dir(struct cb_out *o, struct cb_err *e)
{
	const struct stat *d = &o->dir;
	unsigned mode = (unsigned)(d->st_mode & 07777);
	if (o->use == CB_OUT_DB && d->st_uid != geteuid() && d->st_uid != 0)
		return cb_err_usage(e,
				    "%s: its directory %s belongs to uid %u, who could swap the "
				    "history or plant its journal: put it in a directory of yours",
				    o->what, o->dir_path, (unsigned)d->st_uid);
	if (o->use == CB_OUT_DB && shared(d))
		return cb_err_usage(e,
				    "%s: its directory %s may be written by others (mode %04o), "
				    "who could plant the journal SQLite makes there by name: put "
				    "the history in a directory only you can write",
				    o->what, o->dir_path, mode);
	if (shared(d) && !(d->st_mode & S_ISVTX))
		return cb_err_usage(e,
				    "%s: its directory %s may be written by others (mode %04o) "
				    "and has no sticky bit, so the file could be swapped: chmod "
				    "go-w it, or write elsewhere",
				    o->what, o->dir_path, mode);
	return 0;
}

/* A name in a shared (sticky) directory that is neither ours nor the
 * directory owner's was made by another user: not written, as the kernel's
 * protected_regular and protected_fifos would have it. */
static int check_owner(struct cb_out *o, const struct stat *st, struct cb_err *e)
{
	if (!shared(&o->dir) || st->st_uid == geteuid() || st->st_uid == o->dir.st_uid)
		return 0;
	return cb_err_usage(e,
			    "%s: %s of uid %u in a directory others may write to: not written; "
			    "remove it or give another name",
			    o->what, cb_file_kind(st->st_mode), (unsigned)st->st_uid);
}

/* The directory must take new files: the temporary file, or a history and
 * its journal. */
static int check_writable(struct cb_out *o, struct cb_err *e)
{
	char p[64];
	snprintf(p, sizeof(p), "/proc/self/fd/%d", o->dfd);
	/* without /proc the write itself will tell */
	if (access(p, W_OK | X_OK) == 0 || (errno != EACCES && errno != EROFS && errno != EPERM))
		return 0;
	if (o->use == CB_OUT_DB)
		return cb_err_usage(e,
				    "%s: cannot write in %s: %s (SQLite writes its journal there; "
				    "make it writable or put the history elsewhere)",
				    o->what, o->dir_path, strerror(errno));
	return cb_err_usage(e, "%s: cannot write in %s: %s", o->what, o->dir_path, strerror(errno));
}

/* stdout or stderr when t is the file one of them is open on (/dev/stdout,
 * /proc/self/fd/2), else 0. */
static int std_stream(const struct stat *t)
{
	struct stat s;
	for (int fd = 1; fd <= 2; fd++)
		if (fstat(fd, &s) == 0 && s.st_dev == t->st_dev && s.st_ino == t->st_ino)
			return fd;
	return 0;
}

/* Open the FIFO or device the name is (follow: through the symlink it is)
 * for writing, without waiting for a FIFO's reader. */
static int open_through(struct cb_out *o, const struct stat *want, bool follow, struct cb_err *e)
{
	int fd = openat(o->dfd, o->name,
			O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW));
	if (fd < 0 && errno == ENXIO && S_ISFIFO(want->st_mode))
		return cb_err_usage(e,
				    "%s: a FIFO with no reader: not waited for; start its reader "
				    "first, or give a regular file",
				    o->what);
	if (fd < 0)
		return cb_err_usage(e, "%s: cannot open: %s", o->what, strerror(errno));
	struct stat st;
	if (fstat(fd, &st) < 0 || st.st_dev != want->st_dev || st.st_ino != want->st_ino) {
		close(fd);
		return cb_err_usage(e, "%s: changed while it was opened: not written", o->what);
	}
	o->fd = fd;
	o->kind = K_THROUGH;
	return 0;
}

/* A symlink is never replaced. It is followed only to what is written
 * through anyway (our own stdout or stderr: /dev/stdout; a FIFO; a sink
 * device); a link to a regular file could be another user's way to make a
 * root run overwrite a file of root's. */
static int check_symlink(struct cb_out *o, struct cb_err *e)
{
	struct stat t;
	if (fstatat(o->dfd, o->name, &t, 0) < 0)
		return cb_err_usage(e,
				    "%s: a symlink to nothing (%s): never replaced; remove it or "
				    "give another name",
				    o->what, strerror(errno));
	int s = std_stream(&t);
	if (s) {
		o->fd = fcntl(s, F_DUPFD_CLOEXEC, 3);
		if (o->fd < 0)
			return cb_err_usage(e, "%s: %s", o->what, strerror(errno));
		o->stream = s;
		o->kind = K_THROUGH;
		return 0;
	}
	if (S_ISFIFO(t.st_mode) || (S_ISCHR(t.st_mode) && sink_device(t.st_rdev)))
		return open_through(o, &t, true, e);
	return cb_err_usage(e,
			    "%s: a symlink to %s: never replaced, and followed only to a FIFO, "
			    "a terminal, /dev/null or this run's own output; give the file's own "
			    "path",
			    o->what, cb_file_kind(t.st_mode));
}

static int check_name(struct cb_out *o, struct cb_err *e)
{
	struct stat st;
	if (fstatat(o->dfd, o->name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno != ENOENT)
			return cb_err_usage(e, "%s: cannot open: %s", o->what, strerror(errno));
		o->kind = K_NEW;
		return check_writable(o, e);
	}
	if (S_ISREG(st.st_mode)) {
		/* SQLite writes the file in place: another name of it would
		 * change too (a hard link to a file of someone else's) */
		if (o->use == CB_OUT_DB && st.st_nlink > 1)
			return cb_err_usage(e,
					    "%s: the file has %ju names (hard links), which a "
					    "store would change too: copy it to a file of its own",
					    o->what, (uintmax_t)st.st_nlink);
		o->kind = K_FILE;
		return check_owner(o, &st, e) ?: check_writable(o, e);
	}
	if (o->use == CB_OUT_DB)
		return cb_err_usage(e,
				    "%s: %s, not a regular file: a history is a regular file (or "
				    "a new name)%s",
				    o->what, cb_file_kind(st.st_mode),
				    S_ISLNK(st.st_mode) ? "; give the file's own path" : "");
	if (check_owner(o, &st, e) < 0)
		return -EINVAL;
	if (S_ISLNK(st.st_mode))
		return check_symlink(o, e);
	if (S_ISFIFO(st.st_mode) || (S_ISCHR(st.st_mode) && sink_device(st.st_rdev)))
		return open_through(o, &st, false, e);
	if (S_ISCHR(st.st_mode))
		return cb_err_usage(e,
				    "%s: a character device other than /dev/null, /dev/zero, "
				    "/dev/full or a terminal: not opened (opening a device may act "
				    "on it); give a regular file",
				    o->what);
	return cb_err_usage(e, "%s: %s: not written; give a regular file", o->what,
			    cb_file_kind(st.st_mode));
}

/* SQLite's FILE-journal, when there, must be a file it can roll back from:
 * anything else would fail the store after the run. */
static int check_journal(struct cb_out *o, struct cb_err *e)
{
	char j[NAME_MAX + 16];
	struct stat st;
	snprintf(j, sizeof(j), "%s-journal", o->name);
	if (fstatat(o->dfd, j, &st, AT_SYMLINK_NOFOLLOW) < 0 || S_ISREG(st.st_mode))
		return 0;
	return cb_err_usage(e, "%s: its journal %s/%s is %s, not a file: remove it", o->what,
			    o->dir_path, j, cb_file_kind(st.st_mode));
}

/* Hold a shared flock on the history's file, the one under the name now:
 * a first store that failed removes the file it made only when no other
 * cephbench has it open (cb_out_discard), or that one would store into a
 * removed file. The flock is apart from SQLite's fcntl locks; the fd is
 * closed only once SQLite has closed the file (closing any fd of a file
 * drops the process's fcntl locks on it). 0 held, 1 when the name went
 * away meanwhile (so removed), or -errno with e set. */
static int hold(struct cb_out *o, struct cb_err *e)
{
	struct stat a, b;
	int fd = openat(o->dfd, o->name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT)
		return 1;
	if (fd < 0 || fstat(fd, &a) < 0) {
		int err = errno;
		if (fd >= 0)
			close(fd);
		return cb_err_usage(e, "%s: cannot open: %s", o->what, strerror(err));
	}
	if (!S_ISREG(a.st_mode)) {
		close(fd);
		return cb_err_usage(e, "%s: became %s: not opened", o->what,
				    cb_file_kind(a.st_mode));
	}
	while (flock(fd, LOCK_SH) < 0 && errno == EINTR)
		;
	if (fstatat(o->dfd, o->name, &b, AT_SYMLINK_NOFOLLOW) < 0 || b.st_dev != a.st_dev ||
	    b.st_ino != a.st_ino) {
		close(fd);
		return 1;
	}
	if (o->held >= 0)
		close(o->held);
	o->held = fd;
	return 0;
}

/* The directory's own path, from the kernel; the given one without /proc. */
static char *own_path(int dfd, const char *given)
{
	char p[64], buf[PATH_MAX];
	snprintf(p, sizeof(p), "/proc/self/fd/%d", dfd);
	ssize_t n = readlink(p, buf, sizeof(buf) - 1);
	if (n <= 0 || buf[0] != '/')
		return strdup(given);
	buf[n] = '\0';
	return strdup(buf);
}

int cb_out_open(const char *what, const char *path, enum cb_out_use use, struct cb_out **out,
		struct cb_err *e)
{
	*out = NULL;
	struct cb_out *o = calloc(1, sizeof(*o));
	const char *slash = strrchr(path, '/');
	char *dir = !slash	    ? strdup(".")
		    : slash == path ? strdup("/")
				    : strndup(path, slash - path);
	if (!o || !dir || !(o->name = strdup(slash ? slash + 1 : path))) {
		free(dir);
		if (o)
			free(o->name);
		free(o);
		return cb_err_usage(e, "out of memory");
	}
	o->use = use;
	o->dfd = o->fd = o->held = -1;
	snprintf(o->what, sizeof(o->what), "%s", what);
	int r;
	if (!o->name[0] || strcmp(o->name, ".") == 0 || strcmp(o->name, "..") == 0)
		r = cb_err_usage(e, "%s: names a directory: give a file name", what);
	else
		r = open_dir(o, dir, e);
	if (r == 0 && !(o->dir_path = own_path(o->dfd, dir)))
		r = cb_err_usage(e, "out of memory");
	if (r == 0)
		r = check_dir(o, e) ?: check_name(o, e);
	if (r == 0 && use == CB_OUT_DB)
		r = check_journal(o, e);
	if (r == 0 && use == CB_OUT_DB && o->kind == K_FILE && (r = hold(o, e)) == 1) {
		o->kind = K_NEW; /* a failed first store's, removed since */
		r = 0;
	}
	if (r == 0 && use == CB_OUT_DB) {
		size_t n = strlen(o->dir_path) + strlen(o->name) + 2;
		o->db_path = malloc(n);
		if (!o->db_path)
			r = cb_err_usage(e, "out of memory");
		else
			snprintf(o->db_path, n, "%s%s%s", o->dir_path,
				 strcmp(o->dir_path, "/") == 0 ? "" : "/", o->name);
	}
	free(dir);
	if (r < 0) {
		cb_out_close(o);
		return -EINVAL;
	}
	*out = o;
	return 0;
}

/* The content, whole, in memory: the write then knows its own errno (a
 * stdio stream's buffered write loses it, and a full disk read as an I/O
 * error). */
static int render_mem(int (*render)(FILE *f, const void *arg), const void *arg, char **buf,
		      size_t *len)
{
	FILE *f = open_memstream(buf, len);
	if (!f)
		return -errno;
	int r = render(f, arg);
	if (fclose(f) != 0 && r == 0)
		r = -ENOMEM;
	if (r < 0) {
		free(*buf);
		*buf = NULL;
	}
	return r;
}

/* All of buf to fd. A non-blocking fd (a FIFO, a terminal) waits in poll,
 * up to STALL_MS without progress. */
static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);
		if (n > 0) {
			buf += n;
			len -= (size_t)n;
		} else if (n < 0 && errno == EAGAIN) {
			struct pollfd p = {.fd = fd, .events = POLLOUT};
			int k = poll(&p, 1, STALL_MS);
			if (k == 0)
				return -ETIMEDOUT;
			if (k < 0 && errno != EINTR)
				return -errno;
		} else if (n == 0 || errno != EINTR) {
			return n < 0 ? -errno : -EIO;
		}
	}
	return 0;
}

/* A new NAME.tmp.XXXXXX in the directory, never an existing name. */
static int make_temp(struct cb_out *o, char *tmp, size_t n)
{
	static const char az[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	for (int tries = 0; tries < 100; tries++) {
		unsigned char rnd[6];
		char suf[7];
		if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
			return -EAGAIN;
		for (size_t i = 0; i < sizeof(rnd); i++)
			suf[i] = az[rnd[i] % (sizeof(az) - 1)];
		suf[6] = '\0';
		if (snprintf(tmp, n, "%s.tmp.%s", o->name, suf) >= (int)n)
			return -ENAMETOOLONG;
		int fd =
		    openat(o->dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (fd >= 0 || errno != EEXIST)
			return fd < 0 ? -errno : fd;
	}
	return -EEXIST;
}

/* tmp under the name, which was free: never over what appeared there since
 * (-EEXIST). */
static int place_new(struct cb_out *o, const char *tmp)
{
	if (renameat2(o->dfd, tmp, o->dfd, o->name, RENAME_NOREPLACE) == 0)
		return 0;
	if (errno != EINVAL)
		return -errno;
	/* a file system without RENAME_NOREPLACE: a link fails on a name
	 * that exists, too */
	if (linkat(o->dfd, tmp, o->dfd, o->name, 0) != 0)
		return -errno;
	unlinkat(o->dfd, tmp, 0);
	return 0;
}

static int write_renamed(struct cb_out *o, const char *buf, size_t len, struct cb_err *e)
{
	char tmp[NAME_MAX + 16];
	int r = -EEXIST;
	/* again when a file appeared under the name while this one was written */
	for (int round = 0; round < 3 && r == -EEXIST; round++) {
		struct stat st;
		bool exists = fstatat(o->dfd, o->name, &st, AT_SYMLINK_NOFOLLOW) == 0;
		if (!exists && errno != ENOENT)
			return cb_err_usage(e, "%s: cannot write: %s", o->what, strerror(errno));
		if (exists && !S_ISREG(st.st_mode))
			return cb_err_usage(e, "%s: became %s during the run: not replaced",
					    o->what, cb_file_kind(st.st_mode));
		if (exists && check_owner(o, &st, e) < 0)
			return -EINVAL;
		int fd = make_temp(o, tmp, sizeof(tmp));
		if (fd < 0)
			return cb_err_usage(e, "%s: cannot write: %s", o->what, strerror(-fd));
		r = write_all(fd, buf, len);
		/* on the disk before the rename: a crash then leaves the old
		 * file or the new one, never an empty one */
		if (r == 0 && fsync(fd) < 0)
			r = -errno;
		if (close(fd) < 0 && r == 0)
			r = -errno;
		if (r == 0)
			r = exists ? (renameat(o->dfd, tmp, o->dfd, o->name) < 0 ? -errno : 0)
				   : place_new(o, tmp);
		if (r < 0)
			unlinkat(o->dfd, tmp, 0);
	}
	if (r < 0)
		return cb_err_usage(e, "%s: cannot write: %s", o->what, strerror(-r));
	return 0;
}

int cb_out_write(struct cb_out *o, int (*render)(FILE *f, const void *arg), const void *arg,
		 struct cb_err *e)
{
	char *buf = NULL;
	size_t len = 0;
	int r = render_mem(render, arg, &buf, &len);
	if (r < 0)
		return cb_err_usage(e, "%s: cannot write: %s", o->what, strerror(-r));
	if (o->kind != K_THROUGH) {
		r = write_renamed(o, buf, len, e);
		free(buf);
		return r;
	}
	/* what the run printed to the same stream comes first */
	fflush(o->stream == 2 ? stderr : stdout);
	r = write_all(o->fd, buf, len);
	free(buf);
	if (r == -ETIMEDOUT)
		return cb_err_usage(e, "%s: cannot write: its reader took nothing for %d s",
				    o->what, STALL_MS / 1000);
	if (r < 0)
		return cb_err_usage(e, "%s: cannot write: %s", o->what, strerror(-r));
	return 0;
}

bool cb_out_exists(const struct cb_out *o)
{
	return o->kind == K_FILE;
}

const char *cb_out_db_path(const struct cb_out *o)
{
	return o->db_path;
}

int cb_out_create(struct cb_out *o, struct cb_err *e)
{
	for (int tries = 0; tries < 3; tries++) {
		struct stat st;
		int fd = openat(o->dfd, o->name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
				0666);
		if (fd < 0 && errno == EEXIST) {
			/* another first run made it: opened as it is */
			int r = hold(o, e);
			if (r <= 0)
				return r;
			continue;
		}
		if (fd < 0 || fstat(fd, &st) < 0) {
			int err = errno;
			if (fd >= 0)
				close(fd);
			return cb_err_usage(e, "%s: cannot create: %s", o->what, strerror(err));
		}
		flock(fd, LOCK_SH);
		if (o->held >= 0)
			close(o->held);
		o->held = fd;
		o->created = true;
		o->cdev = st.st_dev;
		o->cino = st.st_ino;
		return 0;
	}
	return cb_err_usage(e, "%s: cannot create: others keep making and removing it", o->what);
}

void cb_out_discard(struct cb_out *o)
{
	struct stat st;
	if (!o->created)
		return;
	/* LOCK_EX only when no other cephbench holds the file (hold) */
	if (flock(o->held, LOCK_EX | LOCK_NB) == 0 &&
	    fstatat(o->dfd, o->name, &st, AT_SYMLINK_NOFOLLOW) == 0 && st.st_dev == o->cdev &&
	    st.st_ino == o->cino && st.st_size == 0)
		unlinkat(o->dfd, o->name, 0);
	close(o->held);
	o->held = -1;
	o->created = false;
}

void cb_out_close(struct cb_out *o)
{
	if (!o)
		return;
	if (o->dfd >= 0)
		close(o->dfd);
	if (o->fd >= 0)
		close(o->fd);
	if (o->held >= 0)
		close(o->held);
	free(o->name);
	free(o->dir_path);
	free(o->db_path);
	free(o);
}
