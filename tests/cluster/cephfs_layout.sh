#!/usr/bin/env bash
# fio's append and create_only on CephFS file I/O, seen in the file system
# itself (tests/cluster/cephfs_tree.c, never cephbench): append's writes go
# past file_size (each to a new block: the files hold as many written 4 KiB
# blocks as ops were reported, where a plain write wraps within file_size),
# and append after a prefill starts at the end; create_only lays the files
# out in full and runs no I/O row. The same key on rbd: only the prefill row.
. "$(dirname "$0")/cephfs_lib.sh"
RBD_POOL=${CEPHBENCH_TEST_RBD_POOL:-rbd}
trap '"$CEPHBENCH" cleanup --conf "$CONF" --pool "$RBD_POOL" --all --quiet >/dev/null 2>&1 || true; cephfs_at_exit' EXIT

# blocks RUN KEYS WANT WHAT: run a one-workload profile of KEYS as RUN
# (kept), then the 4 KiB blocks its files hold must be WANT; removed after
blocks() {
	local p held
	p=$(cfs_profile "$1" "$2")
	cb run "$p" --conf "$CONF" --no-cleanup --quiet
	assert_rc 0 "$4"
	held=$(ftree written "/cephbench/$1") || fail "cannot read /cephbench/$1"
	[ "$held" = "$3" ] || fail "$4: the files hold $held written blocks, not $3"
	cb cleanup --conf "$CONF" --fs "$FS" --run-name "$1"
	assert_rc 0 "cleanup of $1"
}

blocks app "op: write, append: true, file_size: 64K, files: 2, block_size: 4K, ops: 300" 300 \
	"append: 300 ops"
# the same without append wraps within 64K x 2 files: 32 blocks
blocks wrap "op: write, file_size: 64K, files: 2, block_size: 4K, ops: 300" 32 \
	"write without append"
# after a prefill of 64K each, 100 appends land beyond it: 16 + 100
blocks appf "op: write, append: true, prefill: true, file_size: 64K, block_size: 4K, ops: 100" \
	116 "append after prefill"

p=$(cfs_profile lay "op: randwrite, create_only: true, file_size: 1M, files: 3, clients: 2")
cb run "$p" --conf "$CONF" --json "$T/lay.json" --no-cleanup --quiet
assert_rc 0 "create_only"
held=$(ftree written /cephbench/lay) || fail "cannot read /cephbench/lay"
[ "$held" = 1536 ] || fail "create_only: $held blocks, not 2 x 3 x 256"
/usr/bin/python3 - "$T/lay.json" <<'PY' || fail "create_only's rows"
import json, sys
names = [p["name"] for p in json.load(open(sys.argv[1]))["phases"]]
assert names == ["wl.prefill"], names
PY

profile img >/dev/null <<YAML
name: img
workloads:
  - { name: i, layer: rbd, pool: $RBD_POOL, op: randread, image_size: 16M, create_only: true }
YAML
cb run "$T/img.yaml" --conf "$CONF" --json "$T/img.json" --quiet
assert_rc 0 "rbd create_only"
/usr/bin/python3 - "$T/img.json" <<'PY' || fail "rbd create_only's rows"
import json, sys
ph = json.load(open(sys.argv[1]))["phases"]
assert [p["name"] for p in ph] == ["i.prefill"], ph
assert ph[0]["bytes"] == 16 << 20, ph[0]["bytes"]
PY
echo "ok"
