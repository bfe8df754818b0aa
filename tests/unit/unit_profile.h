/* Running a profile the way the binary does, for the runner's unit tests:
 * the stop signals blocked in every thread and read from a signalfd
 * (cb_cli_run), the profile written to a scratch directory, loaded with
 * cb_profile_load and run with cb_run_profile, its JSON record read back.
 * One scratch directory per test program (unit_dir), made by
 * unit_profile_open and removed by unit_profile_close. */
#ifndef CB_UNIT_PROFILE_H
#define CB_UNIT_PROFILE_H

#include "cli.h"
#include "profile.h"
#include "run.h"

#include <check.h>
#include <jansson.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/signalfd.h>
#include <unistd.h>

static char unit_dir[64];
static int unit_sigfd = -1;

/* 0, or -1 when the signalfd or the directory cannot be made. */
static inline int unit_profile_open(const char *name)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	unit_sigfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	snprintf(unit_dir, sizeof(unit_dir), "/tmp/%s.XXXXXX", name);
	return unit_sigfd >= 0 && mkdtemp(unit_dir) ? 0 : -1;
}

/* unit_dir/name into path. */
static inline const char *unit_path(char *path, size_t n, const char *name)
{
	snprintf(path, n, "%s/%s", unit_dir, name);
	return path;
}

/* The profile text yaml as unit_dir/p.yaml; its path in path. */
static inline void unit_write_profile(const char *yaml, char *path, size_t n)
{
	FILE *f = fopen(unit_path(path, n, "p.yaml"), "w");
	ck_assert_ptr_nonnull(f);
	fputs(yaml, f);
	fclose(f);
}

/* The profile text yaml is refused at load, as bad input (exit 2), with
 * a message holding needle. */
static inline void unit_load_fails(const char *yaml, const char *needle)
{
	char path[128];
	unit_write_profile(yaml, path, sizeof(path));
	struct cb_profile *p = NULL;
	struct cb_err e = {0};
	ck_assert_int_eq(cb_profile_load(path, NULL, 0, &p, &e), -EINVAL);
	ck_assert_msg(strstr(e.msg, needle), "'%s' not in: %s", needle, e.msg);
	ck_assert_int_eq(e.exit, CB_EXIT_USAGE);
}

/* Run the profile text yaml, quiet (only the verdict lines on stdout);
 * the record's JSON in *out (NULL when the run wrote none). Returns the
 * run's exit code. */
static inline int unit_run_yaml(const char *yaml, json_t **out)
{
	char path[128], jpath[128];
	unit_path(jpath, sizeof(jpath), "r.json");
	unlink(jpath);
	unit_write_profile(yaml, path, sizeof(path));
	struct cb_profile *p = NULL;
	struct cb_err e = {0};
	ck_assert_msg(cb_profile_load(path, NULL, 0, &p, &e) == 0, "%s", e.msg);
	struct cb_run_opts o = {
	    .format = CB_FORMAT_TEXT, .json_path = jpath, .quiet = true, .sigfd = unit_sigfd};
	cb_profile_seed(p, NULL); /* as cb_cli_run does */
	int rc = cb_run_profile(p, &o, &e);
	cb_profile_free(p);
	json_error_t je;
	*out = json_load_file(jpath, 0, &je);
	return rc;
}

static inline void *unit_interrupter(void *arg)
{
	(void)arg;
	usleep(1000000);
	kill(getpid(), SIGINT);
	return NULL;
}

/* unit_run_yaml with SIGINT sent from another thread a second in: blocked
 * in every thread, it waits on the run's signalfd as in the binary. Give
 * the profile phases far longer than that (a runner that missed the signal
 * ends them with exit 0 instead of hanging the test). */
static inline int unit_run_yaml_interrupted(const char *yaml, json_t **out)
{
	pthread_t t;
	ck_assert_int_eq(pthread_create(&t, NULL, unit_interrupter, NULL), 0);
	int rc = unit_run_yaml(yaml, out);
	pthread_join(t, NULL);
	return rc;
}

/* Row i of record rec. */
static inline json_t *unit_phase(json_t *rec, size_t i)
{
	json_t *ph = json_array_get(json_object_get(rec, "phases"), i);
	ck_assert_ptr_nonnull(ph);
	return ph;
}

/* The integer o[key], which must be there. */
static inline json_int_t unit_num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	ck_assert_msg(json_is_integer(v), "no integer %s", key);
	return json_integer_value(v);
}

/* The number o[key] (integer or real), which must be there. */
static inline double unit_real(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	ck_assert_msg(json_is_number(v), "no number %s", key);
	return json_number_value(v);
}

/* The string o[key], which must be there. */
static inline const char *unit_str(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	ck_assert_msg(json_is_string(v), "no string %s", key);
	return json_string_value(v);
}

/* Remove the scratch files (p.yaml, r.json and those named in more,
 * NULL-terminated, or NULL), the directory, the signalfd. */
static inline void unit_profile_close(const char *const *more)
{
	char f[128];
	unlink(unit_path(f, sizeof(f), "p.yaml"));
	unlink(unit_path(f, sizeof(f), "r.json"));
	for (size_t i = 0; more && more[i]; i++)
		unlink(unit_path(f, sizeof(f), more[i]));
	rmdir(unit_dir);
	close(unit_sigfd);
}

#endif
