/* Naming the cause of an auth refusal (conn_auth.h). The 16.2 and 18.2
 * libraries say only "Input/output error" for a key they cannot decode and
 * "Permission denied" for a cipher the monitors no longer allow: the key's
 * own type, the library's version and the rule of the releases that changed
 * the default make the line that says what to do. */
#include "conn_auth.h"
#include "client_lib.h"
#include "conn_files.h"
#include "infile.h"

#include <errno.h>
#include <openssl/evp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* CryptoKey's encoding (src/auth/Crypto.h): u16 type, utime (u32 sec, u32
 * nsec), u16 length, the secret */
#define KEY_HDR	    12
#define KEY_AES	    1
#define KEY_AES256K 2

int cb_key_type(const char *b64)
{
	unsigned char raw[256];
	size_t len = strcspn(b64, " \t\r\n");
	if (len == 0 || len % 4 || len > sizeof(raw) / 3 * 4)
		return -EINVAL;
	int n = EVP_DecodeBlock(raw, (const unsigned char *)b64, (int)len);
	if (n < KEY_HDR)
		return -EINVAL;
	return raw[0] | raw[1] << 8;
}

const char *cb_key_type_name(int t, char *buf, size_t n)
{
	if (t == KEY_AES)
		snprintf(buf, n, "AES");
	else if (t == KEY_AES256K)
		snprintf(buf, n, "AES256K");
	else
		snprintf(buf, n, "type %d", t);
	return buf;
}

/* name's "key = ..." in keyring text: the base64 into key[n]. */
static bool keyring_key(char *text, const char *name, char *key, size_t n)
{
	bool in = false;
	for (char *save = NULL, *l = strtok_r(text, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save)) {
		l += strspn(l, " \t");
		if (*l == '[') {
			size_t len = strcspn(l + 1, "]");
			in = len == strlen(name) && !strncmp(l + 1, name, len);
		} else if (in && !strncmp(l, "key", 3) && strchr(" \t=", l[3])) {
			char *v = strchr(l, '=');
			if (!v)
				continue;
			v += 1 + strspn(v + 1, " \t\"");
			snprintf(key, n, "%.*s", (int)strcspn(v, " \t\r\""), v);
			return true;
		}
	}
	return false;
}

/* cb_infile_read refuses a FIFO or a device without opening it (conn_files.c
 * has checked what librados reads; this may be read later) */
static int read_small(const char *path, char **buf)
{
	size_t len;
	struct cb_err ignored = {0};
	return cb_infile_read(path, "keyring", CB_CEPHFILE_MAX_BYTES, buf, &len, &ignored);
}

int cb_conn_find_key(rados_t r, const char *name, char *key, size_t n, char *from, size_t fn)
{
	char val[4096] = "", *buf;
	if (rados_conf_get(r, "key", val, sizeof(val)) == 0 && val[0]) {
		snprintf(key, n, "%s", val);
		snprintf(from, fn, "the key option");
		return 0;
	}
	if (rados_conf_get(r, "keyfile", val, sizeof(val)) == 0 && val[0] &&
	    read_small(val, &buf) == 0) {
		snprintf(key, n, "%.*s", (int)strcspn(buf, " \t\r\n"), buf);
		snprintf(from, fn, "%s", val);
		free(buf);
		return 0;
	}
	if (rados_conf_get(r, "keyring", val, sizeof(val)) < 0)
		return -ENOENT;
	char path[4096];
	for (const char *s = val; cb_path_list_next(&s, path, sizeof(path));) {
		if (read_small(path, &buf) < 0)
			continue;
		/* librados reads the first that opens, whether it holds the
		 * name or not */
		bool found = keyring_key(buf, name, key, n);
		free(buf);
		snprintf(from, fn, "%s", path);
		return found ? 0 : -ENOENT;
	}
	return -ENOENT;
}

#define WAYS_OUT                                                                                   \
	"use client libraries of Ceph 19.2.6/20.2.4 or later (README: newer client libraries), "   \
	"or have an admin run 'ceph mon set auth_allowed_ciphers aes256k,aes' (this weakens "      \
	"the cluster: CVE-2025-30156) and give this client an AES key"

int cb_conn_auth_explain(rados_t r, const char *name, const char *mon, int err, struct cb_err *e)
{
	char key[512] = "", from[4096] = "", tn[32];
	struct cb_ceph_version lib;
	const char *libv = cb_client_lib_version(&lib);
	if (cb_ceph_version_has_aes256k(&lib) ||
	    cb_conn_find_key(r, name, key, sizeof(key), from, sizeof(from)) < 0)
		return 0;
	int t = cb_key_type(key);
	if (t < 0)
		return 0;
	/* -EKEYREJECTED: the key is the culprit, whatever the library said */
	if (t != KEY_AES)
		return cb_err_cluster(e, -EKEYREJECTED,
				      "the key of %s (%s) is an %s key, which this client library "
				      "(Ceph %s) cannot read: Ceph 19.2.6/20.2.4 and later make "
				      "such keys by default; " WAYS_OUT,
				      name, from, cb_key_type_name(t, tn, sizeof(tn)), libv);
	if (err != -EACCES && err != -EPERM && err != -EKEYREJECTED)
		return 0;
	return cb_err_cluster(e, err,
			      "authentication as %s refused by the monitors at %s: its key is AES, "
			      "and this client library (Ceph %s) lacks AES256K, the only cipher "
			      "that clusters of Ceph 19.2.6/20.2.4 or later allow by default "
			      "(auth_allowed_ciphers in 'ceph mon dump'); " WAYS_OUT
			      "; or else check --client and --keyring",
			      name, mon, libv);
}
