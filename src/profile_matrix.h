/* Matrix rows: a workload whose keys are lists becomes one plan item per
 * combination of their values (profile_matrix.c, over profile_item.c). */
#ifndef CB_PROFILE_MATRIX_H
#define CB_PROFILE_MATRIX_H

#include "profile_kv.h"

/* One item, or one per combination of the lists' values. */
int pf_add_items(struct loader *l, const struct kvs *k, const char *wwhere);

#endif
