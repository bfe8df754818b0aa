# Shared by the fault tests that need the fault sandbox (3 OSDs, size-2
# pools): its conf becomes CONF for tests/cluster/lib.sh's helpers, and
# osd_stop / osd_start / mon_stop / mon_start act on its daemons by pid file.
: "${CEPHBENCH_FAULT_CONF:?CEPHBENCH_FAULT_CONF must name the fault sandbox conf}"
: "${CEPHBENCH_FAULT_SANDBOX:?CEPHBENCH_FAULT_SANDBOX must name the fault sandbox directory}"
CEPHBENCH_TEST_CONF=$CEPHBENCH_FAULT_CONF
. "$(dirname "${BASH_SOURCE[0]}")/../cluster/lib.sh"
FAULT_DIR=$CEPHBENCH_FAULT_SANDBOX

# The pid of the fault sandbox's daemon NAME (osd.1, mon.a), if it runs.
daemon_pid() {
	local pid
	pid=$(cat "$FAULT_DIR/run/$1.pid" 2>/dev/null) || return 1
	[ -n "$pid" ] && [ -d "/proc/$pid" ] && tr '\0' '\n' <"/proc/$pid/cmdline" | grep -qxF -- "$CONF" &&
		echo "$pid"
}

# ceph against the fault sandbox, bounded: a command sent while the monitor
# is away must not hang the test.
fceph() {
	timeout 60 ceph --conf "$CONF" --connect-timeout 20 "$@"
}

