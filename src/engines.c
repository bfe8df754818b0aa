/* One explicit registry of layers (as IOR's aiori list): no constructors, no
 * self-registration, so the set of layers is visible in one place. */
#include "engines.h"

#include <string.h>

extern const struct cb_engine cb_engine_rados;
extern const struct cb_engine cb_engine_rbd;
extern const struct cb_engine cb_engine_cephfs;
extern const struct cb_engine cb_engine_krbd;
extern const struct cb_engine cb_engine_noop;

const struct cb_engine *const cb_engines[] = {
    &cb_engine_rados, &cb_engine_rbd, &cb_engine_cephfs, &cb_engine_krbd, &cb_engine_noop, NULL,
};

const struct cb_engine *cb_engine_find(const char *name)
{
	for (int i = 0; cb_engines[i]; i++)
		if (strcmp(cb_engines[i]->name, name) == 0)
			return cb_engines[i];
	return NULL;
}
