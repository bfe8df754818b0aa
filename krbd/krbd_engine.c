/* The krbd layer's engine table: options, checks, steps, and the devices of
 * a workload. It runs libaio block I/O on kernel block devices: images the
 * run creates and maps with `rbd device map` (pool: and image_size:), or
 * devices and files given with device:, which are only read unless
 * --allow-destructive (krbd_dev.c has the safety rules). */
#include "rng.h"
#include "blk_check.h"
#include "conn.h"
#include "context.h"
#include "krbd_priv.h"
#include "options.h"
#include "blk_image.h"
#include "units.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

static const struct cb_option krbd_options[] = {
    {"device", CB_OPT_PATH, offsetof(struct krbd_opts, device), NULL, 0, 0, NULL,
     "block device(s) or file(s) to run on, ':'-separated (as fio's filename=); "
     "written only with --allow-destructive"},
    {"pool", CB_OPT_CEPH, offsetof(struct krbd_opts, pool), NULL, 0, 0, NULL,
     "pool of the images the run creates and maps (unused with device:)"},
    {"image_size", CB_OPT_SIZE, offsetof(struct krbd_opts, image_size), NULL, 1, KRBD_MAX_SIZE,
     NULL, "size of each image the run creates and maps"},
    {"images", CB_OPT_UINT, offsetof(struct krbd_opts, images), "1", 1, KRBD_MAX_DEVICES, NULL,
     "images (devices) per client; each op picks one"},
    {"features", CB_OPT_STR, offsetof(struct krbd_opts, features), NULL, 0, 0, NULL,
     "features of the images, e.g. layering,exclusive-lock (what the kernel supports; "
     "default: the cluster's)"},
    {"map_options", CB_OPT_STR, offsetof(struct krbd_opts, map_options), NULL, 0, 0, NULL,
     "krbd map options, passed to rbd device map --options (e.g. queue_depth=128)"},
    {"direct", CB_OPT_BOOL, offsetof(struct krbd_opts, direct), "true", 0, 0, NULL,
     "O_DIRECT: bypass the page cache (false: buffered I/O)"},
    {"prefill", CB_OPT_BOOL, offsetof(struct krbd_opts, prefill), "false", 0, 0, NULL,
     "write every device in full first, as a phase of its own"},
    {"verify", CB_OPT_BOOL, offsetof(struct krbd_opts, verify), "false", 0, 0, NULL,
     CB_BLK_VERIFY_HELP},
    {"rw_mix_read", CB_OPT_UINT, offsetof(struct krbd_opts, rw_mix_read), "50", 0, 100, NULL,
     "rw, randrw: percent of ops that read"},
    {"batch_submit", CB_OPT_UINT, offsetof(struct krbd_opts, batch_submit), "1", 1, 65536, NULL,
     "ops per io_submit, as fio's iodepth_batch_submit: 1 starts each op at once; more "
     "saves syscalls but holds ops back until the batch is full or the window is"},
    {"create_only", CB_OPT_BOOL, offsetof(struct krbd_opts, create_only), "false", 0, 0, NULL,
     "only the prefill row: every device written in full, no I/O row (fio's create_only)"},
    CB_DURABLE_OPTIONS(struct krbd_opts, dur),
    {NULL, 0, 0, NULL, 0, 0, NULL, NULL},
};

/* The next device of a ':'-separated list into buf, "\:" standing for a
 * ':' of the path (fio's escape: /dev/disk/by-path names have colons).
 * Returns the rest, or NULL at the end; *fits is false when the path was
 * cut to fit. */
static const char *next_device(const char *list, char *buf, size_t n, bool *fits)
{
	size_t len = 0;
	*fits = true;
	for (; *list && *list != ':'; list++) {
		if (list[0] == '\\' && list[1] == ':')
			list++;
		if (len + 1 < n)
			buf[len++] = *list;
		else
			*fits = false;
	}
	buf[len] = '\0';
	return *list ? list + 1 : NULL;
}

static int check_devices(const struct cb_workload *wl, const char *list, char *why, size_t n)
{
	char path[KRBD_MAX_DEVICES + 1][256];
	unsigned count = 0;
	bool fits;
	for (const char *p = list; p && count <= KRBD_MAX_DEVICES; count++) {
		p = next_device(p, path[count], sizeof(path[count]), &fits);
		if (!path[count][0] || !fits) {
			snprintf(why, n, "workload '%s': device '%s' has an empty or too long path",
				 wl->name, list);
			return -EINVAL;
		}
		/* the same path twice: two devices' patterns on one */
		for (unsigned k = 0; k < count; k++)
			if (strcmp(path[k], path[count]) == 0) {
				snprintf(why, n, "workload '%s': device %s is listed twice",
					 wl->name, path[count]);
				return -EINVAL;
			}
	}
	if (count > KRBD_MAX_DEVICES) {
		snprintf(why, n, "workload '%s': %u devices, at most %d", wl->name, count,
			 KRBD_MAX_DEVICES);
		return -EINVAL;
	}
	return 0;
}

