# Shared by the CephFS cluster tests (cephfs*.sh), on top of lib.sh: the file
# system, and helpers that look at it with tests/cluster/cephfs_tree.c
# (libcephfs itself, never cephbench). Sourced, not run.
. "$(dirname "$0")/lib.sh"

: "${CEPHFS_TREE:?CEPHFS_TREE must name the cephfs_tree test helper}"
FS=${CEPHBENCH_TEST_FS:-cephfs}

# On exit, even on failure: every run's tree goes too, so a failed test does
# not make the next one fail. Scripts with things of their own to remove
# chain it (trap '...; cephfs_at_exit' EXIT).
cephfs_at_exit() {
	"$CEPHBENCH" cleanup --conf "$CONF" --fs "$FS" --all --quiet >/dev/null 2>&1 || true
	at_exit
}
trap cephfs_at_exit EXIT

# The helper on the sandbox file system: ftree count|exists|seed|sum|written|rm PATH.
ftree() { # COMMAND PATH [TARGET]
	local cmd=$1
	shift
	"$CEPHFS_TREE" "$cmd" "$CONF" "$FS" "$@"
}

fs_exists() {
	ftree exists "$1"
}

# "dirs N files M" below PATH; fails the test when PATH is missing.
fs_count() {
	ftree count "$1" || fail "cannot count $1"
}

assert_gone() {
	! fs_exists "$1" || fail "$2: $1 still exists: $(ftree count "$1")"
}

assert_count() { # PATH DIRS FILES WHAT
	local got
	got=$(fs_count "$1")
	[ "$got" = "dirs $2 files $3" ] || fail "$4: $1 holds $got, expected dirs $2 files $3"
}

# Wait until PATH exists (a background run has started making its tree).
wait_for_path() {
	for _ in $(seq 1 150); do
		fs_exists "$1" && return 0
		sleep 0.2
	done
	fail "$1 never appeared"
}

# Field of the JSON result's row NAME (rows: phases[]), "none" when there is
# no such row: fields ops, errors, clients, ... of $T/out (--format json).
row() {
	/usr/bin/python3 - "$T/out" "$1" "$2" <<'PY'
import json, sys
rows = [p for p in json.load(open(sys.argv[1]))["phases"] if p["name"] == sys.argv[2]]
print(rows[0][sys.argv[3]] if rows else "none")
PY
}

# Every row's name, errors and ops, one row a line: "NAME ERRORS OPS".
rows() {
	/usr/bin/python3 - "$T/out" <<'PY'
import json, sys
for p in json.load(open(sys.argv[1]))["phases"]:
    print(p["name"], p["errors"], p["ops"])
PY
}

assert_row() { # NAME FIELD VALUE WHAT
	local got
	got=$(row "$1" "$2")
	[ "$got" = "$3" ] || fail "$4: row $1 has $2 $got, expected $3; rows: $(rows | tr '\n' ';')"
}

# A one-workload cephfs profile of the given keys (a YAML flow map's
# contents); prints its path.
cfs_profile() { # FILE KEYS
	profile "$1" <<YAML
name: $1
workloads:
  - { name: wl, layer: cephfs, fs: $FS, $2 }
YAML
}

