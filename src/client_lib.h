/* The Ceph client libraries this binary runs with: their version (what the
 * record and doctor name beside the cluster's) and what it can do that an
 * older one cannot (the key types it reads, features compiled in). */
#ifndef CB_CLIENT_LIB_H
#define CB_CLIENT_LIB_H

#include <jansson.h>
#include <stdbool.h>

struct cb_ceph_version {
	int major, minor, patch;
};

/* The loaded client libraries' Ceph version ("16.2.15"), from libcephfs
 * (librados, librbd and libcephfs come from one Ceph build); into *v when
 * v is not NULL. A static string, never NULL. */
const char *cb_client_lib_version(struct cb_ceph_version *v);

/* A "MAJOR.MINOR.PATCH..." string as a version: false when it is not one. */
bool cb_ceph_version_parse(const char *s, struct cb_ceph_version *v);

/* Whether Ceph version v reads AES256K keys and speaks that cipher: 19.2.6
 * and later Squids, 20.2.4 and later (CVE-2025-30156's fix). */
bool cb_ceph_version_has_aes256k(const struct cb_ceph_version *v);

/* The release name of a major version ("pacific" for 16), or "" unknown. */
const char *cb_ceph_release_name(int major);

/* The record's "client" object: {"ceph_version": ..., "features": [...]},
 * the features being what this build uses that older libraries lack. A new
 * reference, NULL when out of memory. */
json_t *cb_client_lib_json(void);

#endif
