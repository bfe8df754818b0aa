/* The output path rules (src/outfile.c) on real files, device nodes, FIFOs
 * and symlinks in a directory of the test's own: what is written through,
 * what gets a new file renamed in, what is refused, and that nothing
 * refused is touched. Device nodes are copies made with mknod here: the
 * host's /dev/null is never handed to the code (and is checked to still be
 * a character device at the end). As root the ownership rules are tested
 * with uid 65534's files. */
#include "outfile.h"
#include "unit_run.h"

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

static char base[] = "/tmp/check_outfile.XXXXXX";
static const char CONTENT[] = "{\"schema\": \"test\"}\n";

static int render(FILE *f, const void *arg)
{
	return fputs(arg, f) < 0 ? -EIO : 0;
}

/* base/name, in a buffer of its own (each test takes fewer than 256) */
static char *at(const char *name)
{
	static char buf[256][512];
	static int k;
	char *p = buf[k++ % 256];
	snprintf(p, 512, "%s/%s", base, name);
	return p;
}

/* Open path and write CONTENT to it: 0, or the error (its message in e). */
static int put(const char *path, enum cb_out_use use, struct cb_err *e)
{
	struct cb_out *o;
	*e = (struct cb_err){0};
	int r = cb_out_open(path, path, use, &o, e);
	if (r == 0) {
		r = use == CB_OUT_REPORT ? cb_out_write(o, render, CONTENT, e) : 0;
		cb_out_close(o);
	}
	return r;
}

static void assert_refused(const char *path, enum cb_out_use use, const char *why)
{
	struct cb_err e;
	ck_assert_int_lt(put(path, use, &e), 0);
	ck_assert_int_eq(e.exit, CB_EXIT_USAGE);
	ck_assert_msg(strstr(e.msg, why), "%s: '%s' lacks '%s'", path, e.msg, why);
	ck_assert_ptr_null(strchr(e.msg, '\n'));
}

