/* The RADOS layer's engine table: options, phase setup/teardown and cleanup.
 * write makes objects <run>.c<client>.<n> in namespace "cephbench"; seq and
 * rand read what the run's metadata objects say an earlier write left, of
 * every client that wrote. Client k > 0 runs on a connection of its own,
 * kept in its session across the workload's steps. */
#include "rng.h"
#include "conn.h"
#include "marked.h"
#include "rados_io.h"
#include "units.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* indexed by enum rados_op */
static const char *const rados_ops[] = {"write", "seq",	  "rand", "delete", "stat",
					"omap",	 "xattr", "mix",  NULL};
static const char *const rados_random_ops[] = {"rand", "stat", "omap", "xattr", "mix", NULL};
static const char *const rados_write_ops[] = {"write", "omap", "xattr", "mix", NULL};
/* block_size a distribution: objects of those sizes, each written whole */
static const char *const rados_sized_ops[] = {"write", NULL};
/* what an earlier phase wrote, read back: cold drops the OSDs' caches */
static const char *const rados_cold_ops[] = {"seq", "rand", "stat", NULL};
/* a mix's kinds (enum rados_kind), as its row's by_op names them */
static const char *const rados_kinds[RK_N] = {"write", "read", "stat", "omap", "xattr"};
/* without block_size, in the size the write recorded in the run's metadata */
static const char *const rados_reads[] = {"seq",   "rand", "stat",   "omap",
					  "xattr", "mix",  "delete", NULL};

static const struct cb_option rados_options[] = {
    {"pool", CB_OPT_CEPH, offsetof(struct rados_opts, pool), NULL, 0, 0, NULL,
     "pool to run in (objects go to its namespace 'cephbench')"},
    {"object_size", CB_OPT_SIZES, offsetof(struct rados_opts, object_size), NULL, 1, 90ULL << 20,
     NULL,
     "size of each object written (default: block_size), filled block by block; or sizes "
     "drawn per object ({ 4K: 60, 1M: 40 }, or a range 4K-1M: multiples of 4K when its ends "
     "are), each object written whole in one op (warp's object size distributions)"},
    {"max_objects", CB_OPT_UINT, offsetof(struct rados_opts, max_objects), NULL, 0, 0, NULL,
     "write: stop after this many objects (0: no limit)"},
    {"omap_keys", CB_OPT_UINT, offsetof(struct rados_opts, omap_keys), "1", 1, 1024, NULL,
     "omap: keys set per op, each new (rados bench --write-omap sets one)"},
    {"omap_value_size", CB_OPT_SIZE, offsetof(struct rados_opts, omap_value_size), "4K", 1,
     CB_RADOS_MAX_VALUE, NULL, "omap: bytes of each key's value"},
    {"xattr_size", CB_OPT_SIZE, offsetof(struct rados_opts, xattr_size), "4K", 1,
     CB_RADOS_MAX_VALUE, NULL, "xattr: bytes of the value set per op"},
    {"mix.write", CB_OPT_UINT, offsetof(struct rados_opts, mix[RK_WRITE]), "0", 0, 100, NULL,
     "mix: percent of ops that overwrite a block of an object"},
    {"mix.read", CB_OPT_UINT, offsetof(struct rados_opts, mix[RK_READ]), "0", 0, 100, NULL,
     "mix: percent of ops that read a block"},
    {"mix.stat", CB_OPT_UINT, offsetof(struct rados_opts, mix[RK_STAT]), "0", 0, 100, NULL,
     "mix: percent of ops that stat an object"},
    {"mix.omap", CB_OPT_UINT, offsetof(struct rados_opts, mix[RK_OMAP]), "0", 0, 100, NULL,
     "mix: percent of ops that set omap keys"},
    {"mix.xattr", CB_OPT_UINT, offsetof(struct rados_opts, mix[RK_XATTR]), "0", 0, 100, NULL,
     "mix: percent of ops that set an xattr"},
    {"pattern", CB_OPT_BOOL, offsetof(struct rados_opts, pattern), "false", 0, 0, NULL,
     "write: the verify pattern instead of data (every 8 bytes a function of the object and "
     "the offset, made in submit: inside the write's latency), so reads can verify"},
    {"verify", CB_OPT_BOOL, offsetof(struct rados_opts, verify), "false", 0, 0, NULL,
     "seq, rand, mix: check every byte read against the pattern the write wrote (on the "
     "completion: inside the read's latency); a mix's writes keep the pattern"},
    {NULL, 0, 0, NULL, 0, 0, NULL, NULL},
};

