#!/usr/bin/env bash
# vdbench's operation mix on the sandbox file system (cephfs op mix):
# - over 10,000 ops each operation takes its weight within 2 points (reads
#   and writes rdpct's split of read's), each a kind of the row's by_op;
#   a create of a file that is there and the like failed as expected, no
#   error; the layout row made the tree;
# - what is left in the tree, counted through libcephfs (the cephfs_tree
#   helper, never cephbench), is the layout plus the creates and mkdirs
#   that succeeded minus the deletes and rmdirs that did; the files'
#   sizes (file_size a distribution) are all of its sizes, and the
#   layout's bytes are the sizes of the files it wrote;
# - weights that do not add up to 100, and rdpct beside a write weight, are
#   refused (exit 2).
. "$(dirname "$0")/cephfs_lib.sh"

profile m >/dev/null <<YAML
name: m
workloads:
  - { name: v, layer: cephfs, fs: $FS, op: mix, depth: 2, branch: 3, files: 20,
      file_size: { 4K: 50, 16K: 30, 64K: 20 },
      block_size: 4K, ops: 10000, rdpct: 70, ramp: 0s,
      mix: { getattr: 40, read: 30, create: 10, delete: 10, mkdir: 5, rmdir: 5 } }
YAML
cb run "$T/m.yaml" --conf "$CONF" --run-name m --no-cleanup --quiet --json "$T/m.json"
assert_rc 0 "the mix"
counted=$(fs_count /cephbench/m/v/c0)
"$CEPHFS_TREE" sizes "$CONF" "$FS" /cephbench/m/v/c0 >"$T/sizes" || fail "cannot list the files"
/usr/bin/python3 - "$T/m.json" "$counted" "$T/sizes" <<'PY' || fail "the mix: see above"
import json, sys

rows = {p["name"]: p for p in json.load(open(sys.argv[1]))["phases"]}
lay, mix = rows["v.layout"], rows["v"]
by = mix["by_op"]
want = {"getattr": 40, "read": 21, "write": 9, "create": 10, "delete": 10, "mkdir": 5, "rmdir": 5}
bad = []
for k, w in want.items():
    n = by.get(k, {}).get("ops", 0)
    ef = by.get(k, {}).get("expected_failures", 0)
    print(f"{k}: {n} ops ({100 * n / mix['ops']:.2f} %, weight {w}), {ef} failed as expected")
    if abs(100 * n / mix["ops"] - w) > 2:
        bad.append(f"{k}: {n} of {mix['ops']} ops, not {w} % within 2")
if set(by) - set(want) or mix["ops"] != 10000 or mix["errors"] or lay["errors"]:
    bad.append(f"kinds {sorted(by)}, {mix['ops']} ops, {mix['errors']} errors")
if lay["ops"] != 3 + 9 + 9 * 20:
    bad.append(f"the layout made {lay['ops']} directories and files, not 192")
if not by["create"].get("expected_failures"):
    bad.append("no create found its file there")
done = {k: by[k]["ops"] - by[k].get("expected_failures", 0) for k in want}
dirs = 3 + 9 + done["mkdir"] - done["rmdir"]
files = 180 + done["create"] - done["delete"]
print(f"the tree: {sys.argv[2]}; the ops that succeeded leave dirs {dirs} files {files}")
if sys.argv[2] != f"dirs {dirs} files {files}":
    bad.append("the tree is not what the ops that succeeded left")
sizes = [int(l.split()[1]) for l in open(sys.argv[3])]
print(f"file sizes: {sorted(set(sizes))}; the layout wrote {lay['bytes']} bytes")
if not set(sizes) <= {4096, 16384, 65536} or len(set(sizes)) < 3:
    bad.append(f"file sizes {sorted(set(sizes))}, not the distribution's")
if not 180 * 4096 < lay["bytes"] < 180 * 65536 or lay["bytes"] % 4096:
    bad.append(f"the layout wrote {lay['bytes']} bytes")
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY
cb cleanup --conf "$CONF" --fs "$FS" --run-name m
assert_rc 0 "cleanup of m"
assert_gone /cephbench/m "cleanup of the mix"

for bad in "mix: { getattr: 40, read: 30 }|mix: the weights add up to 70, not 100" \
	"mix: { read: 50, write: 50 }, rdpct: 70|rdpct splits mix's read weight into reads and writes"; do
	profile b >/dev/null <<YAML
name: b
workloads:
  - { name: v, layer: cephfs, fs: $FS, op: mix, file_size: 64K, ${bad%%|*} }
YAML
	cb run "$T/b.yaml" --conf "$CONF" --quiet
	assert_rc 2 "${bad%%|*}"
	one_line "${bad%%|*}" "${bad#*|}"
done
echo "vdbench mix: ok"
