#!/usr/bin/env bash
# A run over three client hosts (tests/hosts/lib.sh: network and UTS
# namespaces on this machine, Open MPI launched across them by an rsh
# agent), against a sandbox cluster of its own bound to the hub's bridge:
#  1. the rows name three hosts, the totals are the ranks' sums, and rank
#     0's cleanup removes every rank's objects, images and trees;
#  1b. the same under Slurm (tests/hosts/slurm_lib.sh: slurmctld and a
#     slurmd a host), launched by srun --mpi=pmix;
#  2. a rank killed with SIGKILL: the others end, `cleanup --all` from
#     another host finds what the run left;
#  3. one host's cluster link cut mid-run: its errors are counted, the run
#     ends on max_errors with one line naming the rank and its host, and
#     nothing stays after `cephbench cleanup`;
#  4. another host cut off altogether (a run over h1 and h2, h3 being
#     cut off from the cluster): the launcher ends the run, and nothing
#     stays after `cephbench cleanup`.
# The cuts come last: writes a cut host had in flight could still land
# once its link were up again, so it never is (its namespace goes at the
# end, and its sockets with it).
# Times (start skew, cut to end) are printed, not judged.
set -euo pipefail

: "${CEPHBENCH:?CEPHBENCH must name the cephbench binary}"
: "${CEPHFS_TREE:?CEPHFS_TREE must name the cephfs_tree test helper}"
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../hosts/lib.sh"
. "$HERE/../hosts/slurm_lib.sh"
hosts_test_begin hosts
for i in 1 2 3; do
	[ "$(on h$i hostname)" = "cbtest-h$i" ] || fail "host h$i is named $(on h$i hostname)"
done

# mpirun over the first NP hosts (default 3), one rank each; exit code in
# $rc, stdout in $T/out, stderr in $T/err.
mpi() {
	set +e
	HOSTS_MPIRUN_TIMEOUT=240 hosts_mpirun "${NP:-3}" -x ASAN_OPTIONS -x UBSAN_OPTIONS "$CEPHBENCH" \
		"$@" >"$T/out" 2>"$T/err"
	rc=$?
	set -e
}

# mpi in the background (its pid in $launcher); mpi_wait: its exit code in
# $rc.
mpi_bg() {
	(
		mpi "$@"
		echo "$rc" >"$T/rc"
	) &
	launcher=$!
}
mpi_wait() {
	wait "$launcher" || true
	rc=$(cat "$T/rc")
}

# Seconds since T0 (date +%s.%N).
since() { # T0
	awk -v t0="$1" -v t1="$(date +%s.%N)" 'BEGIN { printf "%.1f", t1 - t0 }'
}

# cephbench's own lines on stderr (mpirun adds its own about the exit).
cb_lines() {
	grep '^cephbench' "$T/err" || true
}

# EXPR over the JSON record FILE's phases (p: one phase, ps: all).
jq_py() { # FILE EXPR
	/usr/bin/python3 - "$@" <<'PY'
import json, sys
ps = json.load(open(sys.argv[1]))["phases"]
print(eval(sys.argv[2], {}, {"ps": ps}))
PY
}

# What cephbench's namespace of pool bench holds, seen from h1 (never cut
# off).
objects() {
	on h1 rados --conf "$CONF" --client_mount_timeout 20 -p bench --namespace cephbench ls
}

assert_no_objects() { # WHAT
	local left
	left=$(objects) || fail "$1: cannot list the pool"
	[ -z "$left" ] || fail "$1: objects left: $(head -3 <<<"$left" | tr '\n' ' ')"
}

# Wait until each of the NP (default 3) ranks of run RUN has written
# objects (client k is rank k's: one client a rank).
wait_all_wrote() { # RUN
	local k wrote
	for _ in $(seq 1 150); do
		objects >"$T/ls"
		wrote=0
		for ((k = 0; k < ${NP:-3}; k++)); do
			grep -q "^$1\.c$k\." "$T/ls" && wrote=$((wrote + 1))
		done
		[ "$wrote" -lt "${NP:-3}" ] || return 0
		sleep 0.2
	done
	fail "$1: the ranks did not all write within 30 s: $(cat "$T/err")"
}

# The cephbench rank on host H (its pid).
rank_pid() { # H
	host_pids "$1" | xargs -r ps -o pid=,comm= -p | awk '$2 == "cephbench" { print $1 }'
}

# 1. RADOS, RBD and a CephFS tree over three hosts, the run's own cleanup.
cat >"$T/p.yaml" <<YAML
name: hosts
workloads:
  - { name: w, layer: rados, pool: bench, op: write, block_size: 4K, concurrency: 4, ops: 100, clients: 2 }
  - { name: r, layer: rbd, pool: rbd, op: randwrite, block_size: 4K, image_size: 64M, concurrency: 4, ops: 100 }
  - { name: f, layer: cephfs, fs: cephfs, op: tree, depth: 1, branch: 2, items: 3, unique_dir: true, phases: 'tree-create,dir-create,file-create' }