static bool is_op(const struct cb_workload *wl, const char *op)
{
	return strcmp(wl->op, op) == 0;
}

/* The object ops' keys: each only where it applies, a mix's percents
 * adding up to 100, omap and xattr sized by their own keys. */
static int check_object_ops(const struct cb_workload *wl, const struct rados_opts *o, char *why,
			    size_t n)
{
	uint64_t sum = 0;
	for (int k = 0; k < RK_N; k++)
		sum += o->mix[k];
	bool mix = is_op(wl, "mix"), omap = is_op(wl, "omap") || (mix && o->mix[RK_OMAP]);
	bool xattr = is_op(wl, "xattr") || (mix && o->mix[RK_XATTR]);
	if (mix && sum != 100) {
		snprintf(why, n,
			 "mix: the percents add up to %llu, not 100 (mix: { read: 70, "
			 "write: 20, stat: 10 })",
			 (unsigned long long)sum);
		return -EINVAL;
	}
	const char *stray = !mix && sum				  ? "mix"
			    : !omap && o->omap_keys != 1	  ? "omap_keys"
			    : !omap && o->omap_value_size != 4096 ? "omap_value_size"
			    : !xattr && o->xattr_size != 4096	  ? "xattr_size"
								  : NULL;
	if (stray) {
		snprintf(why, n, "%s: op %s %s: drop it", stray, wl->op,
			 stray[0] == 'm'   ? "is not op mix"
			 : stray[0] == 'o' ? "sets no omap keys"
					   : "sets no xattrs");
		return -EINVAL;
	}
	if (is_op(wl, "delete") && wl->block_size) {
		snprintf(why, n, "block_size: op delete removes whole objects: drop it");
		return -EINVAL;
	}
	if ((is_op(wl, "omap") || is_op(wl, "xattr")) && wl->block_size) {
		snprintf(why, n, "block_size: op %s sets values of %s (default 4K): use that key",
			 wl->op, is_op(wl, "omap") ? "omap_value_size" : "xattr_size");
		return -EINVAL;
	}
	return 0;
}

/* pattern on a write, verify on what reads blocks; the pattern is the
 * data, so no other. */
static int check_pattern(const struct cb_workload *wl, const struct rados_opts *o, char *why,
			 size_t n)
{
	bool reads = is_op(wl, "seq") || is_op(wl, "rand") || (is_op(wl, "mix") && o->mix[RK_READ]);
	if (o->verify && !reads) {
		snprintf(why, n,
			 "verify checks what reads read: op %s reads no blocks (a write gives "
			 "pattern: true, its reads verify: true)",
			 wl->op);
		return -EINVAL;
	}
	if (o->pattern && !is_op(wl, "write")) {
		snprintf(why, n,
			 "pattern: op %s writes no objects of its own (a mix's writes keep the "
			 "pattern of the objects it works on): use it on op write",
			 wl->op);
		return -EINVAL;
	}
	if (o->pattern && (wl->data.kind != CB_DATA_RANDOM || wl->refill)) {
		snprintf(why, n, "pattern and %s: the writes hold the verify pattern: drop %s",
			 wl->refill ? "refill" : "data", wl->refill ? "refill" : "data");
		return -EINVAL;
	}
	return 0;
}

/* omap and xattr move their values: their rows' block size. */
static void rados_resolve(struct cb_workload *wl, const void *lopts)
{
	const struct rados_opts *o = lopts;
	if (is_op(wl, "omap"))
		wl->block_size = o->omap_value_size;
	else if (is_op(wl, "xattr"))
		wl->block_size = o->xattr_size;
}

