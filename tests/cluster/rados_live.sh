#!/usr/bin/env bash
# A live run's RADOS objects are protected as its images and trees are
# (issue 41, item 7): while a phase uses them it holds its record
# (<run>.meta) with a watch that answers "live", wherever the asker runs.
#  1. cleanup --run-name of a live run: exit 3, one line naming it; its
#     objects stay and the run ends with exit 0 (the repro: run B from
#     another host removed A's objects while A wrote, A said nothing);
#  2. cleanup --all beside a live run: the other runs' objects go, the
#     live run's stay, exit 3 naming it;
#  3. a namesake from another host (its own run directory, so no run lock
#     in the way): refused with exit 3 before it removes anything;
#  4. a killed run's watch answers nothing: cleanup right after kill -9
#     removes everything, exit 0 (the negative control of 1);
#  5. a run whose record is removed under it (as by a cleanup that could
#     not ask: an older cephbench, `rados rm`) says so and fails, exit 3.
. "$(dirname "$0")/lib.sh"

bg=
live_exit() {
	if [ -n "$bg" ] && kill -KILL "$bg" 2>/dev/null; then
		wait "$bg" 2>/dev/null || true
	fi
	at_exit
}
trap live_exit EXIT

# A write of SECONDS in the background, named RUN; its pid in $bg.
bg_write() { # RUN SECONDS
	"$CEPHBENCH" rados write -p "$POOL" --conf "$CONF" --duration "$2" -b 4K --run-name "$1" \
		>"$T/$1.out" 2>"$T/$1.err" &
	bg=$!
}

# Wait until run RUN's record exists (its write has begun).
wait_record() { # RUN
	for _ in $(seq 1 150); do
		rados --conf "$CONF" -p "$POOL" --namespace cephbench stat "$1.meta" >/dev/null 2>&1 &&
			return 0
		sleep 0.2
	done
	fail "run $1 wrote no record: $(cat "$T/$1.err")"
}

count_of() { # RUN
	ns_objects | grep -c "^$1\." || true
}

# End the background run with SIGINT (its report, its cleanup); exit code
# in $rc.
stop_bg() { # RUN
	kill -INT "$bg"
	wait_bg "$bg"
	bg=
}

# (made first: the live run's lock keeps this host's other runs waiting)
cb rados write -p "$POOL" --conf "$CONF" --duration 1 -b 4K --run-name kept --no-cleanup --quiet
assert_rc 0 "a kept run"
[ "$(count_of kept)" -gt 0 ] || fail "the kept run left no objects"

# ---- 1. cleanup --run-name of a live run
bg_write live 60
wait_record live
sleep 1
before=$(count_of live)
cb cleanup --pool "$POOL" --conf "$CONF" --run-name live
assert_rc 3 "cleanup --run-name of a live run"
one_line "cleanup --run-name of a live run" "run 'live'" "live run (pid $bg on host"
after=$(count_of live)
[ "$after" -ge "$before" ] || fail "cleanup of a live run removed objects: $before before, $after after"
kill -0 "$bg" 2>/dev/null || fail "the live run ended early: $(cat "$T/live.err")"

# ---- 2. cleanup --all beside it: another run's kept objects go, not the live one's
cb cleanup --pool "$POOL" --conf "$CONF" --all
assert_rc 3 "cleanup --all beside a live run"
one_line "cleanup --all beside a live run" "run 'live'" "live run (pid $bg on host"
[ "$(count_of kept)" -eq 0 ] || fail "cleanup --all left $(count_of kept) objects of the kept run"
[ "$(count_of live)" -ge "$after" ] || fail "cleanup --all removed objects of the live run"

# ---- 3. a namesake from another host is refused before it removes anything
n=$(count_of live)
CEPHBENCH_RUN_DIR=$T/other-host cb rados write -p "$POOL" --conf "$CONF" --duration 5 -b 4K \
	--run-name live --quiet
assert_rc 3 "a namesake of a live run from another host"
one_line "a namesake of a live run" "run 'live'" "live run (pid $bg on host" "another --run-name"
[ "$(count_of live)" -ge "$n" ] || fail "the refused namesake removed the live run's objects"
stop_bg live
[ "$rc" -eq 130 ] || fail "the live run: exit $rc after SIGINT, expected 130: $(cat "$T/live.err")"
! grep -q "removed while it wrote" "$T/live.err" || fail "the live run saw its objects removed: $(cat "$T/live.err")"
assert_ns_empty "after the live run's own cleanup"

# ---- 4. a killed run's watch does not protect it
bg_write killed 60
wait_record killed
sleep 1
kill -KILL "$bg"
wait_bg "$bg"
bg=
cb cleanup --pool "$POOL" --conf "$CONF" --run-name killed
assert_rc 0 "cleanup right after kill -9"
assert_ns_empty "after cleanup of a killed run"

# ---- 5. a record removed under a live run: it says so and fails
bg_write gone 6
wait_record gone
sleep 1
rados --conf "$CONF" -p "$POOL" --namespace cephbench rm gone.meta
wait_bg "$bg"
bg=
[ "$rc" -eq 3 ] || fail "a run whose record was removed: exit $rc, expected 3: $(cat "$T/gone.err")"
grep -qF "were removed while it wrote" "$T/gone.err" ||
	fail "a run whose record was removed did not say so: $(cat "$T/gone.err")"
cb cleanup --pool "$POOL" --conf "$CONF" --run-name gone
assert_rc 0 "cleanup of the run whose record was removed"
assert_ns_empty "at the end"
echo ok
