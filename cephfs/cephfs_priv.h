/* The CephFS layer's private parts: options, the mdtest-like tree, the
 * per-client session kept across a workload's steps, and the phase state. */
#ifndef CB_CEPHFS_PRIV_H
#define CB_CEPHFS_PRIV_H

#include "durable.h"
#include "engine.h"
#include "owner.h"

#include <cephfs/libcephfs.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

/* Everything the layer makes lives below this directory. */
#define CFS_ROOT	 "/cephbench"
#define CFS_XATTR_RUN_ID "user.cephbench.run_id" /* the run that made a run directory */
#define CFS_XATTR_OWNER	 "user.cephbench.owner"	 /* src/owner.h mark of that run */
#define CFS_DEFAULT_BS	 4096
#define CFS_FILL_BS	 (4ULL << 20)
#define CFS_MAX_DEPTH	 32
#define CFS_MAX_NODES	 10000000ULL
#define CFS_MAX_RANKS	 256 /* active MDS ranks looked at for dead sessions */

/* client_cache_size of cleanup's mounts, and client_cache_size's default */
#define CFS_CACHE_INODES 1024

struct cfs_opts {
	char *fs;
	/* the tree test (op: tree), mdtest's parameters */
	uint64_t depth, branch, items, total_items;
	bool files_only, dirs_only, leaf_only, unique_dir;
	uint64_t write_bytes, read_bytes;
	uint64_t iterations;
	uint64_t stonewall_ns;
	uint64_t stride; /* stat, read, remove client + stride's items (mdtest -N) */
	char *phases;
	/* file data I/O (op: read, write, randread, randwrite): file_size one
	 * size (cfs_file_size), a distribution only for op mix */
	struct cb_sizes file_size;
	uint64_t files;
	bool direct, prefill;
	bool append;	       /* write: at each file's end (fio's file_append) */
	bool create_only;      /* the files laid out (the prefill row), no I/O */
	struct cb_durable dur; /* fsync, fdatasync, end_fsync, sync */
	uint64_t client_cache_size;
	/* replay: dbench's loadfile, and whether its timestamps are kept */
	char *loadfile;
	int timing; /* enum cfs_timing */
	/* mix: each operation's weight (enum cfs_mix_op), and rdpct: the
	 * percent of read's weight that reads, the rest writes */
	uint64_t mix[12];
	uint64_t rdpct;
};

/* vdbench's operations (cephfs_mix.c), in the order of a mix's kinds. */
enum cfs_mix_op {
	CFS_MIX_MKDIR,
	CFS_MIX_RMDIR,
	CFS_MIX_CREATE,
	CFS_MIX_DELETE,
	CFS_MIX_OPEN,
	CFS_MIX_CLOSE,
	CFS_MIX_READ,
	CFS_MIX_WRITE,
	CFS_MIX_GETATTR,
	CFS_MIX_SETATTR,
	CFS_MIX_READDIR,
	CFS_MIX_RENAME,
	CFS_MIX_N
};
extern const char *const cfs_mix_ops[CFS_MIX_N + 1];
#define CFS_NO_RDPCT	 100 /* rdpct's default: read's weight all reads */
#define CFS_MIX_MAX_FILE (1ULL << 30)
#define CFS_MIX_OPEN_MAX 64 /* files a client's open ops keep open */

enum cfs_timing { CFS_TIMING_FAST, CFS_TIMING_RECORDED };

/* file_size, the largest where it is a distribution (op mix's) */
static inline uint64_t cfs_file_size(const struct cfs_opts *o)
{
	return cb_sizes_max(&o->file_size);
}

/* dbench's own default, from Debian's dbench package */
#define CFS_DEFAULT_LOADFILE "/usr/share/dbench/client.txt"

static inline const char *cfs_loadfile_of(const struct cfs_opts *o)
{
	return o->loadfile ? o->loadfile : CFS_DEFAULT_LOADFILE;
}

/* dbench's loadfile (cephfs_loadfile.c): its operations, in the order of
 * a replay's kinds (by_op). */
