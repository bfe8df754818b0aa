#!/usr/bin/env bash
# A host cut off altogether (both its links) in a run over the three
# namespace hosts of tests/hosts/lib.sh, with the launcher's TCP keepalive
# set well past the run's --timeout, so that what ends the run is
# cephbench's own watch of the ranks, not Open MPI's:
#  1. h3 cut while ranks 0 and 1 wait for it at the phase's merge (its
#     cluster link cut first, so that its ops hang past their end);
#  2. h3 cut mid-phase (a 60 s phase);
#  3. h3 cut mid-phase, then SIGTERM to rank 0.
# Each time rank 0 ends within --timeout (10 s) plus 30 s of the cut,
# exit 3 naming rank 2 and its host (130 after the signal), with its report
# and its cleanup done: the pool holds nothing of the run, though no
# `cephbench cleanup` ran. Between runs h3 is made anew (host_renew): the
# cut one stays cut, so nothing it had in flight reaches the cluster later.
# The ranks' exit codes and times are their own (a wrapper writes them):
# mpirun itself ends only when Open MPI gives up on the lost host.
set -euo pipefail

: "${CEPHBENCH:?CEPHBENCH must name the cephbench binary}"
if [ "${CB_WITH_MPI:-OFF}" != ON ]; then
	echo "cephbench was built without MPI (WITH_MPI=OFF)" >&2
	exit 77
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "network namespaces need root" >&2
	exit 77
fi
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../hosts/lib.sh"
# Leak checking is off under mpirun (see mpi.sh).
export ASAN_OPTIONS=detect_leaks=0

T=$(mktemp -d /tmp/cephbench-hostcut.XXXXXX)
at_exit() {
	"$HERE/../sandbox" stop "$T/sb" >/dev/null 2>&1 || true
	hosts_down
	rm -rf "$T"
}
trap at_exit EXIT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

hosts_up "$T"
SANDBOX_MEMSTORE_BYTES=1073741824 on hub "$HERE/../sandbox" start "$T/sb" --addr 10.77.1.1 >/dev/null
CONF=$T/sb/ceph.conf

# Each rank through a wrapper that writes its exit code and the time it
# ended to $T/rc.RANK.
cat >"$T/rank.sh" <<'SH'
#!/bin/sh
"$@"
rc=$?
echo "$rc $(date +%s.%N)" >"$RC_DIR/rc.$OMPI_COMM_WORLD_RANK"
exit $rc
SH
chmod +x "$T/rank.sh"

# mpirun over the three hosts in the background, Open MPI's keepalive
# past the watch's bound (idle 60 s).
mpi_bg() {
	rm -f "$T"/rc.*
	(
		HOSTS_KEEPALIVE=60 HOSTS_MPIRUN_TIMEOUT=120 RC_DIR=$T hosts_mpirun 3 \
			-x ASAN_OPTIONS -x UBSAN_OPTIONS -x RC_DIR "$T/rank.sh" "$CEPHBENCH" "$@" \
			>"$T/out" 2>"$T/err" || true
	) &
	launcher=$!
}

# Wait (at most 60 s) for rank 0 to end, then end the launcher, which waits
# for the lost host; rc0 and end0: rank 0's exit code and end time.
rank0_wait() {
	for _ in $(seq 1 600); do
		[ ! -s "$T/rc.0" ] || break
		sleep 0.1
	done
	[ -s "$T/rc.0" ] || fail "rank 0 still runs 60 s on: $(cat "$T/err")"
	read -r rc0 end0 <"$T/rc.0"
	sleep 1
	host_pids h1 | xargs -r ps -o pid=,comm= -p | awk '$2 == "mpirun" { print $1 }' |
		xargs -r kill -KILL 2>/dev/null || true
	wait "$launcher" || true
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

# WHAT: rank 0 ended with exit CODE within 40 s of T0, nothing of RUN left.
judge() { # WHAT CODE T0 RUN
	local took
	took=$(awk -v t0="$3" -v t1="$end0" 'BEGIN { printf "%.1f", t1 - t0 }')
	echo "$1: rank 0 ended $took s after the cut, exit $rc0"
	[ "$rc0" -eq "$2" ] || fail "$1: exit $rc0, expected $2: $(cat "$T/err")"
	awk -v t="$took" 'BEGIN { exit !(t < 40) }' || fail "$1: rank 0 ended $took s after the cut"
	[ -z "$(objects | grep "^$4\.")" ] || fail "$1: objects left: $(objects | head -3)"
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
judge "cut at the merge" 3 "$t0" hostm
[ "$(cb_lines | wc -l)" -eq 1 ] || fail "cut at the merge: not one line: $(cb_lines)"
cb_lines | grep -Eq 'rank 2 \(host cbtest-h3\) did not answer for 10 s \(--timeout\): lost' ||
	fail "cut at the merge said: $(cb_lines)"
grep -q '^cleanup: removed [0-9]* rados objects of run' "$T/err" ||
	fail "cut at the merge: rank 0 did not clean up: $(cat "$T/err")"
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
judge "cut mid-phase" 3 "$t0" hostp
cb_lines | grep -Eq 'rank 2 \(host cbtest-h3\) did not answer for 10 s' ||
	fail "cut mid-phase said: $(cb_lines)"
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
judge "SIGTERM with a host cut" 130 "$t0" hosts
echo ok
