#!/usr/bin/env bash
# The cephfs layer killed with -9 at random moments of a run (mount, the
# run directory, a tree test's phases, file I/O's fill, ramp and measuring,
# cleanup), each followed by cephbench cleanup --fs: no /cephbench/<run>
# is left, nor a run directory being made (.new.<run>.<id>), nor /cephbench
# unless the isolation seed's entries are in it (a killed run's MDS
# sessions are evicted, not waited out). Then a namesake run takes a killed
# run's tree over.
. "$(dirname "$0")/crash_lib.sh"

: "${CEPHFS_TREE:?CEPHFS_TREE must name the cephfs_tree test helper}"
FS=${CEPHBENCH_TEST_FS:-cephfs}
crash_flag=--fs
crash_target=$FS
sed "s/FS/$FS/" >"$T/crash.yaml" <<'YAML'
name: crash
workloads:
  - {name: t, layer: cephfs, fs: FS, op: tree, depth: 1, branch: 2, items: 20}
  - {name: io, layer: cephfs, fs: FS, op: randwrite, file_size: 4M, block_size: 4K, ramp: 1s,
     duration: 2s}
YAML

# The helper on the sandbox file system (libcephfs, never cephbench).
ftree() { # COMMAND PATH
	"$CEPHFS_TREE" "$1" "$CONF" "$FS" "$2"
}
# Only lookups: a listing below the killed run's tree would wait for its MDS
# session to time out (60 s); cleanup evicts it first.
crash_state() { # RUN
	local w
	if ! timeout 10 "$CEPHFS_TREE" exists "$CONF" "$FS" "/cephbench/$1"; then
		echo "no /cephbench/$1"
		return 0
	fi
	for w in io t; do
		if timeout 10 "$CEPHFS_TREE" exists "$CONF" "$FS" "/cephbench/$1/$w"; then
			echo "/cephbench/$1/$w"
			return 0
		fi
	done
	echo "/cephbench/$1, empty"
}

crash_assert_clean() { # WHAT
	local left
	left=$(ftree runs /cephbench) || fail "$1: cannot list /cephbench"
	[ -z "$left" ] || fail "$1: left in /cephbench: $left"
}

trap '"$CEPHBENCH" cleanup --conf "$CONF" --fs "$FS" --all --quiet >/dev/null 2>&1 || true; at_exit' EXIT

crash_kills

# Namesake: a tree run killed while it creates files, then a run of the same
# name (create and stat only, --no-cleanup): the killed run's tree goes
# before it makes its own (a line says so), its file-stat stats its own 12
# files, and only its tree is left.
sed "s/FS/$FS/" >"$T/long.yaml" <<'YAML'
name: long
workloads:
  - {name: wl, layer: cephfs, fs: FS, op: tree, depth: 1, branch: 2, items: 20000, files_only: true}
YAML
sed "s/FS/$FS/" >"$T/again.yaml" <<'YAML'
name: again
workloads:
  - {name: wl, layer: cephfs, fs: FS, op: tree, depth: 1, branch: 2, items: 4, files_only: true,
     phases: "tree-create,file-create,file-stat"}
YAML
"$CEPHBENCH" run "$T/long.yaml" --conf "$CONF" --run-name ns --quiet >/dev/null 2>&1 &
bg=$!
for _ in $(seq 1 150); do
	ftree exists /cephbench/ns/wl/t.0 && break
	sleep 0.2
done
sleep 2
kill -KILL $bg
wait_bg $bg
[ "$rc" -eq 137 ] || fail "namesake: the long run ended with $rc before the kill"
ftree exists /cephbench/ns/wl/t.0 || fail "namesake: the killed run left no tree"
cb run "$T/again.yaml" --conf "$CONF" --run-name ns --no-cleanup --format json
assert_rc 0 "namesake run"
grep -qE "^workload 'wl.tree-create': took over /cephbench/ns in file system $FS, left by an earlier run of this name \(pid $bg, gone\): removed [0-9]+ files and directories before making it anew$" "$T/err" ||
	fail "namesake: no takeover line: $(cat "$T/err")"
removed=$(sed -n 's/.*: removed \([0-9]*\) files and directories before.*/\1/p' "$T/err")
[ "$removed" -gt 12 ] || fail "namesake: removed only $removed entries of the killed run"
/usr/bin/python3 - "$T/out" <<'PY'
import json, sys
p = {r["name"]: r for r in json.load(open(sys.argv[1]))["phases"]}
for n in ("wl.file-create", "wl.file-stat"):
    assert p[n]["ops"] == 12 and p[n]["errors"] == 0, f"{n}: {p[n]['ops']} ops, {p[n]['errors']} errors"
PY
[ "$(ftree count /cephbench/ns)" = "dirs 4 files 12" ] ||
	fail "namesake: /cephbench/ns holds $(ftree count /cephbench/ns), expected this run's 4 dirs, 12 files"
crash_cleanup --run-name ns
assert_rc 0 "cleanup of the namesake's tree"
crash_assert_clean "after the namesake test"
echo "ok: namesake of a killed run: its $removed entries removed first, said so, file-stat on this run's 12 files"
echo ok
