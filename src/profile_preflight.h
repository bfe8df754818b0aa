/* The profile's top-level preflight: mapping (preflight_opts.h). Private to
 * src/profile*.c. */
#ifndef CB_PROFILE_PREFLIGHT_H
#define CB_PROFILE_PREFLIGHT_H

#include "profile_kv.h"

/* v (the value of preflight:) into l->p->preflight. 0 or -EINVAL with
 * l->e set to one file:line:col line. */
int pf_load_preflight(struct loader *l, yaml_node_t *v);

#endif
