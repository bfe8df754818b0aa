/* What a capacity search found (search.h), kept with its row
 * (cb_phase_result.search): the result's data, so that the result frees
 * it without depending on the search that fills it. */
#ifndef CB_SEARCH_RESULT_H
#define CB_SEARCH_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One step of the search: a phase at one rate. */
struct cb_search_step {
	uint64_t rate;
	double achieved; /* ops/s */
	double value_ns; /* the target's percentile */
	bool saturated, pass;
};

struct cb_search_result {
	int target; /* search.c's enum target */
	uint64_t target_ns;
	double error; /* the bracket asked for, a fraction */
	struct cb_search_step *steps;
	size_t nsteps;
	/* the highest rate that passed and the lowest above it that failed
	 * (0: none) */
	uint64_t lo, hi;
	bool interrupted;
};

/* Frees s and its steps; s may be NULL (result.c). */
void cb_search_result_free(struct cb_search_result *s);

#endif
