#!/usr/bin/env bash
# A host cut off altogether (both its links) in a run over the three
# namespace hosts of tests/hosts/lib.sh, with the launcher's TCP keepalive
# (idle 25 s, 3 probes a second apart) past the run's --timeout (10 s) and
# rank 0's report and cleanup (it counts from the last traffic before the
# cut), so that what ends the run is cephbench's own watch of the ranks:
#  1. h3 cut while ranks 0 and 1 wait for it at the phase's merge (its
#     cluster link cut first, so that its ops hang past their end);
#  2. h3 cut mid-phase (a 60 s phase);
#  3. h3 cut mid-phase, then SIGTERM to rank 0.
# Each time rank 0 is done within --timeout plus 30 s of the cut: its one
# line naming rank 2 and its host, its report (partial; interrupted after
# the signal) and its cleanup (the pool holds nothing of the run, though no
# `cephbench cleanup` ran). The ranks then wait for mpirun to give the host
# up (a rank that ended first would leave mpirun waiting for ever), and
# mpirun ends on its own within 60 s of the cut, naming the lost host.
# Between runs h3 is made anew (host_renew): the cut one stays cut, so
# nothing it had in flight reaches the cluster later.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../hosts/lib.sh"
hosts_test_begin hostcut

# mpirun over the three hosts in the background (its exit code to
# $T/rc), Open MPI's keepalive past the watch's bound.
mpi_bg() {
	rm -f "$T/rc"
	(
		set +e
		HOSTS_KEEPALIVE=25 HOSTS_MPIRUN_TIMEOUT=90 hosts_mpirun 3 \
			-x ASAN_OPTIONS -x UBSAN_OPTIONS "$CEPHBENCH" "$@" >"$T/out" 2>"$T/err"
		echo $? >"$T/rc"
	) &
	launcher=$!
}

# Wait for rank 0's line naming the lost rank (end0: when it came; at most
# 60 s), then for mpirun to end (end1, its exit code rc).
rank0_wait() {
	end0=
	for _ in $(seq 1 600); do
		if grep -q '^cephbench run: rank 2 (host cbtest-h3) did not answer' "$T/err"; then
			end0=$(date +%s.%N)
			break
		fi
		sleep 0.1
	done
	[ -n "$end0" ] || fail "rank 0 named no lost rank in 60 s: $(cat "$T/err")"
	wait "$launcher" || true
	end1=$(date +%s.%N)
	rc=$(cat "$T/rc")
}

cb_lines() {
	grep '^cephbench' "$T/err" || true
}

objects() {
	on h1 rados --conf "$CONF" --client_mount_timeout 20 -p bench --namespace cephbench ls
}

# Wait until each rank of run RUN has written objects.
wait_all_wrote() { # RUN
	local k wrote
	for _ in $(seq 1 150); do
		objects >"$T/ls"
		wrote=0
		for k in 0 1 2; do
			grep -q "^$1\.c$k\." "$T/ls" && wrote=$((wrote + 1))
		done
		[ "$wrote" -lt 3 ] || return 0
		sleep 0.2
	done
	fail "$1: the ranks did not all write within 30 s: $(cat "$T/err")"
}

rank_pid() { # H
	host_pids "$1" | xargs -r ps -o pid=,comm= -p | awk '$2 == "cephbench" { print $1 }'
}

# WHAT: rank 0 done within 40 s of T0, mpirun ended on its own within
# 60 s naming the lost host, nothing of RUN left.
judge() { # WHAT T0 RUN
	local took ended
	took=$(awk -v t0="$2" -v t1="$end0" 'BEGIN { printf "%.1f", t1 - t0 }')
	ended=$(awk -v t0="$2" -v t1="$end1" 'BEGIN { printf "%.1f", t1 - t0 }')
	echo "$1: rank 0 said the loss $took s after the cut, mpirun ended after $ended s (exit $rc)"
	awk -v t="$took" 'BEGIN { exit !(t < 40) }' || fail "$1: rank 0 said it $took s after the cut"
	awk -v t="$ended" 'BEGIN { exit !(t < 60) }' || fail "$1: mpirun ended $ended s after the cut"
	[ "$rc" -ne 124 ] && [ "$rc" -ne 137 ] && [ "$rc" -ne 0 ] || fail "$1: mpirun's exit $rc"
	grep -q 'lost communication with a remote daemon' "$T/err" && grep -q 'on node 10\.77\.2\.13' "$T/err" ||
		fail "$1: the launcher did not name the host it lost: $(cat "$T/err")"
	grep -q '^cleanup: removed [0-9]* rados objects of run' "$T/err" ||
		fail "$1: rank 0 did not clean up: $(cat "$T/err")"
	[ -z "$(objects | grep "^$3\.")" ] || fail "$1: objects left: $(objects | head -3)"
	! grep -Eq 'AddressSanitizer|runtime error' "$T/err" || fail "$1: sanitizer: $(cat "$T/err")"
}

