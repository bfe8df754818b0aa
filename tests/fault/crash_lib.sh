# shellcheck shell=bash
# Shared by the crash tests (crash_<layer>.sh), against the fault sandbox
# (CEPHBENCH_FAULT_CONF; the main one, CEPHBENCH_TEST_CONF, without it: the
# main sandbox's lock is the test suite's longest queue): cephbench killed with -9 at random moments of a
# short run, then `cephbench cleanup` (by run name and --all in turn) must
# leave nothing of the runs; and a namesake run must take a killed run's
# leftovers over. Sourced, not run. A layer's script sets, before calling
# crash_kills:
#   crash_flag/crash_target  the cleanup flag and its value (--pool rbd)
#   $T/crash.yaml            the profile of the runs
#   crash_start RUN FLAGS... (optional) start a run of it named RUN in the
#                            background, its pid in $bg
#   crash_state RUN          one line: what of RUN is on the cluster now
#   crash_assert_clean WHAT  fail when anything of any run is left
#   crash_settle             (optional) wait for what a kill leaves running
# The kill moments come from bash's RNG seeded by CRASH_SEED (printed, so a
# failure can be replayed), uniform over the measured length of a whole run.
CEPHBENCH_TEST_CONF=${CEPHBENCH_FAULT_CONF:-${CEPHBENCH_TEST_CONF:-}}
. "$(dirname "${BASH_SOURCE[0]}")/../cluster/lib.sh"

CRASH_KILLS=${CRASH_KILLS:-10}
crash_seed=${CRASH_SEED:-$(($(date +%s%N) % 1000000))}
crash_settle() { :; }
# The default: the profile as it stands.
crash_start() { # RUN [FLAGS]
	"$CEPHBENCH" run "$T/crash.yaml" --conf "$CONF" --run-name "$1" "${@:2}" \
		>"$T/$1.out" 2>"$T/$1.err" &
	bg=$!
}

RBD_POOL=${CEPHBENCH_TEST_RBD_POOL:-rbd}

# cephbench's images in the RBD pool, one per line (rbd, krbd).
images() {
	rbd --conf "$CONF" ls -p "$RBD_POOL" >"$T/rbdls"
	grep '^cephbench\.' "$T/rbdls" || true
}

# No image of any run in the RBD pool, nor a record of one being made.
assert_no_images() { # WHAT
	local left
	left=$(images)
	[ -z "$left" ] || fail "$1: images left: $(echo "$left" | tr '\n' ' ')"
	left=$(ns_objects_of "$RBD_POOL" cephbench-creating)
	[ -z "$left" ] || fail "$1: records of images being made left: $(echo "$left" | tr '\n' ' ')"
}

now_ms() {
	echo $(($(date +%s%N) / 1000000))
}

# cephbench cleanup with the layer's flag (and CRASH_ENV, e.g. a PATH).
crash_cleanup() { # --run-name N | --all
	set +e
	env ${CRASH_ENV:+"$CRASH_ENV"} timeout 300 "$CEPHBENCH" cleanup --conf "$CONF" \
		"$crash_flag" "$crash_target" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	set -e
}

# One whole run of RUN in the background, waited for; its length in $len_ms.
crash_full_run() { # RUN WHAT
	local t0
	t0=$(now_ms)
	crash_start "$1" --quiet
	wait_bg "$bg"
	len_ms=$(($(now_ms) - t0))
	[ "$rc" -eq 0 ] || fail "$2: exit $rc; stderr: $(cat "$T/$1.err")"
}

# The kills: a whole run measured first, then CRASH_KILLS runs each killed
# at a random moment of that length and cleaned up, then a whole run again
# (no lock or leftover of the killed ones stands in its way).
crash_kills() {
	local k delay t0 state how start
	echo "seed $crash_seed (replay with CRASH_SEED=$crash_seed)"
	crash_assert_clean "before the test"
	crash_full_run full "a whole run"
	crash_assert_clean "after a whole run"
	echo "a whole run: $len_ms ms"
	# fractions of the run's length, so a replay aims at the same moments
	# however long its whole run takes
	RANDOM=$crash_seed
	local delays=()
	for k in $(seq 1 "$CRASH_KILLS"); do
		delays+=($(((((RANDOM << 15) | RANDOM) * len_ms) >> 30)))
	done
	start=$SECONDS
	for k in $(seq 1 "$CRASH_KILLS"); do
		delay=${delays[$((k - 1))]}
		t0=$(now_ms)
		crash_start "k$k" --quiet
		sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
		kill -KILL "$bg" 2>/dev/null || true
		wait_bg "$bg" 2>/dev/null # no "Killed" notice from the shell
		case $rc in
		137) how="killed at +$((($(now_ms) - t0))) ms (aimed $delay of $len_ms)" ;;
		0) how="ended before the kill (aimed $delay of $len_ms ms)" ;;
		*) fail "kill $k: exit $rc before the kill; stderr: $(cat "$T/k$k.err")" ;;
		esac
		crash_settle
		state=$(crash_state "k$k")
		if [ $((k % 2)) -eq 1 ]; then
			crash_cleanup --run-name "k$k"
		else
			crash_cleanup --all
		fi
		assert_rc 0 "kill $k: cleanup $(sed -n 1p "$T/out")"
		crash_assert_clean "kill $k ($how; $state)"
		echo "kill $k: $how; left: $state; cleanup $([ $((k % 2)) -eq 1 ] && echo --run-name || echo --all): ok"
	done
	echo "$CRASH_KILLS kills and cleanups: $((SECONDS - start)) s"
	crash_full_run after "a whole run after the kills"
	crash_assert_clean "after the last whole run"
}
