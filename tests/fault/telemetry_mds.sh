#!/usr/bin/env bash
# Telemetry's MDS counters with two active ranks (issue 41, item 9): a
# second MDS (mds.b) joins the fault sandbox and max_mds goes to 2.
# (1) /cephbench, where the cephfs layer makes its trees, is pinned to
# rank 1 (ceph.dir.pin): a tree test's requests go to rank 1, which rank
# 0's counters alone (what telemetry read before) never saw. The record
# lists both ranks, their sums are the phase's figures, and rank 1 counted
# the tree's creates. (2) mds.b frozen (SIGSTOP) for 8 s during a CephFS
# run: a mark's ask of it times out and it alone is left out, with a
# note; thawed, its stuck ask ends and a later mark reads it again.
# Before, a timeout turned telemetry off for the run, and rank 0 alone
# was read.
. "$(dirname "$0")/lib.sh"
FS=cephfs

# Pin /cephbench to rank R (ceph.dir.pin), or, with -1, unpin it and
# remove what pin made. The MDS was seen to pass over a pin on an empty
# directory: a child, .tmds, is made with it.
pin() { # R
	/usr/bin/python3 - "$CONF" "$1" <<'PY'
import cephfs, sys
fs = cephfs.LibCephFS(conffile=sys.argv[1])
fs.mount(filesystem_name=b"cephfs")
for d in ("/cephbench", "/cephbench/.tmds"):
    if sys.argv[2] != "-1":
        try:
            fs.mkdir(d, 0o755)
        except cephfs.ObjectExists:
            pass
try:
    fs.setxattr("/cephbench", "ceph.dir.pin", sys.argv[2].encode(), 0)
except cephfs.ObjectNotFound:
    pass  # unpinning: gone already
if sys.argv[2] == "-1":
    for d in ("/cephbench/.tmds", "/cephbench"):
        try:
            fs.rmdir(d)
        except cephfs.Error:
            pass
fs.unmount()
fs.shutdown()
PY
}

# Whether rank 0 sees PATH as a subtree held by rank R (= R), or not (!= R).
subtree_rank() { # PATH =|!= R
	fceph tell mds.a get subtrees 2>/dev/null | /usr/bin/python3 -c '
import json, sys
held = any(s["dir"]["path"] == sys.argv[1] and s["auth_first"] == int(sys.argv[3])
           for s in json.load(sys.stdin))
sys.exit(0 if held == (sys.argv[2] == "=") else 1)' "$@"
}

# Pin /cephbench to rank R and wait (30 s at most) until rank 0 sees it
# held there: a pin is acted on at a balancer's tick (mds_bal_interval,
# 10 s), and one set as rank 1 had just come up was seen to be passed
# over, so it is set again now and then.
pin_held() { # R
	local i
	for i in $(seq 0 59); do
		[ $((i % 10)) = 0 ] && pin "$1"
		subtree_rank /cephbench = "$1" && return 0
		sleep 0.5
	done
	fail "/cephbench not held by rank $1"
}

thaw() {
	local pid
	pid=$(daemon_pid mds.b) && kill -CONT "$pid" 2>/dev/null || true
}
cleanup() {
	thaw
	pin -1 >/dev/null 2>&1 || true
	"$CEPHBENCH" cleanup --conf "$CONF" --fs "$FS" --all --quiet >/dev/null 2>&1 || true
	fceph fs set "$FS" max_mds 1 >/dev/null 2>&1 || true
	# rank 1 exports what it holds before it stops; mds.b killed while
	# stopping would leave rank 1 failed for the tests after this one
	for _ in $(seq 1 360); do
		[ "$(mds_rank_list "$FS" | wc -l)" = 1 ] && break
		sleep 0.5
	done
	mds_del b
	at_exit
}
trap cleanup EXIT

