/* Finding installed profiles (profiles_dir.h). */
#include "profiles_dir.h"
#include "options.h"
#include "shquote.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef CB_PROFILES_DIR
#define CB_PROFILES_DIR "/usr/share/cephbench/profiles"
#endif

static bool is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *cb_profiles_dir(char *buf, size_t n)
{
	char exe[PATH_MAX];
	ssize_t k = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (k > 0) {
		exe[k] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0'; /* PREFIX/bin */
			int w = snprintf(buf, n, "%s/../share/cephbench/profiles", exe);
			if (w > 0 && (size_t)w < n && is_dir(buf))
				return buf;
		}
	}
	if ((size_t)snprintf(buf, n, "%s", CB_PROFILES_DIR) < n && is_dir(buf))
		return buf;
	if (n)
		buf[0] = '\0';
	return NULL;
}

static bool ends_with(const char *s, const char *end)
{
	size_t a = strlen(s), b = strlen(end);
	return a >= b && strcmp(s + a - b, end) == 0;
}

const char *cb_profile_path(const char *arg, char *buf, size_t n, struct cb_err *e)
{
	if (access(arg, F_OK) == 0 || strchr(arg, '/') || ends_with(arg, ".yaml") ||
	    ends_with(arg, ".yml") || !cb_name_valid(arg))
		return arg; /* the loader names what is wrong with it */
	char dir[PATH_MAX] = "";
	if (cb_profiles_dir(dir, sizeof(dir))) {
		int w = snprintf(buf, n, "%s/%s.yaml", dir, arg);
		if (w > 0 && (size_t)w < n && access(buf, F_OK) == 0)
			return buf;
	}
	if (!dir[0]) {
		cb_err_usage(e,
			     "profile '%s': no such file, and no installed profiles were found "
			     "(give the profile's path)",
			     arg);
		return NULL;
	}
	char ls[CB_SH_CMD_MAX];
	cb_err_usage(e,
		     "profile '%s': no such file, and no installed profile of that name "
		     "(give a path, or one of: %s)",
		     arg, CB_SH_CMD(ls, "ls", dir));
	return NULL;
}
