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

written() { # RUN
	ftree written "/cephbench/$1" || fail "cannot read /cephbench/$1"
}

p=$(cfs_profile app "op: write, append: true, file_size: 64K, files: 2, block_size: 4K, ops: 300")
cb run "$p" --conf "$CONF" --json "$T/app.json" --no-cleanup --quiet
assert_rc 0 "append"
[ "$(written app)" = 300 ] || fail "append: 300 ops, the files hold $(written app) written blocks"
cb cleanup --conf "$CONF" --fs "$FS" --run-name app
assert_rc 0 "cleanup of app"

# the same without append wraps within 64K x 2 files: 32 blocks
p=$(cfs_profile wrap "op: write, file_size: 64K, files: 2, block_size: 4K, ops: 300")
cb run "$p" --conf "$CONF" --no-cleanup --quiet
assert_rc 0 "write"
[ "$(written wrap)" = 32 ] || fail "write without append: the files hold $(written wrap) blocks, not 32"
cb cleanup --conf "$CONF" --fs "$FS" --run-name wrap
assert_rc 0 "cleanup of wrap"

# after a prefill of 64K each, 100 appends land beyond it
p=$(cfs_profile appf "op: write, append: true, prefill: true, file_size: 64K, block_size: 4K, ops: 100")
cb run "$p" --conf "$CONF" --no-cleanup --quiet
assert_rc 0 "append after prefill"
[ "$(written appf)" = 116 ] || fail "append after prefill: $(written appf) blocks, not 16 + 100"
cb cleanup --conf "$CONF" --fs "$FS" --run-name appf
assert_rc 0 "cleanup of appf"

p=$(cfs_profile lay "op: randwrite, create_only: true, file_size: 1M, files: 3, clients: 2")
cb run "$p" --conf "$CONF" --json "$T/lay.json" --no-cleanup --quiet
assert_rc 0 "create_only"
[ "$(written lay)" = 1536 ] || fail "create_only: $(written lay) blocks, not 2 x 3 x 256"
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
