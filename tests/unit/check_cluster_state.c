/* The cluster's state read from `ceph status -f json` outputs (trimmed from
 * a Pacific sandbox: healthy, noscrub set, an OSD down with its PGs
 * degraded, a deep scrub) and judged: the pre-flight verdict per level
 * and allow list, and a phase's disturbance from its start to a later
 * sample. */
#include "cluster_state.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#define OSDMAP(up, in)                                                                             \
	"\"osdmap\": {\"num_osds\": 3, \"num_up_osds\": " #up ", \"num_in_osds\": " #in "}"

static const char healthy[] =
    "{\"health\": {\"status\": \"HEALTH_OK\", \"checks\": {}},"
    " \"pgmap\": {\"num_pgs\": 65, \"pgs_by_state\": [{\"state_name\": \"active+clean\", "
    "\"count\": 65}]}, " OSDMAP(3, 3) "}";

static const char noscrub[] =
    "{\"health\": {\"status\": \"HEALTH_WARN\", \"checks\": {\"OSDMAP_FLAGS\": {\"severity\": "
    "\"HEALTH_WARN\", \"summary\": {\"message\": \"noscrub flag(s) set\"}}}},"
    " \"pgmap\": {\"num_pgs\": 65, \"pgs_by_state\": [{\"state_name\": \"active+clean\", "
    "\"count\": 65}]}, " OSDMAP(3, 3) "}";

static const char osd_down[] =
    "{\"health\": {\"status\": \"HEALTH_WARN\", \"checks\": {"
    "\"OSD_DOWN\": {\"severity\": \"HEALTH_WARN\", \"summary\": {\"message\": \"1 osds down\"}},"
    "\"PG_DEGRADED\": {\"severity\": \"HEALTH_WARN\", \"summary\": {\"message\": \"Degraded data "
    "redundancy: 24 pgs degraded\"}}}},"
    " \"pgmap\": {\"num_pgs\": 65, \"pgs_by_state\": ["
    "{\"state_name\": \"active+undersized+degraded\", \"count\": 24},"
    "{\"state_name\": \"active+undersized\", \"count\": 28},"
    "{\"state_name\": \"active+clean\", \"count\": 13}]}, " OSDMAP(2, 3) "}";

static const char scrubbing[] =
    "{\"health\": {\"status\": \"HEALTH_OK\", \"checks\": {}},"
    " \"pgmap\": {\"num_pgs\": 65, \"pgs_by_state\": ["
    "{\"state_name\": \"active+clean\", \"count\": 62},"
    "{\"state_name\": \"active+clean+scrubbing+deep\", \"count\": 3}]}, " OSDMAP(3, 3) "}";

static const char full[] =
    "{\"health\": {\"status\": \"HEALTH_ERR\", \"checks\": {\"OSD_FULL\": {\"severity\": "
    "\"HEALTH_ERR\", \"summary\": {\"message\": \"1 full osd(s)\"}}}},"
    " \"pgmap\": {\"num_pgs\": 65, \"pgs_by_state\": [{\"state_name\": \"active+clean\", "
    "\"count\": 65}]}, " OSDMAP(3, 3) "}";

static void parse(const char *text, struct cb_cstate *st)
{
	json_t *j = json_loads(text, 0, NULL);
	ck_assert_ptr_nonnull(j);
	ck_assert_int_eq(cb_cstate_parse(j, st), 0);
	json_decref(j);
}

/* The verdict of text under req with allow; the reasons joined by ", " into
 * buf. */
static bool ready(const char *text, enum cb_pf_require req, char *const *allow, size_t n, char *buf,
		  size_t len)
{
	struct cb_cstate st;
	parse(text, &st);
	json_t *r = json_array();
	bool ok = cb_cstate_ready(&st, req, allow, n, r);
	size_t i;
	json_t *v;
	buf[0] = '\0';
	json_array_foreach(r, i, v)
	{
		if (i)
			strncat(buf, ", ", len - strlen(buf) - 1);
		strncat(buf, json_string_value(v), len - strlen(buf) - 1);
	}
	json_decref(r);
	ck_assert_int_eq(ok, buf[0] == '\0');
	return ok;
}

