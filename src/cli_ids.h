/* The getopt ids of the CLI's long flags, allocated by this one enum: ids
 * handed out by hand from bases in several headers collided as flags were
 * added. Above 255, clear of the short flags, which are their letters. A
 * flag spelled alike in two commands keeps one id. */
#ifndef CB_CLI_IDS_H
#define CB_CLI_IDS_H

enum cb_cli_id {
	/* the flags cb_cli_common handles */
	CB_OPT_CONF = 1000,
	CB_OPT_CLIENT,
	CB_OPT_KEYRING,
	CB_OPT_TIMEOUT,
	CB_OPT_RUN_NAME,
	CB_OPT_FORMAT,
	CB_OPT_JSON,
	CB_OPT_HTML,
	CB_OPT_NO_CLEANUP,
	CB_OPT_QUIET,
	CB_OPT_ALLOW_DESTRUCTIVE,
	CB_OPT_WAIT,
	CB_OPT_CEPH_DEBUG,
	CB_OPT_HELP,
	CB_OPT_DETAIL,
	CB_OPT_HISTORY, /* the health flags, health.h */
	CB_OPT_REGRESSION,
	CB_OPT_BASELINE,
	CB_OPT_PROM,
	CB_OPT_PREFLIGHT, /* the pre-flight gate's */
	CB_OPT_NO_PREFLIGHT,
	CB_OPT_PROGRESS,
	/* one command's own */
	CB_OPT_DRY_RUN,	   /* run */
	CB_OPT_ALL,	   /* cleanup */
	CB_OPT_CONFIDENCE, /* compare */
	CB_OPT_FAIL_IF_WORSE,
	CB_OPT_BY,
	CB_OPT_PROFILE, /* history */
	CB_OPT_WORKLOAD,
	CB_OPT_LAST,
	CB_OPT_ADD,
	/* Last, as the range runs on: row i of a flag table made at run time
	 * (an ad-hoc command's, cleanup's target kinds) is CB_OPT_ROW + i. */
	CB_OPT_ROW,
};

#endif
