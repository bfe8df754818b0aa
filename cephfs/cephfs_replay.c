/* op replay: dbench's loadfile replayed through libcephfs. Each client
 * reads the file line by line (checked whole at load) in a directory of
 * its own, pass after pass until the phase's limits, as dbench loops it;
 * each line is one op of its operation's kind (the row's by_op is dbench's
 * per-op table), its status held against the call's: a failure the line
 * says will happen is an op like the others, counted as expected; another
 * outcome is an error naming the line. Operations with no call here
 * (LockX, UnlockX, Sleep) are counted as not replayed. */
#include "cephfs_handles.h"
#include "cephfs_priv.h"

#include "clock.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>

/* NTCreateX's create_options and create_disposition (SMB's). */
#define DIRECTORY_FILE 0x1
enum { SUPERSEDE, OPEN, CREATE, OPEN_IF, OVERWRITE, OVERWRITE_IF };

struct cfs_replay {
	FILE *f;
	unsigned no;	      /* the line last read */
	struct cfs_line next; /* read ahead: its time is the next op's */
	bool have_next;
	struct cfs_line cur; /* the op's line, for its message */
	unsigned cur_no;
	bool recorded;
	uint64_t pass_start;  /* cb_now_ns() at the pass's first op */
	struct cfs_handles h; /* by the loadfile's handle number */
	char msg[200];	      /* what a failed op's line expected */
};

int cfs_replay_setup(struct cb_phase *ph, struct cfs_state *s)
{
	const struct cfs_opts *o = s->o;
	struct cfs_replay *rp = calloc(1, sizeof(*rp));
	if (!rp)
		return cb_err_cluster(ph->err, -ENOMEM, "out of memory");
	s->rp = rp;
	s->count = UINT64_MAX;
	rp->recorded = o->timing == CFS_TIMING_RECORDED;
	if (!(rp->f = fopen(cfs_loadfile_of(o), "re")))
		return cb_err_usage(ph->err, "workload '%s': loadfile %s: %s", ph->wl->name,
				    cfs_loadfile_of(o), strerror(errno));
	for (int k = 0; k < CFS_LOP_N; k++)
		ph->out->kinds[k] = cfs_lops[k].name;
	ph->out->nkinds = CFS_LOP_N;
	return 0;
}

/* The next operation's line into rp->next, from the top again at the
 * file's end (a new pass, its clock restarted). */
static int read_next(struct cfs_replay *rp)
{
	char line[CFS_LINE_MAX + 2], why[160];
	for (int rewound = 0;;) {
		if (!fgets(line, sizeof(line), rp->f)) {
			if (ferror(rp->f) || rewound++)
				return -EIO; /* unreadable, or no operation at all */
			rewind(rp->f);
			rp->no = 0;
			rp->pass_start = 0;
			continue;
		}
		rp->no++;
		/* checked whole at load: a line that does not parse now was
		 * changed since */
		if (cfs_line_parse(line, &rp->next, why, sizeof(why)) < 0)
			return -EINVAL;
		if (rp->next.op >= 0)
			break;
	}
	rp->have_next = true;
	return 0;
}

uint64_t cfs_replay_due(struct cfs_state *s)
{
	struct cfs_replay *rp = s->rp;
	if (!rp->recorded || (!rp->have_next && read_next(rp) < 0))
		return 0;
	if (!rp->pass_start)
		rp->pass_start = cb_now_ns();
	return rp->next.t < 0 ? 0 : rp->pass_start + (uint64_t)(rp->next.t * 1e9);
}

static void close_handle(struct cfs_state *s, struct cfs_handle *h)
{
	if (h->fd >= 0)
		ceph_close(s->ss->cm, h->fd);
	free(h->path);
	h->path = NULL;
}

/* NTCreateX: a directory made if asked and absent, or a file opened with
 * the disposition's flags; kept under the line's handle number. */
