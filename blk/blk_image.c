/* Shared by the layers that create RBD images (see blk_image.h). */
#include "blk_image.h"
#include "options.h"

#include <errno.h>
#include <jansson.h>
#include <rbd/librbd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Feature names as the rbd CLI spells them (rbd/features.h's names). */
static const struct {
	const char *name;
	uint64_t bit;
} feature_names[] = {
    {RBD_FEATURE_NAME_LAYERING, RBD_FEATURE_LAYERING},
    {RBD_FEATURE_NAME_STRIPINGV2, RBD_FEATURE_STRIPINGV2},
    {RBD_FEATURE_NAME_EXCLUSIVE_LOCK, RBD_FEATURE_EXCLUSIVE_LOCK},
    {RBD_FEATURE_NAME_OBJECT_MAP, RBD_FEATURE_OBJECT_MAP},
    {RBD_FEATURE_NAME_FAST_DIFF, RBD_FEATURE_FAST_DIFF},
    {RBD_FEATURE_NAME_DEEP_FLATTEN, RBD_FEATURE_DEEP_FLATTEN},
    {RBD_FEATURE_NAME_JOURNALING, RBD_FEATURE_JOURNALING},
    {RBD_FEATURE_NAME_DATA_POOL, RBD_FEATURE_DATA_POOL},
};
#define NFEATURES (sizeof(feature_names) / sizeof(feature_names[0]))

json_t *cb_blk_feature_names(uint64_t mask)
{
	json_t *a = json_array();
	for (size_t i = 0; a && i < NFEATURES; i++)
		if (mask & feature_names[i].bit)
			json_array_append_new(a, json_string(feature_names[i].name));
	return a;
}

int cb_blk_features(const char *list, uint64_t *mask, char *why, size_t n)
{
	const char *names[NFEATURES + 1];
	char word[64];
	*mask = 0;
	for (size_t i = 0; i < NFEATURES; i++)
		names[i] = feature_names[i].name;
	names[NFEATURES] = NULL;
	for (const char *p = list; *p;) {
		size_t len = strcspn(p, ", ");
		if (len == 0) {
			p++;
			continue;
		}
		snprintf(word, sizeof(word), "%.*s", (int)len, p);
		size_t i = 0;
		while (i < NFEATURES && strcmp(word, feature_names[i].name) != 0)
			i++;
		if (i == NFEATURES) {
			const char *best = cb_closest(word, names);
			snprintf(why, n, "unknown image feature '%s'%s%s%s", word,
				 best ? " (did you mean '"
				      : " (known: layering, exclusive-lock, "
					"object-map, fast-diff, deep-flatten, "
					"journaling, striping, data-pool",
				 best ? best : "", best ? "'?)" : ")");
			return -EINVAL;
		}
		*mask |= feature_names[i].bit;
		p += len;
	}
	return 0;
}

int cb_blk_meta_get(rbd_image_t img, const char *key, char *val, size_t n)
{
	size_t len = n;
	int r = rbd_metadata_get(img, key, val, &len);
	if (r < 0)
		return r;
	val[n - 1] = '\0';
	return 0;
}

int cb_blk_list(rados_ioctx_t io, rbd_image_spec_t **specs, size_t *n)
{
	size_t max = 64;
	int r;
	*specs = NULL;
	*n = 0;
	for (;;) {
		rbd_image_spec_t *grown = realloc(*specs, max * sizeof(**specs));
		if (!grown) {
			free(*specs);
			*specs = NULL;
			return -ENOMEM;
		}
		*specs = grown;
		if ((r = rbd_list2(io, *specs, &max)) != -ERANGE)
			break;
	}
	if (r == -ENOENT) /* a pool never used for RBD */
		return 0;
	if (r < 0) {
		free(*specs);
		*specs = NULL;
		return r;
	}
	*n = max;
	return 0;
}

void cb_blk_list_free(rbd_image_spec_t *specs, size_t n)
{
	if (n)
		rbd_image_spec_list_cleanup(specs, n);
	free(specs);
}
