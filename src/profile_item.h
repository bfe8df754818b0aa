/* One workload's keys into a plan item: every key checked against the
 * common table and the layer's, the op, the client count, then the
 * defaults settled once (the layer's block size, one op in flight on a
 * synchronous layer), the layer's check and its resolve hook. Calls only
 * profile_kv.c and the engine registry. */
#ifndef CB_PROFILE_ITEM_H
#define CB_PROFILE_ITEM_H

#include "profile_kv.h"

/* Validate one workload's keys into a new plan item of l->p. */
int pf_add_item(struct loader *l, const struct kvs *k, const char *wwhere);

/* One key of an `expect:` mapping ("expect.KEY") into x. */
int pf_parse_expect(struct loader *l, const struct kv *kv, struct cb_expect *x);

/* Whether any layer has key (a default may be meant for another's workloads). */
bool pf_key_known_to_some_layer(const char *key);

/* The error for a key neither the common table nor eng's has (eng may be NULL). */
int pf_unknown_key(struct loader *l, const struct kv *kv, const struct cb_engine *eng);

#endif