YAML
mpi run "$T/p.yaml" --conf "$CONF" --json "$T/p.json"
head -3 "$T/p.yaml" | sed 's/^name: hosts/name: hostsrun/' >"$T/s.yaml"
[ "$rc" -eq 0 ] || fail "three hosts: exit $rc: $(cat "$T/err")"
[ -z "$(cb_lines)" ] || fail "three hosts: stderr: $(cb_lines)"
[ "$(jq_py "$T/p.json" 'sorted({p["name"] for p in ps})')" = \
	"['f.dir-create', 'f.file-create', 'f.tree-create', 'r', 'w']" ] ||
	fail "three hosts: phases $(jq_py "$T/p.json" '[p["name"] for p in ps]')"
# every phase's rows: rank k on host h(k+1), the totals their sums
[ "$(jq_py "$T/p.json" 'all([(r["rank"], r["host"]) for r in p["ranks"]] == [(0, "cbtest-h1"), (1, "cbtest-h2"), (2, "cbtest-h3")] for p in ps)')" = True ] ||
	fail "three hosts: rank rows $(jq_py "$T/p.json" '[[(r["rank"], r["host"]) for r in p["ranks"]] for p in ps]')"
for k in ops bytes errors; do
	[ "$(jq_py "$T/p.json" "all(p['$k'] == sum(r['$k'] for r in p['ranks']) for p in ps)")" = True ] ||
		fail "three hosts: $k not the ranks' sum: $(jq_py "$T/p.json" "[(p['$k'], [r['$k'] for r in p['ranks']]) for p in ps]")"
done
[ "$(jq_py "$T/p.json" '[p["ops"] for p in ps if p["name"] in ("w", "r")]')" = "[600, 300]" ] ||
	fail "three hosts: ops $(jq_py "$T/p.json" '[(p["name"], p["ops"]) for p in ps]')"
[ "$(jq_py "$T/p.json" 'all(min(r["start_offset_ms"] for r in p["ranks"]) == 0 for p in ps)')" = True ] ||
	fail "three hosts: no start offsets"
echo "start skew over three hosts (ms): $(jq_py "$T/p.json" '[(p["name"], round(p["start_skew_ms"], 2)) for p in ps]')"
# rank 0 removed what every rank made: each op of the phases made one
# object, image or tree entry (and the RADOS clients one note each)
made=$(jq_py "$T/p.json" 'sum(p["ops"] for p in ps if p["name"].startswith("f."))')
grep -Eq '^cleanup: removed 606 rados objects of run' "$T/err" ||
	fail "three hosts: not the 606 objects of 6 clients removed: $(grep cleanup "$T/err")"
grep -Eq '^cleanup: removed 3 rbd images of run' "$T/err" ||
	fail "three hosts: not the three ranks' images removed: $(grep cleanup "$T/err")"
removed=$(sed -n 's/^cleanup: removed \([0-9]*\) cephfs files and directories.*/\1/p' "$T/err")
[ "${removed:-0}" -gt "$made" ] || fail "three hosts: $removed of the trees' $made entries removed"
assert_no_objects "three hosts"
[ -z "$(on h1 rbd --conf "$CONF" ls -p rbd | grep '^cephbench\.')" ] || fail "three hosts: images left"
set +e
on h1 "$CEPHFS_TREE" exists "$CONF" cephfs /cephbench/hosts
frc=$?
set -e
[ "$frc" -eq 1 ] || fail "three hosts: the trees are left (cephfs_tree exists: $frc)"

# 1b. Under Slurm: srun starts a rank a host (Debian's Open MPI speaks
#     PMIx only), the rows name the three hosts, rank 0 removes every
#     rank's objects.
slurm_up "$T"
set +e
OMPI_MCA_btl_tcp_if_include=10.77.2.0/24 on h1 timeout -k 10 240 srun -N3 --ntasks-per-node=1 \
	--mpi=pmix "$CEPHBENCH" run "$T/s.yaml" --conf "$CONF" --json "$T/s.json" >"$T/out" 2>"$T/err"
rc=$?
set -e
[ "$rc" -eq 0 ] || fail "under srun: exit $rc: $(cat "$T/err")"
[ "$(jq_py "$T/s.json" '[(p["ops"], [(r["host"], r["ops"]) for r in p["ranks"]]) for p in ps]')" = \
	"[(600, [('cbtest-h1', 200), ('cbtest-h2', 200), ('cbtest-h3', 200)])]" ] ||
	fail "under srun: rows $(jq_py "$T/s.json" '[(p["ops"], p["ranks"]) for p in ps]')"
grep -Eq '^cleanup: removed 606 rados objects of run' "$T/err" ||
	fail "under srun: not the 606 objects of 6 clients removed: $(grep cleanup "$T/err")"
