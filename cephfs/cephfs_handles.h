/* A replay's open handles, found by the loadfile's handle number: an
 * open-addressing table, so its memory follows how many handle numbers a
 * loadfile names, never how large they are (dbench's are the server's
 * file ids: any number, 2^24 as well as 1). */
#ifndef CFS_HANDLES_H
#define CFS_HANDLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cfs_handle {
	uint64_t fnum; /* the loadfile's number */
	bool used;     /* the slot holds fnum (open or closed since) */
	int fd;	       /* -1: a directory's (its path is enough) */
	char *path;    /* NULL: not open; owned by the caller that set it */
};

struct cfs_handles {
	struct cfs_handle *v; /* cap slots, a power of two; NULL: none yet */
	size_t cap, n;	      /* n: slots used */
};

/* fnum's entry. With add, made if absent (path NULL: not open); without,
 * NULL unless fnum is open. NULL with add: out of memory. The table owns
 * its slots; the caller owns what it puts in path. */
struct cfs_handle *cfs_handles_get(struct cfs_handles *t, uint64_t fnum, bool add);

/* The i-th slot, i < t->cap, for a walk over every open handle: NULL when
 * the slot holds no open handle. */
struct cfs_handle *cfs_handles_at(struct cfs_handles *t, size_t i);

/* Free the slots (the caller has closed and freed the paths); the table
 * is empty again. */
void cfs_handles_release(struct cfs_handles *t);

#endif
