/* Stale admin sockets (conn_asok.h): a killed run's socket stays in the
 * conf's run directory; the next connection removes it, and nothing else:
 * a name of the same shape, a socket, its pid gone, no one listening. */
#include "conn_asok.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

/* Where pid's digits begin in the file name mine (a whole number, not a
 * part of a longer one), or NULL. */
static const char *pid_at(const char *mine, long pid)
{
	char num[24];
	snprintf(num, sizeof(num), "%ld", pid);
	size_t n = strlen(num);
	for (const char *s = strstr(mine, num); s; s = strstr(s + 1, num))
		if ((s == mine || !isdigit((unsigned char)s[-1])) && !isdigit((unsigned char)s[n]))
			return s;
	return NULL;
}

/* The digits at *s as a number, *s moved past them; -1 for none or too many. */
static long digits(const char **s)
{
	long v = 0;
	size_t k = 0;
	for (; isdigit((unsigned char)**s); (*s)++, k++)
		v = k < 9 ? v * 10 + (**s - '0') : -1;
	return k && k < 10 ? v : -1;
}

int cb_asok_match(const char *mine, long pid, const char *name, long *other)
{
	const char *at = pid_at(mine, pid);
	if (!at)
		return 0;
	size_t pre = (size_t)(at - mine);
	if (strncmp(mine, name, pre) != 0)
		return 0;
	const char *m = at, *s = name + pre;
	if (digits(&m) < 0 || (*other = digits(&s)) <= 0)
		return 0;
	while (*m && *s) {
		if (isdigit((unsigned char)*m)) {
			/* any run of digits (a cctid is longer than a pid) */
			if (!isdigit((unsigned char)*s))
				return 0;
			while (isdigit((unsigned char)*m))
				m++;
			while (isdigit((unsigned char)*s))
				s++;
		} else if (*m++ != *s++) {
			return 0;
		}
	}
	return !*m && !*s;
}

/* A socket someone still serves accepts a connection. */
static bool listening(const char *path)
{
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	if (strlen(path) >= sizeof(a.sun_path))
		return true; /* cannot ask: keep it */
	strcpy(a.sun_path, path);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return true;
	int r = connect(fd, (struct sockaddr *)&a, sizeof(a));
	int err = errno;
	close(fd);
	return r == 0 || err != ECONNREFUSED;
}

size_t cb_asok_sweep(const char *mine, long pid)
{
	const char *slash = mine ? strrchr(mine, '/') : NULL;
	if (!slash || !pid_at(slash + 1, pid))
		return 0;
	char dir[4096];
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - mine), mine);
	int dfd = open(dir[0] ? dir : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = dfd < 0 ? NULL : fdopendir(dfd);
	if (!d) {
		if (dfd >= 0)
			close(dfd);
		return 0;
	}
	size_t gone = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		long other;
		struct stat st;
		char path[4096 + 256];
		if (!cb_asok_match(slash + 1, pid, de->d_name, &other) || other == pid)
			continue;
		if (fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISSOCK(st.st_mode) || st.st_uid != geteuid())
			continue;
		if (kill((pid_t)other, 0) == 0 || errno != ESRCH)
			continue; /* alive, or not ours to know */
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (!listening(path) && unlinkat(dfd, de->d_name, 0) == 0)
			gone++;
	}
	closedir(d);
	return gone;
}
