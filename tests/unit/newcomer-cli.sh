#!/usr/bin/env bash
# What a newcomer meets first (issue 26's warts), through the binary, no
# cluster: a bare `cephbench` prints usage, three examples and where the
# profiles are (exit 2); `run NAME` finds an installed profile by name
# (PREFIX/share/cephbench/profiles beside PREFIX/bin/cephbench) and a name
# no profile has is one line naming it, exit 2; --dry-run says "1
# workload", fits long matrix row names in its column and prints '-' for a
# tree test's block size. usage: newcomer-cli.sh CEPHBENCH SOURCE_DIR
set -uo pipefail
cb=${1:?usage: newcomer-cli.sh CEPHBENCH SOURCE_DIR}
src=${2:?usage: newcomer-cli.sh CEPHBENCH SOURCE_DIR}
. "$(dirname "$0")/cli-lib.sh"
export CEPH_CONF=/nonexistent/ceph.conf
unset CEPH_ARGS

# an installed layout: a copy of the binary (/proc/self/exe follows a
# symlink to the build tree) beside share/cephbench/profiles
mkdir -p "$T/p/bin" "$T/p/share/cephbench/profiles"
cp "$cb" "$T/p/bin/cephbench"
cp "$src/profiles/quick.yaml" "$T/p/share/cephbench/profiles/"

"$T/p/bin/cephbench" >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 2 ] || fail "bare cephbench: exit $rc, want 2"
[ ! -s "$T/out" ] || fail "bare cephbench wrote to stdout: $(cat "$T/out")"
grep -q '^usage: cephbench COMMAND' "$T/err" || fail "bare cephbench: no usage: $(cat "$T/err")"
[ "$(sed -n '/^Examples:/,/^$/p' "$T/err" | grep -c '^  cephbench ')" -eq 3 ] ||
	fail "bare cephbench: not three examples: $(cat "$T/err")"
grep -qxF "Profiles (run them by name): $T/p/bin/../share/cephbench/profiles" "$T/err" ||
	fail "bare cephbench: where the profiles are: $(cat "$T/err")"
"$T/p/bin/cephbench" --help >"$T/out" 2>&1 || fail "--help: exit $?"
! grep -q '^Examples:' "$T/out" || fail "--help prints the newcomer's examples too"

# a profile by name, and a name no profile has
"$T/p/bin/cephbench" run quick --dry-run >"$T/out" 2>"$T/err" || fail "run quick: $(cat "$T/err")"
grep -q '^profile quick (sha256 ' "$T/out" || fail "run quick --dry-run: $(cat "$T/out")"
"$T/p/bin/cephbench" run quik --dry-run >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && [ ! -s "$T/out" ] ||
	fail "run quik: exit $rc: $(cat "$T/err")"
grep -qF "cephbench run: profile 'quik': no such file, and no installed profile of that name (give a path, or one of: ls $T/p/bin/../share/cephbench/profiles)" "$T/err" ||
	fail "run quik's line: $(cat "$T/err")"
# without the installed tree: the binary says there is none
"$cb" run quik --dry-run >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && grep -q "no such file" "$T/err" || fail "run quik without profiles: $(cat "$T/err")"

# --dry-run's plan
cat >"$T/one.yaml" <<'YAML'
name: one
workloads:
  - { name: a, layer: noop, op: read, ops: 10 }
YAML
"$cb" run "$T/one.yaml" --dry-run >"$T/out" 2>&1 || fail "dry-run one: $(cat "$T/out")"
grep -q '): 1 workload$' "$T/out" || fail "dry-run of one workload: $(head -1 "$T/out")"
cat >"$T/wide.yaml" <<'YAML'
name: wide
workloads:
  - { name: a-rather-long-workload-name, layer: noop, op: [read, write], block_size: [4K, 1M],
      ops: 10 }
  - { name: md, layer: cephfs, op: tree, depth: 1, branch: 2, items: 3 }
YAML
"$cb" run "$T/wide.yaml" --dry-run >"$T/out" 2>&1 || fail "dry-run wide: $(cat "$T/out")"
grep -q '): 5 workloads$' "$T/out" || fail "dry-run wide: $(head -1 "$T/out")"
# every plan line's layer column starts at one offset, past the longest name
cols=$(grep -E '^  [^ ]+ +(noop|cephfs) ' "$T/out" | awk '{ print index($0, " " $2 " ") }' | sort -u)
[ "$(echo "$cols" | wc -l)" -eq 1 ] || fail "dry-run columns: $(cat "$T/out")"
grep -qE '^  md +cephfs +tree +bs - ' "$T/out" || fail "dry-run tree bs: $(cat "$T/out")"

[ "$fails" -eq 0 ] || exit 1
echo ok