START_TEST(parsed)
{
	struct cb_cstate st;
	parse(osd_down, &st);
	ck_assert_int_eq(st.health, CB_CS_WARN);
	ck_assert_uint_eq(st.nchecks, 2);
	ck_assert_uint_eq(st.pgs, 65);
	ck_assert_uint_eq(cb_cstate_pgs(&st, "degraded"), 24);
	ck_assert_uint_eq(cb_cstate_pgs(&st, "undersized"), 52);
	ck_assert_uint_eq(cb_cstate_pgs(&st, "clean"), 0);
	ck_assert_uint_eq(st.up, 2);
	parse(scrubbing, &st);
	ck_assert_uint_eq(cb_cstate_pgs(&st, "deep-scrubbing"), 3);
	ck_assert_uint_eq(cb_cstate_pgs(&st, "scrubbing"), 0);
	ck_assert_uint_eq(cb_cstate_pgs(&st, "deep"), 0);
	json_t *bad = json_loads("{\"health\": {}}", 0, NULL);
	ck_assert_int_lt(cb_cstate_parse(bad, &st), 0);
	json_decref(bad);
}
END_TEST

START_TEST(verdicts)
{
	char why[1024];
	char *allow[] = {"OSDMAP_FLAGS"};
	ck_assert(ready(healthy, CB_PF_OK, NULL, 0, why, sizeof(why)));
	ck_assert(!ready(noscrub, CB_PF_OK, NULL, 0, why, sizeof(why)));
	ck_assert_str_eq(why, "HEALTH_WARN OSDMAP_FLAGS (noscrub flag(s) set)");
	ck_assert(ready(noscrub, CB_PF_OK, allow, 1, why, sizeof(why)));
	ck_assert(ready(noscrub, CB_PF_WARN, NULL, 0, why, sizeof(why)));
	/* the PGs named, most first; the checks that only repeat them left out */
	ck_assert(!ready(osd_down, CB_PF_WARN, NULL, 0, why, sizeof(why)));
	ck_assert_str_eq(why, "52 pgs undersized, 24 pgs degraded, 1 osd down");
	/* allow names checks; degraded PGs are judged by their state */
	char *allow_deg[] = {"PG_DEGRADED", "OSD_DOWN"};
	ck_assert(!ready(osd_down, CB_PF_OK, allow_deg, 2, why, sizeof(why)));
	ck_assert(ready(osd_down, CB_PF_ANY, NULL, 0, why, sizeof(why)));
	/* a scrub is routine under warn, not ready under ok */
	ck_assert(ready(scrubbing, CB_PF_WARN, NULL, 0, why, sizeof(why)));
	ck_assert(!ready(scrubbing, CB_PF_OK, NULL, 0, why, sizeof(why)));
	ck_assert_str_eq(why, "3 pgs deep-scrubbing");
	/* a check the operator muted (ceph health mute) is ignored */
	static const char muted[] =
	    "{\"health\": {\"status\": \"HEALTH_OK\", \"checks\": {\"OSDMAP_FLAGS\": "
	    "{\"severity\": "
	    "\"HEALTH_WARN\", \"summary\": {\"message\": \"noout flag(s) set\"}, \"muted\": "
	    "true}}},"
	    " \"pgmap\": {\"num_pgs\": 1, \"pgs_by_state\": [{\"state_name\": \"active+clean\", "
	    "\"count\": 1}]}, " OSDMAP(3, 3) "}";
	ck_assert(ready(muted, CB_PF_OK, NULL, 0, why, sizeof(why)));
	ck_assert(!ready(full, CB_PF_WARN, NULL, 0, why, sizeof(why)));
	ck_assert_str_eq(why, "HEALTH_ERR OSD_FULL (1 full osd(s))");
	/* a pool just made: its PGs peering, a moment's state; degraded is not */
	static const char peering[] =
	    "{\"health\": {\"status\": \"HEALTH_WARN\", \"checks\": {}},"
	    " \"pgmap\": {\"num_pgs\": 9, \"pgs_by_state\": [{\"state_name\": \"active+clean\", "
	    "\"count\": 1}, {\"state_name\": \"creating+peering\", \"count\": 8}]}, " OSDMAP(3,
											     3) "}";
	struct cb_cstate st;
	ck_assert(!ready(peering, CB_PF_WARN, NULL, 0, why, sizeof(why)));
	ck_assert_str_eq(why, "8 pgs creating, 8 pgs inactive, 8 pgs peering");
	parse(peering, &st);
	ck_assert(cb_cstate_transient(&st));
	parse(osd_down, &st);
	ck_assert(!cb_cstate_transient(&st));
	parse(healthy, &st);
	ck_assert(!cb_cstate_transient(&st));
}
END_TEST

/* An OSD up but out beside one in but down: the counts (up 2, in 2) hide
 * the down one, the OSD map does not (issue 41, item 9). */
