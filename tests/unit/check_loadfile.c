/* dbench's loadfile lines (cephfs_loadfile.c): every field of a line as
 * dbench writes it (a time or none, quoted paths with backslashes, handle
 * numbers in decimal and hex, the status), the paths under the client's
 * directory (never above it), blank lines and comments skipped, and each
 * malformed line refused with its reason; a whole file's summary and the
 * line number of its first bad line. */
#include "../../cephfs/cephfs_handles.h"
#include "../../cephfs/cephfs_priv.h"
#include "unit_run.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int parse(const char *text, struct cfs_line *l, char *why)
{
	char buf[CFS_LINE_MAX + 2];
	snprintf(buf, sizeof(buf), "%s", text);
	why[0] = '\0';
	return cfs_line_parse(buf, l, why, 160);
}

START_TEST(fields)
{
	struct cfs_line l;
	char why[160];
	ck_assert_int_eq(
	    parse("NTCreateX \"\\clients\\client1\\~dmtmp\" 0x1 0x2 16385 NT_STATUS_OK\n", &l, why),
	    0);
	ck_assert_int_eq(l.op, CFS_LOP_NTCREATEX);
	ck_assert_str_eq(l.path[0], "clients/client1/~dmtmp");
	ck_assert_uint_eq(l.arg[0], 1);
	ck_assert_uint_eq(l.arg[1], 2);
	ck_assert_uint_eq(l.arg[2], 16385);
	ck_assert(l.ok);
	ck_assert(l.t < 0);
	ck_assert_int_eq(
	    parse("12.5 Rename \"\\a b\\x.TMP\" \"\\c\" NT_STATUS_OBJECT_NAME_NOT_FOUND", &l, why),
	    0);
	ck_assert_int_eq(l.op, CFS_LOP_RENAME);
	ck_assert_double_eq(l.t, 12.5);
	ck_assert_str_eq(l.path[0], "a b/x.TMP");
	ck_assert_str_eq(l.path[1], "c");
	ck_assert(!l.ok);
	ck_assert_str_eq(l.status, "NT_STATUS_OBJECT_NAME_NOT_FOUND");
	ck_assert_int_eq(parse("ReadX 10003 0 4096 4096 NT_STATUS_OK", &l, why), 0);
	ck_assert_uint_eq(l.arg[2], 4096);
	ck_assert_int_eq(parse("FIND_FIRST \"\\\" 260 1366 0 NT_STATUS_NO_SUCH_FILE", &l, why), 0);
	ck_assert_str_eq(l.path[0], ".");
	ck_assert_int_eq(parse("LockX 10430 2147483538 1 NT_STATUS_OK", &l, why), 0);
	ck_assert(!cfs_lops[l.op].mapped);
	ck_assert_int_eq(parse("   \n", &l, why), 0);
	ck_assert_int_eq(l.op, -1);
	ck_assert_int_eq(parse("# a comment", &l, why), 0);
	ck_assert_int_eq(l.op, -1);
}
END_TEST

