#!/usr/bin/env bash
# A run over MPI ranks (mpirun -np 3 on this host, oversubscribed): every
# rank is a client host. The aggregate is the ranks' sum and what the
# cluster holds; the ranks' names are apart; a CephFS tree per rank's
# client (unique_dir); one rank with a missing pool ends the run with exit
# 3 naming it, and nothing stays; a rank killed mid-run ends the run (no
# rank hangs) and `cleanup --all` finds every rank's objects; SIGUSR2 to
# mpirun (which forwards it) stops the run as Ctrl-C stops one process.
# Leak checking is off under mpirun: Open MPI's own allocations, freed or
# not at MPI_Finalize in components it has unloaded, cannot be told apart
# from cephbench's (the same code runs leak-checked in the other tests).
. "$(dirname "$0")/cephfs_lib.sh"

if [ "${CB_WITH_MPI:-OFF}" != ON ]; then
	echo "cephbench was built without MPI (WITH_MPI=OFF)" >&2
	exit 77
fi
export ASAN_OPTIONS=detect_leaks=0
assert_ns_empty "before the test"

# mpirun -np N cephbench ARGS; exit code in $rc, stdout in $T/out, stderr
# in $T/err. MPMD (several -np groups) when ARGS hold a ':'.
mpi() {
	set +e
	timeout 240 mpirun --oversubscribe --allow-run-as-root -x ASAN_OPTIONS -x UBSAN_OPTIONS \
		"$@" >"$T/out" 2>"$T/err"
	rc=$?
	set -e
}

# cephbench's own lines on stderr (mpirun adds its own about the exit).
cb_lines() {
	grep '^cephbench' "$T/err" || true
}

# Field of the JSON record's row NAME (read from FILE).
jrow() { # FILE NAME EXPR
	/usr/bin/python3 - "$@" <<'PY'
import json, sys
p = [p for p in json.load(open(sys.argv[1]))["phases"] if p["name"] == sys.argv[2]][0]
print(eval(sys.argv[3], {}, {"p": p}))
PY
}

# A RADOS 4K write profile NAME limited by LIMIT (ops: N, duration: T);
# prints its path.
rados_profile() { # NAME LIMIT
	cat >"$T/$1.yaml" <<YAML
name: $1
workloads:
  - { name: w, layer: rados, pool: $POOL, op: write, block_size: 4K, concurrency: 4, $2 }
YAML
	echo "$T/$1.yaml"
}

# 1. RADOS write, 3 ranks of 2 clients, 200 objects each: the aggregate is
#    the ranks' sum and the clients', the cluster holds that many objects,
#    the six clients' names apart; the histogram and the samples count
#    every op once.
p=$(rados_profile mpiw "ops: 200, clients: 2")
mpi -np 3 "$CEPHBENCH" run "$p" --conf "$CONF" --json "$T/w.json" --no-cleanup
assert_rc 0 "3 ranks"
[ -z "$(cb_lines)" ] || fail "3 ranks: stderr: $(cat "$T/err")"
[ "$(grep -c '^w ' "$T/out")" -eq 1 ] || fail "3 ranks: not one report: $(cat "$T/out")"
[ "$(jrow "$T/w.json" w 'p["ops"]')" -eq 1200 ] || fail "3 ranks: ops $(jrow "$T/w.json" w 'p["ops"]')"
[ "$(jrow "$T/w.json" w '[r["ops"] for r in p["ranks"]]')" = "[400, 400, 400]" ] ||
	fail "3 ranks: the ranks' ops $(jrow "$T/w.json" w '[r["ops"] for r in p["ranks"]]')"
[ "$(jrow "$T/w.json" w '[c["ops"] for c in p["per_client"]]')" = "[200, 200, 200, 200, 200, 200]" ] ||
	fail "3 ranks: the clients' ops $(jrow "$T/w.json" w '[c["ops"] for c in p["per_client"]]')"
[ "$(jrow "$T/w.json" w 'p["clients"]')" -eq 6 ] || fail "3 ranks: not 6 clients"
[ "$(jrow "$T/w.json" w '[r["rank"] for r in p["ranks"]]')" = "[0, 1, 2]" ] ||
	fail "3 ranks: rank rows $(jrow "$T/w.json" w 'p["ranks"]')"
[ "$(jrow "$T/w.json" w 'p["histogram"]["count"]')" -eq 1200 ] &&
	[ "$(jrow "$T/w.json" w 'sum(b[1] for b in p["histogram"]["buckets"])')" -eq 1200 ] ||
	fail "3 ranks: the merged histogram does not hold 1200 ops"
