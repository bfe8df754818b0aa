/* What the layers that create RBD images share (rbd, krbd): feature names
 * as a profile spells them, image metadata values, the pool's image list. */
#ifndef CB_BLK_IMAGE_H
#define CB_BLK_IMAGE_H

#include <rados/librados.h>
#include <rbd/librbd.h>
#include <stddef.h>
#include <stdint.h>

/* "layering,exclusive-lock" into a feature mask; -EINVAL with a reason in
 * why (naming the unknown feature, with a did-you-mean). */
int cb_blk_features(const char *list, uint64_t *mask, char *why, size_t n);

/* The names of the features in mask, in the table's order, as a JSON
 * array (the record's context); NULL on ENOMEM. */
struct json_t *cb_blk_feature_names(uint64_t mask);

/* An image metadata value, NUL-terminated in val; -ENOENT when the key is
 * absent. */
int cb_blk_meta_get(rbd_image_t img, const char *key, char *val, size_t n);

/* Every image of io's pool into *specs (free with cb_blk_list_free) and *n;
 * a pool never used for RBD has none. 0 or -errno. */
int cb_blk_list(rados_ioctx_t io, rbd_image_spec_t **specs, size_t *n);
void cb_blk_list_free(rbd_image_spec_t *specs, size_t n);

#endif
