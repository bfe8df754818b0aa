/* Images the krbd layer creates and maps: cephbench.<run>.<workload>.<n> in
 * the workload's pool, mapped with the Ceph CLI (`rbd device map`, which
 * handles udev and prints the device), unmapped at the end of the workload
 * and by cleanup. Before mapping, the image records the mapping process's
 * owner mark (KRBD_KEY_MAP): a cleanup on this host unmaps the image of a run
 * that is gone, never a live run's. Unmapping goes by image name, never by a
 * device path, which may name another image by then. */
#include "clock.h"
#include "conn.h"
#include "krbd_priv.h"
#include "owner.h"
#include "blk_image.h"
#include "blk_creating.h"
#include "shquote.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <rbd/librbd.h>

extern char **environ;

/* A killed run's librbd watch (it opens the image briefly to mark it) times
 * out on the OSDs within 30 s. */
#define REMOVE_WAIT_NS (40ULL * 1000000000ULL)

#define NOT_OURS 2

static uint64_t cli_timeout(struct cb_conn *conn)
{
	uint64_t t = cb_conn_options(conn)->timeout_ns;
	return t ? t : 30ULL * 1000000000ULL;
}

/* Run argv (looked up on PATH), in a process group of its own, with the
 * signals cephbench blocks restored,
 * its stdout into out and the last line of its stderr into err. Returns its
 * exit status, or -errno (-ETIMEDOUT: killed at the deadline). */
static int run_cli(char *const argv[], char *out, size_t nout, char *err, size_t nerr,
		   uint64_t timeout_ns)
{
	int po[2], pe[2];
	if (pipe2(po, O_CLOEXEC) != 0)
		return -errno;
	if (pipe2(pe, O_CLOEXEC) != 0) {
		int r = -errno;
		close(po[0]);
		close(po[1]);
		return r;
	}
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t none, all;
	sigemptyset(&none);
	sigfillset(&all);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, po[1], 1);
	posix_spawn_file_actions_adddup2(&fa, pe[1], 2);
	posix_spawnattr_init(&at);
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setsigdefault(&at, &all);
	/* its own process group: a Ctrl-C at the terminal is cephbench's to
	 * handle (drain, unmap, clean up), not a map or unmap cut halfway */
	posix_spawnattr_setpgroup(&at, 0);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF |
					  POSIX_SPAWN_SETPGROUP);
	pid_t pid;
	int r = -posix_spawnp(&pid, argv[0], &fa, &at, argv, environ);
	bool spawned = r == 0;
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	close(po[1]);
	close(pe[1]);
	size_t lo = 0, le = 0;
	char ebuf[2048];
	uint64_t deadline = cb_now_ns() + timeout_ns;
	struct pollfd pf[2] = {{.fd = po[0], .events = POLLIN}, {.fd = pe[0], .events = POLLIN}};
	while (r == 0 && (pf[0].fd >= 0 || pf[1].fd >= 0)) {
		uint64_t now = cb_now_ns();
		if (now >= deadline) {
			kill(pid, SIGKILL);
			r = -ETIMEDOUT;
			break;
		}
		int n = poll(pf, 2, (int)((deadline - now) / 1000000ULL) + 1);
		if (n < 0 && errno != EINTR)
			r = -errno;
		for (int i = 0; n > 0 && i < 2; i++) {
			if (!pf[i].revents)
				continue;
			char tmp[1024];
			ssize_t got = read(pf[i].fd, tmp, sizeof(tmp));
			if (got <= 0) {
				pf[i].fd = -1;
				continue;
			}
			char *dst = i ? ebuf : out;
			size_t cap = i ? sizeof(ebuf) : nout, *len = i ? &le : &lo;
			size_t take = (size_t)got < cap - 1 - *len ? (size_t)got : cap - 1 - *len;
			memcpy(dst + *len, tmp, take);
			*len += take;
		}
	}
	close(po[0]);
	close(pe[0]);
	out[lo] = '\0';
	ebuf[le] = '\0';
	while (le && (ebuf[le - 1] == '\n' || ebuf[le - 1] == ' '))
		ebuf[--le] = '\0';
	/* the last line, or the kernel's feature-mismatch advice (rbd prints
	 * "map failed" after it) */
	const char *last = strrchr(ebuf, '\n'), *hint = strstr(ebuf, "feature set mismatch");
	while (hint && hint > ebuf && hint[-1] != '\n')
		hint--;
	snprintf(err, nerr, "%.*s%s%s", hint ? (int)strcspn(hint, "\n") : 0, hint ? hint : "",
		 hint ? "; " : "", last ? last + 1 : ebuf);
	int status;
	if (!spawned)
		return r;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return r ? r : -errno;
	if (r < 0)
		return r;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* rbd device map|unmap POOL/IMAGE with the run's conf, client and keyring. */
