/* The registry of layer modules: adding a layer means one line in engines.c. */
#ifndef CB_ENGINES_H
#define CB_ENGINES_H

#include "engine.h"

/* NULL-terminated list of every layer. */
extern const struct cb_engine *const cb_engines[];

/* The engine called name, or NULL. */
const struct cb_engine *cb_engine_find(const char *name);

#endif
