# Shared by the fault tests that need the fault sandbox (3 OSDs, size-2
# pools): its conf becomes CONF for tests/cluster/lib.sh's helpers, and
# osd_stop / osd_start / mon_stop / mon_start act on its daemons by pid file.
: "${CEPHBENCH_FAULT_CONF:?CEPHBENCH_FAULT_CONF must name the fault sandbox conf}"
: "${CEPHBENCH_FAULT_SANDBOX:?CEPHBENCH_FAULT_SANDBOX must name the fault sandbox directory}"
CEPHBENCH_TEST_CONF=$CEPHBENCH_FAULT_CONF
. "$(dirname "${BASH_SOURCE[0]}")/../cluster/lib.sh"
FAULT_DIR=$CEPHBENCH_FAULT_SANDBOX
