/* Ceph's JSON with unsigned 64-bit integers (json_wide.h). */
#include "json_wide.h"

#include <math.h>
#include <string.h>

/* Reals that are whole and fit an int64 back to integers: only the
 * out-of-range ones stay reals (each is exact up to 2^53). */
static void ints_back(json_t *j)
{
	const char *key;
	json_t *v;
	size_t i;
	if (json_is_object(j)) {
		json_object_foreach(j, key, v)
		{
			double d = json_real_value(v);
			if (json_is_real(v) && d == floor(d) && fabs(d) < 9.2e18)
				json_object_set_new(j, key, json_integer((json_int_t)d));
			else
				ints_back(v);
		}
	} else if (json_is_array(j)) {
		json_array_foreach(j, i, v)
		{
			double d = json_real_value(v);
			if (json_is_real(v) && d == floor(d) && fabs(d) < 9.2e18)
				json_array_set_new(j, i, json_integer((json_int_t)d));
			else
				ints_back(v);
		}
	}
}

json_t *cb_json_loadb_wide(const char *buf, size_t len, size_t flags, json_error_t *je)
{
	json_error_t mine;
	je = je ? je : &mine;
	json_t *j = json_loadb(buf, len, flags, je);
	if (j || !strstr(je->text, "too big integer"))
		return j;
	if ((j = json_loadb(buf, len, flags | JSON_DECODE_INT_AS_REAL, je)))
		ints_back(j);
	return j;
}