static int rbd_device(struct cb_conn *conn, const char *verb, const char *spec,
		      const char *map_options, char *out, size_t nout, char *err, size_t nerr)
{
	const struct cb_cluster_opts *co = cb_conn_options(conn);
	char *argv[16];
	int n = 0;
	argv[n++] = "rbd";
	argv[n++] = "device";
	argv[n++] = (char *)verb;
	argv[n++] = (char *)spec;
	if (co->conf) {
		argv[n++] = "--conf";
		argv[n++] = (char *)co->conf;
	}
	if (co->client) {
		argv[n++] = strchr(co->client, '.') ? "--name" : "--id";
		argv[n++] = (char *)co->client;
	}
	if (co->keyring) {
		argv[n++] = "--keyring";
		argv[n++] = (char *)co->keyring;
	}
	if (map_options) {
		argv[n++] = "--options";
		argv[n++] = (char *)map_options;
	}
	argv[n] = NULL;
	return run_cli(argv, out, nout, err, nerr, cli_timeout(conn));
}

int krbd_unmap(struct cb_conn *conn, const char *pool, const char *image, struct cb_err *e)
{
	char spec[300], out[256], err[512];
	snprintf(spec, sizeof(spec), "%s/%s", pool, image);
	int r = rbd_device(conn, "unmap", spec, NULL, out, sizeof(out), err, sizeof(err));
	if (r == 0)
		return 0;
	if (r == -ENOENT)
		return cb_err_cluster(e, r, "unmapping %s: no 'rbd' command (install ceph-common)",
				      spec);
	return cb_err_cluster(e, r < 0 ? r : -EIO, "unmapping %s: %s", spec,
			      r < 0    ? strerror(-r)
			      : err[0] ? err
				       : "rbd device unmap failed");
}

/* Image i of the workload's, numbered over its clients: client k maps
 * k * images .. k * images + images - 1. */
static void image_name(char *buf, size_t n, const struct cb_phase *ph, unsigned i)
{
	snprintf(buf, n, "cephbench.%s.%.*s.%u", ph->run_name, KRBD_WL(ph), i);
}

/* Whether the ','-separated list holds option name. */
static bool has_option(const char *list, const char *name)
{
	size_t len = strlen(name);
	for (const char *p = list; p && *p;) {
		size_t n = strcspn(p, ",");
		if (n == len && strncmp(p, name, n) == 0)
			return true;
		p += n + (p[n] == ',');
	}
	return false;
}

/* Its own kernel client for each client's mappings: the kernel shares one
 * (one set of OSD sessions) between every mapping of a cluster with the
 * same options, unless told noshare. */
static const char *map_options(const struct cb_phase *ph, char *buf, size_t n)
{
	const struct krbd_opts *o = ph->lopts;
	if (ph->clients <= 1 || has_option(o->map_options, "noshare"))
		return o->map_options;
	snprintf(buf, n, "%s%snoshare", o->map_options ? o->map_options : "",
		 o->map_options ? "," : "");
	return buf;
}

/* True when name is cephbench.<run>.<workload>.<n> of run (of any run when
 * run is NULL); run and workload names have no dots. */
static bool image_of_run(const char *name, const char *run)
{
	char r[80], w[80];
	unsigned idx;
	int end = 0;
	if (sscanf(name, "cephbench.%79[^.].%79[^.].%u%n", r, w, &idx, &end) != 3 ||
	    name[end] != '\0' || !cb_name_valid(r) || !cb_name_valid(w))
		return false;
	return !run || strcmp(r, run) == 0;
}

