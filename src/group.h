/* Workloads running together (`together: NAME`): every member's clients
 * meet at one start line, and the members stop together. The start line
 * and the stop are here (the phase loop calls them); running the members
 * side by side is run_group.c's; the report's side-by-side table is
 * group_report.c's. */
#ifndef CB_GROUP_H
#define CB_GROUP_H

#include <stdbool.h>
#include <stdio.h>

struct cb_result;
struct cb_phase_result;
struct json_t;

struct cb_group;
struct cb_workload;

/* Cross-key checks of together, role and alone at profile load. 0, or
 * -EINVAL with why. */
int cb_group_check(const struct cb_workload *wl, char *why, size_t n);
/* ... and of a member against the workloads above it (above[0..n)): the
 * group's members repeat alike (a round's members run side by side), and
 * alone names one that ran before the group. */
int cb_group_check_members(const struct cb_workload *wl, const struct cb_workload *const *above,
			   size_t n, char *why, size_t len);

/* A start line for clients clients in all (every member's first phase),
 * and a stop once measure members (role: measure) are done. NULL on ENOMEM. */
struct cb_group *cb_group_new(unsigned clients, unsigned measure);
void cb_group_free(struct cb_group *g);

/* A client at the start line, set up (ok) or not: waits until every
 * client arrived (or left); true when all of them set up. Once the line
 * has opened, a member's later phase passes it at once: true when ok. */
bool cb_group_arrive(struct cb_group *g, bool ok);
/* count clients will never arrive (a member skipped, or its phase never
 * started); as if they arrived, set up or not (ok). */
void cb_group_leave(struct cb_group *g, unsigned count, bool ok);

/* A member ran its last phase: the last measure member's end stops the
 * rest (the load). */
void cb_group_done(struct cb_group *g, bool load);
/* Whether the group is stopping: a load member runs no further phase. */
bool cb_group_stopped(struct cb_group *g);
/* A loop's look, off the per-op path: *sig (a signal this loop read) is
 * shared with every member, and comes back set when any member read one;
 * true when the group is stopping (stopped, or a signal). */
bool cb_group_poll(struct cb_group *g, bool *sig);

/* A row's group figures (group, role, alone) into its JSON object. */
int cb_group_row_json(const struct cb_phase_result *p, struct json_t *o);
/* The run's side-by-side table (rows alone and together, the slowdown),
 * into the record's root, and under the report's table. */
int cb_group_json(const struct cb_result *r, struct json_t *root);
/* ... rendered from the record (its phases' groups, its "interference"). */
void cb_group_text(const struct json_t *rec, FILE *out);

#endif
