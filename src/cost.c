/* The run's cost (cost.h): the runner says what a slot and a client take
 * (phase.c), this file multiplies it out and holds it against the bounds. */
#include "cost.h"
#include "engine.h"
#include "phase.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* a * b, saturating: a profile's product must not wrap below a bound */
static uint64_t mul(uint64_t a, uint64_t b)
{
	return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

static uint64_t add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

void cb_cost_of(const struct cb_workload *wl, struct cb_cost *c)
{
	uint64_t clients = wl->clients ? wl->clients : 1;
	uint64_t depth = wl->concurrency ? wl->concurrency : 1;
	*c = (struct cb_cost){.clients = clients, .slots = mul(clients, depth), .threads = clients};
	c->slot_bytes = cb_runner_slot_bytes(wl->block_size);
	c->client_bytes = cb_runner_client_bytes(wl);
	c->bytes = mul(clients, add(c->client_bytes, mul(depth, c->slot_bytes)));
}

void cb_cost_add(struct cb_cost *sum, const struct cb_cost *c)
{
	sum->clients = add(sum->clients, c->clients);
	sum->slots = add(sum->slots, c->slots);
	sum->bytes = add(sum->bytes, c->bytes);
	sum->threads = add(sum->threads, c->threads);
}

uint64_t cb_cost_mem_available(void)
{
	FILE *f = fopen("/proc/meminfo", "re");
	char line[128];
	uint64_t kb = 0;
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %" SCNu64 " kB", &kb) == 1)
			break;
	fclose(f);
	return mul(kb, 1024);
}

const char *cb_cost_format(uint64_t bytes, char *buf, size_t n)
{
	static const char *const unit[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
	double v = (double)bytes;
	int u = 0;
	while (v >= 1024 && u < 6) {
		v /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, n, "%" PRIu64 " bytes", bytes);
	else
		snprintf(buf, n, v < 10 ? "%.1f %s" : "%.0f %s", v, unit[u]);
	return buf;
}

int cb_cost_check(const struct cb_cost *c, const char *what, uint64_t mem_available, char *why,
		  size_t n)
{
	char a[32], b[32], m[32];
	if (c->slots > CB_COST_MAX_SLOTS) {
		snprintf(why, n,
			 "%s: %" PRIu64 " op slots in flight, past the bound of %u: lower "
			 "clients or concurrency",
			 what, c->slots, CB_COST_MAX_SLOTS);
		return -EINVAL;
	}
	if (c->threads > CB_COST_MAX_THREADS) {
		snprintf(why, n,
			 "%s: %" PRIu64 " client threads at once, past the bound of %u: lower "
			 "clients",
			 what, c->threads, CB_COST_MAX_THREADS);
		return -EINVAL;
	}
	uint64_t bound = mem_available / CB_COST_MEM_SHARE;
	if (mem_available && c->bytes > bound) {
		snprintf(why, n,
			 "%s: needs about %s of memory, past the bound of %s (1/%d of this "
			 "host's MemAvailable, %s): lower clients, concurrency or block_size",
			 what, cb_cost_format(c->bytes, a, sizeof(a)),
			 cb_cost_format(bound, b, sizeof(b)), CB_COST_MEM_SHARE,
			 cb_cost_format(mem_available, m, sizeof(m)));
		return -EINVAL;
	}
	return 0;
}
