#!/usr/bin/env bash
# Two runs on one cluster never overlap: a second run is refused (exit 3,
# naming the holder's pid) or, with --wait, runs once the first has ended;
# SIGINT while waiting ends it (exit 130, nothing made); a holder killed with
# -9 leaves a stale pid in the lock file that blocks nobody.
. "$(dirname "$0")/lib.sh"

# The test's own run directory: its lock files are the test's to look at.
export CEPHBENCH_RUN_DIR=$T/run
bg=
lock_exit() {
	[ -n "$bg" ] && kill -KILL $bg 2>/dev/null && wait $bg 2>/dev/null
	at_exit
}
trap lock_exit EXIT

# A long run in the background holding the lock; its pid in $bg once the
# lock file names it.
holder() { # RUN-NAME
	"$CEPHBENCH" rados write -p "$POOL" --conf "$CONF" --duration 20 -b 4K --run-name "$1" \
		--quiet >"$T/$1.out" 2>"$T/$1.err" &
	bg=$!
	for _ in $(seq 1 300); do
		grep -qs "^pid=$bg run=$1 " "$T"/run/cephbench-*.lock && return 0
		kill -0 $bg 2>/dev/null || fail "holder $1 exited early: $(cat "$T/$1.err")"
		sleep 0.1
	done
	fail "holder $1: the lock file never named pid $bg: $(cat "$T"/run/*.lock 2>&1)"
}

# Wait until FILE holds the fixed string, while process PID lives.
wait_for_text() { # FILE STRING PID
	for _ in $(seq 1 300); do
		grep -qF -- "$2" "$1" 2>/dev/null && return 0
		kill -0 "$3" 2>/dev/null || fail "pid $3 exited before saying '$2': $(cat "$1")"
		sleep 0.1
	done
	fail "pid $3 never said '$2': $(cat "$1")"
}

assert_ns_empty "before the test"

# 1. A second run while the first holds the lock: exit 3, one line naming
#    the holder, the lock file and --wait; it wrote nothing.
holder first
first=$bg
[ "$(stat -c %a "$T/run")" = 700 ] || fail "run directory made with mode $(stat -c %a "$T/run")"
cb rados write -p "$POOL" --conf "$CONF" --duration 1 -b 4K --run-name second --quiet
assert_rc 3 "a second run beside a live one"
one_line "a second run beside a live one" "is being benchmarked by pid $first" "run 'first'" \
	"$T/run/cephbench-" ".lock" "--wait"
ns_has "^second\." && fail "the refused run wrote objects"

# cephbench cleanup takes no lock: it runs beside a live run.
cb cleanup --pool "$POOL" --conf "$CONF" --run-name nothing-here
assert_rc 0 "cleanup beside a live run"

# 2. --wait: says once that it waits, runs after the holder ended, exit 0
#    with its report.
"$CEPHBENCH" rados write -p "$POOL" --conf "$CONF" --duration 1 -b 4K --run-name waiter --wait \
	>"$T/waiter.out" 2>"$T/waiter.err" &
waiter=$!
wait_for_text "$T/waiter.err" "waiting for pid $first (run 'first'" $waiter
ns_has "^waiter\." && fail "the waiting run wrote while the holder ran"
wait_bg $first
bg=
assert_rc 0 "the holder"
wait_bg $waiter
assert_rc 0 "the waiting run (stderr: $(cat "$T/waiter.err"))"
[ "$(grep -c "^waiting for" "$T/waiter.err")" -eq 1 ] || fail "waiting said more than once: $(cat "$T/waiter.err")"
grep -Eq "^write +rados +write " "$T/waiter.out" || fail "the waiting run printed no report: $(cat "$T/waiter.out")"
grep -q "^pid=$waiter run=waiter " "$T"/run/cephbench-*.lock || fail "the waiting run did not record itself"
assert_ns_empty "after the holder and the waiting run"

# 3. SIGINT while waiting: exit 130, no report, nothing written; the holder
#    goes on.
holder second
"$CEPHBENCH" rados write -p "$POOL" --conf "$CONF" --duration 1 -b 4K --run-name quitter --wait \
	>"$T/quitter.out" 2>"$T/quitter.err" &
quitter=$!
wait_for_text "$T/quitter.err" "waiting for pid $bg" $quitter
kill -INT $quitter
wait_bg $quitter
assert_rc 130 "SIGINT while waiting (stderr: $(cat "$T/quitter.err"))"
[ -s "$T/quitter.out" ] && fail "SIGINT while waiting printed a report: $(cat "$T/quitter.out")"
ns_has "^quitter\." && fail "the interrupted waiting run wrote objects"
kill -0 $bg 2>/dev/null || fail "the holder died with the waiting run: $(cat "$T/second.err")"

# 4. kill -9 of the holder: its pid stays in the file, the next run locks.
dead=$bg
kill -KILL $bg
wait_bg $bg
bg=
grep -q "^pid=$dead " "$T"/run/cephbench-*.lock || fail "not the case under test: the lock file does not name the dead pid"
cb rados write -p "$POOL" --conf "$CONF" --duration 1 -b 4K --run-name after --quiet
assert_rc 0 "a run after kill -9 of the holder"
grep -q "^pid=[0-9]* run=after " "$T"/run/cephbench-*.lock || fail "the new run did not record itself"
cb cleanup --pool "$POOL" --conf "$CONF" --run-name second --quiet
assert_ns_empty "after kill -9 and cleanup"

# 5. A run directory of another user is refused (exit 2), as is one others
#    may write to.
if [ "$(id -u)" -eq 0 ]; then
	mkdir -m 700 "$T/foreign"
	chown 65534 "$T/foreign"
	CEPHBENCH_RUN_DIR=$T/foreign cb rados write -p "$POOL" --conf "$CONF" --duration 1 --quiet
	assert_rc 2 "a run directory of another user"
	one_line "a run directory of another user" "$T/foreign" "belongs to uid 65534" "CEPHBENCH_RUN_DIR"
fi
mkdir -m 777 "$T/open"
chmod 777 "$T/open"
CEPHBENCH_RUN_DIR=$T/open cb rados write -p "$POOL" --conf "$CONF" --duration 1 --quiet
assert_rc 2 "a run directory others may write to"
one_line "a run directory others may write to" "$T/open" "writable by others"
assert_ns_empty "at the end"
echo ok
