/* Target distributions (see dist.h). */
#include "dist.h"

#include "units.h"
#include "rng.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[] = {"uniform", "zipf", "pareto", "normal", NULL};

int cb_dist_parse(const char *s, struct cb_dist_spec *d, char *why, size_t n)
{
	const char *colon;
	int k = cb_parse_named(s, names, &colon);
	if (k < 0) {
		snprintf(why, n, "expected uniform, zipf:THETA, pareto:H or normal:PCT");
		return -EINVAL;
	}
	if (k == CB_DIST_UNIFORM) {
		if (colon) {
			snprintf(why, n, "uniform takes no parameter");
			return -EINVAL;
		}
		*d = (struct cb_dist_spec){.kind = k};
		return 0;
	}
	char *end = NULL;
	double v = colon && colon[0] ? strtod(colon, &end) : NAN;
	if (!end || *end || !isfinite(v)) {
		snprintf(why, n, "%s needs a number after ':' (%s)", names[k],
			 k == CB_DIST_ZIPF     ? "zipf:1.2"
			 : k == CB_DIST_PARETO ? "pareto:0.9"
					       : "normal:10");
		return -EINVAL;
	}
	if (k == CB_DIST_ZIPF && !(v > 0 && v <= 100)) {
		snprintf(why, n, "zipf's theta must be above 0 (and at most 100)");
		return -EINVAL;
	}
	if (k == CB_DIST_PARETO && !(v > 0 && v < 1)) {
		snprintf(why, n, "pareto's h must be between 0 and 1 (0.9: 90%% of ops on 10%%)");
		return -EINVAL;
	}
	if (k == CB_DIST_NORMAL && !(v > 0 && v <= 100)) {
		snprintf(why, n,
			 "normal's deviation is a percent of the range, above 0 and at most 100");
		return -EINVAL;
	}
	*d = (struct cb_dist_spec){.kind = k, .param = v};
	return 0;
}

void cb_dist_format(const struct cb_dist_spec *d, char *buf, size_t n)
{
	if (d->kind == CB_DIST_UNIFORM)
		snprintf(buf, n, "uniform");
	else
		snprintf(buf, n, "%s:%g", names[d->kind], d->param);
}

/* A uniform double in [0, 1). */
static double unit(uint64_t *rng)
{
	return (double)(cb_rng_next(rng) >> 11) * 0x1.0p-53;
}

/* mix is a bijection of [0, mask]: multiplying by an odd number, adding
 * and folding the high bits down are each invertible modulo 2^bits. */
static uint64_t mix(const struct cb_dist_perm *p, uint64_t x)
{
	x = (x * p->mul + p->add) & p->mask;
	x ^= x >> p->shift;
	x = (x * p->mul + p->add) & p->mask;
	return x ^ (x >> p->shift);
}

static void perm_init(struct cb_dist_perm *p, uint64_t n, uint64_t seed)
{
	unsigned bits = 1;
	while (bits < 64 && (1ULL << bits) < n)
		bits++;
	p->n = n;
	p->mask = bits == 64 ? UINT64_MAX : (1ULL << bits) - 1;
	p->shift = bits / 2 + 1;
	p->mul = cb_splitmix64(seed ^ 0x6a09e667f3bcc909ULL) | 1;
	p->add = cb_splitmix64(seed ^ 0xbb67ae8584caa73bULL);
}

/* Cycle-walking keeps mix a bijection of [0, n): from x < n, apply it until
 * the value falls below n again (fewer than two steps on average). */
static uint64_t perm_at(const struct cb_dist_perm *p, uint64_t x)
{
	do
		x = mix(p, x);
	while (x >= p->n);
	return x;
}

static double helper1(double x) /* log1p(x) / x */
{
	return fabs(x) > 1e-8 ? log1p(x) / x : 1 - x * (0.5 - x * (1.0 / 3 - 0.25 * x));
}

static double helper2(double x) /* expm1(x) / x */
{
	return fabs(x) > 1e-8 ? expm1(x) / x : 1 + x * 0.5 * (1 + x / 3 * (1 + 0.25 * x));
}

/* h(x) = x^-theta, its integral H and H's inverse */
static double zh(double s, double x)
{
	return exp(-s * log(x));
}

static double zH(double s, double x)
{
	double lx = log(x);
	return helper2((1 - s) * lx) * lx;
}

static double zHinv(double s, double x)
{
	double t = x * (1 - s);
	if (t < -1)
		t = -1; /* rounding at the lower end */
	return exp(helper1(t) * x);
}

void cb_dist_init(struct cb_dist *d, const struct cb_dist_spec *spec, uint64_t n, bool coverage,
		  uint64_t seed, uint64_t *rng)
{
	*d = (struct cb_dist){.spec = *spec, .coverage = coverage};
	perm_init(&d->perm, n ? n : 1, seed);
	d->pos = cb_rng_next(rng) & d->perm.mask;
	double th = spec->param;
	if (spec->kind == CB_DIST_ZIPF) {
		d->h_x1 = zH(th, 1.5) - 1;
		d->h_n = zH(th, (double)d->perm.n + 0.5);
		d->s = 2 - zHinv(th, zH(th, 2.5) - zh(th, 2));
	} else if (spec->kind == CB_DIST_PARETO) {
		d->pareto_pow = log(th) / log(1 - th);
	}
}

/* Rank 1..n, the k-th with probability k^-theta / H(n, theta). */
static uint64_t zipf_rank(const struct cb_dist *d, uint64_t *rng)
{
	double th = d->spec.param;
	for (;;) {
		double u = d->h_n + unit(rng) * (d->h_x1 - d->h_n);
		double x = zHinv(th, u);
		double kf = floor(x + 0.5);
		uint64_t k = kf < 1 ? 1 : kf > (double)d->perm.n ? d->perm.n : (uint64_t)kf;
		if ((double)k - x <= d->s || u >= zH(th, (double)k + 0.5) - zh(th, (double)k))
			return k;
	}
}

uint64_t cb_dist_next(struct cb_dist *d, uint64_t *rng)
{
	uint64_t n = d->perm.n;
	if (d->coverage) {
		uint64_t x;
		do {
			x = mix(&d->perm, d->pos);
			d->pos = (d->pos + 1) & d->perm.mask;
		} while (x >= n);
		return x;
	}
	switch (d->spec.kind) {
	case CB_DIST_ZIPF:
		return perm_at(&d->perm, zipf_rank(d, rng) - 1);
	case CB_DIST_PARETO: {
		/* h of the draws below (1 - h) of the range, then spread */
		double u = 1 - unit(rng); /* (0, 1] */
		double r = floor((double)n * (1 - pow(u, d->pareto_pow)));
		return perm_at(&d->perm, r >= (double)n ? n - 1 : r < 0 ? 0 : (uint64_t)r);
	}
	case CB_DIST_NORMAL:
		/* around the middle, a band of locality: not spread */
		for (;;) {
			double u1 = 1 - unit(rng), u2 = unit(rng);
			double z = sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
			double x = floor((double)n / 2 + z * d->spec.param / 100 * (double)n);
			if (x >= 0 && x < (double)n)
				return (uint64_t)x;
		}
	default:
		return cb_rng_next(rng) % n;
	}
}

double cb_dist_zipf_share(double theta, uint64_t k, uint64_t n)
{
	double top = 0, all = 0;
	for (uint64_t i = 1; i <= n; i++) {
		double w = pow((double)i, -theta);
		all += w;
		if (i <= k)
			top += w;
	}
	return all > 0 ? top / all : 0;
}