# Wait (at most 90 s) until the cluster says osd.N is up (1) or down (0).
osd_wait() {
	local id=$1 want=$2
	for _ in $(seq 1 180); do
		[ "$(fceph osd dump -f json 2>/dev/null | /usr/bin/python3 -c '
import json, sys
print(next(o["up"] for o in json.load(sys.stdin)["osds"] if o["osd"] == int(sys.argv[1])))' "$id")" = "$want" ] &&
			return 0
		sleep 0.5
	done
	fail "osd.$id did not turn $([ "$want" = 1 ] && echo up || echo down) within 90 s"
}

# kill -9 osd.N (a crash, not a shutdown) and wait until the cluster has
# marked it down.
osd_stop() {
	local pid
	pid=$(daemon_pid "osd.$1") || fail "osd.$1 is not running"
	kill -KILL "$pid"
	while [ -d "/proc/$pid" ]; do sleep 0.1; done
	osd_wait "$1" 0
}

osd_start() {
	daemon_pid "osd.$1" >/dev/null && fail "osd.$1 is already running"
	ceph-osd --conf "$CONF" -i "$1" >>"$FAULT_DIR/log/osd.$1.out" 2>&1 || fail "ceph-osd $1 did not start"
	osd_wait "$1" 1
}

# Stop the monitor (SIGTERM) and wait until it is gone.
mon_stop() {
	local pid
	pid=$(daemon_pid mon.a) || fail "mon.a is not running"
	kill -TERM "$pid"
	while [ -d "/proc/$pid" ]; do sleep 0.1; done
}

# Start the monitor and wait (at most 60 s) until it answers.
mon_start() {
	daemon_pid mon.a >/dev/null && fail "mon.a is already running"
	ceph-mon --conf "$CONF" -i a >>"$FAULT_DIR/log/mon.a.out" 2>&1 || fail "ceph-mon did not start"
	for _ in $(seq 1 60); do
		fceph mon stat >/dev/null 2>&1 && return 0
		sleep 1
	done
	fail "the monitor did not answer within 60 s of its start"
}

# Wait (at most 120 s) until every PG is active+clean again, so the next
# test starts from a healthy cluster.
wait_clean() {
	for _ in $(seq 1 240); do
		fceph pg stat -f json 2>/dev/null | /usr/bin/python3 -c '
import json, sys
s = json.load(sys.stdin)
s = s.get("pg_summary", s)
st = {x["name"]: x["num"] for x in s["num_pg_by_state"]}
sys.exit(0 if st.get("active+clean", 0) == s["num_pgs"] else 1)' && return 0
		sleep 0.5
	done
	fail "PGs not active+clean within 120 s: $(fceph pg stat 2>&1)"
}

# Run cephbench (arguments as for cb) in the background; three seconds in,
# freeze osd.1 (SIGSTOP) for a second and a half, then kill -9 it, and
# start it again four seconds after the cluster marked it down. The freeze
# makes the outage certain to show: a killed OSD refuses connections and is
# marked down at once, its ops resent within a few hundred ms (CI once saw
# a CephFS run's worst op at 276 ms), while a frozen one holds every op
# sent to it, as a hung OSD does before it dies. Exit code in $rc, output in $T/out and $T/err; the outage (kill
# to up again, in seconds) in $T/outage. The OSD comes back empty (memstore)
# and recovers: once the run has ended, every PG is waited for to be clean
# again, before the caller's checks, so that one failing does not leave the
# next fault test a degraded cluster (a failed osd_kill_cephfs once made
# slow_osd fail too).
cb_osd_bounce() {
	local pid t0
	set +e
	timeout 300 "$CEPHBENCH" "$@" >"$T/out" 2>"$T/err" &
	pid=$!
	set -e
	sleep 3
	t0=$EPOCHREALTIME
	kill -STOP "$(daemon_pid osd.1)" || fail "cannot freeze osd.1"
	sleep 1.5
	osd_stop 1
	sleep 4
	osd_start 1
	awk "BEGIN { printf \"%.1f\\n\", $EPOCHREALTIME - $t0 }" >"$T/outage"
	wait_bg "$pid"
	wait_clean
}

# The stall an outage leaves in the one phase of result JSON FILE: its
# maximum latency is at least MIN_MS, and some two adjacent whole seconds
# (not the last, which is cut short) together completed under one and a
# half times the ops of the median second among those that completed any:
# at least half a second's work lost, wherever the stall fell across the
# seconds' boundaries (a stall of 0.7 s has left 45 % and 76 % of the
# median in two seconds). Prints what it saw.
assert_stall() { # FILE MIN_MS
	/usr/bin/python3 - "$@" <<'PY' || fail "no stall in the result $1"
import json, statistics, sys
path, min_ms = sys.argv[1], float(sys.argv[2])
[ph] = json.load(open(path))["phases"]
name = ph["name"]
secs = [s["ops"] for s in ph["samples"][:-1]]
med = statistics.median([n for n in secs if n] or [0])
low = min(range(len(secs) - 1), key=lambda i: secs[i] + secs[i + 1])
pair = secs[low] + secs[low + 1]
mx = ph["latency_us"]["max"] / 1000
print(f"{name}: {ph['ops']} ops, {ph['errors']} errors, max latency {mx:.0f} ms, "
      f"slowest two seconds t={low},{low + 1}: {pair} ops (median second {med:.0f}); "
      f"per second: {secs}")
if mx < min_ms:
    sys.exit(f"max latency {mx:.0f} ms < {min_ms:.0f} ms")
if pair >= 1.5 * med:
    sys.exit(f"no two seconds together below 1.5 times the median {med}")
PY
}

# Field F of the one phase of result JSON FILE.
phase_field() { # FILE F
	/usr/bin/python3 -c '
import json, sys
[ph] = json.load(open(sys.argv[1]))["phases"]
print(ph[sys.argv[2]])' "$@"
}

# Run cephbench (arguments as for cb, with --timeout 5s among them) under a
# bound of BOUND seconds; three seconds in (or $OUTAGE_AFTER), stop the
# monitor; start it again four seconds later (WHEN=during) or once the run
# has ended (WHEN=after).
# Exit code in $rc (124: the bound was hit), output in $T/out and $T/err,
# the run's wall time in $T/took.
cb_mon_outage() { # WHEN BOUND ARGS...
	local when=$1 bound=$2 pid t0=$SECONDS
	shift 2
	set +e
	timeout "$bound" "$CEPHBENCH" "$@" >"$T/out" 2>"$T/err" &
	pid=$!
	set -e
	sleep "${OUTAGE_AFTER:-3}"
	mon_stop
	if [ "$when" = during ]; then
		sleep 4
		mon_start
	fi
	wait_bg "$pid"
	echo $((SECONDS - t0)) >"$T/took"
	[ "$when" = during ] || mon_start
	[ "$rc" -ne 124 ] || fail "the run was still going after ${bound} s: $(tail -3 "$T/err")"
}

# A run through a monitor outage either goes on (its OSD sessions need no
# monitor: exit 0, the report printed) or ends with exit 3 and one line.
assert_outage_outcome() { # WHAT
	case $rc in
	0) [ -s "$T/out" ] || fail "$1: exit 0 without a report" ;;
	3) one_line "$1" "cephbench " ;;
	*) fail "$1: exit $rc, expected 0 or 3; stderr: $(cat "$T/err")" ;;
	esac
	echo "$1: exit $rc after $(cat "$T/took") s"
}

