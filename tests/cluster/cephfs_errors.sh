#!/usr/bin/env bash
# Each bad CephFS input is one line on stderr naming the culprit, with its
# exit code (2 bad input, 3 cluster), nothing on stdout, and leaves nothing
# in the file system: /cephbench/<run> does not exist afterwards.
. "$(dirname "$0")/cephfs_lib.sh"

n=0
# Run a one-workload profile of the given keys; expect exit code $1, one
# stderr line holding the strings after --, an empty stdout, no tree.
expect() { # CODE WHAT KEYS [ARGS...] -- STRINGS...
	local code=$1 what=$2 keys=$3 run=cfs-err-$((++n))
	shift 3
	args_until_dashes "$@"
	shift $((${#ARGS[@]} + 1))
	profile bad <<YAML >/dev/null
name: bad
workloads:
  - { name: wl, $keys }
YAML
	cb run "$T/bad.yaml" --conf "$CONF" --run-name "$run" --quiet "${ARGS[@]}"
	assert_rc "$code" "$what"
	one_line "$what" "$@"
	[ ! -s "$T/out" ] || fail "$what: stdout not empty: $(cat "$T/out")"
	assert_gone "/cephbench/$run" "after $what"
}

tree="layer: cephfs, fs: $FS, op: tree"

# A file system that does not exist: a cluster error.
expect 3 "missing file system" "layer: cephfs, fs: nosuchfs, op: tree, items: 2" -- \
	"'nosuchfs'" "not found" "ceph fs ls"
expect 3 "missing file system (I/O)" "layer: cephfs, fs: nosuchfs, op: randread, file_size: 1M" -- \
	"'nosuchfs'" "not found"

# Bad parameters: exit 2, refused before connecting.
expect 2 "leaf_only at depth 0" "$tree, depth: 0, leaf_only: true, items: 5" -- \
	"bad.yaml" "leaf_only needs depth 1 or more"
expect 2 "branch 0" "$tree, depth: 2, branch: 0, items: 5" -- \
	"bad.yaml" "branch: 0 makes no tree"
expect 2 "negative items" "$tree, depth: 1, items: -1" -- \
	"bad.yaml" "items" "'-1'"
expect 2 "files_only and dirs_only" "$tree, items: 5, files_only: true, dirs_only: true" -- \
	"bad.yaml" "files_only and dirs_only exclude each other"
expect 2 "no items" "$tree, depth: 1, branch: 2" -- \
	"bad.yaml" "give either items (per directory) or total_items (per client)"
expect 2 "items and total_items" "$tree, items: 2, total_items: 10" -- \
	"bad.yaml" "give either items (per directory) or total_items (per client)"
expect 2 "read_bytes > write_bytes" "$tree, items: 5, write_bytes: 1K, read_bytes: 4K" -- \
	"bad.yaml" "read_bytes (4096) is more than write_bytes (1024)"
expect 2 "iterations without tree-remove" \
	"$tree, items: 5, iterations: 2, phases: 'tree-create,file-create'" -- \
	"bad.yaml" "iterations: 2 needs the tree removed" "tree-remove"
expect 2 "unknown phase" "$tree, items: 5, phases: 'tree-create,dir-crate'" -- \
	"bad.yaml" "unknown phase 'dir-crate' (did you mean 'dir-create'?)"
expect 2 "phase without its create" "$tree, items: 5, phases: 'tree-create,file-stat'" -- \
	"bad.yaml" "file-stat needs file-create"
expect 2 "file_size not a multiple of block_size" \
	"layer: cephfs, fs: $FS, op: randread, block_size: 4K, file_size: 10001" -- \
	"bad.yaml" "file_size 10001 is not a multiple of block_size 4096"
expect 2 "unknown op" "layer: cephfs, fs: $FS, op: tre, items: 5" -- \
	"bad.yaml" "did you mean 'tree'"
# every layer takes clients now (up to 1024); cephfs's own bound is the key's
expect 2 "clients above 1024" "$tree, items: 2, clients: 1025" -- \
	"bad.yaml" "clients" "must be between 1 and 1024"

# A client without mds caps: the mount is refused, a cluster error.
ceph --conf "$CONF" auth get-or-create client.cbnofs mon 'allow r' osd "allow rw pool=$POOL" \
	-o "$T/nofs.keyring" >/dev/null 2>&1 || fail "cannot create client.cbnofs"
trap 'ceph --conf "$CONF" auth rm client.cbnofs >/dev/null 2>&1 || true; cephfs_at_exit' EXIT
expect 3 "no mds caps" "$tree, items: 2" --client cbnofs --keyring "$T/nofs.keyring" -- \
	"mount of file system '$FS' refused" "mds caps"
# the same client and keyring work for rados: the refusal is the file system's
profile ok <<YAML >/dev/null
name: ok
workloads:
  - { name: wl, layer: rados, pool: $POOL, op: write, duration: 1s }
YAML
cb run "$T/ok.yaml" --conf "$CONF" --client cbnofs --keyring "$T/nofs.keyring" --quiet
assert_rc 0 "rados with the client without mds caps"

# No active MDS (the file system failed): the mount times out, and the line
# names --timeout and both causes libcephfs cannot tell apart (a monitor
# stopped during a mount: tests/fault/mon_stop_cephfs.sh).
mds_back() {
	ceph --conf "$CONF" fs set "$FS" joinable true >/dev/null 2>&1 || true
	for _ in $(seq 1 120); do
		ceph --conf "$CONF" mds stat 2>/dev/null | grep -q "$FS:.*up:active" && return 0
		sleep 0.5
	done
	return 1
}
trap 'mds_back || true; ceph --conf "$CONF" auth rm client.cbnofs >/dev/null 2>&1 || true; cephfs_at_exit' EXIT
ceph --conf "$CONF" fs fail "$FS" >/dev/null 2>&1 || fail "cannot fail file system $FS"
# the pre-flight gate sees it first (HEALTH_ERR MDS_ALL_DOWN) and refuses
cb run "$(cfs_profile nomds "op: tree, items: 2")" --conf "$CONF" --run-name cfs-nomds --quiet \
	--timeout 3s
assert_rc 3 "no active MDS, the gate"
one_line "no active MDS, the gate" "cluster not ready:" "MDS_ALL_DOWN" "(preflight require: warn)"
# past the gate, the mount times out and says so
cb run "$(cfs_profile nomds "op: tree, items: 2")" --conf "$CONF" --run-name cfs-nomds --quiet \
	--timeout 3s --no-preflight
mds_back || fail "the MDS of $FS did not come back"
assert_rc 3 "no active MDS"
one_line "no active MDS" "mount of file system '$FS' timed out after 3 s (--timeout)" \
	"monitors are not reachable" "no MDS of the file system is active"
! grep -qF "is an MDS active?" "$T/err" || fail "no active MDS: the old line: $(cat "$T/err")"
assert_gone /cephbench/cfs-nomds "after no active MDS"

echo "cephfs_errors: ok"
