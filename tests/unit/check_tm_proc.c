/* The /proc readers of telemetry (tm_proc.c) on files written by the test
 * in the kernel's formats: /proc/stat's cpu line, loadavg, meminfo, the
 * two header lines of /proc/net/dev, diskstats lines of old (14 fields)
 * and new (20 fields) kernels, and a diskstats longer than the reader's
 * buffer, so lines cut between two reads are put back together. */
#include "tm_proc.h"
#include "unit_run.h"

#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[64];

/* text into a file of the test's; an fd open on it */
static int file_of(const char *text)
{
	char path[128];
	snprintf(path, sizeof(path), "%s/f", dir);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
	int fd = open(path, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	unlink(path);
	return fd;
}

START_TEST(cpu_load_mem)
{
	int fd = file_of("cpu  100 5 30 800 20 1 2 7 50 0\n"
			 "cpu0 50 2 15 400 10 1 1 3 25 0\n"
			 "intr 12345 0 0\n");
	struct tm_cpu c;
	ck_assert_int_eq(tm_proc_cpu(fd, &c), 0);
	close(fd);
	ck_assert_uint_eq(c.v[TM_CPU_USR], 105); /* user + nice (guest is in user) */
	ck_assert_uint_eq(c.v[TM_CPU_SYS], 33);	 /* system + irq + softirq */
	ck_assert_uint_eq(c.v[TM_CPU_IDLE], 800);
	ck_assert_uint_eq(c.v[TM_CPU_IOWAIT], 20);
	ck_assert_uint_eq(c.v[TM_CPU_STEAL], 7);
	ck_assert_uint_eq(c.total, 965);
	fd = file_of("cpu0 1 2 3 4\n");
	ck_assert_int_lt(tm_proc_cpu(fd, &c), 0); /* no "cpu " line */
	close(fd);
	double l;
	fd = file_of("1.52 0.98 0.40 3/712 12345\n");
	ck_assert_int_eq(tm_proc_load1(fd, &l), 0);
	close(fd);
	ck_assert(l > 1.519 && l < 1.521);
	uint64_t used, avail;
	fd = file_of("MemTotal:       24000000 kB\nMemFree:         1000000 kB\n"
		     "MemAvailable:   16000000 kB\nBuffers: 1 kB\n");
	ck_assert_int_eq(tm_proc_mem(fd, &used, &avail), 0);
	close(fd);
	ck_assert_uint_eq(used, 8000000ULL * 1024);
	ck_assert_uint_eq(avail, 16000000ULL * 1024);
}
END_TEST

struct got {
	char name[16][32];
	unsigned major[16], minor[16];
	uint64_t v[16][TM_DISK_N];
	size_t n;
	uint64_t sum0; /* of the first value, for the long file */
	size_t count;
};

static void take(void *arg, const char *name, unsigned major, unsigned minor, const uint64_t *v,
		 size_t nv)
{
	struct got *g = arg;
	g->count++;
	g->sum0 += v[0];
	if (g->n < 16) {
		snprintf(g->name[g->n], sizeof(g->name[0]), "%s", name);
		g->major[g->n] = major;
		g->minor[g->n] = minor;
		memcpy(g->v[g->n], v, nv * sizeof(*v));
		g->n++;
	}
}

static void take_net(void *arg, const char *name, unsigned major, unsigned minor, const uint64_t *v)
{
	take(arg, name, major, minor, v, TM_NET_N);
}

static void take_disk(void *arg, const char *name, unsigned major, unsigned minor,
		      const uint64_t *v)
{
	take(arg, name, major, minor, v, TM_DISK_N);
}

START_TEST(net_dev)
{
	int fd = file_of(
	    "Inter-|   Receive                                                |  Transmit\n"
	    " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets "
	    "errs drop fifo colls carrier compressed\n"
	    "    lo: 1000      10    0    0    0     0          0         0     1000      10    0 "
	    "   0    0     0       0          0\n"
	    "  eth0:123456789 98765    1    2    0     0          0         5 87654321   54321    "
	    "0 "
	    "   0    0     0       0          0\n");
	struct got g = {0};
	ck_assert_int_eq(tm_proc_net(fd, take_net, &g), 0);
	close(fd);
	ck_assert_uint_eq(g.n, 2);
	ck_assert_str_eq(g.name[0], "lo");
	ck_assert_str_eq(g.name[1], "eth0");
	/* rx_bytes, tx_bytes, rx_packets, tx_packets */
	ck_assert_uint_eq(g.v[1][0], 123456789);
	ck_assert_uint_eq(g.v[1][1], 87654321);
	ck_assert_uint_eq(g.v[1][2], 98765);
	ck_assert_uint_eq(g.v[1][3], 54321);
}
END_TEST

START_TEST(diskstats)
{
	/* a 4.18+ line (discards, flushes after), a pre-4.18 one, a short one */
	int fd = file_of("   7       0 loop0 11 1 88 5 22 2 176 9 0 13 14 0 0 0 0 0 0\n"
			 " 252       0 rbd0 100 3 800 50 200 4 1600 90 1 120 140\n"
			 "   8       0 sda 1 2 3\n");
	struct got g = {0};
	ck_assert_int_eq(tm_proc_disks(fd, take_disk, &g), 0);
	close(fd);
	ck_assert_uint_eq(g.n, 2);
	ck_assert_str_eq(g.name[0], "loop0");
	ck_assert_uint_eq(g.major[1], 252);
	ck_assert_uint_eq(g.minor[1], 0);
	/* reads, merged, sectors, ms, writes, merged, sectors, ms, io ms, weighted ms
	 * (in flight left out) */
	const uint64_t want0[TM_DISK_N] = {11, 1, 88, 5, 22, 2, 176, 9, 13, 14};
	const uint64_t want1[TM_DISK_N] = {100, 3, 800, 50, 200, 4, 1600, 90, 120, 140};
	for (int k = 0; k < TM_DISK_N; k++) {
		ck_assert_uint_eq(g.v[0][k], want0[k]);
		ck_assert_uint_eq(g.v[1][k], want1[k]);
	}
}
END_TEST

/* Many lines: the reader's 8 KiB buffer is refilled mid-line many times. */
START_TEST(long_file)
{
	size_t n = 2000, len = 0, cap = n * 96;
	char *text = malloc(cap);
	ck_assert_ptr_nonnull(text);
	uint64_t sum = 0;
	for (size_t i = 0; i < n; i++) {
		len += (size_t)snprintf(
		    text + len, cap - len,
		    " 259 %6zu nvme%zun1 %zu 0 8 1 2 0 16 3 0 4 5 0 0 0 0 0 0\n", i, i, i * 7 + 1);
		sum += i * 7 + 1;
	}
	int fd = file_of(text);
	free(text);
	struct got g = {0};
	ck_assert_int_eq(tm_proc_disks(fd, take_disk, &g), 0);
	close(fd);
	ck_assert_uint_eq(g.count, n);
	ck_assert_uint_eq(g.sum0, sum);
}
END_TEST

/* This process's own threads: this one, named as the test names it. */
START_TEST(own_threads)
{
	struct tm_thread *t = NULL;
	size_t n = 0;
	ck_assert_int_eq(tm_proc_threads(&t, &n), 0);
	ck_assert_uint_ge(n, 1);
	bool me = false;
	for (size_t i = 0; i < n; i++)
		me |= t[i].tid == getpid() && strcmp(t[i].name, "check_tm_proc") == 0;
	free(t);
	ck_assert(me);
}
END_TEST

int main(void)
{
	snprintf(dir, sizeof(dir), "/tmp/check_tm_proc.XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	Suite *s = suite_create("tm_proc");
	TCase *tc = tcase_create("parsers");
	tcase_add_test(tc, cpu_load_mem);
	tcase_add_test(tc, net_dev);
	tcase_add_test(tc, diskstats);
	tcase_add_test(tc, long_file);
	tcase_add_test(tc, own_threads);
	suite_add_tcase(s, tc);
	int rc = unit_run(s);
	rmdir(dir);
	return rc;
}
