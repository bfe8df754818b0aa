/* Naming, run metadata and cleanup of the RADOS layer: everything that
 * decides which objects belong to a run. */
#include "rados_priv.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cb_rados_obj_name(char *buf, size_t n, const char *run, unsigned client, uint64_t idx)
{
	snprintf(buf, n, "%s.c%u.%llu", run, client, (unsigned long long)idx);
}

/* Client 0's is the run's record, named as before clients existed; the
 * others' do not end in ".meta", so cleanup removes them with the data and
 * keeps only the run's record for last. */
static void meta_name(char *buf, size_t n, const char *run, unsigned client)
{
	if (client == 0)
		snprintf(buf, n, "%s.meta", run);
	else
		snprintf(buf, n, "%s.meta.c%u", run, client);
}

int cb_rados_meta_write(rados_ioctx_t io, const char *run, unsigned client, const char *run_id,
			const struct rados_meta *m)
{
	char name[128];
	json_t *j =
	    json_pack("{s:s, s:s, s:s, s:s, s:I, s:I, s:I}", "layer", "rados", "run", run, "run_id",
		      run_id, "state", m->state, "object_size", (json_int_t)m->object_size,
		      "block_size", (json_int_t)m->block_size, "objects", (json_int_t)m->objects);
	/* the run's record says how many wrote; another client's, which it is */
	if (j &&
	    json_object_set_new(j, client ? "client" : "clients",
				json_integer((json_int_t)(client ? client : m->clients))) < 0) {
		json_decref(j);
		j = NULL;
	}
	if (!j)
		return -ENOMEM;
	char *s = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	if (!s)
		return -ENOMEM;
	meta_name(name, sizeof(name), run, client);
	int r = rados_write_full(io, name, s, strlen(s));
	free(s);
	return r;
}

int cb_rados_meta_read(rados_ioctx_t io, const char *run, unsigned client, struct rados_meta *m)
{
	char name[128], buf[4096];
	meta_name(name, sizeof(name), run, client);
	int r = rados_read(io, name, buf, sizeof(buf) - 1, 0);
	if (r < 0)
		return r;
	json_t *j = json_loadb(buf, (size_t)r, 0, NULL);
	json_int_t os = 0, bs = 0, objs = 0, clients = 1;
	const char *state = NULL, *id = "";
	r = json_unpack(j, "{s:s, s:I, s:I, s:I, s?:s, s?:I}", "state", &state, "object_size", &os,
			"block_size", &bs, "objects", &objs, "run_id", &id, "clients", &clients);
	if (r == 0 && os > 0 && bs > 0 && objs >= 0 && clients >= 1 && clients <= 1024) {
		snprintf(m->state, sizeof(m->state), "%s", state);
		snprintf(m->run_id, sizeof(m->run_id), "%s", id);
		m->object_size = (uint64_t)os;
		m->block_size = (uint64_t)bs;
		m->objects = (uint64_t)objs;
		m->clients = (uint64_t)clients;
	} else {
		r = -EINVAL;
	}
	json_decref(j);
	return r;
}

struct names {
	char **v;
	size_t n, cap;
};

static int names_add(struct names *l, const char *s)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 256;
		char **v = realloc(l->v, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	if (!(l->v[l->n] = strdup(s)))
		return -ENOMEM;
	l->n++;
	return 0;
}

static void names_free(struct names *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	*l = (struct names){0};
}

/* Start removing one object. FULL_FORCE: a delete frees space, so it must
 * go through on a full pool, which holds or refuses other writes (as
 * `rados rm --force-full` does); this is the one op that flag is right for. */
static int remove_start(rados_ioctx_t io, const char *name, rados_completion_t *c)
{
	rados_write_op_t op = rados_create_write_op();
	if (!op)
		return -ENOMEM;
	rados_write_op_remove(op);
	int r = rados_aio_create_completion2(NULL, NULL, c);
	if (r == 0 && (r = rados_aio_write_op_operate(op, io, *c, name, NULL,
						      LIBRADOS_OPERATION_FULL_FORCE)) < 0)
		rados_aio_release(*c); /* created but never started */
	/* the op's steps were handed over to the request: it can go now */
	rados_release_write_op(op);
	return r;
}

