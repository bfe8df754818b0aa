/* The installed profiles (share/cephbench/profiles), so that `cephbench run
 * quick` finds quick.yaml wherever the package put it. */
#ifndef CB_PROFILES_DIR_H
#define CB_PROFILES_DIR_H

#include "err.h"

#include <stddef.h>

/* The first of these that is a directory: PREFIX/share/cephbench/profiles
 * of the running binary (a package or a `make install` under any prefix),
 * then the one configured at build time. NULL (buf empty) when neither is. */
const char *cb_profiles_dir(char *buf, size_t n);

/* A profile argument as `run` and `doctor` take it: a file that exists, or
 * anything with a '/' or a .yaml/.yml ending, is a path, given back as is;
 * a bare name (quick) is NAME.yaml in cb_profiles_dir. Returns the path (arg
 * or buf), or NULL with e set: a name no installed profile has. */
const char *cb_profile_path(const char *arg, char *buf, size_t n, struct cb_err *e);

#endif