static int create(struct cfs_state *s, const struct cfs_line *l)
{
	struct ceph_mount_info *cm = s->ss->cm;
	const char *path = l->path[0];
	uint64_t disp = l->arg[1];
	int fd = -1, r;
	if (l->arg[0] & DIRECTORY_FILE) {
		r = disp == OPEN ? 0 : ceph_mkdir(cm, path, 0755);
		if (r == -EEXIST && disp != CREATE)
			r = 0;
		if (r == 0)
			r = cfs_real_dir(cm, path);
	} else {
		int flags = O_RDWR | (disp == SUPERSEDE || disp == OVERWRITE_IF ? O_CREAT | O_TRUNC
				      : disp == CREATE				? O_CREAT | O_EXCL
				      : disp == OPEN_IF				? O_CREAT
				      : disp == OVERWRITE			? O_TRUNC
										: 0);
		r = fd = ceph_open(cm, path, flags, 0644);
	}
	if (r < 0 || !l->ok) {
		if (fd >= 0)
			ceph_close(cm, fd);
		return r;
	}
	struct cfs_handle *h = cfs_handles_get(&s->rp->h, l->arg[2], true);
	char *p = h ? strdup(path) : NULL;
	if (!p) {
		if (fd >= 0)
			ceph_close(cm, fd);
		return -ENOMEM;
	}
	if (h->path) /* reused without a Close: the earlier one goes */
		close_handle(s, h);
	h->fd = fd;
	h->path = p;
	return 0;
}

/* FIND_FIRST: the pattern's directory listed, up to maxcnt entries, its
 * names matched as a DOS wildcard ('<' '>' '"' are '*' '?' '.'); success
 * when one matched. */
static int find_first(struct cfs_state *s, const struct cfs_line *l)
{
	char dir[CFS_LINE_MAX], pat[CFS_LINE_MAX];
	const char *slash = strrchr(l->path[0], '/');
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - l->path[0]) : 1,
		 slash ? l->path[0] : ".");
	snprintf(pat, sizeof(pat), "%s", slash ? slash + 1 : l->path[0]);
	for (char *c = pat; *c; c++)
		*c = *c == '<' ? '*' : *c == '>' ? '?' : *c == '"' ? '.' : *c;
	struct ceph_dir_result *d;
	int r = ceph_opendir(s->ss->cm, dir, &d);
	if (r < 0)
		return r;
	uint64_t left = l->arg[1] ? l->arg[1] : UINT64_MAX, found = 0;
	struct dirent *e;
	while (left-- && (e = ceph_readdir(s->ss->cm, d)))
		found += strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
			 fnmatch(pat, e->d_name, FNM_CASEFOLD) == 0;
	ceph_closedir(s->ss->cm, d);
	return found ? 0 : -ENOENT;
}

/* The call for line l: >= 0 (bytes for ReadX and WriteX), or -errno. */
static int64_t run_line(struct cfs_state *s, const struct cfs_line *l, struct cb_op *op)
{
	struct ceph_mount_info *cm = s->ss->cm;
	struct cfs_replay *rp = s->rp;
	struct ceph_statx stx;
	struct cfs_handle *h = NULL;
	uint64_t removed = 0;
	/* the ops on a handle: one the loadfile opened and did not close */
	if (l->op == CFS_LOP_CLOSE || l->op == CFS_LOP_QFILEINFO || l->op == CFS_LOP_SFILEINFO ||
	    l->op == CFS_LOP_WRITEX || l->op == CFS_LOP_READX || l->op == CFS_LOP_FLUSH) {
		if (!(h = cfs_handles_get(&rp->h, l->arg[0], false))) {
			snprintf(rp->msg, sizeof(rp->msg), "handle %llu is not open",
				 (unsigned long long)l->arg[0]);
			return -EBADF;
		}
	}
	switch (l->op) {
	case CFS_LOP_NTCREATEX:
		return create(s, l);
	case CFS_LOP_CLOSE:
		close_handle(s, h);
		return 0;
	case CFS_LOP_RENAME:
		return ceph_rename(cm, l->path[0], l->path[1]);
	case CFS_LOP_UNLINK:
		return ceph_unlink(cm, l->path[0]);
	case CFS_LOP_DELTREE:
		return cfs_remove_tree(cm, l->path[0], &removed);
	case CFS_LOP_MKDIR: { /* as dbench: there already is no failure */
		int r = ceph_mkdir(cm, l->path[0], 0755);
		return r == -EEXIST ? 0 : r;
	}
	case CFS_LOP_RMDIR:
		return ceph_rmdir(cm, l->path[0]);
	case CFS_LOP_QPATHINFO:
		return ceph_statx(cm, l->path[0], &stx, CEPH_STATX_BASIC_STATS, 0);
	case CFS_LOP_QFILEINFO:
		return h->fd >= 0 ? ceph_fstatx(cm, h->fd, &stx, CEPH_STATX_BASIC_STATS, 0)
				  : ceph_statx(cm, h->path, &stx, CEPH_STATX_BASIC_STATS, 0);
	case CFS_LOP_QFSINFO: {
		struct statvfs st;
		return ceph_statfs(cm, ".", &st);
	}
	case CFS_LOP_SFILEINFO: { /* the times set, as dbench's utime */
		stx.stx_mtime = stx.stx_atime = (struct timespec){.tv_sec = time(NULL) - 12};
		int mask = CEPH_SETATTR_MTIME | CEPH_SETATTR_ATIME;
		return h->fd >= 0 ? ceph_fsetattrx(cm, h->fd, &stx, mask)
				  : ceph_setattrx(cm, h->path, &stx, mask, 0);
	}
	case CFS_LOP_FINDFIRST:
		return find_first(s, l);
	case CFS_LOP_WRITEX:
	case CFS_LOP_READX:
		if (h->fd < 0)
			return -EISDIR;
		op->is_write = l->op == CFS_LOP_WRITEX;
		return op->is_write
			   ? ceph_write(cm, h->fd, op->buf, (int64_t)l->arg[2], (int64_t)l->arg[1])
			   : ceph_read(cm, h->fd, op->buf, (int64_t)l->arg[2], (int64_t)l->arg[1]);
	case CFS_LOP_FLUSH:
		return h->fd >= 0 ? ceph_fsync(cm, h->fd, 0) : 0;
	}
	return 0;
}