/* Mapping needs kernel rbd; a device given by path needs nothing more. */
static int krbd_available(const struct cb_workload *wl, const void *lopts, char *why, size_t n)
{
	const struct krbd_opts *o = lopts;
	(void)wl;
	if (o->device || krbd_kernel_rbd())
		return 0;
	snprintf(why, n, "this kernel has no rbd support (no /sys/bus/rbd)");
	return -ENODEV;
}

/* The options go to rbd device map as one argument, and from it into the
 * kernel's one-line "add" string, where a space would start the pool,
 * image or snapshot field: only a list of printable words is passed. */
static bool map_options_ok(const char *s)
{
	size_t len = strlen(s);
	if (len == 0 || len > 1024)
		return false;
	for (; *s; s++)
		if ((unsigned char)*s <= ' ' || (unsigned char)*s >= 0x7f)
			return false;
	return true;
}

static int krbd_check(const struct cb_workload *wl, const void *lopts, char *why, size_t n)
{
	const struct krbd_opts *o = lopts;
	uint64_t bs = wl->block_size, mask;
	enum cb_blk_op op = cb_blk_op_of(wl->op);

	if (o->map_options && !map_options_ok(o->map_options)) {
		snprintf(why, n,
			 "map_options '%s': use a ','-separated list like queue_depth=128,noshare "
			 "(1-1024 characters, no spaces or control characters)",
			 o->map_options);
		return -EINVAL;
	}
	if (cb_durable_check(&o->dur, wl->op, cb_blk_op_writes(op, o->rw_mix_read), o->create_only,
			     why, n) < 0)
		return -EINVAL;
	const struct cb_blk_target t = {
	    .noun = "device",
	    .given = o->device,
	    .shared = "only reads share a device; map images (pool: and image_size:, each client "
		      "its own) or give clients: 1",
	    .images = o->images,
	    .mix = o->rw_mix_read,
	    .prefill = o->prefill,
	    .create_only = o->create_only,
	    .verify = o->verify,
	};
	if (cb_blk_check_verify(wl, &t, why, n) < 0 || cb_blk_check_clients(wl, &t, why, n) < 0)
		return -EINVAL;
	if (o->device) {
		/* pool is left alone: profiles often set it in defaults: */
		if (o->image_size || o->images != 1 || o->features || o->map_options) {
			snprintf(why, n,
				 "device: names what to run on; image_size, images, features and "
				 "map_options apply to images the run maps");
			return -EINVAL;
		}
		return check_devices(wl, o->device, why, n);
	}
	if (!o->pool || !o->image_size) {
		snprintf(why, n,
			 "workload '%s' needs device: (a block device or file, e.g. /dev/rbd0) "
			 "or pool: and image_size: (images the run creates and maps)",
			 wl->name);
		return -EINVAL;
	}
	if (cb_blk_check_fits(bs, o->image_size, why, n) < 0)
		return -EINVAL;
	if (cb_blk_op_reads(op, o->rw_mix_read) && !o->prefill && !o->create_only) {
		snprintf(why, n,
			 "workload '%s' reads images the run creates, which hold no data yet "
			 "(unwritten blocks read as zeros with no OSD work): set prefill: true",
			 wl->name);
		return -EINVAL;
	}
	if (o->features && cb_blk_features(o->features, &mask, why, n) < 0)
		return -EINVAL;
	return 0;
}

/* With prefill, an unmeasured pass that writes every block once, then the
 * workload: the pass is a row of its own, "<workload>.prefill". */
static size_t krbd_steps(const struct cb_workload *wl, const void *lopts, struct cb_step *out,
			 unsigned *iterations)
{
	(void)wl;
	(void)iterations;
	const struct krbd_opts *o = lopts;
	return cb_blk_steps(o->prefill, o->create_only, KRBD_STEP_FILL, out);
}

/* What a device: entry names: a block device, and/or a file (a regular
 * file, or the file behind a loop device). */
struct ident {
	bool blk, file;
	dev_t rdev;
	uint64_t fdev, ino;
};

/* Fails like stat (errno) when path cannot be looked at. */
static int identify(const char *path, struct ident *id)
{
	struct stat st;
	struct loop_info64 li;
	*id = (struct ident){0};
	if (stat(path, &st) != 0)
		return -1;
	id->blk = S_ISBLK(st.st_mode);
	id->rdev = st.st_rdev;
	id->file = S_ISREG(st.st_mode);
	id->fdev = st.st_dev;
	id->ino = st.st_ino;
	int fd = id->blk ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	if (fd >= 0 && ioctl(fd, LOOP_GET_STATUS64, &li) == 0) {
		id->file = true; /* the kernel's own numbering, as stat's */
		id->fdev = li.lo_device;
		id->ino = li.lo_inode;
	}
	if (fd >= 0)
		close(fd);
	return 0;
}

