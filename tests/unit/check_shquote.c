/* The shell quoting of hints (src/shquote.c): fixed cases, and random words
 * of shell metacharacters that real shells (sh, bash) must give back as the
 * very argv the words were, with nothing run on the way. */
#include "shquote.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct quoted {
	const char *word, *want;
};

static const struct quoted cases[] = {
    {"bench", "bench"},
    {"client.admin", "client.admin"},
    {"/etc/ceph/ceph.conf", "/etc/ceph/ceph.conf"},
    {"--run-name", "--run-name"},
    {"a=b", "a=b"},
    {"", "''"},
    {"=ls", "'=ls'"}, /* zsh's =cmd expansion */
    {"p$(touch /tmp/PWNED)", "'p$(touch /tmp/PWNED)'"},
    {"x;touch y", "'x;touch y'"},
    {"it's", "'it'\\''s'"},
    {"'", "''\\'''"},
    {"~", "'~'"},
    {"a b", "'a b'"},
    {"a\nb", "'a\nb'"},
    {"\\", "'\\'"},
    {"é", "'é'"},
};

START_TEST(test_cases)
{
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char buf[64] = "";
		ck_assert_int_eq(cb_sh_append(buf, sizeof(buf), cases[i].word), 0);
		ck_assert_str_eq(buf, cases[i].want);
	}
	char cmd[128];
	ck_assert_str_eq(CB_SH_CMD(cmd, "ceph", "osd", "pool", "create", "x;touch y"),
			 "ceph osd pool create 'x;touch y'");
}
END_TEST

/* Run `shell -c cmd` in dir; its stdout into out (NUL-terminated, *len
 * bytes). Returns the exit status. */
