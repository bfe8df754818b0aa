#!/usr/bin/env bash
# The CephFS layer makes the tree mdtest's arithmetic says, in the layout of
# docs (/cephbench/<run>/<workload>/[c<k>/]t.0/...), reports the ops it did,
# and removes it: at the end of a run, and by `cephbench cleanup --fs`.
# Counted with the cephfs_tree helper (libcephfs), never with cephbench.
. "$(dirname "$0")/cephfs_lib.sh"

assert_gone /cephbench/cfs-a "before the test"

CREATE="phases: 'tree-create,dir-create,file-create'"

# Run a profile, JSON result on stdout; expects exit 0.
run_json() { # WHAT PROFILE ARGS...
	local what=$1 prof=$2
	shift 2
	cb run "$prof" --conf "$CONF" --format json "$@"
	assert_rc 0 "$what"
}

# The create rows of a --no-cleanup run against the tree the helper counts:
# tree-create + dir-create ops are the directories, file-create the files.
assert_create_rows() { # WHAT DIR TREE_DIRS ITEM_DIRS FILES
	local what=$1 dir=$2
	assert_row wl.tree-create ops "$3" "$what"
	assert_row wl.dir-create ops "$4" "$what"
	assert_row wl.file-create ops "$5" "$what"
	for r in tree-create dir-create file-create; do
		assert_row "wl.$r" errors 0 "$what"
	done
	assert_count "$dir" $(($3 + $4)) "$5" "$what"
}

# (a) depth 2, branch 3: 1 + 3 + 9 = 13 tree directories, items in each.
tree=$((1 + 3 + 9))
p=$(cfs_profile a "op: tree, depth: 2, branch: 3, items: 5, $CREATE")
run_json "items 5" "$p" --run-name cfs-a --no-cleanup
assert_create_rows "items 5" /cephbench/cfs-a/wl $tree $((5 * tree)) $((5 * tree))
# the layout: items of client 0 named by j, in node m's path t.0/.../t.m
for path in t.0/d.0.0 t.0/f.0.4 t.0/t.1/d.0.5 t.0/t.3/t.12/f.0.64; do
	fs_exists "/cephbench/cfs-a/wl/$path" || fail "items 5: no /cephbench/cfs-a/wl/$path"
done
! fs_exists /cephbench/cfs-a/wl/t.0/d.0.5 || fail "items 5: item 5 is in the root, expected in t.1"
assert_count /cephbench/cfs-a/wl/t.0/t.2/t.7 5 5 "items 5, a leaf"
cb cleanup --fs "$FS" --run-name cfs-a --conf "$CONF"
assert_rc 0 "cleanup --run-name cfs-a"
# what it says it removed: the tree, the items, wl and cfs-a
grep -qF "removed $((tree + 5 * tree + 5 * tree + 2)) files and directories of run 'cfs-a'" "$T/out" ||
	fail "cleanup cfs-a said: $(cat "$T/out")"
assert_gone /cephbench/cfs-a "after cleanup --run-name"

# leaf_only: items in the 9 leaves (nodes 4..12) only.
p=$(cfs_profile leaf "op: tree, depth: 2, branch: 3, items: 5, leaf_only: true, $CREATE")
run_json "leaf_only" "$p" --run-name cfs-leaf --no-cleanup
assert_create_rows "leaf_only" /cephbench/cfs-leaf/wl $tree 45 45
assert_count /cephbench/cfs-leaf/wl/t.0/t.1/t.4 5 5 "leaf_only, first leaf"
assert_count /cephbench/cfs-leaf/wl/t.0/t.3/t.12 5 5 "leaf_only, last leaf"
fs_exists /cephbench/cfs-leaf/wl/t.0/t.1/t.4/d.0.0 || fail "leaf_only: item 0 is not in the first leaf"
# an inner node holds only its leaves: 3 tree dirs + 15 items + 15 files
assert_count /cephbench/cfs-leaf/wl/t.0/t.2 18 15 "leaf_only, an inner node"
cb cleanup --fs "$FS" --run-name cfs-leaf --conf "$CONF"
assert_rc 0 "cleanup --run-name cfs-leaf"
assert_gone /cephbench/cfs-leaf "after cleanup of leaf_only"

