/* Opening what a krbd phase runs on, and the safety rules: a device or file
 * the run did not map is written only with --allow-destructive, and never
 * when libblkid finds a filesystem, a partition table or an LVM (or any other
 * known) signature on it. A block device opened for writing is claimed with
 * O_EXCL, so a mounted or otherwise held one is refused by the kernel too. */
#include "krbd_priv.h"
#include "shquote.h"
#include "units.h"

#include <blkid/blkid.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

/* What libblkid finds on path: "a filesystem (ext4)", "a partition table
 * (dos)", "an LVM or RAID signature (LVM2_member)"; "" for none. 0 or -errno. */
static int find_signature(const char *path, char *what, size_t n)
{
	const char *type = NULL, *usage = NULL;
	what[0] = '\0';
	blkid_probe pr = blkid_new_probe_from_filename(path);
	if (!pr)
		return errno ? -errno : -EIO;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC);
	/* safeprobe: 1 nothing, -2 ambiguous (several signatures: refused too) */
	int r = blkid_do_safeprobe(pr);
	if (r == -2) {
		snprintf(what, n, "several conflicting signatures");
	} else if (r == 0) {
		if (blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL) == 0)
			snprintf(what, n, "a partition table (%s)", type);
		else if (blkid_probe_lookup_value(pr, "TYPE", &type, NULL) == 0) {
			blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
			snprintf(what, n, "%s (%s)",
				 usage && strcmp(usage, "filesystem") == 0 ? "a filesystem"
				 : usage && strcmp(usage, "raid") == 0 ? "an LVM or RAID signature"
								       : "a signature",
				 type);
		} else {
			snprintf(what, n, "an unnamed signature");
		}
	}
	blkid_free_probe(pr);
	return r == -1 ? -EIO : 0;
}

/* A device that fails (the run's own mapped one, or any with an I/O-level
 * errno) is the cluster's or the device's problem, exit 3; a path the user
 * got wrong is input, exit 2. */
static enum cb_exit exit_class(bool ours, int err)
{
	return ours || err == EIO || err == ENXIO || err == ENODEV ? CB_EXIT_CLUSTER
								   : CB_EXIT_USAGE;
}

static int refuse_write(struct cb_phase *ph, const char *path)
{
	if (ph->step == KRBD_STEP_FILL)
		return cb_err_usage(
		    ph->err,
		    "workload '%.*s': prefill would write %s, which this run did not "
		    "map: refused; drop prefill, or give --allow-destructive to "
		    "overwrite its data",
		    KRBD_WL(ph), path);
	return cb_err_usage(ph->err,
			    "workload '%.*s' writes (op %s) to %s, which this run did not map: "
			    "refused; use a read op, or --allow-destructive to overwrite its data",
			    KRBD_WL(ph), ph->wl->op, path);
}

int krbd_dev_open(struct cb_phase *ph, struct krbd_dev *d, bool writes, bool ours)
{
	const struct krbd_opts *o = ph->lopts;
	struct stat st;
	char what[128], cmd[CB_SH_CMD_MAX];
	int r;

	if (stat(d->path, &st) != 0)
		return cb_err_usage(ph->err, "workload '%.*s': device %s: %s", KRBD_WL(ph), d->path,
				    strerror(errno));
	bool blk = S_ISBLK(st.st_mode);
	if (!blk && !S_ISREG(st.st_mode))
		return cb_err_usage(ph->err,
				    "workload '%.*s': device %s is neither a block device nor a "
				    "regular file",
				    KRBD_WL(ph), d->path);
	if (writes && !ours) {
		/* the signature first: --allow-destructive would not help */
		if ((r = find_signature(d->path, what, sizeof(what))) < 0)
			return cb_err_usage(ph->err, "workload '%.*s': probing %s: %s", KRBD_WL(ph),
					    d->path, strerror(-r));
		if (what[0])
			return cb_err_usage(
			    ph->err,
			    "workload '%.*s': %s carries %s (found by libblkid): writes refused "
			    "even with --allow-destructive; if its data is not needed, wipe it "
			    "first (%s)",
			    KRBD_WL(ph), d->path, what,
			    CB_SH_CMD(cmd, "wipefs", "-a", "--", d->path));
		if (!ph->allow_destructive)
			return refuse_write(ph, d->path);
	}
	int flags = (writes ? O_RDWR : O_RDONLY) | O_CLOEXEC | (o->direct ? O_DIRECT : 0) |
		    (writes && blk ? O_EXCL : 0);
	d->fd = open(d->path, flags);
	if (d->fd < 0 && errno == EBUSY)
		return cb_err_usage(ph->err,
				    "workload '%.*s': %s is in use (mounted, or held by another "
				    "program): refused",
				    KRBD_WL(ph), d->path);
	if (d->fd < 0 && errno == EINVAL && o->direct)
		return cb_err_usage(
		    ph->err, "workload '%.*s': %s does not support O_DIRECT: set direct: false",
		    KRBD_WL(ph), d->path);
	if (d->fd < 0)
		return cb_err_set(ph->err, exit_class(ours, errno), -errno,
				  "workload '%.*s': opening %s: %s", KRBD_WL(ph), d->path,
				  strerror(errno));
	d->size = (uint64_t)st.st_size;
	if (blk && ioctl(d->fd, BLKGETSIZE64, &d->size) != 0)
		return cb_err_set(ph->err, exit_class(ours, errno), -errno,
				  "workload '%.*s': size of %s: %s", KRBD_WL(ph), d->path,
				  strerror(errno));
	int lbs = 512;
	if (blk && ioctl(d->fd, BLKSSZGET, &lbs) != 0)
		lbs = 512;
	uint64_t bs = ph->wl->block_size;
	char a[32], b[32];
	if (d->size < bs)
		return cb_err_usage(ph->err,
				    "workload '%.*s': %s (%s) is smaller than block_size %s",
				    KRBD_WL(ph), d->path, cb_format_size(d->size, a, sizeof(a)),
				    cb_format_size(bs, b, sizeof(b)));
	if (d->size > KRBD_MAX_SIZE)
		return cb_err_usage(ph->err,
				    "workload '%.*s': %s is larger than cephbench handles (256T)",
				    KRBD_WL(ph), d->path);
	/* a distribution's sizes and offsets are multiples of its alignment */
	bool sized = cb_sizes_varies(&ph->wl->sizes);
	uint64_t unit = sized ? ph->wl->block_align : bs;
	if (o->direct && (unit % (uint64_t)lbs || d->size % (uint64_t)lbs))
		return cb_err_usage(ph->err,
				    "workload '%.*s': with direct I/O, %s %s and the size of "
				    "%s must be multiples of its logical block size %d: change "
				    "%s, or set direct: false",
				    KRBD_WL(ph), sized ? "block_align" : "block_size",
				    cb_format_size(unit, a, sizeof(a)), d->path, lbs,
				    sized ? "block_align" : "block_size");
	return 0;
}
