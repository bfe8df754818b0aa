/* LD_PRELOAD shim for the krbd tests: io_getevents fails with -EINVAL from
 * call AIO_FAIL_AFTER on. A real libaio failure cannot be caused on demand;
 * this checks that one ends the run at once, every op accounted, instead of
 * leaving ops in flight forever. */
#include <dlfcn.h>
#include <errno.h>
#include <libaio.h>
#include <stdatomic.h>
#include <stdlib.h>

int io_getevents(io_context_t ctx, long min, long max, struct io_event *ev, struct timespec *ts)
{
	static atomic_long calls;
	int (*real)(io_context_t, long, long, struct io_event *, struct timespec *) =
	    (int (*)(io_context_t, long, long, struct io_event *, struct timespec *))dlsym(
		RTLD_NEXT, "io_getevents");
	const char *after = getenv("AIO_FAIL_AFTER");
	if (after && ++calls > atol(after))
		return -EINVAL;
	return real(ctx, min, max, ev, ts);
}