[ "$(jrow "$T/w.json" w 'sum(s["ops"] for s in p["samples"])')" -eq 1200 ] ||
	fail "3 ranks: the per-second samples count $(jrow "$T/w.json" w 'sum(s["ops"] for s in p["samples"])') ops"
[ "$(jrow "$T/w.json" w 'p["first_done_s"] <= p["last_done_s"]')" = True ] ||
	fail "3 ranks: first done after last"
# the start line's spread: each rank's start from the earliest's, the
# largest of them the phase's skew (its size is measured, not asserted)
[ "$(jrow "$T/w.json" w 'min(r["start_offset_ms"] for r in p["ranks"]) == 0 and abs(max(r["start_offset_ms"] for r in p["ranks"]) - p["start_skew_ms"]) < 1e-6')" = True ] ||
	fail "3 ranks: start offsets $(jrow "$T/w.json" w '([r.get("start_offset_ms") for r in p["ranks"]], p.get("start_skew_ms"))')"
grep -Eq '^w: 3 ranks, first done after [0-9.]+ s \(rank [0-2] on .*\), last after' "$T/out" ||
	fail "3 ranks: no first/last line: $(cat "$T/out")"
"$(dirname "$0")/../validate-json" "$(dirname "$0")/../../docs/result.schema.json" "$T/w.json" >/dev/null ||
	fail "3 ranks: the JSON record does not match the schema"
ns_objects | grep -Ev '\.meta(\.c[0-9]+)?$' >"$T/objs"
[ "$(wc -l <"$T/objs")" -eq 1200 ] || fail "3 ranks: $(wc -l <"$T/objs") objects in the pool, expected 1200"
for c in 0 1 2 3 4 5; do
	[ "$(grep -c "^mpiw\.c$c\." "$T/objs")" -eq 200 ] ||
		fail "3 ranks: client $c holds $(grep -c "^mpiw\.c$c\." "$T/objs") objects, expected 200"
done
cb cleanup --pool "$POOL" --conf "$CONF" --run-name mpiw
assert_rc 0 "cleanup of the 3 ranks' objects"
assert_ns_empty "after cleanup of the 3 ranks' run"

# 1a. Over several seconds the ranks' per-second samples add up by second
#     to every op (ranks whose seconds differ: each rank's own go in).
p=$(rados_profile mpid "duration: 3s")
mpi -np 3 "$CEPHBENCH" run "$p" --conf "$CONF" --json "$T/d.json"
assert_rc 0 "3 ranks for 3 s"
[ "$(jrow "$T/d.json" w 'sum(s["ops"] for s in p["samples"]) == p["ops"] and len(p["samples"]) >= 3')" = True ] ||
	fail "3 ranks for 3 s: samples $(jrow "$T/d.json" w '[s["ops"] for s in p["samples"]]'), ops $(jrow "$T/d.json" w 'p["ops"]')"

# 1b. Open loop over ranks: 300 ops/s for the run, each of the 3 ranks'
#     clients its share; the ranks' late ops, backlogs and service times
#     merge into the row as the clients' do, the window starts at the
#     earliest rank's.
p=$(rados_profile mpir "duration: 3s, rate: 300")
mpi -np 3 "$CEPHBENCH" run "$p" --conf "$CONF" --json "$T/r.json"
assert_rc 0 "3 ranks at a rate"
[ "$(jrow "$T/r.json" w 'abs(p["open_loop"]["achieved_ops_per_s"] - 300) <= 6')" = True ] ||
	fail "3 ranks at a rate: achieved $(jrow "$T/r.json" w 'p["open_loop"]')"
[ "$(jrow "$T/r.json" w 'p["open_loop"]["service_histogram"]["count"] == p["ops"] and sum(s["due"] for s in p["samples"]) >= p["ops"]')" = True ] ||
	fail "3 ranks at a rate: the ranks' service times or due counts are not merged"
[ "$(jrow "$T/r.json" w 'p["window_start_unix_s"] > 0')" = True ] || fail "3 ranks at a rate: no window start"
assert_ns_empty "after 3 ranks for 3 s"

# 1b. RBD: each rank's client writes images of its own (no two ranks on
#     one image), and they add up.
cat >"$T/mpir.yaml" <<YAML
name: mpir
workloads:
  - { name: w, layer: rbd, pool: rbd, op: randwrite, block_size: 4K, image_size: 64M, concurrency: 4, ops: 100 }