static int rados_check(const struct cb_workload *wl, const void *lopts, char *why, size_t n)
{
	const struct rados_opts *o = lopts;
	char a[32], b[32];
	if (!o->pool) {
		snprintf(why, n, "workload '%s' needs pool: (the pool to run in)", wl->name);
		return -EINVAL;
	}
	/* The OSDs refuse single writes above osd_max_write_size (90 MiB). */
	if (wl->block_size > (90ULL << 20)) {
		snprintf(why, n, "block_size %s is above the OSDs' 90M write limit",
			 cb_format_size(wl->block_size, a, sizeof(a)));
		return -EINVAL;
	}
	if (check_object_ops(wl, o, why, n) < 0 || check_pattern(wl, o, why, n) < 0)
		return -EINVAL;
	if (strcmp(wl->op, "write") != 0 && (o->object_size.size[0] || o->max_objects)) {
		snprintf(why, n,
			 "object_size and max_objects apply to op: write only (%s reads what the "
			 "write made)",
			 wl->op);
		return -EINVAL;
	}
	if (cb_sizes_varies(&o->object_size) && wl->sizes.size[0]) {
		snprintf(why, n,
			 "block_size and object_size %s: objects of sizes that vary are written "
			 "whole, one op each: drop block_size",
			 cb_sizes_varies(&wl->sizes) ? "both distributions" : "a distribution");
		return -EINVAL;
	}
	if (cb_sizes_varies(&wl->sizes) && o->object_size.size[0]) {
		snprintf(why, n,
			 "block_size as a distribution on rados makes objects of those sizes, one "
			 "write each: drop object_size, or give it the distribution");
		return -EINVAL;
	}
	uint64_t bs = wl->block_size, os = o->object_size.size[0];
	if (strcmp(wl->op, "write") == 0 && !cb_sizes_varies(&o->object_size) && os &&
	    (os < bs || os % bs)) {
		snprintf(why, n, "object_size %s must be a multiple of block_size %s",
			 cb_format_size(os, a, sizeof(a)), cb_format_size(bs, b, sizeof(b)));
		return -EINVAL;
	}
	return 0;
}

/* The step of an object_size range: 4K when its ends are multiples of
 * it (as a pool's allocation unit would have them), else a byte. */
static uint64_t object_step(const struct cb_sizes *z)
{
	return z->size[0] % 4096 || z->size[1] % 4096 ? 1 : 4096;
}

/* An object named like a record of the run that lacks cephbench's mark:
 * a user's, never written over. */
static int foreign_record(struct cb_phase *ph, unsigned client)
{
	char name[128];
	cb_rados_meta_name(name, sizeof(name), ph->run_name, client);
	return cb_err_usage(ph->err,
			    "object %s in namespace '%s' of pool '%s' was not made by cephbench "
			    "(no %s mark): refused, left as it is; use another --run-name",
			    name, CB_RADOS_NS, ph->out->target, CB_MARK_XATTR);
}

/* Record in the client's record what the write phase has made so far. */
static int write_meta(struct cb_phase *ph, struct rados_state *s, const char *state)
{
	struct rados_meta m = {.object_size = s->object_size,
			       .block_size = s->bs,
			       .objects = s->next / s->blocks_per_obj,
			       .started = (s->next + s->blocks_per_obj - 1) / s->blocks_per_obj,
			       .failed = atomic_load(&s->failed),
			       .clients = ph->clients,
			       .size_align = s->size_align,
			       .size_seed = s->size_seed,
			       .pattern = s->pattern};
	if (s->varied)
		cb_sizes_format(&s->osizes, m.sizes, sizeof(m.sizes));
	snprintf(m.state, sizeof(m.state), "%s", state);
	int r = cb_rados_meta_write(s->io, s->run, s->client, ph->run_id, &m,
				    s->meta_written || s->rewrite);
	if (r == -EEXIST)
		return foreign_record(ph, s->client);
	if (r < 0)
		cb_err_cluster(ph->err, r, "writing metadata of run '%s' in pool '%s': %s", s->run,
			       ph->out->target, strerror(-r));
	return r;
}

/* An earlier run of this name (killed, or kept with --no-cleanup) left
 * objects: they go before this write starts, so that no later read of this
 * run, nor the pool's state under the benchmark, mixes them in. old: its
 * record's state. */
static int take_over(struct cb_phase *ph, struct rados_state *s, const char *old)
{
	struct rados_removal n = {0};
	char who[160];
	int r = cb_rados_live_ask(s->io, s->run, who, sizeof(who));
	if (r > 0)
		return cb_err_cluster(ph->err, -EBUSY,
				      "run '%s' in pool '%s' belongs to a live run (%s): give this "
				      "run another --run-name",
				      s->run, ph->out->target, who);
	ph->out->created = true; /* what a removal cut short is the run's to clean */
	r = cb_rados_remove(s->io, s->run, &n, ph->err);
	if (r < 0)
		return r;
	char left[160] = "";
	if (n.foreign)
		snprintf(left, sizeof(left),
			 "; left %llu objects named like its own that cephbench did not make",
			 (unsigned long long)n.foreign);
	/* names cut to fit the note (and GCC's truncation check): a run name
	 * has at most 64 characters, a pool's rarely more than 48 */
	snprintf(ph->out->note, sizeof(ph->out->note),
		 "took over what an earlier run named '%.64s' left in pool '%.48s' (its write "
		 "was %s): removed %llu objects before writing%s",
		 s->run, ph->out->target, old, (unsigned long long)n.removed, left);
	return 0;
}

