/* The krbd layer's engine table: options, checks, steps, and the devices of
 * a workload. It runs libaio block I/O on kernel block devices: images the
 * run creates and maps with `rbd device map` (pool: and image_size:), or
 * devices and files given with device:, which are only read unless
 * --allow-destructive (krbd_dev.c has the safety rules). */
#include "krbd_priv.h"
#include "options.h"
#include "rbd_features.h"
#include "units.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct cb_option krbd_options[] = {
    {"device", CB_OPT_STR, offsetof(struct krbd_opts, device), NULL, 0, 0, NULL,
     "block device(s) or file(s) to run on, ':'-separated (as fio's filename=); "
     "written only with --allow-destructive"},
    {"pool", CB_OPT_STR, offsetof(struct krbd_opts, pool), NULL, 0, 0, NULL,
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
     "reads check every block holds the prefill pattern (rw, randrw: writes keep it)"},
    {"rw_mix_read", CB_OPT_UINT, offsetof(struct krbd_opts, rw_mix_read), "50", 0, 100, NULL,
     "rw, randrw: percent of ops that read"},
    {"batch_submit", CB_OPT_UINT, offsetof(struct krbd_opts, batch_submit), "1", 1, 65536, NULL,
     "ops per io_submit, as fio's iodepth_batch_submit: 1 starts each op at once; more "
     "saves syscalls but holds ops back until the batch is full or the window is"},
    {NULL, 0, 0, NULL, 0, 0, NULL, NULL},
};

/* The next ':'-separated device of list into buf; returns the rest, or
 * NULL at the end. */
static const char *next_device(const char *list, char *buf, size_t n)
{
	size_t len = strcspn(list, ":");
	snprintf(buf, n, "%.*s", (int)len, list);
	return list[len] ? list + len + 1 : NULL;
}

static int check_devices(const struct cb_workload *wl, const char *list, char *why, size_t n)
{
	char path[256];
	unsigned count = 0;
	for (const char *p = list; p; count++) {
		size_t len = strcspn(p, ":");
		const char *rest = next_device(p, path, sizeof(path));
		if (!path[0] || len >= sizeof(path)) {
			snprintf(why, n, "workload '%s': device '%s' has an empty or too long path",
				 wl->name, list);
			return -EINVAL;
		}
		/* the same path twice: two devices' patterns on one */
		for (const char *q = list; q != p; q += strcspn(q, ":") + 1)
			if (strcspn(q, ":") == len && strncmp(q, p, len) == 0) {
				snprintf(why, n, "workload '%s': device %s is listed twice",
					 wl->name, path);
				return -EINVAL;
			}
		p = rest;
	}
	if (count > KRBD_MAX_DEVICES) {
		snprintf(why, n, "workload '%s': %u devices, at most %d", wl->name, count,
			 KRBD_MAX_DEVICES);
		return -EINVAL;
	}
	return 0;
}

static int krbd_check(const struct cb_workload *wl, const void *lopts, char *why, size_t n)
{
	const struct krbd_opts *o = lopts;
	uint64_t bs = wl->block_size ? wl->block_size : KRBD_DEFAULT_BS, mask;
	enum cb_blk_op op = cb_blk_op_of(wl->op);
	char a[32], b[32];

	if (o->verify && !cb_blk_op_reads(op, o->rw_mix_read)) {
		snprintf(why, n,
			 "verify checks reads against the prefill pattern: use it with op read, "
			 "randread, or rw or randrw with rw_mix_read above 0");
		return -EINVAL;
	}
	if (o->verify && bs % 8) {
		snprintf(why, n, "verify needs a block_size that is a multiple of 8");
		return -EINVAL;
	}
	if (o->verify && !o->prefill) {
		snprintf(why, n,
			 "verify needs prefill: true (only the prefill pattern can be "
			 "checked)");
		return -EINVAL;
	}
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
	if (bs > o->image_size) {
		snprintf(why, n, "block_size %s is larger than image_size %s",
			 cb_format_size(bs, a, sizeof(a)),
			 cb_format_size(o->image_size, b, sizeof(b)));
		return -EINVAL;
	}
	if (cb_blk_op_reads(op, o->rw_mix_read) && !o->prefill) {
		snprintf(why, n,
			 "workload '%s' reads images the run creates, which hold no data yet "
			 "(unwritten blocks read as zeros with no OSD work): set prefill: true",
			 wl->name);
		return -EINVAL;
	}
	if (o->features && cb_rbd_features(o->features, &mask, why, n) < 0)
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
	return cb_blk_steps(((const struct krbd_opts *)lopts)->prefill, KRBD_STEP_FILL, out);
}

