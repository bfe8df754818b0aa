/* Buffer contents (see data.h). */
#include "data.h"

#include "units.h"
#include "rng.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[] = {"random", "zero", "compressible", "dedupe", NULL};

int cb_data_parse(const char *s, struct cb_data_spec *d, char *why, size_t n)
{
	const char *colon;
	int k = cb_parse_named(s, names, &colon);
	if (k < 0) {
		snprintf(why, n, "expected random, zero, compressible:PCT or dedupe:PCT");
		return -EINVAL;
	}
	if (k == CB_DATA_RANDOM || k == CB_DATA_ZERO) {
		if (colon) {
			snprintf(why, n, "%s takes no percentage", names[k]);
			return -EINVAL;
		}
		*d = (struct cb_data_spec){.kind = k};
		return 0;
	}
	char *end = NULL;
	unsigned long v =
	    colon && colon[0] >= '0' && colon[0] <= '9' ? strtoul(colon, &end, 10) : 0;
	if (end && *end == '%')
		end++;
	if (!end || *end || v < 1 || v > 99) {
		snprintf(why, n, "%s needs a percentage from 1 to 99 after ':' (%s:60)", names[k],
			 names[k]);
		return -EINVAL;
	}
	*d = (struct cb_data_spec){.kind = k, .pct = (unsigned)v};
	return 0;
}

void cb_data_format(const struct cb_data_spec *d, char *buf, size_t n)
{
	if (d->kind == CB_DATA_COMPRESSIBLE || d->kind == CB_DATA_DEDUPE)
		snprintf(buf, n, "%s:%u", names[d->kind], d->pct);
	else
		snprintf(buf, n, "%s", names[d->kind]);
}

void cb_data_init(struct cb_data *d, const struct cb_data_spec *spec, uint64_t seed,
		  unsigned client)
{
	*d = (struct cb_data){.spec = *spec,
			      .rng = cb_rng_client(seed, client, 0xda7a),
			      .dup = cb_rng_client(seed, 0, 0xd0b1e)};
}

static void random_bytes(uint64_t *rng, unsigned char *p, uint64_t len)
{
	uint64_t k = 0;
	for (; k + 8 <= len; k += 8) {
		uint64_t w = cb_rng_next(rng);
		memcpy(p + k, &w, 8);
	}
	if (k < len) {
		uint64_t w = cb_rng_next(rng);
		memcpy(p + k, &w, len - k);
	}
}

void cb_data_fill(struct cb_data *d, void *buf, uint64_t len)
{
	unsigned char *p = buf;
	switch (d->spec.kind) {
	case CB_DATA_ZERO:
		memset(p, 0, len);
		break;
	case CB_DATA_COMPRESSIBLE:
		for (uint64_t off = 0; off < len; off += CB_DATA_CHUNK) {
			uint64_t chunk = len - off < CB_DATA_CHUNK ? len - off : CB_DATA_CHUNK;
			uint64_t rnd = chunk * (100 - d->spec.pct) / 100;
			random_bytes(&d->rng, p + off, rnd);
			memset(p + off + rnd, 0, chunk - rnd);
		}
		break;
	case CB_DATA_DEDUPE: {
		/* the draw picks; a repeat is the workload's one block, from its
		 * own generator restarted, so every repeat is byte for byte alike */
		bool repeat = cb_rng_next(&d->rng) % 100 < d->spec.pct;
		uint64_t dup = d->dup;
		random_bytes(repeat ? &dup : &d->rng, p, len);
		break;
	}
	default:
		random_bytes(&d->rng, p, len);
	}
}