enum cfs_lop {
	CFS_LOP_NTCREATEX,
	CFS_LOP_CLOSE,
	CFS_LOP_RENAME,
	CFS_LOP_UNLINK,
	CFS_LOP_DELTREE,
	CFS_LOP_MKDIR,
	CFS_LOP_RMDIR,
	CFS_LOP_QPATHINFO,
	CFS_LOP_QFILEINFO,
	CFS_LOP_QFSINFO,
	CFS_LOP_SFILEINFO,
	CFS_LOP_FINDFIRST,
	CFS_LOP_WRITEX,
	CFS_LOP_READX,
	CFS_LOP_FLUSH,
	CFS_LOP_LOCKX,
	CFS_LOP_UNLOCKX,
	CFS_LOP_SLEEP,
	CFS_LOP_N
};

struct cfs_lop_def {
	const char *name;
	const char *args; /* after the name: P a path, I a number */
	bool mapped;	  /* a libcephfs call replays it */
};
extern const struct cfs_lop_def cfs_lops[CFS_LOP_N];

#define CFS_LINE_MAX	  1024
#define CFS_REPLAY_MAX_IO (16 << 20) /* a ReadX's or WriteX's bytes */

/* One line of a loadfile: op -1 for a blank line or a comment. */
struct cfs_line {
	int op;	  /* enum cfs_lop */
	double t; /* seconds from the start of a pass; < 0: none */
	char path[2][CFS_LINE_MAX];
	uint64_t arg[4];
	bool ok; /* the loadfile's status is success */
	char status[48];
};

/* Parse one line (changed in place) into l. 0, or -EINVAL with why. */
int cfs_line_parse(char *text, struct cfs_line *l, char *why, size_t n);

/* What a whole loadfile holds, read and checked line by line. */
struct cfs_load_info {
	uint64_t lines;	 /* operations */
	unsigned ops;	 /* a bit for each operation used */
	bool timed;	 /* some lines have a time */
	bool untimed;	 /* some have none */
	uint64_t max_io; /* the largest ReadX or WriteX */
};

/* 0, or -EINVAL with "FILE:LINE: why" (or the file's error) in why. */
int cfs_loadfile_scan(const char *path, struct cfs_load_info *info, char *why, size_t n);

struct cfs_replay;
struct cfs_nbio;   /* cephfs_nbio.c */
struct cfs_family; /* cephfs_engine.c */

/* Step ids (struct cb_step); 0 is an I/O workload itself. */
enum cfs_step {
	CFS_IO = 0,
	CFS_FILL,
	CFS_TREE_CREATE,
	CFS_DIR_CREATE,
	CFS_DIR_STAT,
	CFS_DIR_RENAME,
	CFS_DIR_REMOVE,
	CFS_FILE_CREATE,
	CFS_FILE_STAT,
	CFS_FILE_READ,
	CFS_FILE_REMOVE,
	CFS_TREE_REMOVE,
	CFS_REPLAY,
	CFS_MIX_LAYOUT,
	CFS_MIX,
	CFS_FSOP_LAYOUT, /* fsopbench's steps, in cfs_fsop_steps' order */
	CFS_FSOP_READDIR,
	CFS_FSOP_LSTAT,
	CFS_FSOP_OPEN,
	CFS_FSOP_FIRST_BYTE,
	CFS_FSOP_READ,
	CFS_NSTEPS
};

/* The phases' names, indexed by enum cfs_step (NULL below CFS_TREE_CREATE), NULL-terminated. */
extern const char *const cfs_phase_names[CFS_NSTEPS + 1];

/* Parse `phases:` ("all" or a comma list) into a mask of 1 << step, with
 * the checks that keep a tree removable; 0 or -EINVAL with why. */
/* The row's file system in the record's context (cephfs_context.c). */
void cfs_context(struct cb_context_req *req);

int cfs_phase_mask(const struct cfs_opts *o, unsigned *mask, char *why, size_t n);