static bool same(const struct ident *a, const struct ident *b)
{
	return (a->blk && b->blk && a->rdev == b->rdev) ||
	       (a->file && b->file && a->fdev == b->fdev && a->ino == b->ino);
}

void krbd_session_close(struct krbd_session *ss)
{
	if (!ss)
		return;
	for (unsigned i = 0; i < ss->ndev; i++) {
		if (ss->dev[i].fd >= 0)
			close(ss->dev[i].fd);
		/* a failed unmap is tried again by the run's cleanup */
		struct cb_err ignored = {0};
		if (ss->dev[i].mapped)
			krbd_unmap(ss->conn, ss->pool, ss->dev[i].image, &ignored);
	}
	free(ss);
}

int krbd_session_open(struct cb_phase *ph, struct krbd_session **out)
{
	const struct krbd_opts *o = ph->lopts;
	struct krbd_session *ss = calloc(1, sizeof(*ss));
	if (!ss)
		return cb_err_cluster(ph->err, -ENOMEM, "out of memory");
	*out = ss; /* closed by release, also after a failure here */
	ss->conn = ph->conn;
	ss->writes = cb_blk_workload_writes(o->prefill || o->create_only, cb_blk_op_of(ph->wl->op),
					    o->rw_mix_read);
	for (unsigned i = 0; i < KRBD_MAX_DEVICES; i++)
		ss->dev[i].fd = -1;
	if (!o->device) {
		snprintf(ss->pool, sizeof(ss->pool), "%s", o->pool);
		return krbd_map_images(ph, ss);
	}
	/* two names of one device or file (a symlink, a loop device and the
	 * file behind it): refused before anything is opened */
	struct ident id[KRBD_MAX_DEVICES];
	bool known[KRBD_MAX_DEVICES], fits;
	unsigned n = 0;
	for (const char *p = o->device; p; n++) {
		p = next_device(p, ss->dev[n].path, sizeof(ss->dev[n].path), &fits);
		known[n] = identify(ss->dev[n].path, &id[n]) == 0; /* else krbd_dev_open says why */
		for (unsigned k = 0; known[n] && k < n; k++)
			if (known[k] && same(&id[k], &id[n]))
				return cb_err_usage(
				    ph->err,
				    "workload '%.*s': devices %s and %s are the same "
				    "%s: list it once",
				    KRBD_WL(ph), ss->dev[k].path, ss->dev[n].path,
				    id[k].blk && id[n].blk ? "device" : "file");
	}
	for (; ss->ndev < n; ss->ndev++) {
		int r = krbd_dev_open(ph, &ss->dev[ss->ndev], ss->writes, false);
		if (r < 0) {
			ss->ndev++; /* its fd, if any, is closed with the others */
			return r;
		}
	}
	return 0;
}

/* The fill pass's block: whole objects (4M), but a window's buffers stay
 * within KRBD_FILL_MEM, and never below the workload's block size (which
 * passed the device checks). */
static uint64_t fill_bs(const struct cb_workload *wl)
{
	uint64_t bs = KRBD_FILL_BS, min = wl->block_size;
	while (bs / 2 >= min && bs * wl->concurrency > KRBD_FILL_MEM)
		bs /= 2;
	return bs > min ? bs : min;
}

/* Cold: O_DIRECT reads bypass the page cache; buffered ones find it
 * emptied of the devices' pages; the OSDs of the pool drop theirs at the
 * start line (a given device's pool is known only when pool is given). */
static void cold_devices(struct cb_phase *ph, const struct krbd_session *ss)
{
	const struct krbd_opts *o = ph->lopts;
	struct cb_phase_out *out = ph->out;
	out->cold = o->direct ? "direct" : "fadvise";
	for (unsigned i = 0; !o->direct && i < ss->ndev; i++)
		posix_fadvise(ss->dev[i].fd, 0, 0, POSIX_FADV_DONTNEED);
	int64_t id = o->pool ? rados_pool_lookup(cb_conn_rados(ph->conn), o->pool) : -1;
	if (id >= 0)
		out->cold_pools[out->ncold_pools++] = id;
}

