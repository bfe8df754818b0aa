/* Running a Check suite the same way in every unit test: no fork (ASan and
 * leak checks see the whole process), exit 1 when any test failed. */
#ifndef CB_UNIT_RUN_H
#define CB_UNIT_RUN_H

#include <check.h>

static inline int unit_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}

#endif