/* How many clients watch image name (have it open or mapped). */
static int count_watchers(rados_ioctx_t io, const char *name, unsigned *n)
{
	rbd_image_t img;
	rbd_image_watcher_t w[8];
	size_t nw = sizeof(w) / sizeof(w[0]);
	int r = rbd_open_read_only(io, name, &img, NULL);
	if (r < 0)
		return r;
	r = rbd_watchers_list(img, w, &nw);
	if (r == 0)
		rbd_watchers_list_cleanup(w, nw);
	*n = r == 0 || r == -ERANGE ? (unsigned)nw : 0;
	rbd_close(img);
	return r == -ERANGE ? 0 : r;
}

/* Unmap (when a gone process of this boot, or this very run, mapped it)
 * and remove one image of run. A live run's image is left, with an error;
 * so is one whose instance is spare_id (when not NULL). Returns 1 when
 * removed, 0 when absent or spared, NOT_OURS when it has no mark of run
 * (left alone). */
static int clear_image(struct cb_conn *conn, rados_ioctx_t io, const char *pool, const char *name,
		       const char *run, const char *run_id, const char *spare_id, uint64_t deadline,
		       struct cb_err *e)
{
	char inst[64] = "", map[256] = "";
	rbd_image_t img;
	int r = rbd_open_read_only(io, name, &img, NULL);
	if (r == -ENOENT) { /* listed but no header: half made or half removed */
		r = cb_blk_remove_half_made(io, name, run);
		return r >= 0 ? r
			      : cb_err_cluster(e, r, "removing image %s/%s: %s", pool, name,
					       strerror(-r));
	}
	if (r < 0)
		return cb_err_cluster(e, r, "opening image %s/%s: %s", pool, name, strerror(-r));
	bool ours = cb_blk_is_runs(io, img, name, KRBD_KEY_RUN, run);
	cb_blk_meta_get(img, KRBD_KEY_INSTANCE, inst, sizeof(inst));
	bool recorded = cb_blk_meta_get(img, KRBD_KEY_MAP, map, sizeof(map)) == 0;
	rbd_close(img);
	if (!ours)
		return NOT_OURS;
	if (spare_id && strcmp(inst, spare_id) == 0)
		return 0;
	if (recorded) {
		int pid;
		enum cb_owner_state st = cb_owner_state(map, &pid);
		bool self = run_id && strcmp(inst, run_id) == 0;
		if (st == CB_OWNER_ALIVE && !self)
			return cb_err_cluster(
			    e, -EBUSY,
			    "image %s/%s is mapped by a run still going (pid %d): "
			    "left alone; stop that run first",
			    pool, name, pid);
		struct cb_err ignored = {0}; /* never mapped, or unmapped already: the
						removal below tells */
		if (st != CB_OWNER_ELSEWHERE)
			krbd_unmap(conn, pool, name, &ignored);
	}
	for (;;) {
		/* rbd_remove would take the exclusive lock from a live mapping
		 * (on another host) before failing on its watch: never while
		 * anyone watches the image */
		unsigned watchers = 0;
		r = count_watchers(io, name, &watchers);
		if (r == -ENOENT)
			return 0;
		if (r < 0)
			return cb_err_cluster(e, r, "inspecting image %s/%s: %s", pool, name,
					      strerror(-r));
		r = watchers ? -EBUSY : cb_blk_remove_recorded(io, name, run);
		if (r == 0)
			return 1;
		if (r == -ENOENT)
			return 0;
		if (r != -EBUSY)
			return cb_err_cluster(e, r, "removing image %s/%s: %s", pool, name,
					      strerror(-r));
		/* --pool and --image, not POOL/IMAGE: a pool name may hold '/' */
		char status[CB_SH_CMD_MAX], unmap[CB_SH_CMD_MAX];
		if (cb_now_ns() > deadline)
			return cb_err_cluster(
			    e, r,
			    "image %s/%s is still mapped or open (%s names the client): "
			    "unmap it where it is mapped (%s), then run cleanup again",
			    pool, name,
			    CB_SH_CMD(status, "rbd", "status", "--pool", pool, "--image", name),
			    CB_SH_CMD(unmap, "rbd", "device", "unmap", "--pool", pool, "--image",
				      name));
		nanosleep(&(struct timespec){.tv_nsec = 500000000L}, NULL);
	}
}

/* Every image of run (of any run when run is NULL) in pool cleared as
 * clear_image does, each tried; the first error is returned, *removed
 * counts what went. An image without its run's mark is left alone. */
