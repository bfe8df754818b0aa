/* Records of RBD images being created or removed (rbd, krbd). librbd makes
 * an image and its metadata in separate steps: a run killed between them
 * leaves an image without cephbench's marks, which cleanup must not take for
 * a user's image named like one. Removal too goes in steps, the header (with
 * the marks) before the directory entry: a kill between them leaves an image
 * listed but without marks. So before creating or removing an image a run
 * writes a record, an object named like the image in namespace
 * CB_BLK_CREATING_NS of the image's pool, holding its run name; once the
 * image carries its marks, or is gone, the record goes. Such a record makes
 * an unmarked image the run's. A record carries cephbench's mark (marked.h)
 * and holds the run's name: an object of the namespace without both is a
 * user's, never written over, removed, or taken for a record. */
#ifndef CB_BLK_CREATING_H
#define CB_BLK_CREATING_H

#include "err.h"

#include <rados/librados.h>
#include <rbd/librbd.h>
#include <stdbool.h>

#define CB_BLK_CREATING_NS "cephbench-creating"

/* io: the images' ioctx (of pool). set: 0 or -errno with e set (an object
 * of the record's name without cephbench's mark is refused, left as it
 * is); clear: 0 or -errno. */
int cb_blk_creating_set(rados_ioctx_t io, const char *pool, const char *image, const char *run,
			struct cb_err *e);
int cb_blk_creating_clear(rados_ioctx_t io, const char *image, const char *run);

/* rbd_remove(io, image) under a record of run, which goes with the image:
 * a kill inside the removal leaves the record, and cleanup finishes the
 * job. 0 or -errno, as rbd_remove. */
int cb_blk_remove_recorded(rados_ioctx_t io, const char *image, const char *run);

/* Whether image name, open as img, is run's: its run mark (metadata key)
 * says so, or it has none and a record says run was creating it. */
bool cb_blk_is_runs(rados_ioctx_t io, rbd_image_t img, const char *name, const char *key,
		    const char *run);

/* An image listed in the pool but not openable (librbd's create was cut
 * short: its header is missing), which a record says run was making, is
 * removed. 1 when removed, 0 when not (no record of run, or gone), -errno. */
int cb_blk_remove_half_made(rados_ioctx_t io, const char *image, const char *run);

/* Remove the records of run's images (of every run's when run is NULL)
 * whose image does not exist (any more, or yet: a run killed before its
 * create). 0 or -errno with e set. */
int cb_blk_creating_sweep(rados_ioctx_t io, const char *pool, const char *run, struct cb_err *e);

#endif
