#!/usr/bin/env bash
# A stop signal during a run's own cleanup: the cleanup goes on to the end
# (it is what keeps the cluster clean), then the run says on stderr that the
# signal came during it and exits 130 (it exited 0 and said nothing). The
# signal is sent once the report is on stdout, which the run prints before
# it cleans up; thousands of 4K objects keep the cleanup going for seconds.
. "$(dirname "$0")/lib.sh"

BG="" # the run in the background: a failed check must not leave it running
trap '[ -z "$BG" ] || { kill -KILL "$BG" 2>/dev/null; wait "$BG" 2>/dev/null; }; at_exit' EXIT

# late_signal WHAT SIGNAL... -- ARGS: cephbench ARGS in the background, each
# SIGNAL sent once its report is out; then exit 130, the line, nothing left.
late_signal() {
	local what=$1 sigs=() pid i
	shift
	while [ "$1" != "--" ]; do
		sigs+=("$1")
		shift
	done
	shift
	: >"$T/out"
	"$CEPHBENCH" "$@" >"$T/out" 2>"$T/err" &
	pid=$!
	BG=$pid
	i=0
	while [ ! -s "$T/out" ] && [ "$i" -lt 6000 ]; do
		sleep 0.01
		i=$((i + 1))
	done
	[ -s "$T/out" ] || fail "$what: no report after 60 s: $(cat "$T/err")"
	for s in "${sigs[@]}"; do
		kill "-$s" "$pid" || fail "$what: the run ended before its cleanup could be signalled"
	done
	set +e
	wait "$pid"
	rc=$?
	BG=""
	set -e
	assert_rc 130 "$what"
	# the report is out before the result file and the cleanup: a signal
	# sent then may land just before the cleanup
	grep -Eq '^cephbench: a stop signal came (during the cleanup|while the result was written), which was completed first$' "$T/err" ||
		fail "$what: no line about the signal: $(cat "$T/err")"
	grep -q "^cleanup: removed [0-9]* rados objects" "$T/err" ||
		fail "$what: the cleanup did not finish: $(cat "$T/err")"
	assert_ns_empty "$what"
	echo "$what: exit 130 after a complete cleanup: $(grep '^cephbench: ' "$T/err")"
}

# the issue's case: SIGTERM during an ad-hoc write's cleanup
late_signal "rados write, SIGTERM" TERM -- rados write 5 -p "$POOL" -b 4K -t 32 \
	--run-name late --conf "$CONF"
# Ctrl-C twice: the second is no more able to cut the cleanup than the first
late_signal "rados write, SIGINT twice" INT INT -- rados write 5 -p "$POOL" -b 4K -t 32 \
	--run-name late --conf "$CONF"
# a profile of two workloads, each with objects to remove; SIGUSR2
cat >"$T/two.yaml" <<YAML
name: late
defaults: { duration: 3s, ramp: 0s, concurrency: 32, pool: $POOL, block_size: 4K }
workloads:
  - { name: w1, layer: rados, op: write }
  - { name: w2, layer: rados, op: write }
YAML
late_signal "a profile of two writes, SIGUSR2" USR2 -- run "$T/two.yaml" --conf "$CONF"