static int clear_run_images(struct cb_conn *conn, rados_ioctx_t io, const char *pool,
			    const char *run, const char *run_id, const char *spare_id,
			    uint64_t *removed, struct cb_err *e)
{
	rbd_image_spec_t *specs;
	size_t max;
	uint64_t deadline = cb_now_ns() + REMOVE_WAIT_NS;
	int ret = 0, r = cb_blk_list(io, &specs, &max);
	if (r < 0)
		return cb_err_cluster(e, r, "listing images of pool %s: %s", pool, strerror(-r));
	for (size_t i = 0; i < max; i++) {
		char owner[80];
		if (!image_of_run(specs[i].name, run))
			continue;
		sscanf(specs[i].name, "cephbench.%79[^.]", owner);
		r = clear_image(conn, io, pool, specs[i].name, owner, run_id, spare_id, deadline,
				e);
		if (r == 1)
			(*removed)++;
		else if (r < 0 && ret == 0)
			ret = r;
	}
	cb_blk_list_free(specs, max);
	return ret;
}

static int create_image(struct cb_phase *ph, rados_ioctx_t io, const char *name)
{
	const struct krbd_opts *o = ph->lopts;
	rbd_image_options_t opts;
	uint64_t features = 0;
	char why[256], mark[256];
	rbd_image_t img;
	int r = 0;

	rbd_image_options_create(&opts);
	if (o->features && (r = cb_blk_features(o->features, &features, why, sizeof(why))) == 0)
		r = rbd_image_options_set_uint64(opts, RBD_IMAGE_OPTION_FEATURES, features);
	ph->out->created = true; /* before the create: one that times out may still land */
	if (r == 0 && (r = cb_blk_creating_set(io, o->pool, name, ph->run_name, ph->err)) < 0) {
		rbd_image_options_destroy(opts);
		return r;
	}
	if (r == 0)
		r = rbd_create4(io, name, o->image_size, opts);
	rbd_image_options_destroy(opts);
	if (r == -EINVAL || r == -EDOM || r == -ERANGE)
		return cb_err_usage(ph->err,
				    "workload '%.*s': librbd refused to create image %s/%s with "
				    "this image_size and features: %s",
				    KRBD_WL(ph), o->pool, name, strerror(-r));
	if (r < 0)
		return cb_err_cluster(ph->err, r, "creating image %s/%s: %s", o->pool, name,
				      strerror(-r));
	if ((r = rbd_open(io, name, &img, NULL)) < 0)
		return cb_err_cluster(ph->err, r, "opening image %s/%s: %s", o->pool, name,
				      strerror(-r));
	cb_owner_mark(mark, sizeof(mark), ' ');
	/* the run mark last: a cleanup that sees it sees the owner too */
	if ((r = rbd_metadata_set(img, KRBD_KEY_MAP, mark)) == 0 &&
	    (r = rbd_metadata_set(img, KRBD_KEY_INSTANCE, ph->run_id)) == 0)
		r = rbd_metadata_set(img, KRBD_KEY_RUN, ph->run_name);
	int cr = rbd_close(img);
	if (r == 0)
		r = cr;
	if (r < 0)
		return cb_err_cluster(ph->err, r, "marking image %s/%s: %s", o->pool, name,
				      strerror(-r));
	cb_blk_creating_clear(io, name, ph->run_name); /* a record left is swept by cleanup */
	return 0;
}

/* The device rbd printed: an absolute path to a block device. */
static int check_device(struct cb_phase *ph, const char *spec, char *out, struct krbd_dev *d)
{
	out[strcspn(out, "\n")] = '\0';
	struct stat st;
	if (out[0] != '/' || strlen(out) >= sizeof(d->path) || stat(out, &st) != 0 ||
	    !S_ISBLK(st.st_mode))
		return cb_err_cluster(ph->err, -ENODEV,
				      "rbd device map %s printed '%s', not a block device", spec,
				      out);
	snprintf(d->path, sizeof(d->path), "%s", out);
	return 0;
}

bool krbd_kernel_rbd(void)
{
	struct stat st;
	return stat("/sys/bus/rbd", &st) == 0;
}

