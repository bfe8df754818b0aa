/* Owner marks: see owner.h. Host names repeat across machines and
 * containers, machine-id and boot-id do not; a pid reused by another process
 * has another start time. */
#include "owner.h"

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

/* "<machine-id>/<boot-id>"; empty when unknown. */
static void boot_key(char *buf, size_t n)
{
	char machine[64], boot[64];
	read_line("/etc/machine-id", machine, sizeof(machine));
	read_line("/proc/sys/kernel/random/boot_id", boot, sizeof(boot));
	if (machine[0] && boot[0])
		snprintf(buf, n, "%s/%s", machine, boot);
	else
		buf[0] = '\0';
}

/* Field 22 of /proc/PID/stat (start time in clock ticks since boot); 0 when
 * the process is gone, or a zombie (killed, not yet reaped: its mounts and
 * watches are already dead). */
static unsigned long long start_time(int pid)
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	read_line(path, buf, sizeof(buf));
	const char *p = strrchr(buf, ')'); /* the command name may hold spaces */
	unsigned long long t = 0;
	char state = 0;
	if (p && sscanf(p + 1,
			" %c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d "
			"%*d %*d %*d %*d %llu",
			&state, &t) != 2)
		t = 0;
	return state == 'Z' || state == 'X' ? 0 : t;
}

void cb_owner_mark(char *buf, size_t n)
{
	char key[160];
	boot_key(key, sizeof(key));
	snprintf(buf, n, "%s %d %llu", key[0] ? key : "-", (int)getpid(),
		 start_time((int)getpid()));
}

enum cb_owner_state cb_owner_state(const char *mark, int *pid)
{
	char okey[160], key[160];
	unsigned long long t;
	*pid = 0;
	boot_key(key, sizeof(key));
	if (!key[0] || sscanf(mark, "%159s %d %llu", okey, pid, &t) != 3 || *pid <= 0 ||
	    strcmp(okey, key) != 0)
		return CB_OWNER_ELSEWHERE;
	return start_time(*pid) == t ? CB_OWNER_ALIVE : CB_OWNER_GONE;
}
