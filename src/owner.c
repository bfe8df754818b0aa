/* Owner marks: see owner.h. Host names repeat across machines and
 * containers, machine-id and boot-id do not; a pid reused by another process
 * has another start time. */
#include "owner.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void read_line(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "r");
	buf[0] = '\0';
	if (f) {
		if (!fgets(buf, (int)n, f))
			buf[0] = '\0';
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = '\0';
}

/* "<machine-id>/<boot-id>/<pid namespace>"; empty when unknown. Containers
 * on one host share the boot and often the machine-id, not the pid
 * namespace: a pid is checked only in the namespace it belongs to. */
static void boot_key(char *buf, size_t n)
{
	char machine[64], boot[64], ns[64] = "";
	read_line("/etc/machine-id", machine, sizeof(machine));
	read_line("/proc/sys/kernel/random/boot_id", boot, sizeof(boot));
	ssize_t l = readlink("/proc/self/ns/pid", ns, sizeof(ns) - 1); /* "pid:[4026531836]" */
	ns[l > 0 ? l : 0] = '\0';
	const char *id = strchr(ns, '[');
	if (machine[0] && boot[0] && id)
		snprintf(buf, n, "%s/%s/%.*s", machine, boot, (int)strcspn(id + 1, "]"), id + 1);
	else
		buf[0] = '\0';
}

/* Field 22 of /proc/PID/stat (start time in clock ticks since boot); 0 when
 * the process is provably gone: no such pid, or a zombie (killed, not yet
 * reaped: its mounts and watches are already dead). UNKNOWN_START when it
 * cannot be told (e.g. /proc mounted with hidepid): never taken for gone. */
#define UNKNOWN_START ULLONG_MAX
static unsigned long long start_time(int pid)
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return errno == ENOENT && kill(pid, 0) < 0 && errno == ESRCH ? 0 : UNKNOWN_START;
	fclose(f);
	read_line(path, buf, sizeof(buf));
	const char *p = strrchr(buf, ')'); /* the command name may hold spaces */
	unsigned long long t = 0;
	char state = 0;
	if (p && sscanf(p + 1,
			" %c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d "
			"%*d %*d %*d %*d %llu",
			&state, &t) != 2)
		t = 0;
	if (!p || !t)
		return UNKNOWN_START;
	return state == 'Z' || state == 'X' ? 0 : t;
}

void cb_owner_mark(char *buf, size_t n, char sep)
{
	char key[160];
	boot_key(key, sizeof(key));
	snprintf(buf, n, "%s%c%d%c%llu", key[0] ? key : "-", sep, (int)getpid(), sep,
		 start_time((int)getpid()));
}

enum cb_owner_state cb_owner_state(const char *mark, int *pid)
{
	char okey[160], key[160];
	unsigned long long t;
	*pid = 0;
	boot_key(key, sizeof(key));
	/* the key holds neither separator: machine-id, boot-id, namespace */
	if (!key[0] || sscanf(mark, "%159[^ _]%*1[ _]%d%*1[ _]%llu", okey, pid, &t) != 3 ||
	    *pid <= 0 || strcmp(okey, key) != 0)
		return CB_OWNER_ELSEWHERE;
	unsigned long long now = start_time(*pid);
	/* a pid with another start time is a new process: the marked one is gone */
	return now == UNKNOWN_START || now == t ? CB_OWNER_ALIVE : CB_OWNER_GONE;
}