/* mdtest's tree: node 0 is the root, node m's children are m*branch+1 ..
 * m*branch+branch, in breadth-first order; items go in every node, or in
 * the leaves only. */
struct cfs_tree {
	uint64_t depth, branch;
	uint64_t nodes;	    /* in the whole tree */
	uint64_t first_dir; /* first node holding items */
	uint64_t ndirs;	    /* nodes holding items */
	uint64_t per_dir;   /* items in each (the first rem get one more) */
	uint64_t rem;
	uint64_t items; /* per client */
};

/* The mix's and fsop's trees: node m of a complete tree of branch
 * children each, numbered breadth-first from the root 0, as its path of
 * child numbers, "t.1/t.0" ("." for the root). */
void cfs_bfs_path(uint64_t branch, uint64_t m, char *buf, size_t n);

/* The geometry, or -EINVAL/-ERANGE with why. */
int cfs_tree_plan(const struct cfs_opts *o, struct cfs_tree *t, char *why, size_t n);

/* One client's mount and what its earlier steps did, kept across steps. */
struct cfs_session {
	struct ceph_mount_info *cm;
	uint64_t unmount_ns;	   /* cfs_unmount's bound */
	bool prepared;		   /* the run's directories exist */
	char base[PATH_MAX];	   /* where this client's tree or files go */
	uint64_t made[CFS_NSTEPS]; /* ops done by each step of this iteration */
};

/* One client's state for one step. */
struct cfs_state {
	struct cfs_session *ss;
	const struct cfs_opts *o;
	enum cfs_step step;
	const struct cfs_family *family; /* its step's calls (cephfs_engine.c) */
	unsigned client;
	unsigned clients;     /* the workload's, over which a stride wraps */
	uint64_t stride;      /* the tree's stride (cfs_stride): given, or cold's */
	uint64_t next, count; /* ops started, ops to do */
	struct cfs_tree t;
	/* file data I/O: descriptors, or handles with several ops in flight */
	int *fds;
	struct cfs_nbio *nb;
	uint64_t nfds, bs, blocks;
	bool rand, writes;
	uint64_t rng;
	/* the durability keys' syncs (the workload's writes, not a fill's) */
	const struct cb_durable *dur;
	struct cb_durable_count dc;
	uint64_t last_file; /* the file of the last write: the one a sync syncs */
	uint64_t *ends;	    /* append: each file's end, where its next write goes */
	/* block_size a distribution (not on the fill pass): each op draws its
	 * size, blocks counts grains of block_align, and a sequential op goes
	 * on where its file's last ended (cur, in grains, a file each) */
	const struct cb_workload *sized;
	uint64_t *cur;
	struct cb_dist dist; /* random ops: the block over all files, file-interleaved */
	char path[PATH_MAX];
	struct cfs_replay *rp; /* op replay */
	/* op mix: the layout's directories; the operations' cumulative
	 * weights in hundredths; the files its opens keep open */
	uint64_t dirs;
	uint64_t mix_at[CFS_MIX_N];
	int open[CFS_MIX_OPEN_MAX];
	unsigned nopen;
	/* op fsop: the seed the file sizes follow, and their cap */
	uint64_t seed, cap;
};

/* cephfs_cold.c: the stride the tree's stat, read and remove phases use
 * (stride given, else 1 when they run cold with two or more clients and no
 * stonewall); how a step keeps the client's cache out ("stride",
 * "remount", "direct"; NULL: it runs warm); the file system's data pools
 * into ph->out for the OSDs' drop. */
uint64_t cfs_stride(const struct cfs_opts *o, const struct cb_workload *wl, unsigned clients);
const char *cfs_cold_way(const struct cb_phase *ph, const struct cfs_state *s);
void cfs_cold_pools(struct cb_phase *ph);

/* `fs get` of file system fs from the monitors into *out (the caller's):
 * 0, or -errno with the reason in why. */
struct json_t;
int cfs_fs_get(struct cb_conn *conn, const char *fs, struct json_t **out, char *why, size_t n);