static bool same_file(const struct stat *a, const struct stat *b)
{
	if (S_ISBLK(a->st_mode) || S_ISBLK(b->st_mode))
		return S_ISBLK(a->st_mode) && S_ISBLK(b->st_mode) && a->st_rdev == b->st_rdev;
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
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
	ss->writes = o->prefill || cb_blk_op_writes(cb_blk_op_of(ph->wl->op), o->rw_mix_read);
	for (unsigned i = 0; i < KRBD_MAX_DEVICES; i++)
		ss->dev[i].fd = -1;
	if (!o->device) {
		snprintf(ss->pool, sizeof(ss->pool), "%s", o->pool);
		return krbd_map_images(ph, ss);
	}
	/* two names of one device or file (a symlink, /dev/loop0 and its
	 * backing file's other path): refused before anything is opened */
	struct stat st[KRBD_MAX_DEVICES];
	unsigned n = 0;
	for (const char *p = o->device; p; n++) {
		p = next_device(p, ss->dev[n].path, sizeof(ss->dev[n].path));
		if (stat(ss->dev[n].path, &st[n]) != 0)
			continue; /* krbd_dev_open says why */
		for (unsigned k = 0; k < n; k++)
			if (same_file(&st[k], &st[n]))
				return cb_err_usage(
				    ph->err,
				    "workload '%.*s': devices %s and %s are the same "
				    "%s: list it once",
				    KRBD_WL(ph), ss->dev[k].path, ss->dev[n].path,
				    S_ISBLK(st[n].st_mode) ? "device" : "file");
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

static int krbd_setup(struct cb_phase *ph, void **state)
{
	const struct krbd_opts *o = ph->lopts;
	struct krbd_state *s = calloc(1, sizeof(*s));
	int r;

	snprintf(ph->target, sizeof(ph->target), "%s", o->device ? o->device : o->pool);
	if (!s)
		return cb_err_cluster(ph->err, -ENOMEM, "out of memory");
	*state = s;
	if (!*ph->session && (r = krbd_session_open(ph, (struct krbd_session **)ph->session)) < 0)
		return r;
	s->ss = *ph->session;
	s->op = ph->step == KRBD_STEP_FILL ? CB_BLK_PREFILL : cb_blk_op_of(ph->wl->op);
	s->mix = (unsigned)o->rw_mix_read;
	s->batch = (unsigned)o->batch_submit;
	s->verify = o->verify && s->op != CB_BLK_PREFILL;
	s->fill = s->op == CB_BLK_PREFILL || s->verify;
	s->bs = ph->wl->block_size ? ph->wl->block_size : KRBD_DEFAULT_BS;
	s->rng = 0x853c49e6748fea9bULL ^ ((uint64_t)getpid() << 16) ^ ph->client;
	if (s->op == CB_BLK_PREFILL)
		s->bs = KRBD_FILL_BS; /* few ops; a device's tail is a shorter one */
	for (unsigned i = 0; i < s->ss->ndev; i++) {
		uint64_t size = s->ss->dev[i].size;
		s->blocks[i] = s->op == CB_BLK_PREFILL ? (size + s->bs - 1) / s->bs : size / s->bs;
	}
	ph->block_size = s->bs;
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

const struct cb_engine cb_engine_krbd = {
    .name = "krbd",
    .ops = cb_blk_ops,
    .options = krbd_options,
    .cleanup_flag = "--pool",
    .removes = "images",
    .options_size = sizeof(struct krbd_opts),
    .check = krbd_check,
    .steps = krbd_steps,
    .setup = krbd_setup,
    .submit = krbd_submit,
    .commit = krbd_commit,
    .poll = krbd_poll,
    .describe = krbd_describe,
    .teardown = krbd_teardown,
    .release = krbd_release,
    .cleanup = krbd_cleanup,
};