START_TEST(refusals)
{
	struct cfs_line l;
	char why[160];
	static const char *const bad[][2] = {
	    {"NTCreateX \"\\x\" 0x40 0x2 NT_STATUS_OK",
	     "NTCreateX takes 4 arguments and a status, 5 fields after its name, not 4"},
	    {"Close 9 NT_STATUS_OK extra",
	     "Close takes 1 argument and a status, 2 fields after its name, not 3"},
	    {"Close 9", "takes 1 argument and a status, 2 fields after its name, not 1"},
	    {"Close 9 OK", "'OK' is not a status"},
	    {"Close nine NT_STATUS_OK", "'nine' is not a whole number"},
	    {"Close -1 NT_STATUS_OK", "'-1' is not a whole number"},
	    {"GETATTR3 \"\\x\" NT_STATUS_OK", "unknown operation 'GETATTR3'"},
	    {"Unlink \"\\x 0x20 NT_STATUS_OK", "a quoted path is not closed"},
	    {"Unlink \"\\..\\etc\\passwd\" 0x20 NT_STATUS_OK", "leaves the client's directory"},
	    {"Mkdir \"\\a\\..\" NT_STATUS_OK", "leaves the client's directory"},
	    {"1.5x Close 9 NT_STATUS_OK", "is not a time"},
	    {"7", "a time and no operation"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_int_lt(parse(bad[i][0], &l, why), 0);
		ck_assert_msg(strstr(why, bad[i][1]), "%s: %s", bad[i][0], why);
	}
	/* ".." inside a name is a name */
	ck_assert_int_eq(parse("Mkdir \"\\a..b\\..c\" NT_STATUS_OK", &l, why), 0);
}
END_TEST

START_TEST(whole_file)
{
	char path[] = "/tmp/check_loadfile.XXXXXX", why[256];
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	FILE *f = fdopen(fd, "w");
	fputs("# made by check_loadfile\nMkdir \"\\clients\" NT_STATUS_OK\n\n"
	      "WriteX 9938 0 65536 65536 NT_STATUS_OK\nLockX 1 2 3 NT_STATUS_OK\n",
	      f);
	fclose(f);
	struct cfs_load_info info;
	ck_assert_int_eq(cfs_loadfile_scan(path, &info, why, sizeof(why)), 0);
	ck_assert_uint_eq(info.lines, 3);
	ck_assert_uint_eq(info.max_io, 65536);
	ck_assert(!info.timed && info.untimed);
	ck_assert_uint_eq(info.ops,
			  1u << CFS_LOP_MKDIR | 1u << CFS_LOP_WRITEX | 1u << CFS_LOP_LOCKX);
	f = fopen(path, "a");
	fputs("ReadX 1 0 4096\n", f);
	fclose(f);
	ck_assert_int_lt(cfs_loadfile_scan(path, &info, why, sizeof(why)), 0);
	char want[200];
	snprintf(want, sizeof(want), "%s:6: ReadX takes 4 arguments and a status, 5 fields", path);
	ck_assert_msg(strstr(why, want), "%s", why);
	unlink(path);
	ck_assert_int_lt(cfs_loadfile_scan(path, &info, why, sizeof(why)), 0);
	ck_assert_msg(strstr(why, "No such file"), "%s", why);
}
END_TEST

/* scan PATH after writing len bytes of text to it; the verdict in why */
static int scan_text(const char *text, size_t len, char *why, size_t n, char *path)
{
	strcpy(path, "/tmp/check_loadfile.XXXXXX");
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, len), (ssize_t)len);
	close(fd);
	struct cfs_load_info info;
	int r = cfs_loadfile_scan(path, &info, why, n);
	unlink(path);
	return r;
}

/* Issue 41: a NUL byte was refused as "a line longer than 1024 bytes". */
START_TEST(nul_byte)
{
	char why[256], path[64], want[200];
	static const char mid[] = "Mkdir \"\\a\" NT_STATUS_OK\nMkdir \"\\b\0c\" NT_STATUS_OK\n";
	ck_assert_int_lt(scan_text(mid, sizeof(mid) - 1, why, sizeof(why), path), 0);
	snprintf(want, sizeof(want), "%s:2: the line holds a NUL byte: a loadfile is text", path);
	ck_assert_str_eq(why, want);
	/* the first byte of the file, and a last line without its newline */
	ck_assert_int_lt(scan_text("\0Mkdir \"\\a\" NT_STATUS_OK\n", 26, why, sizeof(why), path),
			 0);
	ck_assert_msg(strstr(why, ":1: the line holds a NUL byte"), "%s", why);
	static const char last[] = "Mkdir \"\\a\" NT_STATUS_OK\nMkdir \"\\b\" NT_STATUS_OK\0";
	ck_assert_int_lt(scan_text(last, sizeof(last) - 1, why, sizeof(why), path), 0);
	ck_assert_msg(strstr(why, ":2: the line holds a NUL byte"), "%s", why);
	/* a long line with a NUL is named for the NUL; one without, for its length */
	char big[2100];
	memset(big, 'x', sizeof(big));
	big[5] = '\0';
	big[sizeof(big) - 1] = '\n';
	ck_assert_int_lt(scan_text(big, sizeof(big), why, sizeof(why), path), 0);
	ck_assert_msg(strstr(why, ":1: the line holds a NUL byte"), "%s", why);
	big[5] = 'x';
	ck_assert_int_lt(scan_text(big, sizeof(big), why, sizeof(why), path), 0);
	ck_assert_msg(strstr(why, ":1: a line longer than 1024 bytes"), "%s", why);
	/* control: 1024 bytes and a newline fit, with or without the newline at the end */
	char fit[1100];
	int k = snprintf(fit, sizeof(fit), "Mkdir \"\\%0*d\" NT_STATUS_OK", 1024 - 22, 0);
	ck_assert_int_eq(k, 1024);
	ck_assert_int_eq(scan_text(fit, (size_t)k, why, sizeof(why), path), 0);
	fit[k] = '\n';
	ck_assert_int_eq(scan_text(fit, (size_t)k + 1, why, sizeof(why), path), 0);
}
END_TEST