# total_items 20 over 13 directories: the first 7 hold 2, the other 6 hold 1.
p=$(cfs_profile total "op: tree, depth: 2, branch: 3, total_items: 20, $CREATE")
run_json "total_items 20" "$p" --run-name cfs-tot --no-cleanup
assert_create_rows "total_items 20" /cephbench/cfs-tot/wl $tree 20 20
# node 1 and its leaves 4, 5, 6 hold 2 each; node 12 holds the last item, 19
assert_count /cephbench/cfs-tot/wl/t.0/t.1 $((3 + 8)) 8 "total_items 20, node 1"
assert_count /cephbench/cfs-tot/wl/t.0/t.3/t.12 1 1 "total_items 20, node 12"
fs_exists /cephbench/cfs-tot/wl/t.0/t.3/t.12/f.0.19 || fail "total_items 20: f.0.19 is not in node 12"
cb cleanup --fs "$FS" --run-name cfs-tot --conf "$CONF"
assert_rc 0 "cleanup --run-name cfs-tot"
assert_gone /cephbench/cfs-tot "after cleanup of total_items"

# (b) every phase (the default), files written and read: no errors, each
# phase did as many ops as its create phase, and the run removes its tree.
p=$(cfs_profile full "op: tree, depth: 2, branch: 3, items: 5, write_bytes: 4K, read_bytes: 4K")
run_json "all phases" "$p" --run-name cfs-full
rows >"$T/rows"
[ "$(wc -l <"$T/rows")" -eq 10 ] || fail "all phases: expected 10 rows: $(cat "$T/rows")"
while read -r name errors ops; do
	[ "$errors" -eq 0 ] || fail "all phases: $name has $errors errors"
	[ "$ops" -gt 0 ] || fail "all phases: $name did no op"
done <"$T/rows"
for ph in tree-create tree-remove; do assert_row "wl.$ph" ops $tree "all phases"; done
for ph in dir-create dir-stat dir-rename dir-remove file-create file-stat file-read file-remove; do
	assert_row "wl.$ph" ops $((5 * tree)) "all phases"
done
assert_row wl.file-create bytes $((5 * tree * 4096)) "all phases"
assert_row wl.file-read bytes $((5 * tree * 4096)) "all phases"
assert_gone /cephbench/cfs-full "after a run with every phase"

# (c) two clients, a tree each (unique_dir): c0 and c1 hold a full tree.
p=$(cfs_profile uniq "op: tree, depth: 2, branch: 3, items: 5, clients: 2, unique_dir: true, $CREATE")
run_json "unique_dir" "$p" --run-name cfs-u --no-cleanup
for ph in tree-create dir-create file-create; do assert_row "wl.$ph" clients 2 "unique_dir"; done
assert_row wl.tree-create ops $((2 * tree)) "unique_dir"
assert_row wl.dir-create ops $((2 * 5 * tree)) "unique_dir"
assert_row wl.file-create ops $((2 * 5 * tree)) "unique_dir"
for k in 0 1; do
	assert_count /cephbench/cfs-u/wl/c$k $((tree + 5 * tree)) $((5 * tree)) "unique_dir, client $k"
	fs_exists /cephbench/cfs-u/wl/c$k/t.0/d.$k.0 || fail "unique_dir: c$k holds no d.$k.0"
done
assert_count /cephbench/cfs-u/wl $((2 + 2 * (tree + 5 * tree))) $((2 * 5 * tree)) "unique_dir, both"
cb cleanup --fs "$FS" --run-name cfs-u --conf "$CONF"
assert_rc 0 "cleanup --run-name cfs-u"
assert_gone /cephbench/cfs-u "after cleanup of unique_dir"

# Two clients sharing one tree: client 0 makes it, both put their items in.
p=$(cfs_profile shared "op: tree, depth: 2, branch: 3, items: 5, clients: 2, $CREATE")
run_json "shared tree" "$p" --run-name cfs-s --no-cleanup
assert_row wl.dir-create clients 2 "shared tree"
assert_create_rows "shared tree" /cephbench/cfs-s/wl $tree $((2 * 5 * tree)) $((2 * 5 * tree))
for k in 0 1; do
	fs_exists /cephbench/cfs-s/wl/t.0/f.$k.0 || fail "shared tree: no f.$k.0 in the root"