static int setup_write(struct cb_phase *ph, struct rados_state *s, const struct rados_opts *o)
{
	struct rados_meta own;
	const struct cb_workload *wl = ph->wl;
	s->bs = wl->block_size;
	s->object_size = o->object_size.size[0] ? o->object_size.size[0] : s->bs;
	/* objects of sizes that vary: each whole in one op, of its own size */
	s->varied = cb_sizes_varies(&o->object_size) || cb_sizes_varies(&wl->sizes);
	if (s->varied) {
		bool os = cb_sizes_varies(&o->object_size);
		s->osizes = os ? o->object_size : wl->sizes;
		s->size_align = !os				   ? wl->block_align
				: s->osizes.kind == CB_SIZES_RANGE ? object_step(&s->osizes)
								   : 1;
		s->size_seed = wl->seed;
		s->bs = s->object_size = cb_sizes_max(&s->osizes);
		cb_sizes_format(&s->osizes, ph->out->sizes, sizeof(ph->out->sizes));
		ph->out->block_size = s->bs;
	}
	s->blocks_per_obj = s->object_size / s->bs;
	s->pattern = o->pattern;
	s->limit_blocks = o->max_objects > UINT64_MAX / s->blocks_per_obj
			      ? 0 /* beyond reach: no limit */
			      : o->max_objects * s->blocks_per_obj;
	int r = cb_rados_meta_read(s->io, s->run, s->client, &own);
	if (r == -EEXIST)
		return foreign_record(ph, s->client);
	if (r < 0 && r != -ENOENT && r != -EINVAL)
		return cb_err_cluster(ph->err, r, "reading metadata of run '%s' in pool '%s': %s",
				      s->run, ph->out->target, strerror(-r));
	/* this run's earlier write (another workload, an iteration): written
	 * over, its record kept */
	s->rewrite = r == 0 && strcmp(own.run_id, ph->run_id) == 0;
	s->rewrite_below = s->rewrite ? own.started : 0;
	/* client 0 sets up alone, before the others: it alone checks the
	 * namespace (once a run: a namespace RBD uses is refused before any
	 * client writes) and takes over, so no client removes what another
	 * has begun to write */
	if (s->client == 0 && !s->rewrite) {
		int rr = cb_rados_ns_check(s->io, ph->err);
		if (rr == 0 && r != -ENOENT)
			rr = take_over(ph, s, r == 0 ? own.state : "unreadable");
		if (rr < 0)
			return rr;
	}
	/* Written before the first object so a crashed run can be found; the
	 * run owns it even if this write times out yet lands later. */
	ph->out->created = true;
	r = write_meta(ph, s, "writing");
	s->meta_written = r == 0;
	return r;
}

/* A read of what an earlier run of this name wrote (kept with --no-cleanup):
 * its metadata says complete; the first and last objects of each client
 * that wrote must be there in full too, and the user is told whose data
 * the phase reads. */
static int check_earlier(struct cb_phase *ph, struct rados_state *s, uint64_t object_size,
			 uint64_t objects)
{
	for (unsigned w = 0; w < s->writers; w++) {
		uint64_t n = (s->first[w + 1] - s->first[w]) / s->blocks_per_obj;
		uint64_t idx[2] = {0, n - 1};
		for (int i = 0; i < 2 && n; i++) {
			char name[160];
			uint64_t size = 0;
			time_t mtime;
			cb_rados_obj_name(name, sizeof(name), s->run, w, idx[i]);
			uint64_t want = s->varied ? cb_rados_object_len(&s->osizes, s->size_align,
									s->size_seed, w, idx[i])
						  : object_size;
			int r = rados_stat(s->io, name, &size, &mtime);
			if (r < 0 && r != -ENOENT)
				return cb_err_cluster(ph->err, r,
						      "reading object %s in pool '%s': %s", name,
						      ph->out->target, strerror(-r));
			if (r == -ENOENT || size < want)
				return cb_err_cluster(
				    ph->err, -ENODATA,
				    "workload '%s': the write of run '%s' in pool '%s' "
				    "is incomplete (object %s is %s): run the write again",
				    ph->wl->name, s->run, ph->out->target, name,
				    r == -ENOENT ? "missing" : "short");
		}
	}
	/* names cut to fit the note (and GCC's truncation check): a run name
	 * has at most 64 characters, a pool's rarely more than 48 */
	snprintf(ph->out->note, sizeof(ph->out->note),
		 "reads the %llu objects an earlier run named '%.64s' wrote in pool '%.48s' "
		 "(complete, first and last checked), not this run's",
		 (unsigned long long)objects, s->run, ph->out->target);
	return 0;
}

