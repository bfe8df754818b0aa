/* Reading a result record's members for the renderers that draw from the
 * record (the text report, `cephbench report`): a missing member reads as
 * nothing (0, NULL, false), as a record of an older schema lacks sections
 * a newer run writes; what must be there, cb_result_check has checked. */
#ifndef CB_JGET_H
#define CB_JGET_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

/* A number (integer or real); 0 when absent. + 0.0: no -0.0 printed. */
static inline double cb_jnum(const json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key)) + 0.0;
}

/* A count; 0 when absent or negative. */
static inline uint64_t cb_jcount(const json_t *o, const char *key)
{
	json_int_t v = json_integer_value(json_object_get(o, key));
	return v > 0 ? (uint64_t)v : 0;
}

/* A string, or dflt when absent or not a string. */
static inline const char *cb_jstr(const json_t *o, const char *key, const char *dflt)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : dflt;
}

static inline bool cb_jtrue(const json_t *o, const char *key)
{
	return json_is_true(json_object_get(o, key));
}

/* Whether the member is there and not null. */
static inline bool cb_jhas(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	return v && !json_is_null(v);
}

#endif
