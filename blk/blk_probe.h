/* The doctor probe both block layers share (rbd, krbd): the pool, then an
 * image the workload names (it must exist) or, for images the run makes, a
 * test image made, marked and removed as a run makes and removes its own. */
#ifndef CB_BLK_PROBE_H
#define CB_BLK_PROBE_H

struct cb_probe_req;

/* What of the workload's layout the test image is made with, as the run
 * would make its own: features (a list as the profile gives it) and
 * data_pool; NULL each: librbd's defaults. */
struct cb_blk_probe_layout {
	const char *features;
	const char *data_pool;
};

/* Lines for pool, and for image (NULL: the run makes its images; test is
 * then the name of the test image, one of the layer's names for the
 * doctor's run, made with layout) through req. key_run, key_inst: the
 * layer's image metadata keys for the run's name and id. */
void cb_blk_probe(struct cb_probe_req *req, const char *pool, const char *image, const char *test,
		  const struct cb_blk_probe_layout *layout, const char *key_run,
		  const char *key_inst);

#endif
