#!/usr/bin/env bash
# fsopbench on the sandbox file system (profiles/fsopbench.yaml, cephfs op
# fsop): the tree is laid out with each file the size the documented model
# gives it, recomputed here (Python's NormalDist, not GSL, not cephbench)
# and read back through libcephfs (the cephfs_tree helper); every step goes
# over the whole tree once, alone and beside the writers; the report prints
# fsopbench's two tables, "Reading only" and "In competition with 2
# writers", each with readdir, lstat, open, first-byte and read and the
# read rate; the interference table has every step.
. "$(dirname "$0")/cephfs_lib.sh"
PROFILE=$(cd "$(dirname "$0")/../.." && pwd)/profiles/fsopbench.yaml

cb run "$PROFILE" --conf "$CONF" --run-name fo --no-cleanup --json "$T/fo.json" \
	-o "fs=$FS" -o writers.clients=2 -o writers.file_size=64M
assert_rc 0 "profiles/fsopbench.yaml"
cp "$T/out" "$T/fo.out"
"$CEPHFS_TREE" sizes "$CONF" "$FS" /cephbench/fo/alone/c0 >"$T/sizes" ||
	fail "cannot list the tree's files"
/usr/bin/python3 - "$T/fo.json" "$T/sizes" "$T/fo.out" "$HERE" <<'PY' || fail "fsopbench: see above"
import json, math, statistics, sys

sys.path.insert(0, sys.argv.pop())  # tests/cluster: the pattern's splitmix64
from krbd_pattern import splitmix64 as splitmix


rec = json.load(open(sys.argv[1]))
rows = {p["name"]: p for p in rec["phases"]}
seed = rows["alone.layout"]["params"]["seed"]
sizes = dict(l.split() for l in open(sys.argv[2]))
bad = []
# the model: lognormal, median 4096, sigma 2.5, at most 64M; file i of
# directory m (breadth-first) is t.../f.<i % 20>
dirs = ["."] + [f"t.{a}" for a in range(4)] + [f"t.{a}/t.{b}" for a in range(4) for b in range(4)]
off = 0
for m, d in enumerate(dirs):
    for k in range(20):
        i = m * 20 + k
        u = ((splitmix(seed ^ splitmix((0 << 40) ^ i)) >> 11) + 0.5) / 2 ** 53
        want = min(max(int(4096 * math.exp(2.5 * statistics.NormalDist().inv_cdf(u))), 1), 64 << 20)
        got = int(sizes.get(f"{d}/f.{k}" if d != "." else f"f.{k}", -1))
        if abs(got - want) > 1:
            off += 1
            if off < 4:
                bad.append(f"{d}/f.{k}: {got} bytes, the model gives {want}")
all_sizes = sorted(int(v) for v in sizes.values())
print(f"{len(all_sizes)} files, median {statistics.median(all_sizes):.0f} bytes, "
      f"{sum(s > 102400 for s in all_sizes)} over 100 KiB, largest {all_sizes[-1]}; "
      f"{off} off the model")
if len(all_sizes) != 420:
    bad.append(f"{len(all_sizes)} files, not 21 directories of 20")
want = {"layout": 20 + 420, "readdir": 21, "lstat": 420, "open": 420, "first-byte": 420,
        "read": 420}
for w in ("alone", "fsop"):
    for step, n in want.items():
        p = rows.get(f"{w}.{step}")
        if not p or p["ops"] != n or p["errors"]:
            bad.append(f"{w}.{step}: {p and p['ops']} ops, not {n}, or errors")
    # each tree its workload's seed's: read whole, what the layout wrote
    if rows[f"{w}.read"]["bytes"] != rows[f"{w}.layout"]["bytes"] or rows[f"{w}.first-byte"]["bytes"] != 420:
        bad.append(f"{w}: read {rows[f'{w}.read']['bytes']} bytes, the layout wrote "
                   f"{rows[f'{w}.layout']['bytes']}")
if rows["alone.read"]["bytes"] != sum(all_sizes):
    bad.append(f"alone: read {rows['alone.read']['bytes']} bytes, its files hold {sum(all_sizes)}")
inter = {x["row"] for x in rec.get("interference", [])}
if inter != {f"fsop.{s}" for s in want}:
    bad.append(f"interference rows: {sorted(inter)}")
out = open(sys.argv[3]).read()
for title in ("Reading only", "In competition with 2 writers"):
    block = out.split(title, 1)[1] if title in out else ""
    for op in ("readdir", "lstat", "open", "first-byte", "read", "read rate"):
        if f"\n{op} " not in block.split("\n\n")[0] + "\n":
            bad.append(f"'{title}': no line for {op}")
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY
cb cleanup --conf "$CONF" --fs "$FS" --run-name fo
assert_rc 0 "cleanup of fo"
assert_gone /cephbench/fo "cleanup of fsopbench"
echo "fsopbench: ok"
