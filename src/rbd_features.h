/* RBD image feature names, shared by the layers that create images (rbd,
 * krbd): a profile's "layering,exclusive-lock" into librbd's mask. */
#ifndef CB_RBD_FEATURES_H
#define CB_RBD_FEATURES_H

#include <stddef.h>
#include <stdint.h>

/* "layering,exclusive-lock" into a feature mask; -EINVAL with a reason in
 * why (naming the unknown feature, with a did-you-mean). */
int cb_rbd_features(const char *list, uint64_t *mask, char *why, size_t n);

#endif
