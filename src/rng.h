/* The cheap generators the layers pick targets with: no global state, each
 * phase keeps its own seed. Not for anything that must be unpredictable. */
#ifndef CB_RNG_H
#define CB_RNG_H

#include <stdint.h>

/* xorshift64*: good enough to spread ops over objects, images and blocks. */
static inline uint64_t cb_rng_next(uint64_t *s)
{
	uint64_t x = *s;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1DULL;
}

/* splitmix64: a well-mixed value from any input, e.g. an offset. */
static inline uint64_t cb_splitmix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* A client's generator state from its workload's seed, its run-wide
 * client number (ph->client) and a salt telling apart the uses one client
 * makes: never 0, which xorshift would keep. */
static inline uint64_t cb_rng_client(uint64_t seed, unsigned client, uint64_t salt)
{
	uint64_t x = cb_splitmix64(seed ^ cb_splitmix64(((uint64_t)client << 32) ^ salt));
	return x ? x : 0x853c49e6748fea9bULL;
}

#endif