/* Whether a write's record in that state may be worked on: complete; or
 * deleted, by a delete's later clients (client 0, set up first and alone,
 * marked it so for this very phase). */
static bool readable(const struct cb_phase *ph, const struct rados_state *s, const char *state)
{
	return strcmp(state, "complete") == 0 ||
	       (s->op == RADOS_DELETE && ph->client > 0 && strcmp(state, "deleted") == 0);
}

/* The records of the write's other clients (client 0's, m, says how many):
 * each must be the same write's and complete. Fills s->first. */
static int read_writers(struct cb_phase *ph, struct rados_state *s, const struct rados_meta *m,
			uint64_t *objects)
{
	const struct rados_opts *o = ph->lopts;
	*objects = 0;
	s->writers = (unsigned)m->clients;
	s->first = calloc(s->writers + 1, sizeof(*s->first));
	if (!s->first)
		return cb_err_cluster(ph->err, -ENOMEM, "out of memory");
	for (unsigned w = 0; w < s->writers; w++) {
		struct rados_meta mw = *m;
		int r = w ? cb_rados_meta_read(s->io, s->run, w, &mw) : 0;
		if (r == -EEXIST)
			return foreign_record(ph, w);
		if (r < 0 && r != -ENOENT && r != -EINVAL)
			return cb_err_cluster(ph->err, r,
					      "reading metadata of client %u of run '%s' in pool "
					      "'%s': %s",
					      w, s->run, o->pool, strerror(-r));
		/* another write's record (an earlier workload's, a namesake's) is
		 * not this one's */
		if (r < 0 || strcmp(mw.run_id, m->run_id) != 0 || !readable(ph, s, mw.state) ||
		    mw.object_size != m->object_size || strcmp(mw.sizes, m->sizes) != 0)
			return cb_err_cluster(
			    ph->err, -ENODATA,
			    "workload '%s': the write of run '%s' in pool '%s' is "
			    "incomplete (client %u of %u: %s): run the write again",
			    ph->wl->name, s->run, o->pool, w, s->writers,
			    r == -ENOENT		   ? "no record"
			    : r < 0			   ? "unreadable record"
			    : strcmp(mw.run_id, m->run_id) ? "another run's record"
							   : mw.state);
		*objects += mw.objects;
		s->first[w + 1] = s->first[w] + mw.objects * s->blocks_per_obj;
	}
	return 0;
}