static int krbd_setup(struct cb_phase *ph, void **state)
{
	const struct krbd_opts *o = ph->lopts;
	struct krbd_state *s = calloc(1, sizeof(*s));
	int r;

	snprintf(ph->out->target, sizeof(ph->out->target), "%s", o->device ? o->device : o->pool);
	if (!s)
		return cb_err_cluster(ph->err, -ENOMEM, "out of memory");
	*state = s;
	if (!*ph->session && (r = krbd_session_open(ph, (struct krbd_session **)ph->session)) < 0)
		return r;
	s->ss = *ph->session;
	s->first = o->device ? 0 : ph->client * (unsigned)o->images;
	s->op = ph->step == KRBD_STEP_FILL ? CB_BLK_PREFILL : cb_blk_op_of(ph->wl->op);
	s->mix = (unsigned)o->rw_mix_read;
	s->batch = (unsigned)o->batch_submit;
	s->verify = o->verify && s->op != CB_BLK_PREFILL;
	s->fill = s->op == CB_BLK_PREFILL || s->verify;
	s->bs = ph->wl->block_size;
	s->rng = cb_rng_client(ph->wl->seed, ph->client, 0);
	s->dur = cb_durable_for(&o->dur, s->op == CB_BLK_PREFILL);
	s->rwf = s->dur->sync == CB_SYNC_SYNC	 ? RWF_SYNC
		 : s->dur->sync == CB_SYNC_DSYNC ? RWF_DSYNC
						 : 0;
	if (s->op == CB_BLK_PREFILL)
		s->bs = fill_bs(ph->wl); /* few ops; a device's tail is a shorter one */
	else if (cb_sizes_varies(&ph->wl->sizes)) {
		s->sized = ph->wl;
		s->bs = ph->wl->block_align;
	}
	for (unsigned i = 0; i < s->ss->ndev; i++) {
		uint64_t size = s->ss->dev[i].size;
		s->blocks[i] = s->op == CB_BLK_PREFILL ? (size + s->bs - 1) / s->bs : size / s->bs;
	}
	uint64_t all = 0;
	for (unsigned i = 0; i < s->ss->ndev; i++)
		all += s->blocks[i];
	cb_dist_init(&s->dist, &ph->wl->distribution, all, ph->wl->coverage, ph->wl->seed, &s->rng);
	if (s->op == CB_BLK_PREFILL)
		ph->out->block_size = s->bs;
	if (s->op != CB_BLK_PREFILL && cb_op_listed(cb_blk_read_ops, ph->wl->op) &&
	    cb_cold_wanted(ph->wl->cold, false))
		cold_devices(ph, s->ss);
	if ((r = krbd_aio_init(s, (unsigned)ph->wl->concurrency)) < 0)
		return cb_err_cluster(ph->err, r,
				      "setting up libaio (io_setup, %llu in flight): %s",
				      (unsigned long long)ph->wl->concurrency, strerror(-r));
	return 0;
}

static int krbd_teardown(struct cb_phase *ph, void *state)
{
	(void)ph;
	struct krbd_state *s = state;
	if (!s)
		return 0;
	krbd_aio_free(s);
	free(s);
	return 0;
}

static void krbd_release(void *session)
{
	krbd_session_close(session);
}

/* The session's devices, for the host's disk figures (telemetry). */
static size_t krbd_block_devices(const void *session, const char **paths, size_t max)
{
	const struct krbd_session *ss = session;
	size_t n = 0;
	for (unsigned i = 0; ss && i < ss->ndev && n < max; i++)
		paths[n++] = ss->dev[i].path;
	return n;
}

/* The pool of the images the run mapped; a device: row's target is a
 * local path, not a pool. */
static void krbd_context(struct cb_context_req *req)
{
	const struct krbd_opts *o = req->lopts;
	if (!o->device)
		cb_ctx_use_pool(req, o->pool);
}

const struct cb_engine cb_engine_krbd = {
    .name = "krbd",
    .ops = cb_blk_ops,
    .options = krbd_options,
    .target = &cb_target_pool,
    .describe_names_target = true,
    .removes = "images",
    .options_size = sizeof(struct krbd_opts),
    .max_clients = 1024,
    .default_block_size = KRBD_DEFAULT_BS,
    .random_ops = cb_blk_random_ops,
    .write_ops = cb_blk_write_ops,
    .cold_ops = cb_blk_read_ops,
    .sized_ops = cb_blk_ops,
    .check = krbd_check,
    .available = krbd_available,
    .steps = krbd_steps,
    .setup = krbd_setup,
    .submit = krbd_submit,
    .finish = krbd_finish,
    .commit = krbd_commit,
    .poll = krbd_poll,
    .describe = krbd_describe,
    .teardown = krbd_teardown,
    .release = krbd_release,
    .cleanup = krbd_cleanup,
    .block_devices = krbd_block_devices,
    .osd_counts_bytes = true,
    .context = krbd_context,
    .probe = krbd_probe,
};