static char *slurp(const char *path)
{
	static char buf[4096];
	FILE *f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static mode_t kind(const char *path)
{
	struct stat st;
	ck_assert_int_eq(lstat(path, &st), 0);
	return st.st_mode & S_IFMT;
}

/* The names in dir that start with prefix (a temporary file left over). */
static int count_prefixed(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	ck_assert_ptr_nonnull(d);
	int n = 0;
	for (struct dirent *de; (de = readdir(d));)
		n += strncmp(de->d_name, prefix, strlen(prefix)) == 0;
	closedir(d);
	return n;
}

START_TEST(new_and_regular_files)
{
	struct cb_err e;
	struct stat a, b;
	const char *p = at("r.json");
	mode_t old = umask(022);
	ck_assert_int_eq(put(p, CB_OUT_REPORT, &e), 0);
	ck_assert_str_eq(slurp(p), CONTENT);
	ck_assert_int_eq(stat(p, &a), 0);
	ck_assert_int_eq(a.st_mode & 0777, 0644);
	/* replaced by a new file renamed over it (a new inode), its mode the
	 * umask's, not forced */
	umask(077);
	ck_assert_int_eq(put(p, CB_OUT_REPORT, &e), 0);
	ck_assert_int_eq(stat(p, &b), 0);
	ck_assert_uint_ne(a.st_ino, b.st_ino);
	ck_assert_int_eq(b.st_mode & 0777, 0600);
	umask(002);
	ck_assert_int_eq(put(at("u002.json"), CB_OUT_REPORT, &e), 0);
	ck_assert_int_eq(stat(at("u002.json"), &b), 0);
	ck_assert_int_eq(b.st_mode & 0777, 0664);
	umask(old);
	ck_assert_int_eq(count_prefixed(base, "r.json.tmp."), 0);
	/* a path naming a directory */
	assert_refused(at("."), CB_OUT_REPORT, "names a directory");
	assert_refused(base, CB_OUT_REPORT, "a directory: not written");
	assert_refused(at("no-such-dir/x.json"), CB_OUT_REPORT,
		       "cannot open: No such file or directory");
	assert_refused(at("r.json/x.json"), CB_OUT_REPORT, "cannot open: Not a directory");
}
END_TEST

/* A mknod copy of major:minor in the test directory. */
static const char *node(const char *name, mode_t type, unsigned ma, unsigned mi)
{
	const char *p = at(name);
	unlink(p);
	ck_assert_msg(mknod(p, type | 0666, makedev(ma, mi)) == 0, "mknod %s: %s", p,
		      strerror(errno));
	return p;
}

static void assert_node(const char *p, mode_t type, unsigned ma, unsigned mi)
{
	struct stat st;
	ck_assert_int_eq(lstat(p, &st), 0);
	ck_assert_msg((st.st_mode & S_IFMT) == type && major(st.st_rdev) == ma &&
			  minor(st.st_rdev) == mi,
		      "%s is no longer the device node %u:%u", p, ma, mi);
}

START_TEST(device_nodes)
{
	if (geteuid() != 0) {
		fprintf(stderr, "device_nodes: mknod needs root; not tested\n");
		return;
	}
	struct cb_err e;
	/* null and zero take the bytes: written through, still the devices */
	const char *null = node("null", S_IFCHR, 1, 3), *zero = node("zero", S_IFCHR, 1, 5);
	ck_assert_int_eq(put(null, CB_OUT_REPORT, &e), 0);
	ck_assert_int_eq(put(zero, CB_OUT_REPORT, &e), 0);
	assert_node(null, S_IFCHR, 1, 3);
	assert_node(zero, S_IFCHR, 1, 5);
	/* full: the write's own error, not an I/O error */
	const char *full = node("full", S_IFCHR, 1, 7);
	assert_refused(full, CB_OUT_REPORT, "cannot write: No space left on device");
	assert_node(full, S_IFCHR, 1, 7);
	/* another character device (random: harmless if opened) is not even
	 * opened; a block device (of an unused major) neither */
	const char *rnd = node("random", S_IFCHR, 1, 8);
	assert_refused(rnd, CB_OUT_REPORT, "a character device other than /dev/null");
	assert_node(rnd, S_IFCHR, 1, 8);
	const char *serial = node("ttyS0", S_IFCHR, 4, 64);
	assert_refused(serial, CB_OUT_REPORT, "a character device other than /dev/null");
	assert_node(serial, S_IFCHR, 4, 64);
	const char *blk = node("blk", S_IFBLK, 240, 0);
	assert_refused(blk, CB_OUT_REPORT, "a block device: not written");
	assert_node(blk, S_IFBLK, 240, 0);
	/* a history is never a device */
	assert_refused(null, CB_OUT_DB, "a character device, not a regular file");
	assert_node(null, S_IFCHR, 1, 3);
	ck_assert_int_eq(count_prefixed(base, "null.tmp."), 0);
	ck_assert_int_ne(access(at("null-journal"), F_OK), 0);
	/* through a symlink: to a sink, written through; the link stays */
	ck_assert_int_eq(symlink(null, at("to-null")), 0);
	ck_assert_int_eq(put(at("to-null"), CB_OUT_REPORT, &e), 0);
	ck_assert_uint_eq(kind(at("to-null")), S_IFLNK);
	assert_node(null, S_IFCHR, 1, 3);
	ck_assert_int_eq(symlink(rnd, at("to-random")), 0);
	assert_refused(at("to-random"), CB_OUT_REPORT, "a symlink to a character device");
	/* the host's own, never given to the code, still what it was */
	assert_node("/dev/null", S_IFCHR, 1, 3);
}
END_TEST

START_TEST(terminals)
{
	/* a pseudo-terminal of the test's own: written through, the bytes
	 * read back from its master (the line discipline makes \n \r\n) */
	struct cb_err e;
	int m = posix_openpt(O_RDWR | O_NOCTTY);
	ck_assert_int_ge(m, 0);
	ck_assert_int_eq(grantpt(m), 0);
	ck_assert_int_eq(unlockpt(m), 0);
	const char *pts = ptsname(m);
	ck_assert_ptr_nonnull(pts);
	ck_assert_int_eq(put(pts, CB_OUT_REPORT, &e), 0);
	char buf[256] = {0};
	ssize_t n = read(m, buf, sizeof(buf) - 1);
	ck_assert_uint_eq(kind(pts), S_IFCHR);
	close(m);
	ck_assert_int_gt(n, 0);
	ck_assert_str_eq(buf, "{\"schema\": \"test\"}\r\n");
}
END_TEST

/* A child that reads the FIFO at path whole into out. */
static pid_t reader(const char *path, const char *out)
{
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		char buf[4096];
		int in = open(path, O_RDONLY), to = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		ssize_t n;
		while (in >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
			if (write(to, buf, (size_t)n) != n)
				_exit(1);
		_exit(in < 0);
	}
	return pid;
}

START_TEST(fifos)
{
	struct cb_err e;
	const char *f = at("fifo");
	ck_assert_int_eq(mkfifo(f, 0600), 0);
	/* no reader: refused at once, never waited for */
	assert_refused(f, CB_OUT_REPORT, "a FIFO with no reader");
	ck_assert_uint_eq(kind(f), S_IFIFO);
	/* a reader: opened before the run, written after it, whole; the FIFO
	 * is still a FIFO */
	pid_t pid = reader(f, at("fifo.out"));
	struct cb_out *o;
	int r;
	/* the reader opens when it is scheduled: until then, no reader */
	for (int i = 0; i < 1000; i++) {
		e = (struct cb_err){0};
		if ((r = cb_out_open("fifo", f, CB_OUT_REPORT, &o, &e)) == 0 ||
		    !strstr(e.msg, "no reader"))
			break;
		usleep(10000);
	}
	ck_assert_msg(r == 0, "%s", e.msg);
	ck_assert_int_eq(cb_out_write(o, render, CONTENT, &e), 0);
	cb_out_close(o);
	int status;
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ck_assert_str_eq(slurp(at("fifo.out")), CONTENT);
	ck_assert_uint_eq(kind(f), S_IFIFO);
	ck_assert_int_eq(count_prefixed(base, "fifo.tmp."), 0);
	/* a history is never a FIFO (SQLite would wait on it) */
	assert_refused(f, CB_OUT_DB, "a FIFO, not a regular file");
	/* through a symlink, with no reader: refused the same */
	ck_assert_int_eq(symlink(f, at("to-fifo")), 0);
	assert_refused(at("to-fifo"), CB_OUT_REPORT, "a FIFO with no reader");
	ck_assert_uint_eq(kind(at("to-fifo")), S_IFLNK);
}
END_TEST

START_TEST(symlinks)
{
	struct cb_err e;
	/* to a regular file: neither replaced nor written through */
	const char *t = at("target"), *l = at("link.json");
	FILE *f = fopen(t, "w");
	fputs("keep", f);
	fclose(f);
	ck_assert_int_eq(symlink(t, l), 0);
	assert_refused(l, CB_OUT_REPORT, "a symlink to a regular file: never replaced");
	ck_assert_uint_eq(kind(l), S_IFLNK);
	ck_assert_str_eq(slurp(t), "keep");
	assert_refused(l, CB_OUT_DB, "a symlink, not a regular file");
	ck_assert_str_eq(slurp(t), "keep");
	/* dangling: nothing made where it points (the ln -s
	 * /root/x.db /tmp/h.db, here inside the test directory) */
	const char *d = at("dangling.db");
	ck_assert_int_eq(symlink(at("elsewhere.db"), d), 0);
	assert_refused(d, CB_OUT_REPORT, "a symlink to nothing");
	assert_refused(d, CB_OUT_DB, "a symlink, not a regular file");
	ck_assert_int_ne(access(at("elsewhere.db"), F_OK), 0);
	ck_assert_uint_eq(kind(d), S_IFLNK);
	/* to a directory */
	ck_assert_int_eq(symlink(base, at("to-dir")), 0);
	assert_refused(at("to-dir"), CB_OUT_REPORT, "a symlink to a directory");
	/* a directory on the way through a symlink of ours is fine */
	ck_assert_int_eq(mkdir(at("sub"), 0700), 0);
	ck_assert_int_eq(symlink("sub", at("via")), 0);
	ck_assert_int_eq(put(at("via/x.json"), CB_OUT_REPORT, &e), 0);
	ck_assert_str_eq(slurp(at("sub/x.json")), CONTENT);
	ck_assert_int_eq(put(at("via/../via/./y.json"), CB_OUT_REPORT, &e), 0);
	ck_assert_str_eq(slurp(at("sub/y.json")), CONTENT);
	ck_assert_int_eq(symlink("loop", at("loop")), 0);
	assert_refused(at("loop/x.json"), CB_OUT_REPORT, "Too many levels of symbolic links");
}
END_TEST

START_TEST(shared_directories)
{
	struct cb_err e;
	const char *g = at("group"), *w = at("world"), *s = at("sticky");
	ck_assert_int_eq(mkdir(g, 0700), 0);
	ck_assert_int_eq(chmod(g, 0770), 0);
	/* a group of others (nogroup): as root, the test's own is root's
	 * private group, which is no one else's */
	if (geteuid() == 0)
		ck_assert_int_eq(chown(g, 0, 65534), 0);
	ck_assert_int_eq(mkdir(w, 0700), 0);
	ck_assert_int_eq(chmod(w, 0777), 0);
	ck_assert_int_eq(mkdir(s, 0700), 0);
	ck_assert_int_eq(chmod(s, 01777), 0);
	char p[600];
	/* no sticky bit: anyone there could swap the file */
	snprintf(p, sizeof(p), "%s/x.json", g);
	assert_refused(p, CB_OUT_REPORT, "may be written by others (mode 0770) and has no sticky");
	ck_assert_int_ne(access(p, F_OK), 0);
	snprintf(p, sizeof(p), "%s/x.json", w);
	assert_refused(p, CB_OUT_REPORT, "may be written by others (mode 0777)");
	/* sticky (/tmp): a report may go there, a history not (its journal
	 * is made there by name) */
	snprintf(p, sizeof(p), "%s/x.json", s);
	ck_assert_int_eq(put(p, CB_OUT_REPORT, &e), 0);
	ck_assert_int_eq(put(p, CB_OUT_REPORT, &e), 0); /* ours: replaced */
	snprintf(p, sizeof(p), "%s/h.db", s);
	assert_refused(p, CB_OUT_DB, "who could plant the journal");
	snprintf(p, sizeof(p), "%s/h.db", g);
	assert_refused(p, CB_OUT_DB, "who could plant the journal");
	if (geteuid() != 0) {
		fprintf(stderr, "shared_directories: other users' files need root; not tested\n");
		return;
	}
	/* group-writable in the owner's private group (root:root here, umask
	 * 002's 0775): no one else may write there */
	const char *upg = at("private-group");
	ck_assert_int_eq(mkdir(upg, 0700), 0);
	ck_assert_int_eq(chmod(upg, 0775), 0);
	snprintf(p, sizeof(p), "%s/x.json", upg);
	ck_assert_int_eq(put(p, CB_OUT_REPORT, &e), 0);
	snprintf(p, sizeof(p), "%s/h.db", upg);
	ck_assert_int_eq(put(p, CB_OUT_DB, &e), 0);
	/* another user's file in the sticky directory: not replaced */
	snprintf(p, sizeof(p), "%s/theirs.json", s);
	FILE *f = fopen(p, "w");
	fputs("theirs", f);
	fclose(f);
	ck_assert_int_eq(chown(p, 65534, 65534), 0);
	assert_refused(p, CB_OUT_REPORT, "a regular file of uid 65534");
	ck_assert_str_eq(slurp(p), "theirs");
	/* nor their FIFO (which they might be reading) */
	snprintf(p, sizeof(p), "%s/theirs.fifo", s);
	ck_assert_int_eq(mkfifo(p, 0666), 0);
	ck_assert_int_eq(chown(p, 65534, 65534), 0);
	assert_refused(p, CB_OUT_REPORT, "a FIFO of uid 65534");
	/* their symlink there, as the last name or on the way, is never
	 * followed: not to a file of ours, not into a directory of ours */
	ck_assert_int_eq(mkdir(at("mine"), 0700), 0);
	snprintf(p, sizeof(p), "%s/planted", s);
	ck_assert_int_eq(symlink(at("mine"), p), 0);
	ck_assert_int_eq(lchown(p, 65534, 65534), 0);
	snprintf(p, sizeof(p), "%s/planted/h.db", s);
	assert_refused(p, CB_OUT_DB, "goes through symlink 'planted' of uid 65534");
	snprintf(p, sizeof(p), "%s/planted/x.json", s);
	assert_refused(p, CB_OUT_REPORT, "goes through symlink 'planted' of uid 65534");
	ck_assert_int_ne(access(at("mine/x.json"), F_OK), 0);
	ck_assert_int_ne(access(at("mine/h.db"), F_OK), 0);
	snprintf(p, sizeof(p), "%s/planted.json", s);
	ck_assert_int_eq(symlink(at("null"), p), 0);
	ck_assert_int_eq(lchown(p, 65534, 65534), 0);
	assert_refused(p, CB_OUT_REPORT, "a symlink of uid 65534");
	/* a history's directory must be ours (or root's) */
	ck_assert_int_eq(mkdir(at("nobodys"), 0755), 0);
	ck_assert_int_eq(chown(at("nobodys"), 65534, 65534), 0);
	assert_refused(at("nobodys/h.db"), CB_OUT_DB, "belongs to uid 65534");
}
END_TEST

START_TEST(changed_during_the_run)
{
	struct cb_err e = {0};
	struct cb_out *o;
	const char *p = at("later.json");
	ck_assert_int_eq(cb_out_open("later", p, CB_OUT_REPORT, &o, &e), 0);
	/* while the run ran, the name became a FIFO: not replaced */
	ck_assert_int_eq(mkfifo(p, 0600), 0);
	ck_assert_int_lt(cb_out_write(o, render, CONTENT, &e), 0);
	ck_assert_ptr_nonnull(strstr(e.msg, "later: became a FIFO during the run: not replaced"));
	cb_out_close(o);
	ck_assert_uint_eq(kind(p), S_IFIFO);
	ck_assert_int_eq(count_prefixed(base, "later.json.tmp."), 0);
	/* a file that appeared under a name that was free is replaced only
	 * because it is a regular file now */
	p = at("appeared.json");
	e = (struct cb_err){0};
	ck_assert_int_eq(cb_out_open("appeared", p, CB_OUT_REPORT, &o, &e), 0);
	fclose(fopen(p, "w"));
	ck_assert_int_eq(cb_out_write(o, render, CONTENT, &e), 0);
	cb_out_close(o);
	ck_assert_str_eq(slurp(p), CONTENT);
}
END_TEST

START_TEST(history_file_made_and_discarded)
{
	struct cb_err e = {0};
	struct cb_out *o;
	const char *p = at("made.db");
	ck_assert_int_eq(cb_out_open("made", p, CB_OUT_DB, &o, &e), 0);
	ck_assert(!cb_out_exists(o));
	ck_assert_str_eq(cb_out_db_path(o), p);
	ck_assert_int_ne(access(p, F_OK), 0); /* nothing made by the check */
	mode_t old = umask(027);
	ck_assert_int_eq(cb_out_create(o, &e), 0);
	umask(old);
	struct stat st;
	ck_assert_int_eq(stat(p, &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0640);
	cb_out_discard(o); /* still empty: the failed first store's */
	ck_assert_int_ne(access(p, F_OK), 0);
	/* written meanwhile (another run's first store): kept */
	ck_assert_int_eq(cb_out_create(o, &e), 0);
	FILE *f = fopen(p, "w");
	fputs("data", f);
	fclose(f);
	cb_out_discard(o);
	ck_assert_str_eq(slurp(p), "data");
	cb_out_close(o);
	/* made by one, opened meanwhile by another (whose store would go into
	 * a removed file): the first one's failure leaves it */
	ck_assert_int_eq(unlink(p), 0);
	struct cb_out *other;
	ck_assert_int_eq(cb_out_open("made", p, CB_OUT_DB, &o, &e), 0);
	ck_assert_int_eq(cb_out_create(o, &e), 0);
	ck_assert_int_eq(cb_out_open("other", p, CB_OUT_DB, &other, &e), 0);
	ck_assert(cb_out_exists(other));
	cb_out_discard(o);
	ck_assert_int_eq(access(p, F_OK), 0);
	cb_out_close(o);
	/* and the other's own first store: it did not make the file, so its
	 * failure does not remove it either */
	ck_assert_int_eq(cb_out_create(other, &e), 0);
	cb_out_discard(other);
	ck_assert_int_eq(access(p, F_OK), 0);
	cb_out_close(other);
	/* a journal in the way: refused before the run */
	ck_assert_int_eq(symlink(at("elsewhere"), at("made.db-journal")), 0);
	assert_refused(p, CB_OUT_DB, "made.db-journal is a symlink, not a file: remove it");
	ck_assert_int_ne(access(at("elsewhere"), F_OK), 0);
	/* two names of one file: a store through one would change the other */
	fclose(fopen(at("one.db"), "w"));
	ck_assert_int_eq(link(at("one.db"), at("linked.db")), 0);
	assert_refused(at("linked.db"), CB_OUT_DB, "has 2 names");
}
END_TEST

/* A file system of 64 KiB: the write's own error, nothing left, an
 * existing file as it was. */
START_TEST(full_file_system)
{
	const char *m = at("small");
	ck_assert_int_eq(mkdir(m, 0700), 0);
	if (mount("tmpfs", m, "tmpfs", 0, "size=64k,mode=0700") != 0) {
		fprintf(stderr, "full_file_system: cannot mount a tmpfs (%s); not tested\n",
			strerror(errno));
		return;
	}
	char p[600], fill[600], *big = malloc(256 << 10);
	memset(big, 'x', 256 << 10);
	big[(256 << 10) - 1] = '\0';
	snprintf(p, sizeof(p), "%s/keep.json", m);
	struct cb_err e;
	ck_assert_int_eq(put(p, CB_OUT_REPORT, &e), 0);
	e = (struct cb_err){0};
	struct cb_out *o;
	ck_assert_int_eq(cb_out_open(p, p, CB_OUT_REPORT, &o, &e), 0);
	ck_assert_int_lt(cb_out_write(o, render, big, &e), 0);
	cb_out_close(o);
	ck_assert_msg(strstr(e.msg, "cannot write: No space left on device"), "%s", e.msg);
	ck_assert_str_eq(slurp(p), CONTENT);
	snprintf(fill, sizeof(fill), "%s/new.json", m);
	e = (struct cb_err){0};
	ck_assert_int_eq(cb_out_open(fill, fill, CB_OUT_REPORT, &o, &e), 0);
	ck_assert_int_lt(cb_out_write(o, render, big, &e), 0);
	cb_out_close(o);
	ck_assert_msg(strstr(e.msg, "No space left on device"), "%s", e.msg);
	ck_assert_int_ne(access(fill, F_OK), 0);
	ck_assert_int_eq(count_prefixed(m, "new.json.tmp."), 0);
	ck_assert_int_eq(count_prefixed(m, "keep.json.tmp."), 0);
	free(big);
	ck_assert_int_eq(umount(m), 0);
}
END_TEST

int main(void)
{
	if (!mkdtemp(base))
		return 1;
	Suite *s = suite_create("outfile");
	TCase *tc = tcase_create("outfile");
	tcase_add_test(tc, new_and_regular_files);
	tcase_add_test(tc, device_nodes);
	tcase_add_test(tc, terminals);
	tcase_add_test(tc, fifos);
	tcase_add_test(tc, symlinks);
	tcase_add_test(tc, shared_directories);
	tcase_add_test(tc, changed_during_the_run);
	tcase_add_test(tc, history_file_made_and_discarded);
	tcase_add_test(tc, full_file_system);
	suite_add_tcase(s, tc);
	int failed = unit_run(s);
	char cmd[200];
	umount(at("small"));
	snprintf(cmd, sizeof(cmd), "rm -rf %s", base);
	if (system(cmd) != 0)
		failed++;
	/* the host's /dev/null, whatever happened above */
	struct stat st;
	if (stat("/dev/null", &st) != 0 || !S_ISCHR(st.st_mode) || st.st_rdev != makedev(1, 3)) {
		fprintf(stderr, "/dev/null is no longer the null device!\n");
		failed++;
	}
	return failed ? 1 : 0;
}
