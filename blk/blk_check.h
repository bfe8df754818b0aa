/* The rules both block layers (rbd, krbd) check a workload against, with
 * one bound: each layer's check calls these where its own rules leave off,
 * and adds what only it has (rbd's object geometry, krbd's devices). */
#ifndef CB_BLK_CHECK_H
#define CB_BLK_CHECK_H

#include "engine.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Images of a workload the run creates, over all its clients: each is a
 * setup's create and a cleanup's remove. */
#define CB_BLK_MAX_IMAGES 1024

/* What a workload runs on, as the shared rules see it. */
struct cb_blk_target {
	const char *noun;   /* what a user names: "image", "device" */
	const char *given;  /* the user's image or devices; NULL: images the run creates */
	const char *shared; /* the message's remedy for clients writing a given one */
	uint64_t images;    /* per client, of images the run creates */
	bool writes;	    /* prefill, or an op that may write (cb_blk_workload_writes) */
};

/* Clients writing one given target together would write the same blocks
 * (and, with exclusive-lock, measure the lock passing between them); the
 * run's own images are at most CB_BLK_MAX_IMAGES. 0 or -EINVAL with why. */
int cb_blk_check_clients(const struct cb_workload *wl, const struct cb_blk_target *t, char *why,
			 size_t n);

/* verify compares whole words of the pattern (blk_pattern.h): block size
 * bs must hold whole ones. 0 or -EINVAL with why. */
int cb_blk_check_verify_bs(uint64_t bs, char *why, size_t n);

/* A block of bs bytes fits an image the run creates of image_size. 0 or
 * -EINVAL with why. */
int cb_blk_check_fits(uint64_t bs, uint64_t image_size, char *why, size_t n);

#endif