static int remove_all(rados_ioctx_t io, struct names *l, uint64_t *removed)
{
	enum { WINDOW = 64 };
	rados_completion_t c[WINDOW];
	int first_err = 0;
	for (size_t base = 0; base < l->n; base += WINDOW) {
		size_t k = l->n - base < WINDOW ? l->n - base : WINDOW;
		for (size_t i = 0; i < k; i++) {
			int r = remove_start(io, l->v[base + i], &c[i]);
			if (r < 0) {
				k = i;
				first_err = first_err ? first_err : r;
				break;
			}
		}
		for (size_t i = 0; i < k; i++) {
			rados_aio_wait_for_complete(c[i]);
			int r = rados_aio_get_return_value(c[i]);
			rados_aio_release(c[i]);
			if (r == 0)
				(*removed)++;
			else if (r != -ENOENT && !first_err)
				first_err = r;
		}
		if (first_err)
			break;
	}
	return first_err;
}

/* One pass over the namespace, removing the run's data objects a batch at a
 * time as the listing goes, so memory stays at one batch whatever the run's
 * size (a million objects' names would be tens of MiB). The listing goes
 * by hash position and a removed object is behind it, yet the caller
 * repeats passes until one finds nothing rather than rely on that.
 * Metadata names are only collected: they go last, so a crash mid-cleanup
 * leaves them to say what the objects were. */
static int remove_pass(rados_ioctx_t io, const char *run, struct names *meta, uint64_t *found,
		       uint64_t *removed)
{
	enum { BATCH = 4096 };
	struct names batch = {0};
	rados_list_ctx_t ctx;
	const char *entry;
	size_t plen = run ? strlen(run) : 0;
	int r = rados_nobjects_list_open(io, &ctx);
	if (r < 0)
		return r;
	while ((r = rados_nobjects_list_next(ctx, &entry, NULL, NULL)) == 0) {
		if (run && (strncmp(entry, run, plen) != 0 || entry[plen] != '.'))
			continue;
		size_t len = strlen(entry);
		if (len > 5 && strcmp(entry + len - 5, ".meta") == 0) {
			if ((r = names_add(meta, entry)) < 0)
				break;
			continue;
		}
		if ((r = names_add(&batch, entry)) < 0)
			break;
		(*found)++;
		if (batch.n == BATCH) {
			r = remove_all(io, &batch, removed);
			names_free(&batch);
			if (r < 0)
				break;
		}
	}
	rados_nobjects_list_close(ctx);
	if (r == -ENOENT)
		r = remove_all(io, &batch, removed);
	names_free(&batch);
	return r;
}

int cb_rados_remove(rados_ioctx_t io, const char *run, uint64_t *removed, struct cb_err *e)
{
	struct names meta = {0};
	char pool[128] = "?";
	rados_ioctx_get_pool_name(io, pool, sizeof(pool));
	uint64_t found;
	int r, pass = 0;
	/* a few passes at most: a live run writing under the same name would
	 * keep one finding objects */
	do {
		found = 0;
		names_free(&meta);
		r = remove_pass(io, run, &meta, &found, removed);
	} while (r == 0 && found > 0 && ++pass < 4);
	if (r == 0 && found > 0) {
		/* objects keep coming: say so, and keep the metadata that says
		 * what they are */
		r = cb_err_cluster(
		    e, -EBUSY,
		    "objects of run '%s' in namespace '%s' of pool '%s' keep "
		    "appearing (%llu in the last of %d passes): is a run of that name "
		    "still writing? stop it, then clean up again",
		    run ? run : "*", CB_RADOS_NS, pool, (unsigned long long)found, pass);
		names_free(&meta);
		return r;
	}
	if (r == 0)
		r = remove_all(io, &meta, removed);
	if (r < 0)
		cb_err_cluster(e, r,
			       "removing objects of run '%s' in namespace '%s' of pool '%s': %s",
			       run ? run : "*", CB_RADOS_NS, pool, strerror(-r));
	names_free(&meta);
	return r;
}
