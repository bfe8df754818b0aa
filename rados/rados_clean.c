/* Cleanup of the RADOS layer: listing the namespace, removing what carries
 * a run's mark, and refusing a namespace that RBD uses. */
#include "marked.h"
#include "rados_priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The registry of a pool's RBD namespaces: the omap of rbd_namespace in
 * its default namespace, a key per namespace. */
#define RBD_REGISTRY	 "rbd_namespace"
#define RBD_REGISTRY_KEY "name_" CB_RADOS_NS

static int rbd_uses(struct cb_err *e, const char *pool, const char *why)
{
	return cb_err_usage(e,
			    "pool '%s': RBD uses its namespace '%s' (%s), where cephbench's "
			    "RADOS objects go: refused, nothing written or removed there; use "
			    "another pool",
			    pool, CB_RADOS_NS, why);
}

/* 1 when the registry of io's pool lists the namespace, 0 when not (or not
 * readable with the client's caps), -errno. */
static int registered(rados_ioctx_t io)
{
	rados_ioctx_t dio;
	int r = rados_ioctx_create2(rados_ioctx_get_cluster(io), rados_ioctx_get_id(io), &dio);
	if (r < 0)
		return r;
	rados_ioctx_set_namespace(dio, "");
	rados_read_op_t op = rados_create_read_op();
	rados_omap_iter_t it = NULL;
	const char *keys[] = {RBD_REGISTRY_KEY};
	size_t len = strlen(RBD_REGISTRY_KEY);
	int rv = 0;
	if (!op) {
		rados_ioctx_destroy(dio);
		return -ENOMEM;
	}
	rados_read_op_omap_get_vals_by_keys2(op, keys, 1, &len, &it, &rv);
	r = rados_read_op_operate(op, dio, RBD_REGISTRY, 0);
	if (r == 0 && rv < 0)
		r = rv;
	if (r == 0)
		r = rados_omap_iter_size(it) > 0;
	if (it)
		rados_omap_get_end(it);
	rados_release_read_op(op);
	rados_ioctx_destroy(dio);
	/* caps confined to the namespace cannot read the registry: what RBD
	 * leaves inside the namespace still tells */
	return r == -ENOENT || r == -EPERM ? 0 : r;
}

/* An object RBD keeps in a namespace it uses: rbd_directory, rbd_id.NAME,
 * rbd_header.ID, rbd_data.ID.N... A run named like them (rbd_data) makes
 * only names that parse as cephbench's. */
static bool rbd_object(const char *name, enum rados_name kind)
{
	return kind == RADOS_NAME_NONE && strncmp(name, "rbd_", 4) == 0;
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

/* What one pass over the namespace found and did. */
struct pass {
	uint64_t candidates; /* names a run makes (of run, when given) */
	uint64_t removed;
	uint64_t foreign; /* of them, without the mark; with all, also other names */
	char rbd[128];	  /* an RBD object seen, when one was */
};

/* Start removing one object if it carries its run's mark (the run from
 * its name). FULL_FORCE: a delete frees space, so it must go through on a
 * full pool, which holds or refuses other writes (as `rados rm
 * --force-full` does); this is the one op that flag is right for. */
static int remove_start(rados_ioctx_t io, const char *name, rados_completion_t *c)
{
	char run[65];
	if (cb_rados_name_parse(name, run) == RADOS_NAME_NONE)
		return -EINVAL; /* never: only parsed names are listed for removal */
	rados_write_op_t op = cb_marked_remove_op(run);
	if (!op)
		return -ENOMEM;
	int r = rados_aio_create_completion2(NULL, NULL, c);
	if (r == 0 && (r = rados_aio_write_op_operate(op, io, *c, name, NULL,
						      LIBRADOS_OPERATION_FULL_FORCE)) < 0)
		rados_aio_release(*c); /* created but never started */
	/* the op's steps were handed over to the request: it can go now */
	rados_release_write_op(op);
	return r;
}

static int remove_all(rados_ioctx_t io, struct names *l, struct pass *ps)
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
				ps->removed++;
			else if (r == -ECANCELED) /* not marked: not cephbench's */
				ps->foreign++;
			else if (r != -ENOENT && !first_err)
				first_err = r;
		}
		if (first_err)
			break;
	}
	return first_err;
}

static bool listed(const struct names *l, const char *s)
{
	for (size_t i = 0; l && i < l->n; i++)
		if (strcmp(l->v[i], s) == 0)
			return true;
	return false;
}

/* One pass over the namespace. remove: remove the run's data objects a
 * batch at a time as the listing goes, so memory stays at one batch
 * whatever the run's size (a million objects' names would be tens of
 * MiB); else only look (for RBD's objects before anything is removed).
 * The listing goes by hash position and a removed object is behind it,
 * yet the caller repeats passes until one removes nothing rather than
 * rely on that. Metadata names are only collected: they go last, so a
 * crash mid-cleanup leaves them to say what the objects were.
 * Without remove, meta (when given) collects the runs whose records are
 * there instead; runs listed in live are passed over. */