# 1. The cut while the others wait at the merge: h3's ops hang (its
#    cluster link cut, op_timeout past the run), ranks 0 and 1 end their
#    300 ops and wait; then h3's link to them is cut too.
cat >"$T/m.yaml" <<YAML
name: hostm
workloads:
  - { name: w, layer: rados, pool: bench, op: write, block_size: 4K, concurrency: 4, ops: 300, rate: 300, op_timeout: 60s }
YAML
mpi_bg run "$T/m.yaml" --conf "$CONF" --timeout 10s --json "$T/m.json"
wait_all_wrote hostm
on hub ip link set "${HOST_S[3]}" down
# ranks 0 and 1 are done with their 300 ops each (100 a second)
for _ in $(seq 1 100); do
	[ "$(objects | grep -c '^hostm\.c[01]\.')" -lt 600 ] || break
	sleep 0.2
done
sleep 1
t0=$(date +%s.%N)
on hub ip link set "${HOST_M[3]}" down
rank0_wait
judge "cut at the merge" "$t0" hostm
[ "$(cb_lines | wc -l)" -eq 1 ] || fail "cut at the merge: not one line: $(cb_lines)"
cb_lines | grep -Eq 'rank 2 \(host cbtest-h3\) did not answer for 10 s \(--timeout\): lost .*this host.s figures alone' ||
	fail "cut at the merge said: $(cb_lines)"
# the record holds rank 0's figures of the phase, marked interrupted
/usr/bin/python3 - "$T/m.json" <<'PY' || fail "cut at the merge: the record: $(head -c 600 "$T/m.json")"
import json, sys
p = json.load(open(sys.argv[1]))["phases"][0]
assert p["interrupted"] is True, p["interrupted"]
assert 0 < p["ops"] <= 300, p["ops"]
PY
host_renew 3 b

# 2. The cut mid-phase: the others' clients stop once rank 0 finds h3
#    lost, the run ends without waiting out its 60 s.
sed 's/^name: hostm/name: hostp/; s/ops: 300, rate: 300, op_timeout: 60s/duration: 60s, rate: 300/' \
	"$T/m.yaml" >"$T/p.yaml"
mpi_bg run "$T/p.yaml" --conf "$CONF" --timeout 10s
wait_all_wrote hostp
t0=$(date +%s.%N)
host_cut 3
rank0_wait
judge "cut mid-phase" "$t0" hostp
# the row rank 0 measured, marked partial
grep -Eq '^w +rados +write .* partial$' "$T/out" || fail "cut mid-phase: no partial row: $(cat "$T/out")"
host_renew 3 c

# 3. SIGTERM to rank 0 while h3 is cut: the signal's exit, 130.
sed 's/^name: hostp/name: hosts/' "$T/p.yaml" >"$T/s.yaml"
mpi_bg run "$T/s.yaml" --conf "$CONF" --timeout 10s
wait_all_wrote hosts
t0=$(date +%s.%N)
host_cut 3
sleep 2
victim=$(rank_pid h1)
[ -n "$victim" ] || fail "no rank on h1 to signal"
kill -TERM "$victim"
rank0_wait
judge "SIGTERM with a host cut" "$t0" hosts
# the signal's stop: the report says interrupted, and no error line
grep -q '(interrupted: partial)' "$T/out" || fail "SIGTERM: the report is not the partial one: $(cat "$T/out")"
[ "$(cb_lines | wc -l)" -eq 1 ] || fail "SIGTERM: not one line: $(cb_lines)"
echo ok
