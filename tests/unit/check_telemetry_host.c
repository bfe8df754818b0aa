/* Telemetry's client and host parts (tm_client.c, tm_host.c) through the
 * noop layer, with no cluster: a profile loaded with cb_profile_load, run
 * with cb_run_profile, its JSON record and text report read back. The
 * client's CPU is checked against the process's own getrusage around the
 * run; a CPU hog (other processes spinning on every core) must show in
 * the host's CPU and make the row client-bound. */
#include "cli.h"
#include "profile.h"
#include "run.h"
#include "unit_run.h"

#include <check.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[64];
static int sigfd = -1;

static double tv_s(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

/* Run the profile text yaml; its record in *out, the text report (stdout)
 * in text (n bytes, may be NULL), the process's CPU over cb_run_profile
 * in *cpu_s (may be NULL). Returns the run's exit code. */
static int run_yaml(const char *yaml, json_t **out, char *text, size_t n, double *cpu_s)
{
	char path[128], jpath[128], tpath[128];
	snprintf(path, sizeof(path), "%s/p.yaml", dir);
	snprintf(jpath, sizeof(jpath), "%s/r.json", dir);
	snprintf(tpath, sizeof(tpath), "%s/out.txt", dir);
	unlink(jpath);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(yaml, f);
	fclose(f);
	struct cb_profile *p = NULL;
	struct cb_err e = {0};
	ck_assert_msg(cb_profile_load(path, NULL, 0, &p, &e) == 0, "%s", e.msg);
	struct cb_run_opts o = {
	    .format = CB_FORMAT_TEXT, .json_path = jpath, .quiet = text == NULL, .sigfd = sigfd};
	/* the text report goes to stdout: into a file for the test to read */
	fflush(stdout);
	int saved = dup(1), tfd = open(tpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ck_assert_int_ge(tfd, 0);
	dup2(tfd, 1);
	close(tfd);
	struct rusage r0, r1;
	getrusage(RUSAGE_SELF, &r0);
	int rc = cb_run_profile(p, &o, &e);
	getrusage(RUSAGE_SELF, &r1);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	if (cpu_s)
		*cpu_s = tv_s(&r1.ru_utime) - tv_s(&r0.ru_utime) + tv_s(&r1.ru_stime) -
			 tv_s(&r0.ru_stime);
	cb_profile_free(p);
	if (text) {
		FILE *t = fopen(tpath, "r");
		ck_assert_ptr_nonnull(t);
		size_t got = fread(text, 1, n - 1, t);
		text[got] = '\0';
		fclose(t);
	}
	unlink(tpath);
	json_error_t je;
	*out = json_load_file(jpath, 0, &je);
	ck_assert_ptr_nonnull(*out);
	return rc;
}

static json_t *phase(json_t *rec, size_t i)
{
	json_t *ph = json_array_get(json_object_get(rec, "phases"), i);
	ck_assert_ptr_nonnull(ph);
	return ph;
}

static json_t *section(json_t *ph, const char *name)
{
	return json_object_get(json_object_get(ph, "telemetry"), name);
}

static double real(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	ck_assert_msg(json_is_number(v), "no number %s", key);
	return json_number_value(v);
}

/* A phase that does nothing but spend the client's CPU (ops complete in
 * submit): its CPU is nearly all of the run's. */
START_TEST(client_cpu_is_the_process_cpu)
{
	json_t *r;
	double cpu;
	ck_assert_int_eq(run_yaml("name: u\n"
				  "workloads:\n"
				  "  - {name: a, layer: noop, op: write, duration: 2s}\n",
				  &r, NULL, 0, &cpu),
			 CB_EXIT_OK);
	json_t *c = section(phase(r, 0), "client");
	ck_assert_ptr_nonnull(c);
	double phase_cpu = real(c, "cpu_user_s") + real(c, "cpu_sys_s");
	ck_assert_msg(fabs(phase_cpu - cpu) <= 0.10 * cpu,
		      "the phase's client CPU %.3f s, the process's over the run %.3f s", phase_cpu,
		      cpu);
	/* the threads' own clocks add up to the process's too */
	double threads = 0;
	size_t i;
	json_t *t;
	json_array_foreach(json_object_get(c, "threads"), i, t) threads += real(t, "cpu_s");
	ck_assert_msg(fabs(threads - phase_cpu) <= 0.10 * phase_cpu,
		      "threads %.3f s, process %.3f s", threads, phase_cpu);
	double per_op = real(c, "cpu_us_per_op");
	double ops = real(phase(r, 0), "ops");
	ck_assert(fabs(per_op * ops / 1e6 - phase_cpu) <= 1e-6 * phase_cpu + 1e-9);
	json_decref(r);
}
END_TEST

/* One host sample a second, aligned with the phase's own series. */
START_TEST(host_sample_per_second)
{
	json_t *r;
	ck_assert_int_eq(
	    run_yaml("name: u\n"
		     "workloads:\n"
		     "  - {name: a, layer: noop, op: write, duration: 3s, delay: 1ms,\n"
		     "     concurrency: 4}\n",
		     &r, NULL, 0, NULL),
	    CB_EXIT_OK);
	json_t *ph = phase(r, 0), *h = section(ph, "host");
	ck_assert_ptr_nonnull(h);
	size_t ns = json_array_size(json_object_get(h, "samples"));
	size_t nph = json_array_size(json_object_get(ph, "samples"));
	ck_assert_msg(ns + 1 >= nph && ns <= nph + 1, "%zu host samples, %zu phase seconds", ns,
		      nph);
	size_t i;
	json_t *s;
	json_array_foreach(json_object_get(h, "samples"), i, s)
	{
		ck_assert_int_eq(json_integer_value(json_object_get(s, "t")), (json_int_t)i);
		json_t *cpu = json_object_get(s, "cpu");
		double sum = real(cpu, "usr") + real(cpu, "sys") + real(cpu, "iowait") +
			     real(cpu, "steal") + real(cpu, "idle");
		ck_assert_msg(sum > 99 && sum <= 100.5, "cpu shares add up to %.1f", sum);
		ck_assert(real(s, "mem_available_bytes") > 0);
		ck_assert_ptr_nonnull(json_object_get(json_object_get(s, "net"), "lo"));
	}
	json_decref(r);
}
END_TEST

/* A process spinning on each core; how many into *n. */
static void hogs_start(pid_t *hogs, long *n)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	*n = ncpu < 1 ? 1 : ncpu > 64 ? 64 : ncpu;
	for (long i = 0; i < *n; i++) {
		hogs[i] = fork();
		ck_assert_int_ge(hogs[i], 0);
		/* an empty asm the compiler cannot drop (GCC 16 calls a volatile
		 * counter that is never read unused) */
		if (hogs[i] == 0)
			for (;;)
				__asm__ __volatile__("" ::: "memory");
	}
}

static void hogs_stop(const pid_t *hogs, long n)
{
	for (long i = 0; i < n; i++) {
		kill(hogs[i], SIGKILL);
		waitpid(hogs[i], NULL, 0);
	}
}

/* Processes spinning on every core beside a run whose own thread mostly
 * sleeps: the host has no CPU left, the row is client-bound for it, and a
 * failed expectation says so. */
START_TEST(cpu_hog_is_client_bound)
{
	pid_t hogs[64];
	long nhogs;
	hogs_start(hogs, &nhogs);
	json_t *r;
	static char text[1 << 16];
	int rc = run_yaml("name: u\n"
			  "workloads:\n"
			  "  - {name: a, layer: noop, op: write, duration: 2s, delay: 2ms,\n"
			  "     concurrency: 1, expect: {min_iops: 100000000}}\n",
			  &r, text, sizeof(text), NULL);
	hogs_stop(hogs, nhogs);
	ck_assert_int_eq(rc, CB_EXIT_FAILED);
	json_t *ph = phase(r, 0), *h = section(ph, "host"), *c = section(ph, "client");
	json_t *cpu = json_object_get(h, "cpu");
	double left = real(cpu, "idle") + real(cpu, "iowait");
	ck_assert_msg(left < 10, "host CPU idle %.1f %% beside %ld hogs", left, nhogs);
	ck_assert(json_is_true(json_object_get(c, "bound")));
	const char *why = json_string_value(json_object_get(c, "bound_reason"));
	ck_assert_ptr_nonnull(why);
	ck_assert_msg(strstr(why, "host CPU idle"), "bound for: %s", why);
	ck_assert_msg(strstr(text, "a: client-bound: host CPU idle"), "%s", text);
	ck_assert_msg(strstr(text, "FAIL (client-bound)"), "%s", text);
	json_decref(r);
}
END_TEST

/* host_stats: false: no host section; the client's is still there, and
 * tells a host with no CPU left from its own /proc/stat reads. */
START_TEST(host_stats_off)
{
	json_t *r;
	pid_t hogs[64];
	long nhogs;
	hogs_start(hogs, &nhogs);
	int rc = run_yaml("name: u\n"
			  "host_stats: false\n"
			  "workloads:\n"
			  "  - {name: a, layer: noop, op: write, duration: 1500ms, delay: 1ms}\n",
			  &r, NULL, 0, NULL);
	hogs_stop(hogs, nhogs);
	ck_assert_int_eq(rc, CB_EXIT_OK);
	ck_assert_ptr_null(section(phase(r, 0), "host"));
	json_t *c = section(phase(r, 0), "client");
	ck_assert_ptr_nonnull(c);
	ck_assert(json_is_true(json_object_get(c, "bound")));
	const char *why = json_string_value(json_object_get(c, "bound_reason"));
	ck_assert_msg(why && strstr(why, "host CPU idle"), "bound for: %s", why ? why : "nothing");
	json_decref(r);
}
END_TEST

/* A repeated workload: one row, its runs' CPU added, the host's samples
 * of the second run following the first's as the phase's do. */
START_TEST(repeat_merges)
{
	json_t *r;
	ck_assert_int_eq(
	    run_yaml("name: u\n"
		     "workloads:\n"
		     "  - {name: a, layer: noop, op: write, duration: 1500ms, delay: 1ms,\n"
		     "     repeat: 2}\n",
		     &r, NULL, 0, NULL),
	    CB_EXIT_OK);
	json_t *ph = phase(r, 0), *h = section(ph, "host");
	size_t i, nph = json_array_size(json_object_get(ph, "samples"));
	json_t *s;
	json_int_t prev = -1;
	json_array_foreach(json_object_get(h, "samples"), i, s)
	{
		json_int_t t = json_integer_value(json_object_get(s, "t"));
		ck_assert_int_gt(t, prev);
		ck_assert_int_lt(t, (json_int_t)nph + 1);
		prev = t;
	}
	ck_assert_uint_ge(json_array_size(json_object_get(h, "samples")), 2);
	ck_assert(real(h, "window_s") > 2.9);
	json_decref(r);
}
END_TEST

static void copy_file(const char *from, const char *to)
{
	FILE *a = fopen(from, "r"), *b = a ? fopen(to, "w") : NULL;
	char buf[8192];
	size_t n;
	while (b && (n = fread(buf, 1, sizeof(buf), a)) > 0)
		fwrite(buf, 1, n, b);
	if (b)
		fclose(b);
	if (a)
		fclose(a);
}

int main(int argc, char **argv)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	sigfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	snprintf(dir, sizeof(dir), "/tmp/check_telemetry_host.XXXXXX");
	if (sigfd < 0 || !mkdtemp(dir))
		return 1;
	Suite *s = suite_create("telemetry_host");
	TCase *tc = tcase_create("noop");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, client_cpu_is_the_process_cpu);
	tcase_add_test(tc, host_sample_per_second);
	tcase_add_test(tc, cpu_hog_is_client_bound);
	tcase_add_test(tc, host_stats_off);
	tcase_add_test(tc, repeat_merges);
	suite_add_tcase(s, tc);
	int rc = unit_run(s);
	/* the last record, kept for the schema check */
	char f[160];
	snprintf(f, sizeof(f), "%s/r.json", dir);
	if (argc > 1)
		copy_file(f, argv[1]);
	unlink(f);
	snprintf(f, sizeof(f), "%s/p.yaml", dir);
	unlink(f);
	rmdir(dir);
	return rc;
}
