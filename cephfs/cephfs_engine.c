/* The CephFS layer through libcephfs: mdtest's metadata tree test (op: tree)
 * and file data I/O (read, write, randread, randwrite). libcephfs calls are
 * synchronous, so each client is a thread with its own mount and one op in
 * flight; the runner starts the clients together at every phase. Where the
 * build has libcephfs 20.2's nonblocking I/O (cephfs_nbio.c), the file data
 * ops keep up to concurrency in flight per client, and only the other ops
 * are held to one (cfs_resolve). */
#include "cephfs_priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const cfs_ops[] = {"tree",	"read", "write", "randread", "randwrite",
				      "replay", "mix",	"fsop",	 NULL};
static const char *const cfs_write_ops[] = {"write", "randwrite", "replay", "mix", NULL};
/* a mix picks its files and directories by the distribution */
static const char *const cfs_random_ops[] = {"randread", "randwrite", "mix", NULL};
static const char *const timings[] = {"fast", "recorded", NULL};
static const char *const cfs_io_ops[] = {"read", "write", "randread", "randwrite", NULL};
/* the tree's stat and read phases, file reads: cold applies */
static const char *const cfs_cold_ops[] = {"tree", "read", "randread", NULL};

const char *const cfs_phase_names[CFS_NSTEPS + 1] = {
    [CFS_TREE_CREATE] = "tree-create", [CFS_DIR_CREATE] = "dir-create",
    [CFS_DIR_STAT] = "dir-stat",       [CFS_DIR_RENAME] = "dir-rename",
    [CFS_DIR_REMOVE] = "dir-remove",   [CFS_FILE_CREATE] = "file-create",
    [CFS_FILE_STAT] = "file-stat",     [CFS_FILE_READ] = "file-read",
    [CFS_FILE_REMOVE] = "file-remove", [CFS_TREE_REMOVE] = "tree-remove",
};

/* A file system: `cephbench cleanup --fs FS` cleans its /cephbench. */
static const struct cb_target_kind cfs_target_fs = {
    .flag = "fs",
    .metavar = "FS",
    .noun = "file system",
    .rule = cb_ceph_name_rule,
};

