/* The block layers' doctor probe (blk_probe.h). The test image goes as a
 * run's images go: a creating record first (blk_creating.h), the run's
 * marks once made, the removal under a record: a doctor killed half way
 * leaves what `cephbench cleanup --run-name` of its run removes. */
#include "blk_creating.h"
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

static void test_image(struct cb_probe_req *req, rados_ioctx_t io, const char *pool,
		       const char *name, const char *key_run, const char *key_inst)
{
	char check[200], what[200], detail[320];
	struct cb_err e = {0};
	rbd_image_t img;
	int order = 0;
	snprintf(check, sizeof(check), "osd caps for images in pool '%.128s'", pool);
	snprintf(what, sizeof(what), "creating images in pool %.128s (profile rbd)", pool);
	int r = cb_blk_creating_set(io, pool, name, req->run_name, &e);
	if (r < 0) {
		cb_probe_refused(req, check, "osd", what, "writing the test image's record", r);
		return;
	}
	r = rbd_create(io, name, TEST_SIZE, &order);
	if (r < 0) {
		cb_blk_creating_clear(io, name, req->run_name);
		cb_probe_refused(req, check, "osd", what, "creating a test image", r);
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
		cb_probe_line(req, CB_CHECK_OK, check, "a test image created, marked and removed",
			      NULL);
	}
}

void cb_blk_probe(struct cb_probe_req *req, const char *pool, const char *image, const char *test,
		  const char *key_run, const char *key_inst)
{
	rados_ioctx_t io;
	if (cb_probe_pool(req, pool, NULL, &io) < 0)
		return;
	if (image)
		named_image(req, io, pool, image);
	else
		test_image(req, io, pool, test, key_run, key_inst);
	rados_ioctx_destroy(io);
}