mds_add b
mds_ranks "$FS" 2
# (2) first: mds.b frozen while a CephFS write workload runs its repeats:
# its data goes to the OSDs, and /cephbench is pinned to rank 0, where a
# new directory is made, so only telemetry asks mds.b anything. (The other
# order, pinned to rank 1 for (1) and then back, waited on an export back
# that CI's loaded host once did not finish in 30 s.) A repeat's mark asks
# mds.b and waits out --timeout 3s; it is left out (a note) while rank 0 is
# still read; thawed, its stuck ask ends and a later repeat reads it again.
# (A CephFS mount waits for every rank: a tree test cannot start with mds.b
# frozen.)
pin_held 0
p=$(profile back <<YAML
name: back
cluster: { timeout: 3s }
workloads:
  - { name: w, layer: cephfs, fs: $FS, op: write, block_size: 4K, file_size: 4M, files: 2,
      duration: 4s, repeat: 4 }
YAML
)
set +e
timeout 300 "$CEPHBENCH" run "$p" --conf "$CONF" --run-name tmdsback --json "$T/back.json" \
	>"$T/out" 2>"$T/err" &
pid=$!
set -e
# frozen once the first repeat runs, thawed before the monitors' beacon
# grace (15 s) would mark it laggy, and well before the last repeat
sleep 5
kill -STOP "$(daemon_pid mds.b)" || fail "cannot freeze mds.b"
sleep 8
thaw
wait_bg "$pid"
assert_rc 0 "a run with mds.b frozen in its second repeat"
/usr/bin/python3 - "$T/back.json" <<'PY' || fail "telemetry: $(cat "$T/err")"
import json, sys
r = json.load(open(sys.argv[1]))
notes = r.get("telemetry_notes") or []
print("notes:", notes)
silent = [i for i, n in enumerate(notes) if "mds.b did not answer" in n]
back = [i for i, n in enumerate(notes) if "mds.b answered again" in n]
assert silent, "no note of mds.b's silence"
assert back and back[0] > silent[0], "no note of mds.b's return after its silence"
[ph] = r["phases"]
ranks = [k["name"] for k in ph["telemetry"]["cluster"]["mds"]["ranks"]]
print("ranks read:", ranks)
assert ranks == ["a", "b"], ranks
PY

pin_held 1
[ "$(mds_rank_list "$FS" | awk '$1 == 1 { print $2 }')" = b ] ||
	fail "rank 1 is not mds.b: $(mds_rank_list "$FS" | tr '\n' ';')"

# (1) the tree under a directory pinned to rank 1
p=$(profile ranks <<YAML
name: ranks
workloads:
  - { name: t, layer: cephfs, fs: $FS, op: tree, depth: 1, branch: 4, items: 20,
      phases: 'tree-create,file-create,file-stat,file-remove,tree-remove' }
YAML
)
cb run "$p" --conf "$CONF" --run-name tmds --json "$T/ranks.json" --detail
assert_rc 0 "the tree run on two ranks"
grep -E "MDS (counted|rank)" "$T/out"
/usr/bin/python3 - "$T/ranks.json" <<'PY' || fail "the MDS ranks in the record"
import json, sys
r = json.load(open(sys.argv[1]))
tot = {}
for ph in r["phases"]:
    m = ph["telemetry"]["cluster"]["mds"]
    ranks = m["ranks"]
    assert [k["rank"] for k in ranks] == [0, 1], (ph["name"], ranks)
    assert [k["name"] for k in ranks] == ["a", "b"], (ph["name"], ranks)
    for key in ("requests", "replies", "client_requests"):
        assert m[key] == sum(k[key] for k in ranks), (ph["name"], key, m)
    tot[ph["name"]] = [k["client_requests"] for k in ranks]
print("client requests by rank:", tot)
# rank 1 holds the pinned tree: it served at least each create, which
# rank 0's counters alone (the negative control: what was read before)
# fall short of
[create] = [p for p in r["phases"] if p["name"] == "t.file-create"]
c = create["telemetry"]["cluster"]["mds"]["ranks"]
assert c[1]["client_requests"] >= create["ops"], (create["name"], create["ops"], c)
assert c[0]["client_requests"] < create["ops"], (create["name"], create["ops"], c)
PY
grep -qE "^t\.[a-z-]+: MDS rank 1 \(mds\.b\): [0-9]+ requests" "$T/out" || fail "no rank 1 line: $(cat "$T/out")"
grep -qE "^t\.[a-z-]+: MDS counted [0-9]+ requests .* over 2 ranks" "$T/out" || fail "no sum line: $(cat "$T/out")"

echo ok
