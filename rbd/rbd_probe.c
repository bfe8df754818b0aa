/* The RBD layer's doctor probe (probe.h): the pool, and the image the
 * workload names or a test image of the doctor's run (blk_probe.h). */
#include "blk_probe.h"
#include "probe.h"
#include "rbd_priv.h"

void cb_rbd_probe(struct cb_probe_req *req)
{
	const struct rbd_opts *o = req->lopts;
	char name[160];
	cb_rbd_image_name(name, sizeof(name), req->run_name, 0);
	struct cb_blk_probe_layout l = {.features = o->features, .data_pool = o->data_pool};
	cb_blk_probe(req, o->pool, o->image, name, &l, CB_RBD_KEY_RUN, CB_RBD_KEY_INSTANCE);
}
