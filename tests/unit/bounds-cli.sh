#!/usr/bin/env bash
# What a run may allocate (issue 41, item 3), through the binary with the
# noop layer (no cluster): the issue's 1,024 x 4,096 refused by `run` itself
# before anything is allocated, one line, exit 2; a workload past this
# host's memory (4 TiB of buffers: past any host's) refused naming the
# estimate and the bound; --dry-run printing each workload's estimate, which
# grows with concurrency and block size; and a run within the bounds that
# runs. usage: bounds-cli.sh CEPHBENCH
set -uo pipefail
cb=${1:?usage: bounds-cli.sh CEPHBENCH}
. "$(dirname "$0")/cli-lib.sh"
# one_line NAME PATTERN: stderr is one line matching PATTERN, stdout empty
one_line() {
	[ "$(wc -l <"$T/$1.err")" = 1 ] || fail "$1: not one line: $(cat "$T/$1.err")"
	grep -qE "$2" "$T/$1.err" || fail "$1: '$2' not in: $(cat "$T/$1.err")"
	[ ! -s "$T/$1.out" ] || fail "$1: stdout: $(head -c 200 "$T/$1.out")"
}

# the reproduction, not a dry run: refused at load (the issue's run was
# OOM-killed at 11.2 GB after 65 s)
run issue 2 'name: issue
workloads:
  - {name: a, layer: noop, op: read, clients: 1024, concurrency: 4096, duration: 60s}'
one_line issue "^cephbench run: .*issue.yaml:3:5: workload 'a': clients 1024 x concurrency 4096 x block_size 4K: 4194304 op slots in flight, past the bound of 524288: lower clients or concurrency$"

# past the host's memory: within the slot and thread bounds
run memory 2 'name: memory
workloads:
  - {name: small, layer: noop, op: write, ops: 10}
  - {name: big, layer: noop, op: write, clients: 64, concurrency: 64, block_size: 1G}'
one_line memory "workload 'big': clients 64 x concurrency 64 x block_size 1G: needs about 4.0 TiB of memory, past the bound of [0-9.]+ [KMGT]iB \(1/2 of this host's MemAvailable, [0-9.]+ [KMGT]iB\): lower clients, concurrency or block_size$"
# the same through an override: the command line's values are held too
run override 2 'name: override
workloads:
  - {name: a, layer: noop, op: write, ops: 10}' -o workloads.a.clients=1024 \
	-o workloads.a.concurrency=1024
one_line override "workload 'a': clients 1024 x concurrency 1024 x block_size 4K: 1048576 op slots"

# --dry-run: an estimate for each workload, larger with more slots and
# larger blocks (no figure hard-coded: the structures' sizes make them)
run dry 0 'name: dry
workloads:
  - {name: a, layer: noop, op: read, concurrency: 16}
  - {name: b, layer: noop, op: read, concurrency: 64}
  - {name: c, layer: noop, op: read, concurrency: 64, block_size: 1M, clients: 4}' --dry-run
[ "$(grep -c '^    memory about ' "$T/dry.out")" = 3 ] || fail "dry: not 3 estimates: $(cat "$T/dry.out")"
grep -q '^    memory about .*: 16 op slots of .*, 1 client thread$' "$T/dry.out" || fail "dry: a's estimate: $(cat "$T/dry.out")"
grep -q '^    memory about .*: 256 op slots of 1.0 MiB, 4 client threads$' "$T/dry.out" ||
	fail "dry: c's estimate: $(cat "$T/dry.out")"
/usr/bin/python3 - "$T/dry.out" <<'PY' || fail "dry: the estimates do not grow"
import re, sys
unit = {"bytes": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}
v = [float(n) * unit[u] for n, u in re.findall(r"memory about ([0-9.]+) (\w+):", open(sys.argv[1]).read())]
assert len(v) == 3 and v[0] < v[1] < v[2], v
PY

# within the bounds, it runs (a negative control for the refusals above)
run within 0 'name: within
workloads:
  - {name: a, layer: noop, op: read, clients: 4, concurrency: 64, ops: 2000}'

[ "$fails" = 0 ] || exit 1
echo "bounds-cli: all passed"
