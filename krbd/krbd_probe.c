/* The krbd layer's doctor probe (probe.h): given devices must be there;
 * images the run maps need the kernel's rbd module, the `rbd` command (it
 * maps them) and what the rbd layer needs in the pool (blk_probe.h). */
#include "blk_probe.h"
#include "krbd_priv.h"
#include "probe.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* Each path of the ':'-separated list: there, and a block device or file. */
static void given_devices(struct cb_probe_req *req, const char *list)
{
	char path[4096], check[4200], detail[256];
	for (const char *p = list; *p;) {
		size_t n = strcspn(p, ":");
		snprintf(path, sizeof(path), "%.*s", (int)n, p);
		p += n + (p[n] == ':');
		struct stat st;
		snprintf(check, sizeof(check), "device %s", path);
		if (stat(path, &st) < 0) {
			snprintf(detail, sizeof(detail), "%s", strerror(errno));
			cb_probe_line(req, CB_CHECK_FAIL, check, detail,
				      "map the image first (rbd device map POOL/IMAGE) and name "
				      "its /dev/rbdN with device:");
		} else if (!S_ISBLK(st.st_mode) && !S_ISREG(st.st_mode)) {
			cb_probe_line(req, CB_CHECK_FAIL, check, "not a block device or a file",
				      "name a mapped /dev/rbdN with device:");
		} else {
			cb_probe_line(req, CB_CHECK_OK, check,
				      S_ISBLK(st.st_mode) ? "a block device" : "a file", NULL);
		}
	}
}

/* Exit status of argv (searched on PATH), its output thrown away; -1 when
 * it cannot run. */
static int run_quiet(char *const argv[])
{
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int st;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	int r = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (r != 0)
		return -1;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The kernel's rbd module: loaded (what a run checks), loadable, or none. A
 * workload marked optional is skipped without it: a warning. */
static void kernel_module(struct cb_probe_req *req)
{
	static char *const dry[] = {"modprobe", "-n", "rbd", NULL};
	char detail[256];
	if (krbd_kernel_rbd()) {
		cb_probe_line(req, CB_CHECK_OK, "krbd module", "loaded (/sys/bus/rbd)", NULL);
		return;
	}
	bool loadable = run_quiet(dry) == 0;
	enum cb_check_status st = req->wl->optional ? CB_CHECK_WARN : CB_CHECK_FAIL;
	snprintf(detail, sizeof(detail), "%s%s%.64s%s",
		 loadable ? "not loaded (no /sys/bus/rbd)"
			  : "this kernel has no rbd module: no /sys/module/rbd, modprobe -n rbd "
			    "fails",
		 req->wl->optional ? "; workload '" : "", req->wl->optional ? req->wl->name : "",
		 req->wl->optional ? "' is optional: it is skipped" : "");
	cb_probe_line(req, st, "krbd module", detail,
		      loadable ? "load it: modprobe rbd"
			       : "use a kernel with rbd, or map the images beforehand and name "
				 "them with device: /dev/rbdN");
}

/* The `rbd` command, which maps and unmaps the images, on PATH. */
static void rbd_command(struct cb_probe_req *req)
{
	const char *path = getenv("PATH");
	char file[4200];
	for (const char *p = path ? path : ""; *p;) {
		size_t n = strcspn(p, ":");
		snprintf(file, sizeof(file), "%.*s/rbd", (int)n, n ? p : ".");
		p += n + (p[n] == ':');
		if (access(file, X_OK) == 0) {
			cb_probe_line(req, CB_CHECK_OK, "rbd command", file, NULL);
			return;
		}
	}
	cb_probe_line(req, req->wl->optional ? CB_CHECK_WARN : CB_CHECK_FAIL, "rbd command",
		      "not found on PATH (it maps the images)",
		      "install it (apt-get install ceph-common) or add its directory to PATH");
}

void krbd_probe(struct cb_probe_req *req)
{
	const struct krbd_opts *o = req->lopts;
	char name[160];
	if (o->device) {
		given_devices(req, o->device);
		return;
	}
	kernel_module(req);
	rbd_command(req);
	snprintf(name, sizeof(name), "cephbench.%s.%.*s.0", req->run_name,
		 (int)strcspn(req->wl->name, "."), req->wl->name);
	struct cb_blk_probe_layout l = {.features = o->features};
	cb_blk_probe(req, o->pool, NULL, name, &l, KRBD_KEY_RUN, KRBD_KEY_INSTANCE);
}
