#!/usr/bin/env bash
# `cephbench fs` and the tree's stride on the sandbox file system:
# - `cephbench fs -z 2 -b 3 -I 5 -u` (mdtest's flags) and fio's flags make
#   the same rows as the profiles that say the same (names, ops, syncs,
#   every parameter but the seed);
# - stride (mdtest -N): each client's file-stat asks the MDS for another
#   client's files, which its cache does not hold: the MDS (its own
#   counters, telemetry's) answered at least one request per stat, in a
#   shared tree and in a tree per client, where without a stride (a tree
#   per client) the clients' caches answered most of them; a stride that
#   comes back to the client is refused.
. "$(dirname "$0")/cephfs_lib.sh"

# same ROWS_A ROWS_B WHAT: the records' rows alike but for the seed
same() {
	/usr/bin/python3 - "$1" "$2" "$3" <<'PY' || fail "$3: see above"
import json, sys

def rows(path):
    out = []
    for p in json.load(open(path))["phases"]:
        params = dict(p["params"])
        params.pop("seed")
        syncs = p.get("by_op", {}).get("sync", {}).get("ops")
        out.append((p["name"], p["op"], p["ops"], p["errors"], syncs, params))
    return out

a, b = rows(sys.argv[1]), rows(sys.argv[2])
for x, y in zip(a, b):
    print(f"{sys.argv[3]}: {x[0]} {x[2]} ops ({y[2]}), syncs {x[4]} ({y[4]})")
    if x != y:
        print(f"  differs: {x} / {y}")
sys.exit(0 if a == b and a else 1)
PY
}

cb fs -z 2 -b 3 -I 5 -u --clients 2 --conf "$CONF" --fs "$FS" --run-name fa --quiet --json "$T/fa.json"
assert_rc 0 "cephbench fs with mdtest's flags"
profile fb >/dev/null <<YAML
name: fb
workloads:
  - { name: mdtest, layer: cephfs, fs: $FS, op: tree, depth: 2, branch: 3, items: 5,
      unique_dir: true, clients: 2 }
YAML
cb run "$T/fb.yaml" --conf "$CONF" --run-name fb --quiet --json "$T/fb.json"
assert_rc 0 "the same tree as a profile"
same "$T/fa.json" "$T/fb.json" "mdtest's flags"

cb fs --rw randwrite --bs 4K --size 16M --fsync 4 --ops 400 --conf "$CONF" --fs "$FS" \
	--run-name ia --quiet --json "$T/ia.json"
assert_rc 0 "cephbench fs with fio's flags"
profile ib >/dev/null <<YAML
name: ib
workloads:
  - { name: fio, layer: cephfs, fs: $FS, op: randwrite, block_size: 4K, file_size: 16M,
      fsync: 4, ops: 400 }
YAML
cb run "$T/ib.yaml" --conf "$CONF" --run-name ib --quiet --json "$T/ib.json"
assert_rc 0 "the same file I/O as a profile"
same "$T/ia.json" "$T/ib.json" "fio's flags"

# stride: the MDS's count of requests in each client's file-stat
for st in 0 1 u; do
	# the baseline on trees of the clients' own: in a shared one the other
	# client's creates take caps back, and a third of the stats went to the
	# MDS on a loaded CI host (401 of 1,200)
	case $st in
	0) extra="stride: 0, unique_dir: true, cold: false" ;;
	1) extra="stride: 1" ;;
	u) extra="stride: 1, unique_dir: true" ;;
	esac
	profile "s$st" >/dev/null <<YAML
name: s$st
workloads:
  - { name: t, layer: cephfs, fs: $FS, op: tree, clients: 2, depth: 1, branch: 2, items: 200,
      files_only: true, write_bytes: 4K, read_bytes: 4K, $extra }
YAML
	cb run "$T/s$st.yaml" --conf "$CONF" --run-name "s$st" --quiet --json "$T/s$st.json"
	assert_rc 0 "tree with $extra"
done
/usr/bin/python3 - "$T/s0.json" "$T/s1.json" "$T/su.json" <<'PY' || fail "stride: see above"
import json, sys

bad = []
for path, strided in zip(sys.argv[1:], (False, True, True)):
    rows = {p["name"]: p for p in json.load(open(path))["phases"]}
    p = rows["t.file-stat"]
    mds = p["telemetry"]["cluster"]["mds"]["client_requests"]
    print(f"{path.split('/')[-1]}: file-stat {p['ops']} stats, {p['errors']} errors, the MDS "
          f"answered {mds} requests")
    if any(r["errors"] for r in rows.values()) or p["ops"] != 1200:
        bad.append(f"{path}: errors, or not 1200 stats")
    if strided and mds < p["ops"]:
        bad.append(f"{path}: with a stride, {mds} MDS requests for {p['ops']} stats")
    if not strided and mds * 4 > p["ops"]:
        bad.append(f"{path}: without a stride, {mds} MDS requests for {p['ops']} stats")
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY
profile sx >/dev/null <<YAML
name: sx
workloads:
  - { name: t, layer: cephfs, fs: $FS, op: tree, clients: 2, items: 5, stride: 2 }
YAML
cb run "$T/sx.yaml" --conf "$CONF" --quiet
assert_rc 2 "a stride back to the client"
one_line "a stride back to the client" "stride 2: with 2 clients each would work on its own items"
echo "cephbench fs: ok"
