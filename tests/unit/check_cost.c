/* What a run may allocate (cost.h, issue 41 item 3): the estimate made of
 * the runner's structures, linear in clients and concurrency; the loader
 * refusing, with one line, a workload past the op-slot bound (the issue's
 * 1,024 x 4,096 was OOM-killed at 11.2 GB), a group's members past it
 * together, past the thread bound, and past the host's memory; and each
 * bound's edge, at which a profile still loads. */
#include "cost.h"
#include "engine.h"
#include "phase.h"
#include "unit_profile.h"
#include "unit_run.h"

#include <check.h>
#include <stdio.h>
#include <string.h>

static struct cb_workload wl(uint64_t clients, uint64_t concurrency, uint64_t bs)
{
	return (struct cb_workload){.name = "w",
				    .clients = clients,
				    .concurrency = concurrency,
				    .block_size = bs,
				    .duration_ns = 10000000000ULL};
}

/* The reproduction: refused at load, naming the product and the bound. */
START_TEST(issue_1024x4096)
{
	unit_load_fails("name: p\nworkloads:\n"
			"  - {name: a, layer: noop, op: read, clients: 1024, concurrency: 4096}\n",
			"workload 'a': clients 1024 x concurrency 4096 x block_size 4K: 4194304 op "
			"slots in flight, past the bound of 524288: lower clients or concurrency");
}
END_TEST

/* The slot bound's edge: at it, within; one client more, past. */
START_TEST(slots_edge)
{
	char why[512];
	struct cb_workload w = wl(512, 1024, 4096);
	struct cb_cost c;
	cb_cost_of(&w, &c);
	ck_assert_uint_eq(c.slots, CB_COST_MAX_SLOTS);
	ck_assert_int_eq(cb_cost_check(&c, "w", 0, why, sizeof(why)), 0);
	w.clients = 513;
	cb_cost_of(&w, &c);
	ck_assert_int_eq(cb_cost_check(&c, "w", 0, why, sizeof(why)), -EINVAL);
	ck_assert_msg(strstr(why, "w: 525312 op slots in flight, past the bound of 524288"), "%s",
		      why);
}
END_TEST

/* The estimate is the runner's: a slot is its buffer in pages and more,
 * the total linear in concurrency and in clients. */
START_TEST(estimate_linear)
{
	struct cb_workload w = wl(8, 16, 4096);
	struct cb_cost a, b, d;
	cb_cost_of(&w, &a);
	ck_assert_uint_eq(a.slot_bytes, cb_runner_slot_bytes(4096));
	ck_assert_uint_gt(a.slot_bytes, 4096);
	ck_assert_uint_lt(a.slot_bytes, 2 * 4096);
	ck_assert_uint_ge(cb_runner_slot_bytes(1), 4096); /* a page at least */
	ck_assert_uint_gt(cb_runner_slot_bytes(1 << 20), 1 << 20);
	ck_assert_uint_eq(a.threads, 8);
	w.concurrency = 32;
	cb_cost_of(&w, &b);
	ck_assert_uint_eq(b.bytes - a.bytes, 8 * 16 * a.slot_bytes);
	w.clients = 16;
	cb_cost_of(&w, &d);
	ck_assert_uint_eq(d.bytes, 2 * b.bytes);
	/* a client's histograms are in it: more than three of them */
	ck_assert_uint_gt(a.client_bytes, 3 * 278000);
	/* the largest values the keys accept do not wrap */
	w = wl(1024, 4096, 1ULL << 30);
	cb_cost_of(&w, &a);
	ck_assert_uint_gt(a.bytes, 4ULL << 50);
}
END_TEST