/* Every image an earlier run of this name left in the pool (killed, or kept
 * with --no-cleanup), of any workload, is unmapped and removed before this
 * workload maps its own: none stays mapped or on the cluster under the
 * benchmark. The run's own (its other workloads') are spared. */
static int take_over(struct cb_phase *ph, rados_ioctx_t io)
{
	const struct krbd_opts *o = ph->lopts;
	uint64_t n = 0;
	int r =
	    clear_run_images(ph->conn, io, o->pool, ph->run_name, NULL, ph->run_id, &n, ph->err);
	if (r == 0 && n)
		snprintf(ph->out->note, sizeof(ph->out->note),
			 "took over what an earlier run named '%s' left in pool '%s': unmapped "
			 "and removed %llu images before mapping its own",
			 ph->run_name, o->pool, (unsigned long long)n);
	return r;
}

int krbd_map_images(struct cb_phase *ph, struct krbd_session *ss)
{
	const struct krbd_opts *o = ph->lopts;
	rados_ioctx_t io;
	int r;

	if (!krbd_kernel_rbd())
		return cb_err_cluster(ph->err, -ENODEV,
				      "workload '%.*s': this kernel has no rbd support (no "
				      "/sys/bus/rbd): load it (modprobe rbd), or map an image "
				      "beforehand and name it with device: /dev/rbdN",
				      KRBD_WL(ph));
	if ((r = cb_conn_ioctx(ph->conn, o->pool, NULL, &io, ph->err)) < 0)
		return r;
	/* client 0 sets up alone, before the others: it alone takes over, so
	 * no client removes an image another is making */
	r = ph->client == 0 ? take_over(ph, io) : 0;
	char opts[1024];
	const char *mo = map_options(ph, opts, sizeof(opts));
	for (unsigned i = 0; i < o->images && r >= 0; i++) {
		struct krbd_dev *d = &ss->dev[i];
		char spec[300], out[512], err[512];
		image_name(d->image, sizeof(d->image), ph, ph->client * (unsigned)o->images + i);
		snprintf(spec, sizeof(spec), "%s/%s", o->pool, d->image);
		/* a killed namesake's: unmapped and replaced */
		r = clear_image(ph->conn, io, o->pool, d->image, ph->run_name, NULL, NULL,
				cb_now_ns() + REMOVE_WAIT_NS, ph->err);
		if (r == NOT_OURS)
			r = cb_err_usage(ph->err,
					 "image %s exists but was not made by cephbench run '%s' "
					 "(no %s mark): refused; rename or remove it, or use "
					 "another --run-name",
					 spec, ph->run_name, KRBD_KEY_RUN);
		if (r >= 0)
			r = create_image(ph, io, d->image);
		if (r < 0)
			break;
		r = rbd_device(ph->conn, "map", spec, mo, out, sizeof(out), err, sizeof(err));
		if (r == -ENOENT) {
			r = cb_err_cluster(
			    ph->err, r, "mapping %s: no 'rbd' command (install ceph-common)", spec);
		} else if (r != 0) {
			r = cb_err_cluster(ph->err, r < 0 ? r : -EIO, "rbd device map %s: %s", spec,
					   r < 0    ? strerror(-r)
					   : err[0] ? err
						    : "failed");
		} else {
			d->mapped = true;
			ss->ndev = i + 1; /* released from here on */
			if ((r = check_device(ph, spec, out, d)) == 0)
				r = krbd_dev_open(ph, d, ss->writes, true);
		}
	}
	rados_ioctx_destroy(io);
	return r < 0 ? r : 0;
}

int krbd_cleanup(struct cb_cleanup_req *req)
{
	const struct krbd_opts *o = req->lopts;
	const char *pool = o ? o->pool : req->target;
	rados_ioctx_t io;
	int r;

	if (!pool || (o && o->device))
		return 0;
	if ((r = cb_conn_ioctx(req->conn, pool, NULL, &io, req->err)) < 0)
		return r;
	rados_set_pool_full_try(io); /* deletes go through on a full pool (rbd_cleanup) */
	r = clear_run_images(req->conn, io, pool, req->all ? NULL : req->run_name, req->run_id,
			     NULL, &req->removed, req->err);
	if (r == 0)
		r = cb_blk_creating_sweep(io, pool, req->all ? NULL : req->run_name, req->err);
	rados_ioctx_destroy(io);
	return r;
}
