#!/usr/bin/env bash
# The monitor stopped mid-run, CephFS (mon_stop.sh does RADOS and RBD):
# started again four seconds later, or only after the run. The mount's
# sessions with the MDS and the OSDs need no monitor, so the run goes on
# (or ends with exit 3: one line, and one more when its cleanup cannot mount
# without the monitor), never hangs: it ends within a bound
# derived from --timeout, and its tree is removed: by its own cleanup, or,
# when that cannot mount without the monitor, by the cleanup its line names.
. "$(dirname "$0")/../cluster/cephfs_lib.sh"

p=$(cfs_profile monstop "op: randwrite, file_size: 128M, block_size: 16K, duration: 14s")
# as mon_stop.sh: 14 s measured, then a few --timeout (5 s) waits, each
# bounded: telemetry's asks at the phase's end, the unmount (past it the
# mount is aborted), the cleanup's mount; 44 s seen for "after"
BOUND=90
# a mount takes longer to set up than a RADOS connection: stop the
# monitor well inside the measured time
export OUTAGE_AFTER=6
for when in during after; do
	cb_mon_outage "$when" "$BOUND" run "$p" --conf "$CONF" --timeout 5s
	if [ "$rc" -eq 3 ] && grep -q "^cephbench: cleanup failed too: " "$T/err"; then
		# the run's own error, and its cleanup's, which could not mount
		# without the monitor: each a line, the second naming the command
		# that removes the tree later (checked below)
		[ "$(wc -l <"$T/err")" -eq 2 ] && grep -q "^cephbench run: " "$T/err" ||
			fail "cephfs, monitor back $when: expected the run's line and the cleanup's: $(cat "$T/err")"
		echo "cephfs, monitor back $when the run: exit 3 after $(cat "$T/took") s, its cleanup left to the command it names"
	else
		assert_outage_outcome "cephfs, monitor back $when the run"
	fi
	# a mount the stopped monitor made time out says so, naming --timeout,
	# not only "is an MDS active?" (issue 19, item 9)
	if grep -qF "mount of file system" "$T/err"; then
		grep -qF "timed out after 5 s (--timeout) waiting for the cluster: the monitors are not reachable" "$T/err" ||
			fail "cephfs, monitor back $when: the mount's timeout: $(cat "$T/err")"
		echo "cephfs, monitor back $when: a mount timed out, said so"
	fi
	if [ "$rc" -eq 3 ] && grep -qF "cephbench cleanup --fs $FS --run-name monstop" "$T/err"; then
		# the run's cleanup mounts anew, which needs the monitor: its
		# line says how to remove the tree once the monitor is back
		cb cleanup --fs "$FS" --run-name monstop --conf "$CONF"
		assert_rc 0 "cephfs, the cleanup it named, monitor back"
	fi
	assert_gone /cephbench/monstop "cephfs, monitor back $when the run"
done
echo ok
