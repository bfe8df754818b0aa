/* The rules both block layers (rbd, krbd) check a workload against, with
 * one bound and one message each: each layer's check calls these where its
 * own rules leave off, and adds what only it has (rbd's object geometry and
 * cache, krbd's devices and map options). */
#ifndef CB_BLK_CHECK_H
#define CB_BLK_CHECK_H

#include "engine.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Images of a workload the run creates, over all its clients: each is a
 * setup's create and a cleanup's remove. */
#define CB_BLK_MAX_IMAGES 1024

/* The verify key's help, the same on both layers. */
#define CB_BLK_VERIFY_HELP                                                                         \
	"reads check every block holds the prefill pattern (rw, randrw: writes keep it)"

/* What a workload runs on and does, as the shared rules see it. */
struct cb_blk_target {
	const char *noun;   /* what a user names: "image", "device" */
	const char *given;  /* the user's image or devices; NULL: images the run creates */
	const char *shared; /* the message's remedy for clients writing a given one */
	uint64_t images;    /* per client, of images the run creates */
	uint64_t mix;	    /* rw_mix_read */
	bool prefill, create_only, verify;
	/* The layer's setup checks the mark of what its images hold, so an
	 * earlier prefill counts for verify (rbd's created images). */
	bool marks_pattern;
};

/* The one verify rule. verify reads back the prefill pattern, which both
 * layers' writes carry while verifying (a word of it depends on its place
 * alone, so a read racing a write still reads it): any op that reads may
 * verify, rw and randrw too; not create_only, which reads nothing; the
 * block size (a distribution's alignment) holds whole words; the pattern
 * is there: a prefill, unless marks_pattern. 0 or -EINVAL with why. */
int cb_blk_check_verify(const struct cb_workload *wl, const struct cb_blk_target *t, char *why,
			size_t n);

/* Clients writing one given target together would write the same blocks
 * (and, with exclusive-lock, measure the lock passing between them); the
 * run's own images are at most CB_BLK_MAX_IMAGES. 0 or -EINVAL with why. */
int cb_blk_check_clients(const struct cb_workload *wl, const struct cb_blk_target *t, char *why,
			 size_t n);

/* A block of bs bytes fits an image the run creates of image_size. 0 or
 * -EINVAL with why. */
int cb_blk_check_fits(uint64_t bs, uint64_t image_size, char *why, size_t n);

#endif
