/* libFuzzer target: the profile loader on arbitrary bytes. The input is the
 * YAML text, then, after each NUL byte, one -o override, so the fuzzer
 * reaches overrides and matrix rows (KEY=[a, b]) as well as the YAML walk.
 * A loaded profile's steps are asked for, as --dry-run's plan does. */
#include "engine.h"
#include "profile.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_OVERRIDES 16

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *ov[MAX_OVERRIDES];
	size_t nov = 0;
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	size_t ylen = strlen(buf);
	for (size_t i = ylen; i < size && nov < MAX_OVERRIDES; i += strlen(buf + i) + 1)
		ov[nov++] = buf + i + 1;

	struct cb_err e = {0};
	struct cb_profile *p = NULL;
	if (cb_profile_parse("fuzz.yaml", buf, ylen, ov, nov, &p, &e) == 0) {
		for (size_t i = 0; i < p->n; i++) {
			const struct cb_plan_item *it = &p->items[i];
			struct cb_step st[CB_MAX_STEPS] = {{.suffix = NULL}};
			unsigned iters = 1;
			if (it->engine->steps)
				it->engine->steps(&it->wl, it->lopts, st, &iters);
		}
		cb_profile_free(p);
	}
	free(buf);
	return 0;
}
