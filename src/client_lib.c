/* The client libraries' version and features (client_lib.h). */
#include "client_lib.h"

#include <cephfs/libcephfs.h>
#include <stdio.h>

const char *cb_client_lib_version(struct cb_ceph_version *v)
{
	int major = 0, minor = 0, patch = 0;
	const char *s = ceph_version(&major, &minor, &patch);
	if (v)
		*v = (struct cb_ceph_version){major, minor, patch};
	return s ? s : "unknown";
}

bool cb_ceph_version_parse(const char *s, struct cb_ceph_version *v)
{
	return s && sscanf(s, "%d.%d.%d", &v->major, &v->minor, &v->patch) == 3;
}

bool cb_ceph_version_has_aes256k(const struct cb_ceph_version *v)
{
	if (v->major != 19 && v->major != 20)
		return v->major > 20;
	int first = v->major == 19 ? 6 : 4;
	return v->minor > 2 || (v->minor == 2 && v->patch >= first);
}

const char *cb_ceph_release_name(int major)
{
	static const char *const names[] = {"pacific", "quincy", "reef", "squid", "tentacle"};
	return major >= 16 && major < 16 + (int)(sizeof(names) / sizeof(names[0]))
		   ? names[major - 16]
		   : "";
}

json_t *cb_client_lib_json(void)
{
	json_t *features = json_array();
	struct cb_ceph_version v;
	cb_client_lib_version(&v);
	if (cb_ceph_version_has_aes256k(&v))
		json_array_append_new(features, json_string("aes256k"));
#ifdef CB_HAVE_CEPHFS_NONBLOCKING
	/* built against libcephfs 20.2's ceph_ll_nonblocking_readv_writev:
	 * cephfs file data ops keep concurrency in flight (cephfs_nbio.c) */
	json_array_append_new(features, json_string("cephfs_nonblocking_io"));
#endif
	return json_pack("{s:s, s:o}", "ceph_version", cb_client_lib_version(NULL), "features",
			 features);
}