START_TEST(out_hides_down)
{
	static const char counts[] =
	    "{\"health\": {\"status\": \"HEALTH_WARN\", \"checks\": {}},"
	    " \"pgmap\": {\"num_pgs\": 1, \"pgs_by_state\": [{\"state_name\": \"active+clean\", "
	    "\"count\": 1}]}, " OSDMAP(2, 2) "}";
	struct cb_cstate st;
	json_t *r = json_array();
	parse(counts, &st);
	/* the counts alone: the down OSD is not seen (what the gate did) */
	ck_assert(cb_cstate_ready(&st, CB_PF_WARN, NULL, 0, r));
	json_t *d = json_loads("{\"osds\": [{\"osd\": 0, \"up\": 1, \"in\": 1}, {\"osd\": 1, "
			       "\"up\": 1, \"in\": 0}, {\"osd\": 2, \"up\": 0, \"in\": 1}]}",
			       0, NULL);
	ck_assert_int_eq(cb_cstate_parse_osds(d, &st), 0);
	ck_assert(!cb_cstate_ready(&st, CB_PF_WARN, NULL, 0, r));
	ck_assert_str_eq(json_string_value(json_array_get(r, 0)), "1 osd down");
	/* the same OSD out as well: a smaller cluster under warn, no reason */
	json_t *d2 = json_loads("{\"osds\": [{\"osd\": 0, \"up\": 1, \"in\": 1}, {\"osd\": 1, "
				"\"up\": 1, \"in\": 1}, {\"osd\": 2, \"up\": 0, \"in\": 0}]}",
				0, NULL);
	ck_assert_int_eq(cb_cstate_parse_osds(d2, &st), 0);
	json_t *r2 = json_array();
	ck_assert(cb_cstate_ready(&st, CB_PF_WARN, NULL, 0, r2));
	json_decref(r2);
	json_decref(d2);
	json_decref(d);
	json_decref(r);
}
END_TEST

static void collect(void *arg, const char *key, const char *text)
{
	char *buf = arg;
	size_t n = strlen(buf);
	snprintf(buf + n, 1024 - n, "%s%s=%s", n ? "; " : "", key, text);
}

START_TEST(changes)
{
	struct cb_cstate a, b;
	char got[1024] = "";
	parse(healthy, &a);
	parse(healthy, &b);
	cb_cstate_changes(&a, &b, collect, got);
	ck_assert_str_eq(got, "");
	parse(osd_down, &b);
	cb_cstate_changes(&a, &b, collect, got);
	ck_assert_str_eq(got,
			 "pg:undersized=52 pgs undersized; pg:degraded=24 pgs degraded; "
			 "osd:down=1 osd down; check:OSD_DOWN=HEALTH_WARN OSD_DOWN (1 osds down); "
			 "check:PG_DEGRADED=HEALTH_WARN PG_DEGRADED (Degraded data redundancy: "
			 "24 pgs degraded)");
	/* by id once the OSD map is known on both sides */
	json_t *d0 = json_loads("{\"osds\": [{\"osd\": 0, \"up\": 1, \"in\": 1}, {\"osd\": 1, "
				"\"up\": 1, \"in\": 1}]}",
				0, NULL);
	json_t *d1 = json_loads("{\"osds\": [{\"osd\": 0, \"up\": 1, \"in\": 1}, {\"osd\": 1, "
				"\"up\": 0, \"in\": 1}]}",
				0, NULL);
	ck_assert_int_eq(cb_cstate_parse_osds(d0, &a), 0);
	ck_assert_int_eq(cb_cstate_parse_osds(d1, &b), 0);
	got[0] = '\0';
	cb_cstate_changes(&a, &b, collect, got);
	ck_assert_ptr_nonnull(strstr(got, "osd:1:down=osd.1 down"));
	json_decref(d0);
	json_decref(d1);
	/* a scrub that started */
	parse(scrubbing, &b);
	got[0] = '\0';
	cb_cstate_changes(&a, &b, collect, got);
	ck_assert_str_eq(got, "pg:deep-scrubbing=pg deep-scrubbing");
	/* a scrub already running at the start is no change */
	parse(scrubbing, &a);
	got[0] = '\0';
	cb_cstate_changes(&a, &b, collect, got);
	ck_assert_str_eq(got, "");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("cluster_state");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, parsed);
	tcase_add_test(tc, verdicts);
	tcase_add_test(tc, changes);
	tcase_add_test(tc, out_hides_down);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