static const struct cb_option cfs_options[] = {
    {"fs", CB_OPT_CEPH, offsetof(struct cfs_opts, fs), "cephfs", 0, 0, NULL,
     "file system to mount (ceph fs ls)"},
    {"depth", CB_OPT_UINT, offsetof(struct cfs_opts, depth), "0", 0, CFS_MAX_DEPTH, NULL,
     "tree: levels below the root directory (mdtest -z)"},
    {"branch", CB_OPT_UINT, offsetof(struct cfs_opts, branch), "1", 0, 1000000, NULL,
     "tree: subdirectories of each tree directory (mdtest -b)"},
    {"items", CB_OPT_UINT, offsetof(struct cfs_opts, items), "0", 0, 0, NULL,
     "tree: items per directory, per client (mdtest -I)"},
    {"total_items", CB_OPT_UINT, offsetof(struct cfs_opts, total_items), "0", 0, 0, NULL,
     "tree: items per client, spread over the directories (mdtest -n)"},
    {"files_only", CB_OPT_BOOL, offsetof(struct cfs_opts, files_only), "false", 0, 0, NULL,
     "tree: only the file phases (mdtest -F)"},
    {"dirs_only", CB_OPT_BOOL, offsetof(struct cfs_opts, dirs_only), "false", 0, 0, NULL,
     "tree: only the directory phases (mdtest -D)"},
    {"leaf_only", CB_OPT_BOOL, offsetof(struct cfs_opts, leaf_only), "false", 0, 0, NULL,
     "tree: items in the leaf directories only (mdtest -L)"},
    {"unique_dir", CB_OPT_BOOL, offsetof(struct cfs_opts, unique_dir), "false", 0, 0, NULL,
     "tree: a tree per client instead of one shared (mdtest -u)"},
    {"write_bytes", CB_OPT_SIZE, offsetof(struct cfs_opts, write_bytes), "0", 0, 1ULL << 30, NULL,
     "tree: bytes written to each file at create (mdtest -w)"},
    {"read_bytes", CB_OPT_SIZE, offsetof(struct cfs_opts, read_bytes), "0", 0, 1ULL << 30, NULL,
     "tree: bytes read from each file in file-read (mdtest -e)"},
    {"iterations", CB_OPT_UINT, offsetof(struct cfs_opts, iterations), "1", 1, 10000, NULL,
     "tree: times the phases run; rows show the rate's spread (mdtest -i)"},
    {"stonewall", CB_OPT_DURATION, offsetof(struct cfs_opts, stonewall_ns), "0", 0, 0, NULL,
     "tree: time limit of each create phase; later phases use what was made (mdtest -W)"},
    {"stride", CB_OPT_UINT, offsetof(struct cfs_opts, stride), "0", 0, 1023, NULL,
     "tree: the stat, read and remove phases work on the items of client + stride (mdtest "
     "-N), which this client's cache does not hold; 0: its own"},
    {"phases", CB_OPT_STR, offsetof(struct cfs_opts, phases), "all", 0, 0, NULL,
     "tree: which phases run, 'all' or a comma list (tree-create,dir-create,...)"},
    {"file_size", CB_OPT_SIZES, offsetof(struct cfs_opts, file_size), "256M", 1, 1ULL << 44, NULL,
     "read/write: size of each file"},
    {"files", CB_OPT_UINT, offsetof(struct cfs_opts, files), "1", 1, 1024, NULL,
     "read/write: files per client"},
    {"direct", CB_OPT_BOOL, offsetof(struct cfs_opts, direct), "true", 0, 0, NULL,
     "read/write: O_DIRECT, past the client's cache (false: buffered)"},
    {"prefill", CB_OPT_BOOL, offsetof(struct cfs_opts, prefill), "false", 0, 0, NULL,
     "write, randwrite: write the files in full first (reads always do)"},
    {"append", CB_OPT_BOOL, offsetof(struct cfs_opts, append), "false", 0, 0, NULL,
     "write: each write at the end of its file, which grows past file_size as long as the "
     "phase runs (fio's file_append)"},
    {"create_only", CB_OPT_BOOL, offsetof(struct cfs_opts, create_only), "false", 0, 0, NULL,
     "read/write: only lay the files out (the prefill row), no I/O row (fio's create_only)"},
    CB_DURABLE_OPTIONS(struct cfs_opts, dur),
    /* Ceph's default, 16384 inodes, took a mount to 98 MiB on a tree of
     * 100,000 files and answered smaller trees' stat phases from the client */
    {"client_cache_size", CB_OPT_UINT, offsetof(struct cfs_opts, client_cache_size),
     "1024" /* CFS_CACHE_INODES */, 1, 10000000, NULL,
     "inodes each mount caches (Ceph's client_cache_size; Ceph's own default is 16384)"},
    {"loadfile", CB_OPT_PATH, offsetof(struct cfs_opts, loadfile), NULL, 0, 0, NULL,
     "replay: dbench's loadfile (default " CFS_DEFAULT_LOADFILE ", Debian's dbench package)"},
    {"timing", CB_OPT_ENUM, offsetof(struct cfs_opts, timing), "fast", 0, 0, timings,
     "replay: fast (each line as soon as the last is done) or recorded (each line at its "
     "time in the loadfile, latency counted from then)"},
#define MIX_KEY(name, k, what)                                                                     \
	{                                                                                          \
		"mix." name, CB_OPT_UINT, offsetof(struct cfs_opts, mix[CFS_MIX_##k]), "0", 0,     \
		    100, NULL, "mix: percent of ops that " what                                    \
	}
    MIX_KEY("mkdir", MKDIR, "make a directory in a leaf (there already: failed as expected)"),
    MIX_KEY("rmdir", RMDIR, "remove one (not there: failed as expected)"),
    MIX_KEY("create", CREATE, "create a file, written whole (there already: failed as expected)"),
    MIX_KEY("delete", DELETE, "delete a file (gone already: failed as expected)"),
    MIX_KEY("open", OPEN, "open a file and keep it open (up to 64 a client)"),
    MIX_KEY("close", CLOSE, "close a file an open left open (none: failed as expected)"),
    MIX_KEY("read", READ, "read block_size of a file at a random block"),
    MIX_KEY("write", WRITE, "write block_size of a file at a random block"),
    MIX_KEY("getattr", GETATTR, "stat a file"),
    MIX_KEY("setattr", SETATTR, "set a file's modification time"),
    MIX_KEY("readdir", READDIR, "list a leaf directory"),
    MIX_KEY("rename", RENAME, "rename a file over another of its directory"),
#undef MIX_KEY
    {"rdpct", CB_OPT_UINT, offsetof(struct cfs_opts, rdpct), "100", 0, 100, NULL,
     "mix: the percent of read's weight that reads the files, the rest writes them "
     "(vdbench's rdpct)"},
    {NULL, 0, 0, NULL, 0, 0, NULL, NULL},
};

static bool is_tree(const struct cb_workload *wl)
{
	return strcmp(wl->op, "tree") == 0;
}

static bool is_replay(const struct cb_workload *wl)
{
	return strcmp(wl->op, "replay") == 0;
}

static bool is_mix(const struct cb_workload *wl)
{
	return strcmp(wl->op, "mix") == 0;
}

static bool is_fsop(const struct cb_workload *wl)
{
	return strcmp(wl->op, "fsop") == 0;
}

/* The ops over a tree of their own with a depth and a branch. */
static bool own_tree(const struct cb_workload *wl)
{
	return is_mix(wl) || is_fsop(wl);
}

/* replay: the loadfile whole, and the keys that only it takes */
static int replay_check(const struct cb_workload *wl, const struct cfs_opts *o, char *why, size_t n)
{
	struct cfs_load_info info;
	if (!is_replay(wl)) {
		if (o->loadfile || o->timing != CFS_TIMING_FAST) {
			snprintf(why, n, "%s: op %s replays no loadfile: use op replay",
				 o->loadfile ? "loadfile" : "timing", wl->op);
			return -EINVAL;
		}
		return 0;
	}
	if (cfs_loadfile_scan(cfs_loadfile_of(o), &info, why, n) < 0)
		return -EINVAL;
	if (o->timing == CFS_TIMING_RECORDED && !info.timed) {
		snprintf(why, n,
			 "timing: recorded: %s has no times (dbench 4's client.txt has none): use "
			 "timing: fast",
			 cfs_loadfile_of(o));
		return -EINVAL;
	}
	return 0;
}

static bool io_reads(const struct cb_workload *wl)
{
	return strcmp(wl->op, "read") == 0 || strcmp(wl->op, "randread") == 0;
}

int cfs_phase_mask(const struct cfs_opts *o, unsigned *mask, char *why, size_t n)
{
	unsigned m = 0;
	if (strcmp(o->phases, "all") == 0) {
		for (int s = CFS_TREE_CREATE; s <= CFS_TREE_REMOVE; s++)
			m |= 1u << s;
	} else {
		char buf[256];
		snprintf(buf, sizeof(buf), "%s", o->phases);
		for (char *save = NULL, *w = strtok_r(buf, ", ", &save); w;
		     w = strtok_r(NULL, ", ", &save)) {
			int s = CFS_TREE_CREATE;
			while (s <= CFS_TREE_REMOVE && strcmp(cfs_phase_names[s], w) != 0)
				s++;
			if (s > CFS_TREE_REMOVE) {
				const char *c = cb_closest(w, cfs_phase_names + CFS_TREE_CREATE);
				snprintf(why, n, "phases: unknown phase '%s'%s%s%s", w,
					 c ? " (did you mean '" : "", c ? c : "", c ? "'?)" : "");
				return -EINVAL;
			}
			m |= 1u << s;
		}
	}
	if (o->files_only)
		m &= ~(1u << CFS_DIR_CREATE | 1u << CFS_DIR_STAT | 1u << CFS_DIR_RENAME |
		       1u << CFS_DIR_REMOVE);
	if (o->dirs_only)
		m &= ~(1u << CFS_FILE_CREATE | 1u << CFS_FILE_STAT | 1u << CFS_FILE_READ |
		       1u << CFS_FILE_REMOVE);
	/* what each phase works on must have been made, and a tree that is
	 * removed must be empty by then */
	static const struct {
		enum cfs_step s, needs;
	} rules[] = {
	    {CFS_DIR_CREATE, CFS_TREE_CREATE},	{CFS_FILE_CREATE, CFS_TREE_CREATE},
	    {CFS_DIR_STAT, CFS_DIR_CREATE},	{CFS_DIR_RENAME, CFS_DIR_CREATE},
	    {CFS_DIR_REMOVE, CFS_DIR_CREATE},	{CFS_FILE_STAT, CFS_FILE_CREATE},
	    {CFS_FILE_READ, CFS_FILE_CREATE},	{CFS_FILE_REMOVE, CFS_FILE_CREATE},
	    {CFS_TREE_REMOVE, CFS_TREE_CREATE},
	};
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if ((m & 1u << rules[i].s) && !(m & 1u << rules[i].needs)) {
			snprintf(why, n, "phases: %s needs %s", cfs_phase_names[rules[i].s],
				 cfs_phase_names[rules[i].needs]);
			return -EINVAL;
		}
	if ((m & 1u << CFS_TREE_REMOVE) &&
	    (((m & 1u << CFS_DIR_CREATE) && !(m & 1u << CFS_DIR_REMOVE)) ||
	     ((m & 1u << CFS_FILE_CREATE) && !(m & 1u << CFS_FILE_REMOVE)))) {
		snprintf(why, n,
			 "phases: tree-remove needs the tree empty: add dir-remove and "
			 "file-remove for what is created");
		return -EINVAL;
	}
	if (!m) {
		snprintf(why, n, "phases: nothing to run");
		return -EINVAL;
	}
	*mask = m;
	return 0;
}

static int tree_check(const struct cfs_opts *o, uint64_t clients, uint64_t iterations, char *why,
		      size_t n)
{
	struct cfs_tree t;
	unsigned mask;
	const char *io_key = o->files > 1     ? "files"
			     : o->prefill     ? "prefill"
			     : o->append      ? "append"
			     : o->create_only ? "create_only"
					      : cb_durable_key(&o->dur);
	if (io_key) {
		snprintf(why, n, "%s is a key of file I/O (op: read, write, ...), not of op tree",
			 io_key);
		return -EINVAL;
	}
	if (o->files_only && o->dirs_only) {
		snprintf(why, n, "files_only and dirs_only exclude each other: drop one");
		return -EINVAL;
	}
	if (cfs_tree_plan(o, &t, why, n) < 0 || cfs_phase_mask(o, &mask, why, n) < 0)
		return -EINVAL;
	if (iterations > 1 && !(mask & 1u << CFS_TREE_REMOVE)) {
		snprintf(why, n,
			 "iterations: %llu needs the tree removed between them: add "
			 "tree-remove to phases",
			 (unsigned long long)iterations);
		return -EINVAL;
	}
	if (o->stride && o->stride % clients == 0) {
		snprintf(why, n,
			 "stride %llu: with %llu client%s each would work on its own items: give "
			 "clients above 1 and a stride from 1 to %llu",
			 (unsigned long long)o->stride, (unsigned long long)clients,
			 clients == 1 ? "" : "s",
			 (unsigned long long)(clients > 1 ? clients - 1 : 1));
		return -EINVAL;
	}
	if (o->stride && o->stonewall_ns) {
		snprintf(why, n,
			 "stride and stonewall: a stonewalled client makes fewer items than its "
			 "neighbour works on: drop one");
		return -EINVAL;
	}
	if (o->read_bytes > o->write_bytes) {
		snprintf(why, n,
			 "read_bytes (%llu) is more than write_bytes (%llu): files hold "
			 "only what was written",
			 (unsigned long long)o->read_bytes, (unsigned long long)o->write_bytes);
		return -EINVAL;
	}
	return 0;
}

/* A tree test's rows move write_bytes per file created and read_bytes per
 * file read: its block size is the larger, whatever block_size says. */
static void cfs_resolve(struct cb_workload *wl, const void *lopts)
{
	const struct cfs_opts *o = lopts;
	struct cfs_load_info info;
	char why[256];
	if (is_tree(wl))
		wl->block_size = o->write_bytes > o->read_bytes ? o->write_bytes : o->read_bytes;
	/* the buffers hold the largest ReadX or WriteX (check read the file) */
	if (is_replay(wl))
		wl->block_size = cfs_loadfile_scan(cfs_loadfile_of(o), &info, why, sizeof(why)) == 0
				     ? info.max_io
				     : CFS_REPLAY_MAX_IO;
	/* the layer is not synchronous where the build has nonblocking I/O
	 * (CFS_SYNCHRONOUS): the ops that still are keep one in flight */
	if (!cfs_nbio_on(wl, o))
		wl->concurrency = 1;
}

static int cfs_check(const struct cb_workload *wl, const void *lopts, char *why, size_t n)
{
	const struct cfs_opts *o = lopts;
	if (!o->fs[0]) {
		snprintf(why, n, "fs: empty: name a file system (ceph fs ls)");
		return -EINVAL;
	}
	if (cb_sizes_varies(&o->file_size) && !is_mix(wl)) {
		snprintf(why, n,
			 "file_size: op %s takes one file size (a distribution is op mix's)",
			 wl->op);
		return -EINVAL;
	}
	if (replay_check(wl, o, why, n) < 0 || cfs_mix_check(wl, o, why, n) < 0)
		return -EINVAL;
	if (is_tree(wl))
		return tree_check(o, wl->clients, o->iterations, why, n);
	/* tree keys elsewhere would be silently ignored; a mix's tree has a
	 * depth and a branch */
	const char *tree_key = o->depth && !own_tree(wl)	 ? "depth"
			       : o->items			 ? "items"
			       : o->total_items			 ? "total_items"
			       : o->write_bytes			 ? "write_bytes"
			       : o->read_bytes			 ? "read_bytes"
			       : o->iterations > 1		 ? "iterations"
			       : o->stonewall_ns		 ? "stonewall"
			       : o->stride			 ? "stride"
			       : strcmp(o->phases, "all")	 ? "phases"
			       : o->branch != 1 && !own_tree(wl) ? "branch"
			       : o->leaf_only			 ? "leaf_only"
			       : o->files_only			 ? "files_only"
			       : o->dirs_only			 ? "dirs_only"
								 : NULL;
	if (tree_key) {
		snprintf(why, n, "%s is a key of the tree test (op: tree), not of op %s", tree_key,
			 wl->op);
		return -EINVAL;
	}
	const char *io_key = o->prefill	      ? "prefill"
			     : o->append      ? "append"
			     : o->create_only ? "create_only"
					      : cb_durable_key(&o->dur);
	if ((is_replay(wl) || own_tree(wl)) && io_key) {
		snprintf(why, n, "%s is a key of file I/O (op: read, write, ...), not of op %s",
			 io_key, wl->op);
		return -EINVAL;
	}
	if (is_fsop(wl) && (!o->branch || o->depth > 8 || o->files > 100000)) {
		snprintf(why, n,
			 "fsop: a tree of depth 0 to 8, branch 1 or more, and at most 100000 "
			 "files a directory");
		return -EINVAL;
	}
	if (is_replay(wl) || own_tree(wl))
		return 0;
	if (cb_durable_check(&o->dur, wl->op, !io_reads(wl), o->create_only, why, n) < 0)
		return -EINVAL;
	if (o->append && strcmp(wl->op, "write") != 0) {
		snprintf(why, n, "append: op %s does not write in sequence: use op write", wl->op);
		return -EINVAL;
	}
	if (o->append && o->create_only) {
		snprintf(why, n, "append and create_only: create_only makes no writes to append");
		return -EINVAL;
	}
	/* a distribution's ops are multiples of its alignment, the largest
	 * within a file */
	bool sized = cb_sizes_varies(&wl->sizes);
	uint64_t bs = sized ? wl->block_align : wl->block_size;
	if (cfs_file_size(o) % bs) {
		snprintf(why, n, "file_size %llu is not a multiple of %s %llu",
			 (unsigned long long)cfs_file_size(o), sized ? "block_align" : "block_size",
			 (unsigned long long)bs);
		return -EINVAL;
	}
	if (sized && cfs_file_size(o) < wl->block_size) {
		snprintf(why, n, "file_size %llu is smaller than the largest block_size %llu",
			 (unsigned long long)cfs_file_size(o), (unsigned long long)wl->block_size);
		return -EINVAL;
	}
	return 0;
}

/* op tree: mdtest's phases in its order; reads: a fill pass first (the run's
 * files hold nothing else), writes too with prefill; create_only: the fill
 * pass alone. */
static size_t cfs_steps(const struct cb_workload *wl, const void *lopts, struct cb_step *out,
			unsigned *iterations)
{
	const struct cfs_opts *o = lopts;
	size_t n = 0;
	if (is_replay(wl)) {
		out[n++] = (struct cb_step){.id = CFS_REPLAY};
		return n;
	}
	if (is_fsop(wl)) { /* the tree, then each of fsopbench's operations over it */
		for (int s = CFS_FSOP_LAYOUT; s <= CFS_FSOP_READ; s++)
			out[n++] = (struct cb_step){.suffix = cfs_fsop_steps[s - CFS_FSOP_LAYOUT],
						    .op = cfs_fsop_steps[s - CFS_FSOP_LAYOUT],
						    .id = s,
						    .own_limits = true};
		return n;
	}
	if (is_mix(wl)) { /* the tree first, as vdbench's format run */
		out[n++] = (struct cb_step){
		    .suffix = "layout", .op = "layout", .id = CFS_MIX_LAYOUT, .own_limits = true};
		out[n++] = (struct cb_step){.id = CFS_MIX};
		return n;
	}
	if (!is_tree(wl)) {
		if (io_reads(wl) || o->prefill || o->create_only)
			out[n++] = (struct cb_step){.suffix = CB_STEP_PREFILL,
						    .op = CB_STEP_PREFILL,
						    .id = CFS_FILL,
						    .own_limits = true};
		if (!o->create_only)
			out[n++] = (struct cb_step){.id = CFS_IO};
		return n;
	}
	unsigned mask = 0;
	char why[256];
	if (cfs_phase_mask(o, &mask, why, sizeof(why)) < 0)
		return 0; /* refused by check */
	for (int s = CFS_TREE_CREATE; s <= CFS_TREE_REMOVE; s++)
		if (mask & 1u << s)
			out[n++] = (struct cb_step){
			    .suffix = cfs_phase_names[s],
			    .op = cfs_phase_names[s],
			    .id = s,
			    .own_limits = true,
			    /* mdtest's stonewall bounds the create phases */
			    .duration_ns =
				s == CFS_DIR_CREATE || s == CFS_FILE_CREATE ? o->stonewall_ns : 0,
			};
	*iterations = (unsigned)o->iterations;
	return n;
}

/* A family of steps (file data I/O and its fill, the tree's phases, replay,
 * mix and its layout, fsop and its layout): the step ids it runs and the
 * calls that run them. Every call's state is its family's. */
struct cfs_family {
	enum cfs_step first, last;
	int (*setup)(struct cb_phase *ph, struct cfs_state *s);
	int (*submit)(struct cfs_state *s, struct cb_op *op);
	void (*describe)(const struct cfs_state *s, const struct cb_op *op, char *buf, size_t n);
	/* NULL: the family holds nothing past an op */
	void (*teardown)(struct cfs_state *s);
};

static void io_describe(const struct cfs_state *s, const struct cb_op *op, char *buf, size_t n)
{
	snprintf(buf, n, "file %s/c%u.%llu offset %llu", s->ss->base, s->client,
		 (unsigned long long)(op->where >> 48),
		 (unsigned long long)((op->where & ((1ULL << 48) - 1)) * s->bs));
}

static void replay_describe(const struct cfs_state *s, const struct cb_op *op, char *buf, size_t n)
{
	(void)op;
	cfs_replay_describe(s, buf, n);
}

/* ops are synchronous: the last path built is the failed op's */
static void path_describe(const struct cfs_state *s, const struct cb_op *op, char *buf, size_t n)
{
	(void)op;
	snprintf(buf, n, "%s/%s", s->ss->base, s->path);
}

static const struct cfs_family cfs_families[] = {
    {CFS_IO, CFS_FILL, cfs_io_setup, cfs_io_submit, io_describe, cfs_io_teardown},
    {CFS_TREE_CREATE, CFS_TREE_REMOVE, cfs_tree_setup, cfs_tree_submit, path_describe,
     cfs_tree_teardown},
    {CFS_REPLAY, CFS_REPLAY, cfs_replay_setup, cfs_replay_submit, replay_describe,
     cfs_replay_teardown},
    {CFS_MIX_LAYOUT, CFS_MIX, cfs_mix_setup, cfs_mix_submit, path_describe, cfs_mix_teardown},
    /* each op closes what it opened */
    {CFS_FSOP_LAYOUT, CFS_FSOP_READ, cfs_fsop_setup, cfs_fsop_submit, path_describe, NULL},
};

/* The family of step, which cfs_steps made: one always runs it. */
static const struct cfs_family *family_of(enum cfs_step step)
{
	size_t i = 0;
	while (i + 1 < sizeof(cfs_families) / sizeof(cfs_families[0]) &&
	       !(cfs_families[i].first <= step && step <= cfs_families[i].last))
		i++;
	return &cfs_families[i];
}

static int cfs_setup(struct cb_phase *ph, void **state)
{
	const struct cfs_opts *o = ph->lopts;
	struct cfs_state *s = calloc(1, sizeof(*s));
	if (!s)
		return cb_err_cluster(ph->err, -ENOMEM, "out of memory");
	*state = s;
	snprintf(ph->out->target, sizeof(ph->out->target), "%s", o->fs);
	s->o = o;
	s->step = (enum cfs_step)ph->step;
	s->family = family_of(s->step);
	s->client = ph->client;
	s->clients = ph->clients;
	s->stride = cfs_stride(o, ph->wl, ph->clients);
	struct cfs_session **slot = (struct cfs_session **)ph->session;
	if (!slot)
		return cb_err_cluster(ph->err, -EINVAL, "internal error: no session slot");
	if (!*slot) {
		struct cfs_session *ss = calloc(1, sizeof(*ss));
		if (!ss)
			return cb_err_cluster(ph->err, -ENOMEM, "out of memory");
		int r = cfs_mount(ph->conn, o->fs, o->client_cache_size, &ss->cm, ph->err);
		if (r < 0) {
			free(ss);
			return r;
		}
		ss->unmount_ns = cfs_unmount_bound(ph->conn);
		*slot = ss;
	}
	s->ss = *slot;
	int r = 0;
	const char *cold = cfs_cold_way(ph, s);
	/* a mount of the session's, not this step's: a new one holds nothing */
	if (cold && !strcmp(cold, "remount") && s->ss->prepared)
		r = cfs_remount(ph, s->ss);
	if (r == 0)
		r = cfs_prepare_run(ph, s->ss);
	if (r < 0)
		return r;
	ph->out->cold = cold;
	if (cold && ph->client == 0 &&
	    (s->step == CFS_IO || (s->step == CFS_FILE_READ && o->read_bytes)))
		cfs_cold_pools(ph);
	return s->family->setup(ph, s);
}

static int cfs_submit(void *state, struct cb_op *op)
{
	struct cfs_state *s = state;
	if (s->next >= s->count)
		return CB_EOF;
	return s->family->submit(s, op);
}

static uint64_t cfs_due(void *state)
{
	struct cfs_state *s = state;
	return s->step == CFS_REPLAY ? cfs_replay_due(s) : 0;
}

static int cfs_finish(void *state, struct cb_op *op)
{
	struct cfs_state *s = state;
	return s->step == CFS_IO ? cfs_io_finish(s, op) : CB_EOF;
}

static void cfs_describe(void *state, const struct cb_op *op, char *buf, size_t n)
{
	const struct cfs_state *s = state;
	s->family->describe(s, op, buf, n);
}

static int cfs_teardown(struct cb_phase *ph, void *state)
{
	struct cfs_state *s = state;
	(void)ph;
	if (!s)
		return 0;
	if (s->ss && s->family->teardown)
		s->family->teardown(s);
	free(s);
	return 0;
}

static void cfs_release(void *session)
{
	struct cfs_session *ss = session;
	cfs_unmount(ss->cm, ss->unmount_ns);
	free(ss);
}

/* libcephfs has no timeout on an MDS request: a stuck client is freed by
 * aborting its mount, which fails its waiting calls (-ENOTCONN) and drops
 * its MDS session without a clean unmount; the MDS times the session out. */
static void cfs_abort(void *session)
{
	struct cfs_session *ss = session;
	if (ss && ss->cm)
		ceph_abort_conn(ss->cm);
}

static const char *cfs_mds_fs(const void *lopts)
{
	return ((const struct cfs_opts *)lopts)->fs;
}

const struct cb_engine cb_engine_cephfs = {
    .name = "cephfs",
    .ops = cfs_ops,
    .options = cfs_options,
    .target = &cfs_target_fs,
    .removes = "files and directories",
    .options_size = sizeof(struct cfs_opts),
    .synchronous = CFS_SYNCHRONOUS, /* false: file data ops in flight (cephfs_nbio.c) */
    .max_clients = 1024,
    .default_block_size = CFS_DEFAULT_BS,
    .random_ops = cfs_random_ops,
    .write_ops = cfs_write_ops,
    .sized_ops = cfs_io_ops,
    .cold_ops = cfs_cold_ops,
    .check = cfs_check,
    .resolve = cfs_resolve,
    .steps = cfs_steps,
    .setup = cfs_setup,
    .submit = cfs_submit,
    .finish = cfs_finish,
    .due = cfs_due,
    .describe = cfs_describe,
    .teardown = cfs_teardown,
    .release = cfs_release,
    .abort = cfs_abort,
    .cleanup = cfs_cleanup,
    .context = cfs_context,
    .osd_counts_bytes = true,
    .osd_mismatch_why = "a client cache's reads are not the OSDs', its writes reach them when it "
			"flushes",
    .mds_fs = cfs_mds_fs,
    .probe = cfs_probe,
};