assert_no_objects "under srun"
slurm_down

# 2. A rank killed: the launcher ends the others; `cleanup --all` from h2
#    finds every rank's objects.
cat >"$T/k.yaml" <<YAML
name: hostk
workloads:
  - { name: w, layer: rados, pool: bench, op: write, block_size: 4K, concurrency: 4, duration: 60s, rate: 300 }
YAML
mpi_bg run "$T/k.yaml" --conf "$CONF" --timeout 10s
wait_all_wrote hostk
victim=$(rank_pid h2)
[ -n "$victim" ] || fail "no rank on h2 to kill"
t0=$(date +%s.%N)
kill -KILL "$victim"
mpi_wait
echo "a rank killed to the run's end: $(since "$t0") s"
[ "$rc" -ne 124 ] || fail "a rank killed: the others hung until the timeout"
[ "$rc" -ne 0 ] || fail "a rank killed: the launcher said 0"
for h in h1 h2 h3; do
	[ -z "$(rank_pid $h)" ] || fail "a rank killed: a rank still runs on $h"
done
objects | grep -q '^hostk\.c' || fail "a rank killed: nothing left to clean: not the case under test"
on h2 "$CEPHBENCH" cleanup --pool bench --conf "$CONF" --all >"$T/out" 2>"$T/err" ||
	fail "cleanup --all from h2: $(cat "$T/err")"
assert_no_objects "a rank killed"

# 3. h3's link to the cluster cut mid-run (Open MPI's network stays up):
#    its ops time out (op_timeout), past max_errors its failure stops the
#    other ranks, and the run ends with one line naming rank 2 and its host.
cat >"$T/c.yaml" <<YAML
name: hostc
workloads:
  - { name: w, layer: rados, pool: bench, op: write, block_size: 4K, concurrency: 4, duration: 60s, rate: 300, op_timeout: 3s, max_errors: 3 }
YAML
mpi_bg run "$T/c.yaml" --conf "$CONF" --timeout 10s --json "$T/c.json"
wait_all_wrote hostc
t0=$(date +%s.%N)
on hub ip link set h3s down
mpi_wait
echo "a cut link to the run's end: $(since "$t0") s"
[ "$rc" -ne 124 ] || fail "a cut link: the run hung until the timeout"
[ "$rc" -eq 3 ] || fail "a cut link: exit $rc, expected 3: $(cat "$T/err")"
[ "$(cb_lines | wc -l)" -eq 1 ] || fail "a cut link: not one line: $(cb_lines)"
cb_lines | grep -Eq "rank 2 \(host cbtest-h3\): workload 'w': .*Connection timed out \([0-9]+ errors, max_errors 3\)" ||
	fail "a cut link said: $(cb_lines)"
# the other ranks stopped with it, well before their 60 s
grep -Eq '^w: 3 ranks, first done after .* \(rank 2 on cbtest-h3\), last after ([0-9]|[1-4][0-9])\.[0-9]+ s' "$T/out" ||
	fail "a cut link: the others ran on: $(grep 'ranks, first' "$T/out")"
on h1 "$CEPHBENCH" cleanup --pool bench --conf "$CONF" --all >"$T/out" 2>"$T/err" ||
	fail "cleanup --all after a cut link: $(cat "$T/err")"
assert_no_objects "a cut link"

# 4. h2 cut off altogether (both links): its rank cannot tell the others,
#    who would wait for it at the phase's merge; the launcher notices the
#    lost host (TCP keepalive, hosts_mpirun) and ends every rank.
sed 's/^name: hostc/name: hostx/' "$T/c.yaml" >"$T/x.yaml"
NP=2
mpi_bg run "$T/x.yaml" --conf "$CONF" --timeout 10s
wait_all_wrote hostx
t0=$(date +%s.%N)
on hub ip link set h2s down
on hub ip link set h2m down
mpi_wait
echo "a host cut off to the run's end: $(since "$t0") s"
[ "$rc" -ne 124 ] && [ "$rc" -ne 137 ] || fail "a host cut off: the run hung until the timeout"
[ "$rc" -ne 0 ] || fail "a host cut off: exit 0"
grep -q 'lost communication with a remote daemon' "$T/err" && grep -q 'on node 10\.77\.2\.12' "$T/err" ||
	fail "a host cut off: the launcher did not name the host it lost: $(cat "$T/err")"
[ -z "$(rank_pid h1)" ] || fail "a host cut off: the rank on h1 still runs"
objects | grep -q '^hostx\.c' || fail "a host cut off: nothing left to clean: not the case under test"
on h1 "$CEPHBENCH" cleanup --pool bench --conf "$CONF" --all >"$T/out" 2>"$T/err" ||
	fail "cleanup --all after a host was cut off: $(cat "$T/err")"
assert_no_objects "a host cut off"
echo ok