static int run_shell(const char *shell, const char *dir, const char *cmd, char *out, size_t n,
		     size_t *len)
{
	int p[2];
	ck_assert_int_eq(pipe(p), 0);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		dup2(p[1], STDOUT_FILENO);
		close(p[0]);
		close(p[1]);
		if (chdir(dir) == 0)
			execl(shell, shell, "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	size_t at = 0;
	ssize_t r;
	while ((r = read(p[0], out + at, n - 1 - at)) > 0)
		at += (size_t)r;
	close(p[0]);
	out[at] = '\0';
	*len = at;
	int st;
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

START_TEST(test_too_long)
{
	char buf[16] = "cephbench";
	ck_assert_int_eq(cb_sh_append(buf, sizeof(buf), "clean"), 0); /* 15 of 16 */
	ck_assert_int_eq(cb_sh_append(buf, sizeof(buf), "x"), -ENOSPC);
	ck_assert_str_eq(buf, "cephbench clean"); /* unchanged */
	char small[12] = "";
	ck_assert_int_eq(cb_sh_append(small, sizeof(small), "it's one"), -ENOSPC);
	ck_assert_str_eq(small, "");
	/* never a command cut short: "cephbench cleanup --pool p" would run */
	char cmd[40];
	ck_assert_str_eq(CB_SH_CMD(cmd, "cephbench", "cleanup", "--pool", "p", "--conf",
				   "/a/path/too/long/for/this/buffer"),
			 CB_SH_TOO_LONG);
	char out[64];
	size_t len;
	ck_assert_int_eq(run_shell("/bin/sh", "/", CB_SH_TOO_LONG, out, sizeof(out), &len), 0);
	ck_assert_uint_eq(len, 0); /* pasted, it runs nothing */
}
END_TEST

/* Words from this alphabet, and whole hostile ones: each must come back as
 * it was, and none may run anything (create PWNED). */
static const char *const alphabet[] = {
    "$", "(", ")", ";", "&", "|", "<", ">", "`",  "'",	"\"",	 "\\", "*", "?",
    "[", "]", "{", "}", "~", "#", "!", " ", "\n", "\t", "=",	 "%",  "-", "/",
    ".", ",", ":", "@", "a", "Z", "0", "é", "$(", "${", "'\\''", "\\'"};
static const char *const hostile[] = {"$(touch PWNED)",
				      "`touch PWNED`",
				      ";touch PWNED",
				      "|touch PWNED",
				      "&touch PWNED",
				      "&&touch PWNED",
				      "\ntouch PWNED",
				      "'$(touch PWNED)'",
				      "\"$(touch PWNED)\"",
				      "';touch PWNED;'",
				      "x'\"'\"';touch PWNED;#",
				      ">PWNED",
				      "$(>PWNED)",
				      "*",
				      "~",
				      "$HOME",
				      "{a,b}",
				      "!!",
				      "#",
				      "",
				      "-n",
				      "--",
				      "=true"};

static void random_word(char *w, size_t n, unsigned *seed)
{
	if (rand_r(seed) % 4 == 0) {
		snprintf(w, n, "%s", hostile[(size_t)rand_r(seed) % ARRAY_SIZE(hostile)]);
		return;
	}
	size_t k = (size_t)rand_r(seed) % 9;
	w[0] = '\0';
	for (size_t i = 0; i < k; i++)
		strncat(w, alphabet[(size_t)rand_r(seed) % ARRAY_SIZE(alphabet)],
			n - strlen(w) - 1);
}

START_TEST(test_shells_give_words_back)
{
	const char *shells[] = {"/bin/sh", "/bin/bash"};
	unsigned seed =
	    getenv("CB_TEST_SEED") ? (unsigned)atoi(getenv("CB_TEST_SEED")) : (unsigned)time(NULL);
	char dir[] = "/tmp/cephbench-shquote.XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	/* files a glob would expand to, were one left unquoted */
	char path[64];
	snprintf(path, sizeof(path), "%s/a", dir);
	close(open(path, O_CREAT | O_WRONLY, 0600));
	char pwned[64];
	snprintf(pwned, sizeof(pwned), "%s/PWNED", dir);
	for (int iter = 0; iter < 300; iter++) {
		char words[6][64];
		const char *argv[10] = {"printf", "%s\\0"};
		size_t nw = 1 + (size_t)rand_r(&seed) % 6;
		for (size_t i = 0; i < nw; i++) {
			random_word(words[i], sizeof(words[i]), &seed);
			argv[2 + i] = words[i];
		}
		argv[2 + nw] = NULL;
		char cmd[CB_SH_CMD_MAX];
		cb_sh_join(cmd, sizeof(cmd), argv);
		for (size_t s = 0; s < ARRAY_SIZE(shells); s++) {
			if (access(shells[s], X_OK) != 0)
				continue;
			char out[4096];
			size_t len;
			int st = run_shell(shells[s], dir, cmd, out, sizeof(out), &len);
			ck_assert_msg(st == 0, "seed %u: %s exit %d on: %s", seed, shells[s], st,
				      cmd);
			/* printf '%s\0' WORDS: each word, then a NUL */
			size_t at = 0;
			for (size_t i = 0; i < nw; i++) {
				size_t wl = strlen(words[i]);
				ck_assert_msg(at + wl < len &&
						  memcmp(out + at, words[i], wl) == 0 &&
						  out[at + wl] == '\0',
					      "seed %u: %s did not give back word %zu '%s' of: %s",
					      seed, shells[s], i, words[i], cmd);
				at += wl + 1;
			}
			ck_assert_msg(at == len, "seed %u: %s gave extra output for: %s", seed,
				      shells[s], cmd);
			ck_assert_msg(access(pwned, F_OK) != 0, "seed %u: %s ran something of: %s",
				      seed, shells[s], cmd);
		}
	}
	unlink(path);
	ck_assert_int_eq(rmdir(dir), 0); /* nothing else was created in it */
}
END_TEST

static Suite *shquote_suite(void)
{
	Suite *s = suite_create("shquote");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_cases);
	tcase_add_test(tc, test_too_long);
	tcase_add_test(tc, test_shells_give_words_back);
	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(shquote_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
