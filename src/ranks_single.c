/* Ranks without MPI (a build without WITH_MPI): one process. A launcher's
 * ranks would each run the whole profile on their own, measuring each
 * other, so such a start is refused. */
#include "ranks.h"

int cb_ranks_init(struct cb_ranks **out, struct cb_err *e)
{
	*out = NULL;
	if (cb_ranks_launched())
		return cb_err_usage(e, "started by an MPI launcher, but this cephbench was built "
				       "without MPI: rebuild with -DWITH_MPI=ON (libopenmpi-dev)");
	return 0;
}

void cb_ranks_finalize(struct cb_ranks *rk)
{
	(void)rk;
}

void cb_ranks_set_bound(struct cb_ranks *rk, uint64_t bound_ns)
{
	(void)rk;
	(void)bound_ns;
}

bool cb_ranks_lost(struct cb_ranks *rk)
{
	(void)rk;
	return false;
}

bool cb_ranks_root_lost(struct cb_ranks *rk)
{
	(void)rk;
	return false;
}

int cb_ranks_end(struct cb_ranks *rk, int rc)
{
	(void)rk;
	return rc;
}

unsigned cb_ranks_rank(const struct cb_ranks *rk)
{
	(void)rk;
	return 0;
}

unsigned cb_ranks_size(const struct cb_ranks *rk)
{
	(void)rk;
	return 1;
}

const char *cb_ranks_host(const struct cb_ranks *rk, unsigned rank)
{
	(void)rk;
	(void)rank;
	return "";
}

int cb_ranks_agree(struct cb_ranks *rk, int r, struct cb_err *e)
{
	(void)rk;
	(void)e;
	return r;
}

bool cb_ranks_any(struct cb_ranks *rk, bool mine)
{
	(void)rk;
	return mine;
}

void cb_ranks_line(struct cb_ranks *rk)
{
	(void)rk;
}

int cb_ranks_bcast(struct cb_ranks *rk, void *buf, size_t n)
{
	(void)rk;
	(void)buf;
	(void)n;
	return 0;
}

void cb_ranks_watch_begin(struct cb_ranks *rk)
{
	(void)rk;
}

bool cb_ranks_watch(struct cb_ranks *rk, bool failed)
{
	(void)rk;
	(void)failed;
	return false;
}

void cb_ranks_watch_end(struct cb_ranks *rk)
{
	(void)rk;
}

int cb_ranks_merge_phase(struct cb_ranks *rk, struct cb_phase_result *res, int r, struct cb_err *e)
{
	(void)rk;
	(void)res;
	(void)e;
	return r;
}