YAML
mpi -np 3 "$CEPHBENCH" run "$T/mpir.yaml" --conf "$CONF" --json "$T/r.json" --no-cleanup
assert_rc 0 "rbd over 3 ranks"
[ "$(jrow "$T/r.json" w 'p["ops"]')" -eq 300 ] || fail "rbd: ops $(jrow "$T/r.json" w 'p["ops"]')"
rbd --conf "$CONF" ls -p rbd >"$T/imgs"
[ "$(grep '^cephbench\.mpir\.' "$T/imgs" | sort | tr '\n' ' ')" = \
	"cephbench.mpir.0 cephbench.mpir.1 cephbench.mpir.2 " ] ||
	fail "rbd over 3 ranks: images $(grep '^cephbench' "$T/imgs" | tr '\n' ' ')"
cb cleanup --pool rbd --conf "$CONF" --run-name mpir
assert_rc 0 "cleanup of the ranks' images"
rbd --conf "$CONF" ls -p rbd >"$T/imgs"
! grep -q '^cephbench\.mpir\.' "$T/imgs" || fail "rbd: images left after cleanup"

# 1c. The kinds of a mix and the syncs (by_op) over 3 ranks of 2 clients:
#     merged by name, every rank's counted once (the noop layer: the
#     runner's merge, not a layer, is under test).
cat >"$T/kinds.yaml" <<YAML
name: kinds
workloads:
  - { name: s, layer: noop, op: write, sync_every: 5, ops: 501, clients: 2 }
  - { name: m, layer: noop, op: rw, ops: 1000, clients: 2 }
YAML
mpi -np 3 "$CEPHBENCH" run "$T/kinds.yaml" --json "$T/k.json"
assert_rc 0 "kinds over 3 ranks"
[ "$(jrow "$T/k.json" s '(p["by_op"]["sync"]["ops"], p["by_op"]["write"]["ops"], p["ops"])')" = "(600, 3006, 3006)" ] ||
	fail "syncs over 3 ranks: $(jrow "$T/k.json" s '{k: v["ops"] for k, v in p["by_op"].items()}')"
[ "$(jrow "$T/k.json" m 'p["by_op"]["read"]["ops"] + p["by_op"]["write"]["ops"] == p["ops"] == 6000 and p["by_op"]["read"]["histogram"]["count"] == p["read_ops"]')" = True ] ||
	fail "a mix over 3 ranks: $(jrow "$T/k.json" m '{k: v["ops"] for k, v in p["by_op"].items()}')"
# each kind's histogram summed with its own kind's on every rank (the
# reduction lines kinds up by name, whatever order a rank met them in)
for row in s m; do
	[ "$(jrow "$T/k.json" $row 'all(v["histogram"]["count"] == v["ops"] for v in p["by_op"].values())')" = True ] ||
		fail "kinds' histograms over 3 ranks, $row: $(jrow "$T/k.json" $row '{k: (v["ops"], v["histogram"]["count"]) for k, v in p["by_op"].items()}')"
done

# 2. The CephFS tree per client of each rank (unique_dir): c0..c5.
tree=$((1 + 3 + 9))
p=$(cfs_profile mpit "op: tree, depth: 2, branch: 3, items: 5, clients: 2, unique_dir: true, phases: 'tree-create,dir-create,file-create'")
mpi -np 3 "$CEPHBENCH" run "$p" --conf "$CONF" --run-name mpit --json "$T/t.json" --no-cleanup
assert_rc 0 "tree over 3 ranks"
[ "$(jrow "$T/t.json" wl.tree-create 'p["clients"]')" -eq 6 ] || fail "tree: not 6 clients"
[ "$(jrow "$T/t.json" wl.file-create 'p["ops"]')" -eq $((6 * 5 * tree)) ] ||
	fail "tree: file-create ops $(jrow "$T/t.json" wl.file-create 'p["ops"]')"
for k in 0 1 2 3 4 5; do
	assert_count /cephbench/mpit/wl/c$k $((tree + 5 * tree)) $((5 * tree)) "tree, client $k"
	fs_exists /cephbench/mpit/wl/c$k/t.0/f.$k.0 || fail "tree: c$k holds no f.$k.0"
done
cb cleanup --fs "$FS" --run-name mpit --conf "$CONF"
assert_rc 0 "cleanup of the ranks' trees"
assert_gone /cephbench/mpit "after cleanup of the ranks' trees"

