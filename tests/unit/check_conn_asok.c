/* Stale admin sockets (src/conn_asok.c): which names are a killed
 * cephbench's, and that a sweep removes only a dead pid's refused socket
 * of this user, in a directory of the test's own. */
#include "conn_asok.h"
#include "unit_run.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

START_TEST(names)
{
	long o = 0;
	const char *mine = "ceph-client.admin.4242.asok";
	ck_assert(cb_asok_match(mine, 4242, "ceph-client.admin.17.asok", &o));
	ck_assert_int_eq(o, 17);
	ck_assert(cb_asok_match(mine, 4242, mine, &o) && o == 4242);
	ck_assert(!cb_asok_match(mine, 4242, "ceph-client.other.17.asok", &o));
	ck_assert(!cb_asok_match(mine, 4242, "ceph-client.admin.17.asok.x", &o));
	ck_assert(!cb_asok_match(mine, 4242, "ceph-client.admin..asok", &o));
	ck_assert(!cb_asok_match(mine, 4242, "ceph-client.admin.17x.asok", &o));
	ck_assert(!cb_asok_match(mine, 4242, "ceph-client.admin.12345678901.asok", &o));
	/* $pid.$cctid: the cctid may differ too */
	const char *cct = "ceph-client.admin.4242.94011223344.asok";
	ck_assert(cb_asok_match(cct, 4242, "ceph-client.admin.17.93999999999.asok", &o));
	ck_assert_int_eq(o, 17);
	ck_assert(!cb_asok_match(cct, 4242, "ceph-client.admin.17.asok", &o));
	/* a name without the pid, or with it only inside a longer number */
	ck_assert(!cb_asok_match("ceph-client.admin.asok", 4242, "ceph-client.admin.asok", &o));
	ck_assert(!cb_asok_match("x.142420.asok", 4242, "x.17.asok", &o));
}
END_TEST

static void sock_at(const char *path, int *fd, int listens)
{
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
	*fd = socket(AF_UNIX, SOCK_STREAM, 0);
	ck_assert_int_ge(*fd, 0);
	ck_assert_int_eq(bind(*fd, (struct sockaddr *)&a, sizeof(a)), 0);
	if (listens)
		ck_assert_int_eq(listen(*fd, 1), 0);
}

START_TEST(sweep)
{
	char dir[] = "/tmp/check_conn_asok.XXXXXX", p[5][256], mine[256];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	long me = (long)getpid();
	/* a pid no process has: above the kernel's pid_max */
	long dead = 4999999;
	snprintf(mine, sizeof(mine), "%s/ceph-client.admin.%ld.asok", dir, me);
	snprintf(p[0], sizeof(p[0]), "%s/ceph-client.admin.%ld.asok", dir, dead);
	snprintf(p[1], sizeof(p[1]), "%s/ceph-client.admin.%ld.asok", dir, dead - 1);
	snprintf(p[2], sizeof(p[2]), "%s/ceph-client.admin.%ld.asok", dir, dead - 2);
	snprintf(p[3], sizeof(p[3]), "%s/ceph-client.admin.%ld.asok", dir, (long)getppid());
	snprintf(p[4], sizeof(p[4]), "%s/ceph-client.other.%ld.asok", dir, dead);
	int fd[5];
	sock_at(p[0], &fd[0], 0); /* dead pid, refused: goes */
	close(fd[0]);
	sock_at(p[1], &fd[1], 1);   /* dead pid, but someone serves it: stays */
	FILE *f = fopen(p[2], "w"); /* a plain file: stays */
	ck_assert_ptr_nonnull(f);
	fclose(f);
	sock_at(p[3], &fd[3], 0); /* a live pid: stays */
	close(fd[3]);
	sock_at(p[4], &fd[4], 0); /* another name: stays */
	close(fd[4]);
	ck_assert_uint_eq(cb_asok_sweep(mine, me), 1);
	ck_assert_int_ne(access(p[0], F_OK), 0);
	for (int i = 1; i < 5; i++)
		ck_assert_msg(access(p[i], F_OK) == 0, "%s was removed", p[i]);
	/* nothing when the path holds no pid, or no directory */
	ck_assert_uint_eq(cb_asok_sweep("ceph-client.admin.asok", me), 0);
	close(fd[1]);
	for (int i = 1; i < 5; i++)
		unlink(p[i]);
	rmdir(dir);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("conn_asok");
	TCase *tc = tcase_create("asok");
	tcase_add_test(tc, names);
	tcase_add_test(tc, sweep);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
