/* Ceph's JSON with unsigned 64-bit integers (json_wide.h). */
#include "json_wide.h"

#include <math.h>
#include <string.h>

/* v as an integer when it is a whole real that fits an int64, else NULL. */
static json_t *as_int(const json_t *v)
{
	double d = json_real_value(v);
	return json_is_real(v) && d == floor(d) && fabs(d) < 9.2e18 ? json_integer((json_int_t)d)
								    : NULL;
}

/* Reals that are whole and fit an int64 back to integers: only the
 * out-of-range ones stay reals (each is exact up to 2^53). */
static void ints_back(json_t *j)
{
	const char *key;
	json_t *v, *i;
	size_t k;
	json_object_foreach(j, key, v)
	{
		if ((i = as_int(v)))
			json_object_set_new(j, key, i);
		else
			ints_back(v);
	}
	json_array_foreach(j, k, v)
	{
		if ((i = as_int(v)))
			json_array_set_new(j, k, i);
		else
			ints_back(v);
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