# 3. One rank's pool is missing: exit 3, one line naming rank 2 and the
#    pool, what the others made removed.
p=$(rados_profile mpib "ops: 100")
mpi -np 2 "$CEPHBENCH" run "$p" --conf "$CONF" : -np 1 "$CEPHBENCH" run "$p" --conf "$CONF" \
	-o w.pool=no-such-pool
assert_rc 3 "a rank with a missing pool"
[ "$(cb_lines | wc -l)" -eq 1 ] || fail "a rank with a missing pool: not one line: $(cat "$T/err")"
cb_lines | grep -q "rank 2 (host .*): pool 'no-such-pool' does not exist" ||
	fail "a rank with a missing pool said: $(cb_lines)"
assert_ns_empty "after a run with a missing pool on one rank"

# 4. One rank cannot reach the cluster (a conf of its own that names no
#    monitor that answers): exit 3 naming rank 1, within the run's timeout.
sed 's/^\(\s*mon host\s*=\).*/\1 127.0.0.1:1/' "$CONF" >"$T/bad.conf"
grep -q '127.0.0.1:1$' "$T/bad.conf" || fail "could not make a conf without monitors"
mpi -np 1 "$CEPHBENCH" run "$p" --conf "$CONF" --timeout 5s : -np 1 "$CEPHBENCH" run "$p" \
	--conf "$T/bad.conf" --timeout 5s : -np 1 "$CEPHBENCH" run "$p" --conf "$CONF" --timeout 5s
assert_rc 3 "a rank without the cluster"
cb_lines | grep -q "rank 1 (host .*): cannot reach the monitors" ||
	fail "a rank without the cluster said: $(cb_lines)"
assert_ns_empty "after a run with a rank that could not connect"

# mpirun -np 3 of a 60 s RADOS write NAME in the background (the
# launcher's pid in $launcher, output in $T/NAME.out and .err), returning
# once every rank has written objects.
mpi_bg() { # NAME
	rados_profile "$1" "duration: 60s" >/dev/null
	set +e
	timeout 120 mpirun --oversubscribe --allow-run-as-root -x ASAN_OPTIONS -np 3 "$CEPHBENCH" \
		run "$T/$1.yaml" --conf "$CONF" >"$T/$1.out" 2>"$T/$1.err" &
	launcher=$!
	set -e
	for _ in $(seq 1 150); do
		ns_objects >"$T/ls"
		grep -q "^$1\.c0\." "$T/ls" && grep -q "^$1\.c1\." "$T/ls" &&
			grep -q "^$1\.c2\." "$T/ls" && return
		sleep 0.2
	done
	fail "$1: the ranks did not all write within 30 s: $(cat "$T/$1.err")"
}

# 5. A rank killed mid-run: the launcher ends the others (none hangs);
#    cleanup --all from here finds every rank's objects.
mpi_bg mpik
victim=$(pgrep -f "^$CEPHBENCH run $T/mpik.yaml" | head -1)
[ -n "$victim" ] || fail "no rank process to kill"
kill -KILL "$victim"
wait_bg "$launcher"
[ "$rc" -ne 124 ] || fail "a rank killed: the others hung until the timeout"
[ "$rc" -ne 0 ] || fail "a rank killed: the launcher said 0"
! pgrep -f "^$CEPHBENCH run $T/mpik.yaml" >/dev/null || fail "a rank killed: ranks still running"
ns_has '^mpik\.c' || fail "a rank killed: nothing left to clean: not the case under test"
cb cleanup --pool "$POOL" --conf "$CONF" --all
assert_rc 0 "cleanup --all after a rank was killed"
assert_ns_empty "after a rank was killed and cleanup --all"

# 6. SIGUSR2 to mpirun, which forwards it to every rank: they drain, rank 0
#    prints the partial report and removes what every rank wrote, exit 130.
#    (mpirun's own SIGINT or SIGTERM would end the ranks within a second.)
mpi_bg mpis
kill -USR2 "$(pgrep -P "$launcher" -x mpirun)"
wait_bg "$launcher"
[ "$rc" -eq 130 ] || fail "SIGUSR2: exit $rc, expected 130; stderr: $(cat "$T/mpis.err")"
[ "$(grep -c '^w ' "$T/mpis.out")" -eq 1 ] && grep -q "interrupted: partial" "$T/mpis.out" ||
	fail "SIGUSR2: not one partial report: $(cat "$T/mpis.out")"
assert_ns_empty "after SIGUSR2 to mpirun"
echo ok