/* A client's mount made anew (cold), in its base directory again: what
 * the old one cached is gone, and what it held dirty is flushed. */
int cfs_remount(struct cb_phase *ph, struct cfs_session *ss);

/* cephfs_fsop.c: op fsop, fsopbench's operations over a home-like tree. */
extern const char *const cfs_fsop_steps[CFS_FSOP_READ - CFS_FSOP_LAYOUT + 1];
/* File sizes: lognormal, median 4 KiB, sigma 2.5 (cephfs_fsop.c, profiles.md) */
#define CFS_FSOP_MEDIAN	  4096.0
#define CFS_FSOP_SIGMA	  2.5
#define CFS_FSOP_MAX_FILE (64ULL << 20)
/* The size of client's file i, from the workload's seed, at most cap. */
uint64_t cfs_fsop_size(uint64_t seed, unsigned client, uint64_t i, uint64_t cap);
int cfs_fsop_setup(struct cb_phase *ph, struct cfs_state *s);
int cfs_fsop_submit(struct cfs_state *s, struct cb_op *op);

/* cephfs_mix.c: op mix, vdbench's operation mix over a tree of each
 * client's own, laid out by a step of its own first. */
int cfs_mix_check(const struct cb_workload *wl, const struct cfs_opts *o, char *why, size_t n);
int cfs_mix_setup(struct cb_phase *ph, struct cfs_state *s);
int cfs_mix_submit(struct cfs_state *s, struct cb_op *op);
void cfs_mix_teardown(struct cfs_state *s);

/* cephfs_replay.c: op replay, a client replaying the loadfile in its own
 * directory, pass after pass. */
int cfs_replay_setup(struct cb_phase *ph, struct cfs_state *s);
int cfs_replay_submit(struct cfs_state *s, struct cb_op *op);
uint64_t cfs_replay_due(struct cfs_state *s);
void cfs_replay_describe(const struct cfs_state *s, char *buf, size_t n);
void cfs_replay_teardown(struct cfs_state *s);

/* cephfs_mount.c: mount for a client through the run's connection (its
 * conf, client and keyring), on the workload's file system. */
/* Mounts fs with the client's inode cache bounded to cache_inodes. */
int cfs_mount(struct cb_conn *conn, const char *fs, uint64_t cache_inodes,
	      struct ceph_mount_info **cm, struct cb_err *e);
/* Unmounts and releases cm within bound_ns, else aborts it (and abandons
 * it when even that does not end the unmount): cephfs_mount.c. */
void cfs_unmount(struct ceph_mount_info *cm, uint64_t bound_ns);
/* The bound: the run's --timeout, 30 s unless given. */
uint64_t cfs_unmount_bound(struct cb_conn *conn);
/* cephfs_mark.c: what an entry of /cephbench is to the layer. */
enum cfs_kind {
	CFS_ABSENT,
	CFS_NOT_DIR,  /* a symlink, a file...: no run's, never followed */
	CFS_UNMARKED, /* a directory without a well-formed run_id mark: a user's */
	CFS_MINE,     /* marked with the caller's run id */
	CFS_OTHERS,   /* marked by another run: *st and *pid say whose */
};
/* The kind of path (run_id: the caller's run, NULL for none), or -errno;
 * for CFS_OTHERS *st is the state of the process the owner mark names
 * (ELSEWHERE without one) and *pid that process. Reads path itself, never
 * what a symlink there points to. */
int cfs_inspect(struct ceph_mount_info *cm, const char *path, const char *run_id,
		enum cb_owner_state *st, int *pid);
/* Set both marks of a run directory on path: 0 or -errno. */
int cfs_mark(struct ceph_mount_info *cm, const char *path, const char *run_id);
/* The reserved name a run makes its directory under before marking it:
 * "/cephbench/.new.<run>.<run_id>". */
void cfs_new_path(char *buf, size_t n, const char *run, const char *run_id);
/* Whether an entry name of /cephbench is such a name, of run (NULL: of any). */
bool cfs_is_new_name(const char *name, const char *run);