/* Issue 41, item 4: a handle number sized a per-client array, so three
 * lines naming handle 2^24 cost 256 MiB a client. The table's slots follow
 * how many numbers were named, whatever their size. */
START_TEST(handle_2_24_no_array)
{
	struct cfs_handles t = {0};
	struct cfs_handle *h = cfs_handles_get(&t, 1u << 24, true);
	ck_assert_ptr_nonnull(h);
	ck_assert_ptr_null(h->path);
	h->path = strdup("\\f");
	ck_assert_ptr_eq(cfs_handles_get(&t, 1u << 24, false), h);
	ck_assert_uint_le(t.cap, 16);
	ck_assert_uint_eq(t.n, 1);
	/* a neighbour never opened is not open */
	ck_assert_ptr_null(cfs_handles_get(&t, (1u << 24) - 1, false));
	ck_assert_ptr_null(cfs_handles_get(&t, 0, false));
	free(h->path);
	h->path = NULL; /* closed: found for a reopen, not as open */
	ck_assert_ptr_null(cfs_handles_get(&t, 1u << 24, false));
	ck_assert_ptr_eq(cfs_handles_get(&t, 1u << 24, true), h);
	ck_assert_uint_eq(t.n, 1);
	cfs_handles_release(&t);
	ck_assert_uint_eq(t.cap, 0);
}
END_TEST

/* The largest numbers a line parses to, and numbers that share a slot's
 * hash neighbourhood, each keep their own entry. */
START_TEST(handle_huge_numbers)
{
	struct cfs_handles t = {0};
	const uint64_t nums[] = {
	    INT64_MAX, (uint64_t)INT64_MAX - 1, 1ULL << 40, 1ULL << 32, 0, 16, 32, 48};
	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		struct cfs_handle *h = cfs_handles_get(&t, nums[i], true);
		ck_assert_ptr_nonnull(h);
		h->fd = (int)i;
		h->path = strdup("p");
	}
	ck_assert_uint_eq(t.n, 8);
	ck_assert_uint_le(t.cap, 16);
	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		struct cfs_handle *h = cfs_handles_get(&t, nums[i], false);
		ck_assert_ptr_nonnull(h);
		ck_assert_uint_eq(h->fnum, nums[i]);
		ck_assert_int_eq(h->fd, (int)i);
	}
	size_t open = 0;
	for (size_t i = 0; i < t.cap; i++) {
		struct cfs_handle *h = cfs_handles_at(&t, i);
		if (h) {
			free(h->path);
			open++;
		}
	}
	ck_assert_uint_eq(open, 8);
	cfs_handles_release(&t);
}
END_TEST

/* Many distinct numbers: the table grows (and rehashes) and loses none;
 * its size is a small multiple of their count. */
START_TEST(handle_many_grow)
{
	struct cfs_handles t = {0};
	enum { N = 5000 };
	for (uint64_t i = 0; i < N; i++) {
		struct cfs_handle *h = cfs_handles_get(&t, i * 7919 + (1ULL << 24), true);
		ck_assert_ptr_nonnull(h);
		h->fd = (int)i;
		h->path = (char *)"static"; /* not freed: a marker only */
	}
	ck_assert_uint_eq(t.n, N);
	ck_assert_uint_le(t.cap, 4 * N);
	for (uint64_t i = 0; i < N; i++) {
		struct cfs_handle *h = cfs_handles_get(&t, i * 7919 + (1ULL << 24), false);
		ck_assert_ptr_nonnull(h);
		ck_assert_int_eq(h->fd, (int)i);
	}
	ck_assert_ptr_null(cfs_handles_get(&t, 1, false));
	cfs_handles_release(&t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("loadfile");
	TCase *tc = tcase_create("loadfile");
	tcase_add_test(tc, fields);
	tcase_add_test(tc, refusals);
	tcase_add_test(tc, whole_file);
	tcase_add_test(tc, nul_byte);
	tcase_add_test(tc, handle_2_24_no_array);
	tcase_add_test(tc, handle_huge_numbers);
	tcase_add_test(tc, handle_many_grow);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