done
! fs_exists /cephbench/cfs-s/wl/c0 || fail "shared tree: a per-client directory c0 exists"
cb cleanup --fs "$FS" --run-name cfs-s --conf "$CONF"
assert_rc 0 "cleanup --run-name cfs-s"
assert_gone /cephbench/cfs-s "after cleanup of the shared tree"

# (d) iterations: 2 does every phase twice: twice the ops of one iteration.
p=$(cfs_profile it1 "op: tree, depth: 1, branch: 4, items: 3")
run_json "iterations 1" "$p" --run-name cfs-i1
rows | sort >"$T/one"
p=$(cfs_profile it2 "op: tree, depth: 1, branch: 4, items: 3, iterations: 2")
run_json "iterations 2" "$p" --run-name cfs-i2
rows | sort >"$T/two"
[ "$(wc -l <"$T/two")" -eq 10 ] || fail "iterations 2: expected 10 rows: $(cat "$T/two")"
join "$T/one" "$T/two" >"$T/both"
[ "$(wc -l <"$T/both")" -eq 10 ] || fail "iterations: rows differ: $(cat "$T/one" "$T/two")"
while read -r name e1 o1 e2 o2; do
	[ "$e1" -eq 0 ] && [ "$e2" -eq 0 ] || fail "iterations: $name has errors ($e1, $e2)"
	[ "$o2" -eq $((2 * o1)) ] || fail "iterations: $name did $o2 ops in 2 iterations, $o1 in 1"
done <"$T/both"
assert_row wl.dir-create ops $((2 * 3 * 5)) "iterations 2"
assert_gone /cephbench/cfs-i2 "after 2 iterations"

# (e) file data I/O: each op, 2 s each; reads are filled first (the prefill
# row: files x 8M in 4M blocks).
profile io <<YAML >/dev/null
name: io
defaults: { layer: cephfs, fs: $FS, file_size: 8M, duration: 2s }
workloads:
  - { name: w, op: write }
  - { name: rw, op: randwrite }
  - { name: r, op: read, files: 2 }
  - { name: rr, op: randread }
YAML
run_json "I/O" "$T/io.yaml" --run-name cfs-io
rows >"$T/rows"
[ "$(cut -d' ' -f1 "$T/rows" | tr '\n' ' ')" = "w rw r.prefill r rr.prefill rr " ] ||
	fail "I/O: rows $(cut -d' ' -f1 "$T/rows" | tr '\n' ' ')"
while read -r name errors ops; do
	[ "$errors" -eq 0 ] || fail "I/O: $name has $errors errors"
	[ "$ops" -gt 0 ] || fail "I/O: $name did no op"
done <"$T/rows"
assert_row r.prefill ops 4 "I/O"
assert_row rr.prefill ops 2 "I/O"
assert_row r.prefill bytes $((16 << 20)) "I/O"
for w in w rw r rr; do
	[ "$(row $w bytes)" -eq $(($(row $w ops) * 4096)) ] || fail "I/O: $w did not move 4K per op"
done
[ "$(row r read_ops)" -eq "$(row r ops)" ] && [ "$(row w write_ops)" -eq "$(row w ops)" ] ||
	fail "I/O: reads or writes counted as the other kind"
assert_gone /cephbench/cfs-io "after the I/O run"

# --no-cleanup keeps the files, each client's c<k>.<n> in its workload's dir.
run_json "I/O kept" "$T/io.yaml" --run-name cfs-iok --no-cleanup -o duration=1s
assert_count /cephbench/cfs-iok/r 0 2 "I/O kept, read"
fs_exists /cephbench/cfs-iok/r/c0.1 || fail "I/O kept: no c0.1 in r"
fs_exists /cephbench/cfs-iok/w/c0.0 || fail "I/O kept: no c0.0 in w"
cb cleanup --fs "$FS" --run-name cfs-iok --conf "$CONF"
assert_rc 0 "cleanup --run-name cfs-iok"
assert_gone /cephbench/cfs-iok "after cleanup of the kept I/O files"

echo "cephfs: ok"