/* cephfs_rundir.c: make /cephbench/<run>[/<workload>[/c<k>...]], taking
 * over a dead namesake's leftovers; marks the run directory as this run's. */
int cfs_prepare_run(struct cb_phase *ph, struct cfs_session *ss);

/* cephfs_tree.c: the metadata ops. */
int cfs_tree_setup(struct cb_phase *ph, struct cfs_state *s);
int cfs_tree_submit(struct cfs_state *s, struct cb_op *op);
void cfs_tree_teardown(struct cfs_state *s);

/* cephfs_nbio.c: file data I/O with up to concurrency ops in flight per
 * client (libcephfs 20.2's ceph_ll_nonblocking_readv_writev), where the
 * build has it: CB_HAVE_CEPHFS_NONBLOCKING. Without it the layer stays
 * synchronous (one op in flight, the plan's concurrency 1). */
#ifdef CB_HAVE_CEPHFS_NONBLOCKING
#define CFS_SYNCHRONOUS false
#else
#define CFS_SYNCHRONOUS true
#endif
/* Whether wl's file data ops (read, write, randread, randwrite and their
 * fill) go through it: never without the feature, nor with sync: (O_SYNC,
 * O_DSYNC), nor at concurrency 1, nor for the tree, replay, mix and fsop
 * ops, which keep one op in flight (cfs_resolve sets their concurrency 1). */
bool cfs_nbio_on(const struct cb_workload *wl, const struct cfs_opts *o);
/* Open the client's files (flags as for ceph_open) as handles into s->nb
 * and s->nfds. 0, or -errno with ph->err set; cfs_nbio_close frees what
 * it made. */
int cfs_nbio_open(struct cb_phase *ph, struct cfs_state *s, int flags);
/* Start op (its len and is_write set) on file at off; it completes through
 * cb_op_done from libcephfs' thread, or at once when refused. 0, or -errno
 * (not started: more ops than concurrency). */
int cfs_nbio_start(struct cfs_state *s, struct cb_op *op, uint64_t file, uint64_t off);
/* Wait until no op of the client is in flight, then fsync (fdatasync with
 * dataonly) file: 0 or -errno. */
int cfs_nbio_fsync(struct cfs_state *s, uint64_t file, bool dataonly);
/* file's size, or -errno. */
int64_t cfs_nbio_end(struct cfs_state *s, uint64_t file);
/* Close the handles (none in flight) and free s->nb; NULL is nothing. */
void cfs_nbio_close(struct cfs_state *s);

/* cephfs_io.c: file data I/O. */
int cfs_io_setup(struct cb_phase *ph, struct cfs_state *s);
int cfs_io_submit(struct cfs_state *s, struct cb_op *op);
/* end_fsync: every file synced as one last op, or CB_EOF. */
int cfs_io_finish(struct cfs_state *s, struct cb_op *op);
void cfs_io_teardown(struct cfs_state *s);

/* cephfs_clean.c */
/* Evict the MDS sessions of killed cephbench processes of this boot of this
 * machine (by the owner mark in their client metadata): they hold caps that
 * stall the removal or listing of what they made, even of /cephbench, until
 * the MDS drops them (session_timeout, 60 s and more). Best effort: without
 * the caps for MDS commands, that wait stays. With own, this process's
 * other sessions too (only once its clients' mounts are released: the
 * run's cleanup, after abandoned clients). */
void cfs_evict_dead(struct ceph_mount_info *cm, bool own);
/* 0 when path is a directory itself (not a symlink to one), else -ENOTDIR
 * or the lookup's error. */
int cfs_real_dir(struct ceph_mount_info *cm, const char *path);
/* Remove path and everything below it; counts what it removed. */
int cfs_remove_tree(struct ceph_mount_info *cm, const char *path, uint64_t *removed);
int cfs_cleanup(struct cb_cleanup_req *req);

/* cephfs_probe.c: engine->probe (probe.h). */
struct cb_probe_req;
void cfs_probe(struct cb_probe_req *req);

#endif
