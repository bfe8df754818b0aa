/* The cephfs layer's part of the record's context (cephfs_context.c). */
#ifndef CFS_CONTEXT_H
#define CFS_CONTEXT_H

#include "context.h"

#include <jansson.h>

/* The file system `fs get` (its JSON) describes, as the context keeps it:
 * {"max_mds", "ranks": [{"rank", "state", "name"}], "data_pools",
 * "metadata_pool"}, pools named through x's osd dump. A new reference;
 * NULL when out of memory. */
json_t *cfs_fs_of(struct cb_ctx *x, const json_t *fsget);

#endif
