#!/usr/bin/env bash
# `cephbench run` of noop-layer profiles through the binary, with no
# cluster: no --conf needed (nor one that exists), the exit codes of a
# passed run (0), a failed threshold (1), too many errors (3) and SIGINT
# during a phase (130, the partial row marked), --dry-run showing what
# synchronous settles. usage: noop-cli.sh CEPHBENCH
set -uo pipefail
cb=${1:?usage: noop-cli.sh CEPHBENCH}
. "$(dirname "$0")/cli-lib.sh"

run pass 0 'name: pass
workloads:
  - {name: a, layer: noop, op: read, ops: 1000, expect: {min_iops: 1}}'
grep -q 'no cluster' "$T/pass.out" || fail "pass: the report does not say 'no cluster'"
grep -qE '^a +noop +read +noop +4K +16 +1000 ' "$T/pass.out" || fail "pass: no row of 1000 ops"

# a --conf that does not exist: nothing connects, so nothing reads it
run conf 0 'name: conf
workloads:
  - {name: a, layer: noop, op: write, ops: 10}' --conf "$T/none/ceph.conf" --format json
grep -q '"fsid": ""' "$T/conf.out" || fail "conf: the record's fsid is not empty"

run expect 1 'name: expect
workloads:
  - {name: a, layer: noop, op: read, ops: 100, fail_every: 10, max_errors: 100,
     expect: {max_errors: 0}}'

run errors 3 'name: errors
workloads:
  - {name: a, layer: noop, op: read, ops: 1000, fail_every: 2, max_errors: 3}'
grep -q "workload 'a': noop op [0-9]* read failed: Input/output error" "$T/errors.err" ||
	fail "errors: $(cat "$T/errors.err")"

run dry 0 'name: dry
workloads:
  - {name: a, layer: noop, op: read, ops: 10, synchronous: true, concurrency: 8}' --dry-run
grep -qE '^  a +noop +read .*concurrency 1 ' "$T/dry.out" || fail "dry: $(cat "$T/dry.out")"

# SIGINT once the phase runs (30 s: a missed signal ends in exit 0, not a
# hang): partial row, 130
printf '%s\n' 'name: sig
workloads:
  - {name: a, layer: noop, op: read, duration: 30s, delay: 100us}' >"$T/sig.yaml"
env -u CEPH_CONF "$cb" run "$T/sig.yaml" --json "$T/sig.json" >"$T/sig.out" 2>"$T/sig.err" &
pid=$!
sleep 1
kill -INT "$pid"
wait "$pid"
rc=$?
[ "$rc" = 130 ] || fail "sig: exit $rc, want 130: $(cat "$T/sig.err")"
grep -q '"interrupted": true' "$T/sig.json" || fail "sig: the record is not marked interrupted"
grep -q 'interrupted: partial' "$T/sig.out" || fail "sig: the report does not say partial"

# params: a row merged from repeats keeps them (the layer's as settled);
# with no cluster there is no context, and no row names a target in it
run params 0 'name: params
workloads:
  - {name: a, layer: noop, op: read, ops: 200, repeat: 2, concurrency: 3, delay: 1ms, completion: thread}' \
	--format json
/usr/bin/python3 - "$T/params.out" <<'EOF' || fail "params: the row's params"
import json, sys
r = json.load(open(sys.argv[1]))
(p,) = r["phases"]
assert p["iterations"]["count"] == 2, p.get("iterations")
want = {"op": "read", "concurrency": 3, "repeat": 2, "ops": 200, "delay": 0.001,
        "completion": "thread", "synchronous": False, "capacity": 0, "ramp": 0.0}
assert all(p["params"][k] == v for k, v in want.items()), p["params"]
assert "name" not in p["params"] and "layer" not in p["params"], p["params"]
assert "context" not in r and "uses" not in p, r.get("context")
EOF

[ "$fails" = 0 ] || exit 1
echo "noop-cli: all passed"