# Run cephbench (arguments as for cb) under a bound of BOUND seconds; once
# its measured phase runs (a progress tick with ops, --progress jsonl, then
# a second more), hold every OSD op for CB_PAUSE_S seconds, eight unless
# set (ceph osd pause: clients keep their ops queued, as with a stuck OSD).
# Exit code in $rc (124: the bound was hit), output in $T/out and $T/err
# (the progress lines apart, in $T/progress).
cb_paused() { # BOUND ARGS...
	local bound=$1 pid hold=${CB_PAUSE_S:-8}
	shift
	set +e
	timeout "$bound" "$CEPHBENCH" "$@" --progress jsonl >"$T/out" 2>"$T/err.all" &
	pid=$!
	set -e
	# the pause must fall in the measured phase, not in a setup slowed by
	# a loaded host (a metadata read timing out is another failure); the
	# OSDs' write counts once told, until writes of something else (a
	# test before, its MDS flushing) came first and the pause hit setup
	local i
	for i in $(seq 1 300); do
		grep -qE '^\{"event":"tick".*"ramping":false,"ops":[1-9]' "$T/err.all" && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.2
	done
	[ "$i" -lt 300 ] || fail "the run's phase was not running after 60 s: $(tail -3 "$T/err.all")"
	sleep 1
	fceph osd pause >/dev/null 2>&1 || fail "ceph osd pause failed"
	sleep "$hold"
	fceph osd unpause >/dev/null 2>&1 || fail "ceph osd unpause failed"
	wait_bg "$pid"
	grep '^{"event":' "$T/err.all" >"$T/progress" || true
	grep -v '^{"event":' "$T/err.all" >"$T/err" || true
	[ "$rc" -ne 124 ] || fail "the run was still going after ${bound} s: $(tail -3 "$T/err")"
}

# A one-workload profile 'opto' (workload w: the given keys, 15 s measured,
# op_timeout 2s, the cluster timeout far longer: 60s); its path.
op_timeout_profile() { # KEYS
	profile opto <<YAML
name: opto
cluster: { timeout: 60s }
workloads:
  - { name: w, $1, duration: 15s, op_timeout: 2s }
YAML
}

# The ops stuck past op_timeout were counted as errors.
assert_timed_out() { # WHAT JSON
	local errors
	errors=$(phase_field "$2" errors)
	echo "$1: exit $rc, $(phase_field "$2" ops) ops, $errors errors"
	[ "$errors" -gt 0 ] || fail "$1: no op timed out"
}

# A workload of KEYS with op_timeout 2s through 8 s of paused OSD ops, in
# under 55 s each time (15 s measured + the pause at most + cleanup: far
# below the 60 s an op waiting for the cluster timeout would add): with a
# large max_errors it goes on once the OSDs serve again (exit 0, errors
# counted); with max_errors 0 it stops with exit 3 and one line naming
# TARGET ("pool 'bench'") and the error.
op_timeout_runs() { # WHAT KEYS TARGET
	local p
	p=$(op_timeout_profile "$2, max_errors: 1000000")
	cb_paused 55 run "$p" --conf "$CONF" --json "$T/r.json" --quiet
	assert_rc 0 "$1, max_errors 1000000"
	assert_timed_out "$1, max_errors 1000000" "$T/r.json"

	p=$(op_timeout_profile "$2, max_errors: 0")
	op_timeout_stops "$1, max_errors 0" "workload 'w': $3" run "$p"
}

# cephbench ARGS (an op timeout of 2s, max_errors 0) through 8 s of paused
# OSD ops: exit 3, errors counted, one line that holds PREFIX ("workload
# 'w': pool 'bench'") and names the error.
op_timeout_stops() { # WHAT PREFIX ARGS...
	local what=$1 prefix=$2
	shift 2
	cb_paused 55 "$@" --conf "$CONF" --json "$T/r.json" --quiet
	assert_rc 3 "$what"
	one_line "$what" "$prefix" "Connection timed out" "max_errors 0"
	assert_timed_out "$what" "$T/r.json"
	echo "  $(cat "$T/err")"
}

