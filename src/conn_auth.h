/* Why the monitors refused a client, when the keys and ciphers say it: a
 * key type the client library cannot read, or a cluster that allows only a
 * cipher it lacks (Ceph 19.2.6 and 20.2.4 made AES256K the default for new
 * keys and for the monitors' auth_allowed_ciphers). */
#ifndef CB_CONN_AUTH_H
#define CB_CONN_AUTH_H

#include "err.h"

#include <rados/librados.h>
#include <stddef.h>

/* The type of a cephx secret in its base64 form: 1 AES, 2 AES256K, or
 * another number; -EINVAL when it is not base64 of a CryptoKey. */
int cb_key_type(const char *b64);

/* The name of key type t ("AES", "AES256K", "type 7"), into buf. */
const char *cb_key_type_name(int t, char *buf, size_t n);

/* The key the session r (configured, not connected) would present as
 * name: the key option, the key file, else the first keyring of its list
 * that opens (as librados picks it), when it holds name; its base64 into
 * key[n] and where it came from into from[fn]. 0, or -ENOENT when there is
 * none. */
int cb_conn_find_key(rados_t r, const char *name, char *key, size_t n, char *from, size_t fn);

/* After rados_connect(r) failed with err: when the key type or the cipher
 * explains it, e set with the cause and both ways out (exit 3) and err
 * returned; else 0 and e untouched (the caller says what it says). */
int cb_conn_auth_explain(rados_t r, const char *name, const char *mon, int err, struct cb_err *e);

#endif