/* The memory bound: half the host's MemAvailable, given here. */
START_TEST(memory_edge)
{
	char why[512];
	struct cb_workload w = wl(4, 16, 65536);
	struct cb_cost c;
	cb_cost_of(&w, &c);
	ck_assert_int_eq(cb_cost_check(&c, "w", 2 * c.bytes, why, sizeof(why)), 0);
	ck_assert_int_eq(cb_cost_check(&c, "w", 2 * c.bytes - 2, why, sizeof(why)), -EINVAL);
	ck_assert_msg(strstr(why, "w: needs about ") &&
			  strstr(why, "of memory, past the bound of ") &&
			  strstr(why, "(1/2 of this host's MemAvailable, ") &&
			  strstr(why, "lower clients, concurrency or block_size"),
		      "%s", why);
	/* MemAvailable unknown: only the stated bounds */
	ck_assert_int_eq(cb_cost_check(&c, "w", 0, why, sizeof(why)), 0);
	ck_assert_uint_gt(cb_cost_mem_available(), 0);
}
END_TEST

/* Past this host's memory at load, however large the host: 4 TiB of slots. */
START_TEST(memory_host)
{
	unit_load_fails("name: p\nworkloads:\n"
			"  - {name: a, layer: noop, op: write, clients: 64, concurrency: 64,\n"
			"     block_size: 1G}\n",
			"workload 'a': clients 64 x concurrency 64 x block_size 1G: needs about "
			"4.0 TiB of memory, past the bound of ");
}
END_TEST

/* A group's members run together: their slots add up; the same two
 * workloads in two groups (one after the other) load, each taking about
 * 1.3 GiB (a host with less than 2.6 GiB available refuses them). */
START_TEST(group_slots)
{
	const char *two = "name: p\nworkloads:\n"
			  "  - {name: a, layer: noop, op: read, clients: 263, concurrency: 1000,\n"
			  "     together: %s}\n"
			  "  - {name: b, layer: noop, op: read, clients: 263, concurrency: 1000,\n"
			  "     together: %s}\n";
	char yaml[512];
	snprintf(yaml, sizeof(yaml), two, "g", "g");
	unit_load_fails(yaml, "workload 'b' with 1 other member of group 'g' (run "
			      "together): 526000 op slots in flight, past the bound of 524288");
	snprintf(yaml, sizeof(yaml), two, "g1", "g2");
	char path[128];
	unit_write_profile(yaml, path, sizeof(path));
	struct cb_profile *p = NULL;
	struct cb_err e = {0};
	ck_assert_msg(cb_profile_load(path, NULL, 0, &p, &e) == 0, "%s", e.msg);
	cb_profile_free(p);
}
END_TEST

/* The thread bound, on the sums a group's members make: at it, within;
 * one member more, past. (Not through a profile: 4097 clients take about
 * 3.5 GiB, which the memory bound refuses first on a host with less than
 * 7 GiB available.) */
START_TEST(group_threads)
{
	char why[512];
	struct cb_workload w = wl(1024, 1, 4096);
	struct cb_cost c, sum = {0};
	cb_cost_of(&w, &c);
	for (int i = 0; i < 4; i++)
		cb_cost_add(&sum, &c);
	ck_assert_uint_eq(sum.threads, CB_COST_MAX_THREADS);
	ck_assert_uint_eq(sum.bytes, 4 * c.bytes);
	ck_assert_int_eq(cb_cost_check(&sum, "g", 0, why, sizeof(why)), 0);
	cb_cost_add(&sum, &c);
	ck_assert_int_eq(cb_cost_check(&sum, "g", 0, why, sizeof(why)), -EINVAL);
	ck_assert_str_eq(why,
			 "g: 5120 client threads at once, past the bound of 4096: lower clients");
}
END_TEST

int main(void)
{
	if (unit_profile_open("check_cost") < 0)
		return 1;
	Suite *s = suite_create("cost");
	TCase *tc = tcase_create("cost");
	tcase_add_test(tc, issue_1024x4096);
	tcase_add_test(tc, slots_edge);
	tcase_add_test(tc, estimate_linear);
	tcase_add_test(tc, memory_edge);
	tcase_add_test(tc, memory_host);
	tcase_add_test(tc, group_slots);
	tcase_add_test(tc, group_threads);
	suite_add_tcase(s, tc);
	int rc = unit_run(s);
	unit_profile_close(NULL);
	return rc;
}