static int pass_over(rados_ioctx_t io, const char *run, bool remove, struct names *meta,
		     const struct names *live, struct pass *ps)
{
	enum { BATCH = 4096 };
	struct names batch = {0};
	rados_list_ctx_t ctx;
	const char *entry;
	char owner[65];
	int r = rados_nobjects_list_open(io, &ctx);
	if (r < 0)
		return r;
	while ((r = rados_nobjects_list_next(ctx, &entry, NULL, NULL)) == 0) {
		enum rados_name kind = cb_rados_name_parse(entry, owner);
		if (rbd_object(entry, kind) && !ps->rbd[0])
			snprintf(ps->rbd, sizeof(ps->rbd), "%s", entry);
		if (kind == RADOS_NAME_NONE && !run)
			ps->foreign++;
		if (kind == RADOS_NAME_NONE || (run && strcmp(owner, run) != 0) ||
		    listed(live, owner))
			continue;
		ps->candidates++;
		if (!remove) {
			/* the runs whose records are here: each asked if live */
			if (meta && kind == RADOS_NAME_META && !listed(meta, owner) &&
			    (r = names_add(meta, owner)) < 0)
				break;
			continue;
		}
		if ((r = names_add(kind == RADOS_NAME_META ? meta : &batch, entry)) < 0)
			break;
		if (batch.n == BATCH) {
			r = remove_all(io, &batch, ps);
			names_free(&batch);
			if (r < 0)
				break;
		}
	}
	rados_nobjects_list_close(ctx);
	if (r == -ENOENT)
		r = remove_all(io, &batch, ps);
	names_free(&batch);
	return r;
}

/* The registry, then a look over the namespace (ps: what it found, of run
 * or of every run when NULL): a namespace RBD uses is refused before
 * anything is written or removed there. 0, or -errno with e set. */
static int ns_look(rados_ioctx_t io, const char *pool, const char *run, const char *whose,
		   struct names *runs, struct pass *ps, struct cb_err *e)
{
	int r = registered(io);
	if (r > 0)
		return rbd_uses(e, pool, "listed in the pool's RBD namespace registry");
	if (r == 0)
		r = pass_over(io, run, false, runs, NULL, ps);
	if (r == 0 && ps->rbd[0]) {
		char why[160];
		snprintf(why, sizeof(why), "it holds %.128s", ps->rbd);
		return rbd_uses(e, pool, why);
	}
	if (r < 0)
		cb_err_cluster(e, r, "listing the objects of %s in namespace '%s' of pool '%s': %s",
			       whose, CB_RADOS_NS, pool, strerror(-r));
	return r;
}

int cb_rados_ns_check(rados_ioctx_t io, struct cb_err *e)
{
	char pool[128] = "?";
	struct pass ps = {0};
	rados_ioctx_get_pool_name(io, pool, sizeof(pool));
	return ns_look(io, pool, NULL, "every run", NULL, &ps, e);
}

/* Of the runs named, those a live run holds (cb_rados_live_ask) into
 * live, the first's holder into who. A run that cannot be asked (caps
 * without notify) is taken for not live, as before there was asking. */
static int live_runs(rados_ioctx_t io, const struct names *runs, struct names *live, char *who,
		     size_t n)
{
	char w[160];
	for (size_t i = 0; i < runs->n; i++) {
		if (cb_rados_live_ask(io, runs->v[i], w, sizeof(w)) <= 0)
			continue;
		if (!live->n)
			snprintf(who, n, "%s", w);
		int r = names_add(live, runs->v[i]);
		if (r < 0)
			return r;
	}
	return 0;
}

int cb_rados_remove(rados_ioctx_t io, const char *run, struct rados_removal *out, struct cb_err *e)
{
	struct names meta = {0}, runs = {0}, live = {0};
	struct pass ps = {0};
	char pool[128] = "?", whose[96], who[160] = "";
	rados_ioctx_get_pool_name(io, pool, sizeof(pool));
	if (run)
		snprintf(whose, sizeof(whose), "run '%s'", run);
	else
		snprintf(whose, sizeof(whose), "every run");
	int r = ns_look(io, pool, run, whose, &runs, &ps, e);
	if (r == 0)
		r = live_runs(io, &runs, &live, who, sizeof(who));
	names_free(&runs);
	if (r < 0) {
		names_free(&live);
		return cb_err_isset(e) ? r : cb_err_cluster(e, r, "out of memory");
	}
	/* a few passes at most: a live run writing under the same name would
	 * keep one removing objects */
	for (int pass = 0; r == 0 && ps.candidates > 0; pass++) {
		if (pass == 4) {
			/* objects keep coming: say so, and keep the metadata that
			 * says what they are */
			names_free(&meta);
			names_free(&live);
			return cb_err_cluster(
			    e, -EBUSY,
			    "objects of %s in namespace '%s' of pool '%s' keep appearing (%llu "
			    "removed in the last of %d passes): is a run of that name still "
			    "writing? stop it, then clean up again",
			    whose, CB_RADOS_NS, pool, (unsigned long long)ps.removed, pass);
		}
		out->removed += ps.removed;
		names_free(&meta);
		ps = (struct pass){0};
		r = pass_over(io, run, true, &meta, &live, &ps);
		if (r == 0 && ps.removed == 0)
			break;
	}
	out->removed += ps.removed;
	ps.removed = 0;
	if (r == 0)
		r = remove_all(io, &meta, &ps);
	out->removed += ps.removed;
	out->foreign += ps.foreign;
	if (r < 0)
		cb_err_cluster(e, r, "removing objects of %s in namespace '%s' of pool '%s': %s",
			       whose, CB_RADOS_NS, pool, strerror(-r));
	else if (live.n)
		r = cb_err_cluster(
		    e, -EBUSY,
		    "kept the objects of run '%s'%s in namespace '%s' of pool '%s': a "
		    "live run (%s) uses them",
		    live.v[0], live.n > 1 ? " and other live runs" : "", CB_RADOS_NS, pool, who);
	names_free(&meta);
	names_free(&live);
	return r;
}
