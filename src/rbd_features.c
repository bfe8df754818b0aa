/* Feature names as the rbd CLI spells them (rbd/features.h's names). */
#include "rbd_features.h"
#include "options.h"

#include <errno.h>
#include <rbd/librbd.h>
#include <stdio.h>
#include <string.h>

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

int cb_rbd_features(const char *list, uint64_t *mask, char *why, size_t n)
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
