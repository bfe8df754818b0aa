/* The slow OSD finder (tm_slow.h). */
#include "tm_slow.h"

#include <errno.h>
#include <stdlib.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double cb_slow_median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int counts_at(const struct cb_slow_in *x, uint64_t min_ops)
{
	return x->ops >= min_ops && x->mean_ms >= 0;
}

int cb_slow_counts(const struct cb_slow_in *x)
{
	return counts_at(x, CB_SLOW_MIN_OPS);
}

/* cb_slow_find with min_ops for an OSD to count. */
static int find_at(const struct cb_slow_in *in, size_t n, struct cb_slow *out, uint64_t min_ops)
{
	double *peers = malloc((n ? n : 1) * sizeof(*peers));
	int found = 0;
	if (!peers)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		if (!counts_at(&in[i], min_ops) || in[i].mean_ms <= CB_SLOW_FLOOR_MS)
			continue;
		/* its peers' median, not one that holds itself: with three
		 * OSDs a slow one would otherwise be half its own yardstick */
		size_t np = 0;
		for (size_t k = 0; k < n; k++)
			if (k != i && counts_at(&in[k], min_ops))
				peers[np++] = in[k].mean_ms;
		if (np == 0)
			continue;
		double med = cb_slow_median(peers, np);
		if (in[i].mean_ms <= CB_SLOW_RATIO * med)
			continue;
		out[found++] = (struct cb_slow){
		    .osd = in[i].osd,
		    .mean_ms = in[i].mean_ms,
		    .median_ms = med,
		    .ratio = med > 0 ? in[i].mean_ms / med : 0,
		    .peers = (unsigned)np,
		};
	}
	free(peers);
	return found;
}

int cb_slow_find(const struct cb_slow_in *in, size_t n, struct cb_slow *out)
{
	return find_at(in, n, out, CB_SLOW_MIN_OPS);
}

int cb_slow_tally(const struct cb_slow_in *in, size_t n, unsigned *judged, unsigned *slow)
{
	struct cb_slow *got = malloc((n ? n : 1) * sizeof(*got));
	size_t counted = 0;
	if (!got)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		counted += counts_at(&in[i], CB_SLOW_MIN_INTERVAL_OPS) != 0;
	int k = find_at(in, n, got, CB_SLOW_MIN_INTERVAL_OPS);
	for (size_t i = 0; i < n && counted > 1; i++)
		judged[i] += counts_at(&in[i], CB_SLOW_MIN_INTERVAL_OPS) != 0;
	/* in input order, as cb_slow_find gives them */
	for (size_t i = 0, j = 0; i < n && j < (size_t)(k > 0 ? k : 0); i++)
		if (got[j].osd == in[i].osd) {
			slow[i]++;
			j++;
		}
	free(got);
	return k < 0 ? k : 0;
}