static int setup_read(struct cb_phase *ph, struct rados_state *s, const struct rados_opts *o)
{
	struct rados_meta m;
	char a[32], b[32];
	int r = cb_rados_meta_read(s->io, s->run, 0, &m);
	if (r == -ENOENT)
		return cb_err_usage(
		    ph->err,
		    "workload '%s': no objects of run '%s' in pool '%s': write them "
		    "first (op: write in this run, or an earlier run of this name "
		    "with --no-cleanup)",
		    ph->wl->name, s->run, o->pool);
	if (r == -EEXIST)
		return foreign_record(ph, 0);
	if (r < 0)
		return cb_err_cluster(ph->err, r, "reading metadata of run '%s' in pool '%s': %s",
				      s->run, o->pool, strerror(-r));
	if (!readable(ph, s, m.state))
		return cb_err_cluster(
		    ph->err, -ENODATA,
		    "workload '%s': the write of run '%s' in pool '%s' is %s (%s): "
		    "run the write again",
		    ph->wl->name, s->run, o->pool, m.state,
		    strcmp(m.state, "deleted") == 0 ? "an op delete removed it"
						    : "it crashed or had errors");
	/* the blocks are the write's unless the reads give their own size;
	 * omap's and xattr's block_size is their values' */
	bool own = ph->wl->block_size && s->op != RADOS_OMAP && s->op != RADOS_XATTR;
	if (m.sizes[0]) {
		char why[160];
		if (own)
			return cb_err_usage(ph->err,
					    "workload '%s': block_size: run '%s' wrote objects of "
					    "sizes %s, which are read whole: drop block_size",
					    ph->wl->name, s->run, m.sizes);
		if (cb_sizes_parse(m.sizes, 1, 0, &s->osizes, why, sizeof(why)) < 0)
			return cb_err_cluster(
			    ph->err, -EINVAL,
			    "metadata of run '%s' in pool '%s': sizes '%.64s': %s", s->run, o->pool,
			    m.sizes, why);
		s->varied = true;
		s->size_align = m.size_align;
		s->size_seed = m.size_seed;
		if (s->op <= RADOS_RAND)
			snprintf(ph->out->sizes, sizeof(ph->out->sizes), "%s", m.sizes);
	}
	s->bs = own ? ph->wl->block_size : m.block_size;
	s->pattern = m.pattern;
	s->verify = o->verify;
	if (o->verify && !m.pattern)
		return cb_err_usage(ph->err,
				    "workload '%s': verify: run '%s' wrote data, not the verify "
				    "pattern: give its write pattern: true",
				    ph->wl->name, s->run);
	if (o->verify && s->bs % 8)
		return cb_err_usage(ph->err,
				    "workload '%s': verify checks 8 bytes at a time: block_size %s "
				    "is not a multiple of 8",
				    ph->wl->name, cb_format_size(s->bs, a, sizeof(a)));
	if (s->bs > m.object_size)
		return cb_err_usage(ph->err,
				    "workload '%s': block_size %s is larger than the objects run "
				    "'%s' wrote (%s)",
				    ph->wl->name, cb_format_size(s->bs, a, sizeof(a)), s->run,
				    cb_format_size(m.object_size, b, sizeof(b)));
	s->object_size = m.object_size;
	s->blocks_per_obj = m.object_size / s->bs;
	uint64_t objects;
	if ((r = read_writers(ph, s, &m, &objects)) < 0)
		return r;
	if (objects == 0)
		return cb_err_usage(
		    ph->err,
		    "workload '%s': the write of run '%s' in pool '%s' completed no "
		    "object: write longer or with smaller object_size",
		    ph->wl->name, s->run, o->pool);
	/* rand: any block of any writer; seq: this client's share of them in
	 * order, the shares one after the other (with as many readers as
	 * writers of equal counts, reader k reads writer k's objects) */
	uint64_t all = s->first[s->writers], k = ph->client, n = ph->clients;
	s->limit_blocks = all;
	/* a distribution's hot set is objects (a block within one uniform);
	 * coverage visits every block */
	cb_dist_init(&s->dist, &ph->wl->distribution,
		     ph->wl->coverage ? all : all / s->blocks_per_obj, ph->wl->coverage,
		     ph->wl->seed, &s->rng);
	s->next = all / n * k + all % n * k / n;
	s->end = all / n * (k + 1) + all % n * (k + 1) / n;
	return strcmp(m.run_id, ph->run_id) == 0 ? 0 : check_earlier(ph, s, m.object_size, objects);
}

/* The object ops' kinds, and a mix's values checked against its buffers
 * (the block size the write used). */
static int setup_objects(struct cb_phase *ph, struct rados_state *s, const struct rados_opts *o)
{
	char a[32], b[32];
	struct cb_phase_out *out = ph->out;
	if (s->op == RADOS_OMAP || (s->op == RADOS_MIX && o->mix[RK_OMAP])) {
		size_t n = o->omap_keys;
		s->key = calloc(n, sizeof(*s->key));
		s->keys = calloc(n, sizeof(*s->keys));
		s->vals = calloc(n, sizeof(*s->vals));
		s->lens = calloc(n, sizeof(*s->lens));
		if (!s->key || !s->keys || !s->vals || !s->lens)
			return cb_err_cluster(ph->err, -ENOMEM, "out of memory");
	}
	if (s->op != RADOS_MIX) {
		out->kinds[0] = rados_kinds[s->op == RADOS_STAT	  ? RK_STAT
					    : s->op == RADOS_OMAP ? RK_OMAP
								  : RK_XATTR];
		out->nkinds = 1;
		return 0;
	}
	uint64_t at = 0;
	for (int k = 0; k < RK_N; k++) {
		out->kinds[k] = rados_kinds[k];
		s->mix_at[k] = at += o->mix[k];
	}
	out->nkinds = RK_N;
	uint64_t omap = o->mix[RK_OMAP] ? o->omap_value_size : 0;
	uint64_t xattr = o->mix[RK_XATTR] ? o->xattr_size : 0;
	uint64_t value = omap > xattr ? omap : xattr;
	if (value > s->bs)
		return cb_err_usage(ph->err,
				    "workload '%s': a value of %s is larger than the ops' block "
				    "size %s (a mix's values come from its buffers): give smaller "
				    "values or a larger block_size",
				    ph->wl->name, cb_format_size(value, a, sizeof(a)),
				    cb_format_size(s->bs, b, sizeof(b)));
	return 0;
}

