/* glibc keeps freed memory for reuse under thresholds it raises as it goes:
 * each Ceph client frees an 11 MB block as it starts (its log's ring, made
 * for 10000 entries and cut to log_max_recent), after which an arena keeps
 * up to 22 MB free before it trims, and a client has many threads, each
 * with its own arena (a CephFS tree of 100,000 files ended with 42 MB held
 * and 2 MB in use). Fixing the thresholds instead would cost every large
 * op an mmap and its page faults (4M rbd reads at half speed), so the
 * thresholds stay and the runner asks for the free pages back once a
 * second. The peak is another matter: what the Ceph client has in use. */
#include "mem.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif

void cb_mem_give_back(void)
{
#ifdef __GLIBC__
	malloc_trim(0);
#endif
}
