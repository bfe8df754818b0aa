/* Typed option tables: every profile key, common or layer-owned, is declared
 * once with its type, default, range and help; values are parsed from text
 * into a struct through offsetof, so validation is the same everywhere. */
#ifndef CB_OPTIONS_H
#define CB_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum cb_opt_type {
	CB_OPT_STR,	 /* char *, owned by the struct, freed by cb_opts_free */
	CB_OPT_SIZE,	 /* uint64_t bytes: 4K, 4M */
	CB_OPT_DURATION, /* uint64_t nanoseconds: 500ms, 10s */
	CB_OPT_UINT,	 /* uint64_t */
	CB_OPT_BOOL,	 /* bool: true/false/yes/no/on/off/1/0 */
	CB_OPT_ENUM,	 /* int index into choices */
	CB_OPT_NAME,	 /* char *, restricted to [A-Za-z0-9_-], 1..64 chars */
	CB_OPT_CEPH,	 /* char *, a pool, file system or client name: cb_ceph_name_rule */
	CB_OPT_IMAGE,	 /* char *, an RBD image name: cb_image_name_rule */
	CB_OPT_PATH,	 /* char *, a local file or device path: cb_path_rule */
	CB_OPT_RATE,	/* struct cb_rate: 10000 (ops/s) or 200MiB/s (bytes/s); min, max in ops/s */
	CB_OPT_PERCENT, /* uint64_t parts per million: 5%, 0.5%; min, max in ppm */
	CB_OPT_DIST,	/* struct cb_dist_spec: uniform, zipf:1.2, pareto:0.9, normal:10 */
	CB_OPT_DATA,	/* struct cb_data_spec: random, zero, compressible:60, dedupe:30 */
	CB_OPT_SIZES,	/* struct cb_sizes: 4K, 4K-64K, 4K:60,64K:40; min, max for each size */
};

struct cb_option {
	const char *name;
	enum cb_opt_type type;
	size_t off;		    /* offsetof() into the target struct */
	const char *def;	    /* default as written in a profile; NULL: zero/NULL */
	uint64_t min, max;	    /* inclusive range for numbers; max 0: no limit */
	const char *const *choices; /* CB_OPT_ENUM: NULL-terminated */
	const char *help;
};

/* Find `name` in a table terminated by an entry with name NULL. */
const struct cb_option *cb_opt_find(const struct cb_option *tab, const char *name);

/* Parse `value` into obj according to o. On error returns -EINVAL or -ERANGE
 * and writes a reason ("expected a size like 4K or 4M, got 'x'") into why. */
int cb_opt_parse(const struct cb_option *o, void *obj, const char *value, char *why, size_t n);

/* Apply every default of the table to obj (which must be zeroed). 0 or -errno. */
int cb_opts_defaults(const struct cb_option *tab, void *obj);

/* Free the strings a table's entries own in obj. */
void cb_opts_free(const struct cb_option *tab, void *obj);

struct json_t;

/* The value of o in obj as JSON, for a record's "params": a size in bytes,
 * a duration in seconds, a number, a bool, an enum's choice, a string (null
 * when unset). New reference, NULL on ENOMEM. */
struct json_t *cb_opt_json(const struct cb_option *o, const void *obj);

/* Every entry of tab but those named in skip (NULL-terminated, or NULL)
 * set into the JSON object into by name (cb_opt_json). 0 or -ENOMEM. */
int cb_opts_json(const struct cb_option *tab, const void *obj, struct json_t *into,
		 const char *const *skip);

/* Closest name to `name` among the given NULL-terminated list of tables, or
 * NULL when nothing is close enough to be a likely typo. */
const char *cb_opt_suggest(const struct cb_option *const *tabs, const char *name);

/* The word of a NULL-terminated list that name is most likely a typo of,
 * or NULL when none is close enough. */
const char *cb_closest(const char *name, const char *const *words);

/* Edit distance of two names. */
unsigned cb_edit_distance(const char *a, const char *b);

/* True when s is a valid name for runs/workloads: [A-Za-z0-9_-], 1..64 chars,
 * so every object, image or path built from it stays inside the run's names. */
bool cb_name_valid(const char *s);

/* The rules for other names from the user: each returns NULL when s follows
 * it, else the rule in words ("use 1-255 characters, no control
 * characters"), for a message naming the value. Pools, file systems and
 * clients: Ceph takes almost any text, so only what cannot be meant. */
const char *cb_ceph_name_rule(const char *s);
/* An existing RBD image's name: also no '/' (POOL/IMAGE) and no '@' (a
 * snapshot, which no workload writes or reads). */
const char *cb_image_name_rule(const char *s);
/* A local path (ceph.conf, keyring, device, output file). */
const char *cb_path_rule(const char *s);

#endif
