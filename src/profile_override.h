/* The -o KEY=VALUE forms (profile_override.c, over profile_kv.c). */
#ifndef CB_PROFILE_OVERRIDE_H
#define CB_PROFILE_OVERRIDE_H

#include "profile_kv.h"

/* Parse every -o into l->ov; an error names the one at fault. */
int pf_parse_overrides(struct loader *l, char *const *ov, size_t n);
/* Append the overrides of one kind (for workload wname) at precedence src. */
int pf_add_overrides(struct loader *l, enum ov_kind kind, const char *wname, enum kv_src src,
		     struct kvs *k);
/* Every -o that names a workload named one of l->p's. */
int pf_check_overrides_used(struct loader *l);
void pf_overrides_free(struct loader *l);

#endif
