#!/usr/bin/env bash
# A mix that holds files open against deletes and renames (issue 41): open
# 30, delete 30, create 20, rename 20 for 60 s, with 3 and then 8 clients,
# ends by itself (exit 0, no error). libcephfs 16.2 left a rename's target
# "renaming" when the source was gone, and the next lookup of that name
# waited for ever (cephfs/cephfs_mix.c, rename_file); the renames whose
# source a delete took must have happened (failed as expected) for the
# test to mean anything, and so must renames that replaced a file.
# (on the fault sandbox: its two minutes would lengthen the main sandbox's
# queue, the test suite's longest)
: "${CEPHBENCH_FAULT_CONF:?CEPHBENCH_FAULT_CONF must name the fault sandbox conf}"
CEPHBENCH_TEST_CONF=$CEPHBENCH_FAULT_CONF
. "$(dirname "$0")/../cluster/cephfs_lib.sh"

for n in 3 8; do
	p=$(profile "mixopen$n" <<YAML
name: mixopen$n
workloads:
  - { name: m, layer: cephfs, fs: $FS, op: mix, depth: 1, branch: 2, files: 10,
      file_size: 16K, block_size: 4K, duration: 60s, ramp: 0s, clients: $n,
      mix: { open: 30, delete: 30, create: 20, rename: 20 } }
YAML
	)
	# the guard only: a hang ends the test as a failure, not the suite
	set +e
	timeout -s KILL 240 "$CEPHBENCH" run "$p" --conf "$CONF" --quiet --json "$T/m$n.json" \
		>"$T/out" 2>"$T/err"
	rc=$?
	set -e
	assert_rc 0 "the mix with $n clients"
	/usr/bin/python3 - "$T/m$n.json" "$n" <<'PY' || fail "the mix with $n clients: see above"
import json, sys
rows = {p["name"]: p for p in json.load(open(sys.argv[1]))["phases"]}
mix = rows["m"]
by = mix["by_op"]
print({k: (v["ops"], v.get("expected_failures", 0)) for k, v in by.items()})
bad = []
if mix["errors"] or mix.get("interrupted"):
    bad.append(f"{mix['errors']} errors, interrupted {mix.get('interrupted')}")
ren = by.get("rename", {})
if not ren.get("expected_failures"):
    bad.append("no rename found its source deleted")
if not ren.get("ops", 0) > ren.get("expected_failures", 0):
    bad.append("no rename replaced a file")
if not by.get("open", {}).get("ops"):
    bad.append("no open")
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY
done
echo "mix with files held open: ok"
