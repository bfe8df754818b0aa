/* Which target a random op picks (fio's random_distribution and random
 * map): uniform, zipf:THETA, pareto:H or normal:PCT over n targets (blocks,
 * objects, files' blocks), and coverage, every target once per pass. The
 * layers call it where they drew uniformly; the draws come from the
 * client's generator, the hot set from the workload's seed alone, so every
 * client of a workload shares one hot set, as the users of one data set do. */
#ifndef CB_DIST_H
#define CB_DIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum cb_dist_kind { CB_DIST_UNIFORM, CB_DIST_ZIPF, CB_DIST_PARETO, CB_DIST_NORMAL };

/* A profile's `distribution:` value (the option type CB_OPT_DIST). */
struct cb_dist_spec {
	int kind;     /* enum cb_dist_kind */
	double param; /* zipf: theta > 0; pareto: 0 < h < 1; normal: stddev, % of the range */
};

/* Parse "uniform", "zipf:1.2", "pareto:0.9", "normal:10" into d. 0, or
 * -EINVAL with the reason in why (the value is the caller's to name). */
int cb_dist_parse(const char *s, struct cb_dist_spec *d, char *why, size_t n);

/* The spec as written back ("zipf:1.2"). */
void cb_dist_format(const struct cb_dist_spec *d, char *buf, size_t n);

/* A bijection of [0, n) drawn from a seed: where rank r's target lies. */
struct cb_dist_perm {
	uint64_t n, mask, mul, add;
	unsigned shift;
};

struct cb_dist {
	struct cb_dist_spec spec;
	bool coverage;
	struct cb_dist_perm perm; /* perm.n: the targets */
	uint64_t pos;		  /* coverage: the walk's place in [0, mask] */
	/* zipf by rejection-inversion (Hörmann and Derflinger): exact for
	 * any theta, O(1) a draw, nothing tabulated */
	double h_x1, h_n, s;
	double pareto_pow;
};

/* d over n targets (n >= 1). seed: the workload's (the hot set's place and
 * the coverage walk); rng: the client's, for coverage's starting point. */
void cb_dist_init(struct cb_dist *d, const struct cb_dist_spec *spec, uint64_t n, bool coverage,
		  uint64_t seed, uint64_t *rng);

/* The next target, in [0, n); draws from rng. */
uint64_t cb_dist_next(struct cb_dist *d, uint64_t *rng);

/* The share of draws the k hottest of n targets take under zipf with
 * theta: sum of i^-theta over 1..k, over 1..n (the tests' yardstick). */
double cb_dist_zipf_share(double theta, uint64_t k, uint64_t n);

#endif