int cfs_replay_submit(struct cfs_state *s, struct cb_op *op)
{
	struct cfs_replay *rp = s->rp;
	int r;
	if (!rp->have_next && (r = read_next(rp)) < 0)
		return r;
	if (!rp->pass_start)
		rp->pass_start = cb_now_ns();
	rp->cur = rp->next;
	rp->cur_no = rp->no;
	rp->have_next = false;
	rp->msg[0] = '\0';
	const struct cfs_line *l = &rp->cur;
	op->kind = (uint8_t)l->op;
	op->where = rp->cur_no;
	op->len = 0;
	op->is_write = false;
	if (!cfs_lops[l->op].mapped) {
		op->outcome = CB_OUTCOME_UNMAPPED;
		cb_op_done(op, 0);
		return 0;
	}
	int64_t res = run_line(s, l, op);
	bool io = l->op == CFS_LOP_READX || l->op == CFS_LOP_WRITEX;
	if (res >= 0 && io && (uint64_t)res != l->arg[3]) {
		snprintf(rp->msg, sizeof(rp->msg), "%s %lld bytes, the loadfile says %llu",
			 op->is_write ? "wrote" : "read", (long long)res,
			 (unsigned long long)l->arg[3]);
		res = CB_ESTATUS;
	} else if (res >= 0 && !l->ok) {
		snprintf(rp->msg, sizeof(rp->msg), "succeeded, the loadfile says %s", l->status);
		res = CB_ESTATUS;
	} else if (res < 0 && res != CB_ESTATUS && !l->ok) {
		op->outcome = CB_OUTCOME_EXPECTED_FAIL;
		res = 0;
	}
	if (res >= 0)
		op->len = io ? (uint64_t)res : 0;
	cb_op_done(op, res);
	return 0;
}

void cfs_replay_describe(const struct cfs_state *s, char *buf, size_t n)
{
	const struct cfs_replay *rp = s->rp;
	const struct cfs_line *l = &rp->cur;
	const struct cfs_lop_def *d = l->op >= 0 ? &cfs_lops[l->op] : NULL;
	bool path = d && strchr(d->args, 'P');
	/* ops are synchronous: the line is the failed op's */
	snprintf(buf, n, "%s:%u: %s%s%.80s%s%s", cfs_loadfile_of(s->o), rp->cur_no,
		 d ? d->name : "?", path ? " " : "", path ? l->path[0] : "", rp->msg[0] ? ": " : "",
		 rp->msg);
}

void cfs_replay_teardown(struct cfs_state *s)
{
	struct cfs_replay *rp = s->rp;
	if (!rp)
		return;
	for (size_t i = 0; i < rp->h.cap; i++) {
		struct cfs_handle *h = cfs_handles_at(&rp->h, i);
		if (h)
			close_handle(s, h);
	}
	cfs_handles_release(&rp->h);
	if (rp->f)
		fclose(rp->f);
	free(rp);
	s->rp = NULL;
}