# Make the cluster call its OSDs full at RATIO of their space (ceph osd
# set-full-ratio, with nearfull and backfillfull alike), below the failsafe
# ratio at which an OSD drops writes unanswered. The sandbox's own ratio
# is .99 (set_full_ratio .99 gives it back).
set_full_ratio() {
	fceph osd set-nearfull-ratio "$1" >/dev/null 2>&1 &&
		fceph osd set-backfillfull-ratio "$1" >/dev/null 2>&1 &&
		fceph osd set-full-ratio "$1" >/dev/null 2>&1 || fail "cannot set the full ratio to $1"
}

# The full ratio for a test that fills the OSDs: BASE, meant for a fresh
# fault sandbox (the ballast holds 12.5 % of each OSD), or as far above the
# fullest OSD's use as BASE is above the ballast, when the tests before left
# more there (a CephFS test's MDS journal took 214 MiB of these 1 GiB
# OSDs once, and a ratio below the use made the cluster full before the
# run): the run's own writes fill them.
full_ratio_for() { # BASE
	fceph osd df -f json | /usr/bin/python3 -c '
import json, sys
base = float(sys.argv[1])
use = max(n["utilization"] for n in json.load(sys.stdin)["nodes"]) / 100
print(f"{max(base, use + base - 0.125):.3f}")' "$1" || echo "$1"
}

# Wait (at most 120 s) until no pool is flagged full.
wait_not_full() {
	for _ in $(seq 1 240); do
		fceph osd dump -f json 2>/dev/null | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
sys.exit(1 if any("full" in p["flags_names"].split(",") for p in d["pools"]) else 0)' && return 0
		sleep 0.5
	done
	fail "pools still full after 120 s: $(fceph health 2>&1)"
}

# Another MDS daemon NAME (b, c) beside the sandbox's mds.a: it joins as a
# standby, so raising max_mds (mds_ranks) gives it a rank. Its pid file is
# in the sandbox's run directory, so a sandbox stop stops it too; mds_del
# stops it and removes its key and directory.
mds_add() { # NAME
	mkdir -p "$FAULT_DIR/mds.$1"
	fceph auth get-or-create "mds.$1" mon 'allow profile mds' osd 'allow rwx' mds 'allow' \
		mgr 'allow profile mds' -o "$FAULT_DIR/mds.$1/keyring" >/dev/null || fail "no key for mds.$1"
	ceph-mds --conf "$CONF" -i "$1" >>"$FAULT_DIR/log/mds.$1.out" 2>&1 || fail "ceph-mds $1 did not start"
}

mds_del() { # NAME
	local pid
	if pid=$(daemon_pid "mds.$1"); then
		kill -CONT "$pid" 2>/dev/null || true
		kill -TERM "$pid"
		for _ in $(seq 1 100); do [ -d "/proc/$pid" ] || break; sleep 0.1; done
		kill -KILL "$pid" 2>/dev/null || true
	fi
	fceph auth rm "mds.$1" >/dev/null 2>&1 || true
	rm -rf "${FAULT_DIR:?}/mds.$1"
}

# The daemons holding file system FS's ranks, "RANK NAME STATE" a line in
# rank order.
mds_rank_list() { # FS
	fceph fs dump -f json 2>/dev/null | /usr/bin/python3 -c '
import json, sys
for f in json.load(sys.stdin)["filesystems"]:
    m = f["mdsmap"]
    if m["fs_name"] == sys.argv[1]:
        for i in sorted(m["info"].values(), key=lambda i: i["rank"]):
            print(i["rank"], i["name"], i["state"])' "$1"
}

# Set FS's max_mds to N and wait (at most 90 s) until exactly N ranks are
# up:active and none is stopping.
mds_ranks() { # FS N
	fceph fs set "$1" max_mds "$2" >/dev/null || fail "cannot set max_mds of $1 to $2"
	for _ in $(seq 1 180); do
		[ "$(mds_rank_list "$1" | grep -c ' up:active$')" = "$2" ] &&
			[ "$(mds_rank_list "$1" | grep -vc ' up:active$')" = 0 ] && return 0
		sleep 0.5
	done
	fail "$1 did not reach $2 active ranks within 90 s: $(mds_rank_list "$1" | tr '\n' ';')"
}
