/* The block layers' doctor probe (blk_probe.h). The test image goes as a
 * run's images go: a creating record first (blk_creating.h), the run's
 * marks once made, the removal under a record: a doctor killed half way
 * leaves what `cephbench cleanup --run-name` of its run removes. */
#include "blk_creating.h"
#include "blk_image.h"
#include "blk_probe.h"
#include "conn.h"
#include "probe.h"
#include "shquote.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* The smallest image a run could make: one 4 MiB object, none written. */
#define TEST_SIZE (4ULL << 20)

static void named_image(struct cb_probe_req *req, rados_ioctx_t io, const char *pool,
			const char *image)
{
	char check[320], cmd[CB_SH_CMD_MAX], hint[CB_SH_CMD_MAX + 64], what[200];
	rbd_image_t img;
	snprintf(check, sizeof(check), "image '%.128s/%.128s'", pool, image);
	int r = rbd_open_read_only(io, image, &img, NULL);
	if (r == 0) {
		rbd_close(img);
		cb_probe_line(req, CB_CHECK_OK, check, "exists", NULL);
		return;
	}
	if (r == -ENOENT) {
		snprintf(hint, sizeof(hint),
			 "list them: %s; or drop image: to let the run make its own",
			 CB_SH_CMD(cmd, "rbd", "ls", "--pool", pool));
		cb_probe_line(req, CB_CHECK_FAIL, check, "does not exist", hint);
		return;
	}
	snprintf(what, sizeof(what), "opening images in pool %.128s (profile rbd)", pool);
	cb_probe_refused(req, check, "osd", what, "opening it", r);
}

/* rbd_create4 as the run's create would call it: the layout's features and
 * data pool. -EINVAL with why set for features that do not parse. */
static int create(rados_ioctx_t io, const char *name, const struct cb_blk_probe_layout *l,
		  char *why, size_t n)
{
	rbd_image_options_t opts;
	uint64_t features = 0;
	int r = 0;
	rbd_image_options_create(&opts);
	if (l->features && (r = cb_blk_features(l->features, &features, why, n)) == 0)
		r = rbd_image_options_set_uint64(opts, RBD_IMAGE_OPTION_FEATURES, features);
	if (r == 0 && l->data_pool)
		r = rbd_image_options_set_string(opts, RBD_IMAGE_OPTION_DATA_POOL, l->data_pool);
	if (r == 0)
		r = rbd_create4(io, name, TEST_SIZE, opts);
	rbd_image_options_destroy(opts);
	return r;
}

static void test_image(struct cb_probe_req *req, rados_ioctx_t io, const char *pool,
		       const char *name, const struct cb_blk_probe_layout *layout,
		       const char *key_run, const char *key_inst)
{
	char check[200], what[200], detail[600], why[256] = "", lay[300];
	struct cb_err e = {0};
	rbd_image_t img;
	snprintf(check, sizeof(check), "osd caps for images in pool '%.128s'", pool);
	snprintf(what, sizeof(what), "creating images in pool %.128s (profile rbd)", pool);
	/* the layout in words: "features F, data pool P" */
	snprintf(lay, sizeof(lay), "%s%.128s%s%s%.128s", layout->features ? "features " : "",
		 layout->features ? layout->features : "",
		 layout->features && layout->data_pool ? ", " : "",
		 layout->data_pool ? "data pool " : "", layout->data_pool ? layout->data_pool : "");
	int r = cb_blk_creating_set(io, pool, name, req->run_name, &e);
	if (r < 0) {
		cb_probe_refused(req, check, "osd", what, "writing the test image's record", r);
		return;
	}
	r = create(io, name, layout, why, sizeof(why));
	if (r < 0) {
		cb_blk_creating_clear(io, name, req->run_name);
		if (lay[0] && (why[0] || (r == -ENOENT && layout->data_pool) || r == -EINVAL)) {
			const char *cause = why[0]	   ? why
					    : r == -ENOENT ? "the data pool does not exist"
							   : strerror(-r);
			snprintf(detail, sizeof(detail),
				 "a test image with the workload's %s refused: %s", lay, cause);
			cb_probe_line(req, CB_CHECK_FAIL, check, detail,
				      "fix the workload's features or data_pool");
		} else {
			cb_probe_refused(req, check, "osd", what, "creating a test image", r);
		}
		return;
	}
	/* marked as a run's own, so that a cleanup of the run finds it */
	if ((r = rbd_open(io, name, &img, NULL)) == 0) {
		if ((r = rbd_metadata_set(img, key_run, req->run_name)) == 0)
			r = rbd_metadata_set(img, key_inst, req->run_id);
		rbd_close(img);
	}
	if (r == 0)
		cb_blk_creating_clear(io, name, req->run_name);
	int rm = cb_blk_remove_recorded(io, name, req->run_name);
	if (r < 0) {
		cb_probe_refused(req, check, "osd", what, "opening and marking the test image", r);
	} else if (rm < 0 && rm != -ENOENT) {
		char cmd[CB_SH_CMD_MAX], hint[CB_SH_CMD_MAX + 16];
		snprintf(detail, sizeof(detail), "the test image %.128s could not be removed: %s",
			 name, strerror(-rm));
		snprintf(hint, sizeof(hint), "remove it: %s",
			 CB_SH_CMD(cmd, "cephbench", "cleanup", "--pool", pool, "--run-name",
				   req->run_name));
		cb_probe_line(req, CB_CHECK_FAIL, check, detail, hint);
	} else {
		snprintf(detail, sizeof(detail), "a test image created%s%s, marked and removed",
			 lay[0] ? " with " : "", lay);
		cb_probe_line(req, CB_CHECK_OK, check, detail, NULL);
	}
}

void cb_blk_probe(struct cb_probe_req *req, const char *pool, const char *image, const char *test,
		  const struct cb_blk_probe_layout *layout, const char *key_run,
		  const char *key_inst)
{
	rados_ioctx_t io;
	if (cb_probe_pool(req, pool, NULL, &io) < 0)
		return;
	if (image)
		named_image(req, io, pool, image);
	else
		test_image(req, io, pool, test, layout, key_run, key_inst);
	rados_ioctx_destroy(io);
}