/* delete: each client its share of the objects, whole (a share in
 * blocks could split an object between two clients); client 0, which sets
 * up alone, first marks every writer's record "deleted", so no later read
 * takes the objects for there, and cleanup still finds what is left. */
static int setup_delete(struct cb_phase *ph, struct rados_state *s)
{
	uint64_t all = s->first[s->writers] / s->blocks_per_obj, k = ph->client, n = ph->clients;
	s->next = all / n * k + all % n * k / n;
	s->end = all / n * (k + 1) + all % n * (k + 1) / n;
	ph->out->kinds[0] = "delete";
	ph->out->nkinds = 1;
	ph->out->created = true; /* what it leaves, cleanup removes */
	for (unsigned w = 0; w < s->writers && s->client == 0; w++) {
		struct rados_meta m;
		int r = cb_rados_meta_read(s->io, s->run, w, &m);
		if (r == 0) {
			snprintf(m.state, sizeof(m.state), "deleted");
			r = cb_rados_meta_write(s->io, s->run, w, m.run_id, &m, true);
		}
		if (r < 0)
			return cb_err_cluster(
			    ph->err, r, "marking the records of run '%s' in pool '%s' deleted: %s",
			    s->run, ph->out->target, strerror(-r));
	}
	return 0;
}

static int rados_setup(struct cb_phase *ph, void **state)
{
	const struct rados_opts *o = ph->lopts;
	struct rados_state *s = calloc(1, sizeof(*s));
	int r;

	snprintf(ph->out->target, sizeof(ph->out->target), "%s", o->pool);
	if (!s)
		return cb_err_cluster(ph->err, -ENOMEM, "out of memory");
	*state = s;
	s->run = ph->run_name;
	s->run_len = strlen(s->run);
	s->client = ph->client;
	s->rng = cb_rng_client(ph->wl->seed, ph->client, 0);
	struct cb_conn *conn;
	r = cb_conn_for_client(ph->conn, ph->client, (struct cb_conn **)ph->session, &conn,
			       ph->err);
	if (r == 0)
		r = cb_conn_ioctx(conn, o->pool, CB_RADOS_NS, &s->io, ph->err);
	if (r < 0) {
		s->io = NULL;
		return r;
	}
	/* On a full pool librados would hold writes until space is freed; a
	 * benchmark must fail fast instead: they return -ENOSPC, counted as
	 * errors up to max_errors. */
	rados_set_pool_full_try(s->io);
	s->o = o;
	s->wl = ph->wl->name;
	if (strcmp(ph->wl->op, "write") == 0) {
		s->op = RADOS_WRITE;
		r = setup_write(ph, s, o);
	} else {
		for (int i = RADOS_SEQ; rados_ops[i]; i++)
			if (strcmp(ph->wl->op, rados_ops[i]) == 0)
				s->op = (enum rados_op)i;
		r = setup_read(ph, s, o);
		if (r == 0 && s->op >= RADOS_STAT)
			r = setup_objects(ph, s, o);
		if (r == 0 && s->op == RADOS_DELETE)
			r = setup_delete(ph, s);
	}
	if (!ph->wl->block_size)
		ph->out->block_size = s->bs; /* a read's, as written */
	/* librados keeps no cache of its own: cold is the OSDs' drop alone */
	if (r == 0 && cb_op_listed(rados_cold_ops, ph->wl->op) &&
	    cb_cold_wanted(ph->wl->cold, false)) {
		ph->out->cold = "none";
		ph->out->cold_pools[0] = rados_ioctx_get_id(s->io);
		ph->out->ncold_pools = 1;
	}
	/* while the phase uses the run's objects, a cleanup or a namesake
	 * elsewhere leaves them alone (rados_live.c); without the hold (caps
	 * that refuse a watch) the run goes on as before */
	if (r == 0 && s->client == 0)
		cb_rados_live_hold(s->io, s->run, &s->live);
	return r;
}

