/* The pre-flight gate's settings (preflight.h), apart from the gate so the
 * profile and the CLI can hold them without the cluster's headers. */
#ifndef CB_PREFLIGHT_OPTS_H
#define CB_PREFLIGHT_OPTS_H

#include <stddef.h>
#include <stdint.h>

/* What the cluster must be before the first phase. UNSET: not given (the
 * profile's, else CB_PF_WARN). OFF: --no-preflight. */
enum cb_pf_require { CB_PF_UNSET = 0, CB_PF_OK, CB_PF_WARN, CB_PF_ANY, CB_PF_OFF };

#define CB_PF_MAX_ALLOW 32

struct cb_preflight_opts {
	enum cb_pf_require require;
	uint64_t wait_ns;	      /* poll up to this long for the cluster to be ready */
	char *allow[CB_PF_MAX_ALLOW]; /* health check names ignored, owned by the profile */
	size_t nallow;
};

/* Long option ids of the gate's flags, a range of their own (as health.h's). */
enum { CB_OPT_PREFLIGHT = 1070, CB_OPT_NO_PREFLIGHT };

/* "ok", "warn", "any", "off" (UNSET: "warn"). */
const char *cb_pf_require_name(enum cb_pf_require r);
/* The level named s, or CB_PF_UNSET when s names none. */
enum cb_pf_require cb_pf_require_parse(const char *s);

#endif