/* The client's record is still the one setup wrote: a run that finds it
 * gone, or another run's, had its objects removed under it (a cleanup or
 * a namesake run that did not see it live: an older cephbench, a lost
 * watch) and says so rather than write a record over what is not there. */
static int record_still_ours(struct cb_phase *ph, struct rados_state *s)
{
	struct rados_meta m;
	char name[128];
	int r = cb_rados_meta_read(s->io, s->run, s->client, &m);
	if (r == 0 && strcmp(m.run_id, ph->run_id) == 0)
		return 0;
	if (r < 0 && r != -ENOENT && r != -EINVAL)
		return cb_err_cluster(ph->err, r, "reading metadata of run '%s' in pool '%s': %s",
				      s->run, ph->out->target, strerror(-r));
	cb_rados_meta_name(name, sizeof(name), s->run, s->client);
	return cb_err_cluster(ph->err, -ESTALE,
			      "the objects of run '%s' in pool '%s' were removed while it wrote "
			      "(its record %s is %s): a cleanup or a run of the same name "
			      "elsewhere; its figures stand, its objects are not all there",
			      s->run, ph->out->target, name, r == 0 ? "another run's" : "gone");
}

static int rados_teardown(struct cb_phase *ph, void *state)
{
	struct rados_state *s = state;
	int r = 0;
	if (!s)
		return 0;
	if (s->io && s->op == RADOS_WRITE && s->meta_written) {
		r = record_still_ours(ph, s);
		/* Objects with a failed block are not promised to readers. */
		if (r == 0)
			r = write_meta(ph, s, s->failed ? "incomplete" : "complete");
	}
	cb_rados_live_drop(&s->live);
	uint64_t late = atomic_load(&s->timed_out);
	if (late && s->op == RADOS_WRITE) {
		/* the OSDs may still apply a write the client gave up on: the
		 * objects on the cluster may outnumber the ops counted */
		size_t k = strlen(ph->out->note);
		snprintf(ph->out->note + k, sizeof(ph->out->note) - k,
			 "%s%llu writes timed out and may still complete on the OSDs: the "
			 "record counts their objects as started, cleanup finds them all",
			 k ? "; " : "", (unsigned long long)late);
	}
	if (s->io)
		rados_ioctx_destroy(s->io);
	free(s->first);
	free(s->key);
	free(s->keys);
	free(s->vals);
	free(s->lens);
	free(s);
	return r;
}

/* A client's own connection (none for client 0, which uses the shared one). */
static void rados_release(void *session)
{
	cb_conn_close(session);
}

static int rados_cleanup(struct cb_cleanup_req *req)
{
	const struct rados_opts *o = req->lopts;
	const char *pool = o ? o->pool : req->target;
	rados_ioctx_t io;
	if (!pool)
		return 0;
	int r = cb_conn_ioctx(req->conn, pool, CB_RADOS_NS, &io, req->err);
	if (r < 0)
		return r;
	struct rados_removal n = {0};
	r = cb_rados_remove(io, req->all ? NULL : req->run_name, &n, req->err);
	rados_ioctx_destroy(io);
	req->removed += n.removed;
	/* a cleanup that failed did not see the whole namespace: its count of
	 * what is not cephbench's would mislead beside the error */
	if (n.foreign && r == 0)
		snprintf(req->note, sizeof(req->note),
			 "left %llu objects in namespace '%s' that cephbench did not make%s",
			 (unsigned long long)n.foreign, CB_RADOS_NS,
			 req->all ? "" : " (named like the run's, without its mark)");
	return r;
}

const struct cb_engine cb_engine_rados = {
    .name = "rados",
    .ops = rados_ops,
    .options = rados_options,
    .target = &cb_target_pool,
    .removes = "objects",
    .options_size = sizeof(struct rados_opts),
    .max_clients = 1024,
    .default_block_size = CB_RADOS_DEFAULT_BS,
    .bs_as_written = rados_reads,
    .random_ops = rados_random_ops,
    .write_ops = rados_write_ops,
    .sized_ops = rados_sized_ops,
    .cold_ops = rados_cold_ops,
    .check = rados_check,
    .resolve = rados_resolve,
    .setup = rados_setup,
    .submit = cb_rados_submit,
    .poll = NULL,
    .describe = cb_rados_describe,
    .teardown = rados_teardown,
    .release = rados_release,
    .cleanup = rados_cleanup,
    .probe = cb_rados_probe,
};
