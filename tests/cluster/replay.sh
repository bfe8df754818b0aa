#!/usr/bin/env bash
# dbench's loadfile replayed on the sandbox file system (op replay):
# - Debian's client.txt by 4 clients: each client's op trace (the line of
#   every op started, src/op_trace.h) is the file's lines in order, none
#   skipped, from the top again at its end; the row's kinds add up to them,
#   LockX and UnlockX counted as not replayed (as many as the lines run
#   hold), the lines that say a failure failed as expected, no error; the
#   run's directory is gone after cleanup (seen through libcephfs, not
#   cephbench); 3,000 ops a client, not a time: the first LockX is line
#   2,784, which a loaded CI host's 12 s once fell short of;
# - a line whose status does not come true is an error naming the line
#   (exit 3), and a line that does not parse is refused at load (exit 2);
# - handle numbers of any size (issue 41: an array by number cost 256 MiB a
#   client for handle 2^24, and a number past 2^24 failed as out of
#   memory): 2^24 by 8 clients, 2^40 and 2^62 interleaved with small ones,
#   each line replayed without error; a handle used after its Close is an
#   error naming the line (the table finds numbers, not just any slot);
# - timing: recorded starts each line no sooner than its time (a lower
#   bound, which a slow machine cannot break); a file without times is
#   refused for it.
. "$(dirname "$0")/cephfs_lib.sh"
LOAD=/usr/share/dbench/client.txt
[ -r "$LOAD" ] || fail "$LOAD is missing: the dbench package is part of the set-up"

profile d >/dev/null <<YAML
name: d
workloads:
  - { name: rp, layer: cephfs, fs: $FS, op: replay, clients: 4, ops: 3000, duration: 120s, ramp: 0s }
YAML
traced d "$T/d.yaml" --no-cleanup
assert_rc 0 "replay of client.txt"
fs_exists "/cephbench/d/rp/c3" || fail "client 3's directory is not there"
/usr/bin/python3 - "$LOAD" "$T/d.trace" "$T/d.json" <<'PY' || fail "replay of client.txt: see above"
import collections, json, sys

ops = [l.split()[0] for l in open(sys.argv[1])]  # client.txt: no blank line, no time
trace = collections.defaultdict(list)
for line in open(sys.argv[2]):
    if line.startswith("#"):
        client = int(line.split()[3])
    else:
        trace[client].append(int(line.split()[0]))
row = json.load(open(sys.argv[3]))["phases"][0]
by = row["by_op"]
bad = []
run = collections.Counter()
for c in range(4):
    t = trace[c]
    want = [(i % len(ops)) + 1 for i in range(len(t))]
    if t != want:
        first = next(i for i, (a, b) in enumerate(zip(t, want)) if a != b)
        bad.append(f"client {c}: op {first} was line {t[first]}, not {want[first]}")
    run.update(ops[n - 1] for n in t)
print(f"4 clients ran {sum(len(t) for t in trace.values())} lines (client 0: "
      f"{len(trace[0])}); {row['ops']} ops, {row['errors']} errors, "
      f"{row['bw_bytes_per_s'] / 1048576:.1f} MiB/s")
for name, n in sorted(run.items()):
    k = by.get(name, {})
    got = k.get("ops", 0) + k.get("unmapped", 0)
    print(f"  {name}: {n} lines, {k.get('ops', 0)} ops, {k.get('unmapped', 0)} not replayed, "
          f"{k.get('expected_failures', 0)} failed as expected")
    if got != n:
        bad.append(f"{name}: {n} lines run, the row counts {got}")
    if (name in ("LockX", "UnlockX")) != (k.get("unmapped", 0) == n):
        bad.append(f"{name}: not replayed {k.get('unmapped', 0)} of {n}")
if row["errors"] or not run["LockX"]:
    bad.append(f"{row['errors']} errors; {run['LockX']} LockX lines run")
if not by["NTCreateX"].get("expected_failures"):
    bad.append("no NTCreateX failed as expected")
if row["ops"] != sum(k.get("ops", 0) for k in by.values()):
    bad.append("the row's ops are not its kinds'")
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY
cb cleanup --conf "$CONF" --fs "$FS" --run-name d
assert_rc 0 "cleanup of d"
assert_gone /cephbench/d "cleanup of the replay"

# a status that does not come true: an error naming the line
cat >"$T/miss.load" <<'LOAD'
# made by replay.sh
NTCreateX "\missing" 0x40 0x1 7 NT_STATUS_OK
LOAD
profile m >/dev/null <<YAML
name: m
workloads:
  - { name: rp, layer: cephfs, fs: $FS, op: replay, loadfile: $T/miss.load, ops: 10 }
YAML
cb run "$T/m.yaml" --conf "$CONF" --quiet
assert_rc 3 "a status that does not come true"
one_line "a status that does not come true" "$T/miss.load:2: NTCreateX missing replay failed: No such file or directory"

# a line that does not parse, a path above the client's directory
printf 'Mkdir "\\a" NT_STATUS_OK\nReadX 1 0 4096 NT_STATUS_OK\n' >"$T/bad.load"
printf 'Unlink "\\..\\x" 0x20 NT_STATUS_OK\n' >"$T/up.load"
for f in bad up; do
	profile "p$f" >/dev/null <<YAML
name: p$f
workloads:
  - { name: rp, layer: cephfs, fs: $FS, op: replay, loadfile: $T/$f.load }
YAML
	cb run "$T/p$f.yaml" --conf "$CONF" --quiet
	assert_rc 2 "loadfile $f"
done
cb run "$T/pbad.yaml" --conf "$CONF" --quiet
one_line "a line that does not parse" "$T/bad.load:2: ReadX takes 4 arguments and a status, 5 fields after its name, not 4"
cb run "$T/pup.yaml" --conf "$CONF" --quiet
one_line "a path above" "$T/up.load:1: path '../x' leaves the client's directory (..)"

# handle numbers of any size: the issue's three lines by 8 clients
printf 'NTCreateX "\\f" 0x0 0x5 16777216 NT_STATUS_OK\nWriteX 16777216 0 4096 4096 NT_STATUS_OK\nClose 16777216 NT_STATUS_OK\n' >"$T/h24.load"
# numbers large and small open at once, each written through its own
cat >"$T/hmix.load" <<'LOAD'
NTCreateX "\a" 0x0 0x5 1099511627776 NT_STATUS_OK
NTCreateX "\b" 0x0 0x5 7 NT_STATUS_OK
NTCreateX "\c" 0x0 0x5 4611686018427387904 NT_STATUS_OK
WriteX 1099511627776 0 4096 4096 NT_STATUS_OK
WriteX 7 0 8192 8192 NT_STATUS_OK
WriteX 4611686018427387904 0 12288 12288 NT_STATUS_OK
Close 7 NT_STATUS_OK
QUERY_FILE_INFORMATION 1099511627776 1004 NT_STATUS_OK
Close 1099511627776 NT_STATUS_OK
Close 4611686018427387904 NT_STATUS_OK
LOAD
for f in h24 hmix; do
	profile "$f" >/dev/null <<YAML
name: $f
workloads:
  - { name: rp, layer: cephfs, fs: $FS, op: replay, loadfile: $T/$f.load, clients: 8, ops: 400,
      ramp: 0s }
YAML
	cb run "$T/$f.yaml" --conf "$CONF" --quiet --json "$T/$f.json"
	assert_rc 0 "handles: $f"
done
/usr/bin/python3 - "$T/h24.json" "$T/hmix.json" <<'PY' || fail "handles: see above"
import json, sys
h24, hmix = (json.load(open(f))["phases"][0] for f in sys.argv[1:])
print(f"handles: 2^24: {h24['ops']} ops, {h24['errors']} errors; mixed: {hmix['ops']} ops, "
      f"{hmix['errors']} errors, {hmix['bytes']} bytes")
assert h24["ops"] == 3200 and h24["errors"] == 0, h24["ops"]
assert h24["by_op"]["WriteX"]["ops"] > 1000, h24["by_op"]
assert hmix["ops"] == 3200 and hmix["errors"] == 0
# 40 passes of the file a client: each handle's own size written, 24K a pass
assert hmix["bytes"] == 8 * 40 * (4096 + 8192 + 12288), hmix["bytes"]
assert hmix["by_op"]["QUERY_FILE_INFORMATION"]["ops"] == 8 * 40
PY
# a number used after its Close: not open, however large
printf 'NTCreateX "\\g" 0x0 0x5 16777216 NT_STATUS_OK\nClose 16777216 NT_STATUS_OK\nWriteX 16777216 0 4096 4096 NT_STATUS_OK\n' >"$T/hclosed.load"
profile hc >/dev/null <<YAML
name: hc
workloads:
  - { name: rp, layer: cephfs, fs: $FS, op: replay, loadfile: $T/hclosed.load, ops: 10 }
YAML
cb run "$T/hc.yaml" --conf "$CONF" --quiet
assert_rc 3 "a handle used after its Close"
one_line "a handle used after its Close" "$T/hclosed.load:3: WriteX: handle 16777216 is not open"

# timing: recorded: no line before its time
cat >"$T/timed.load" <<'LOAD'
0.0 Mkdir "\t" NT_STATUS_OK
0.6 QUERY_PATH_INFORMATION "\t" 1004 NT_STATUS_OK
1.2 QUERY_PATH_INFORMATION "\nothing" 1004 NT_STATUS_OBJECT_NAME_NOT_FOUND
1.8 QUERY_FS_INFORMATION 1 NT_STATUS_OK
LOAD
profile t >/dev/null <<YAML
name: t
workloads:
  - { name: rp, layer: cephfs, fs: $FS, op: replay, loadfile: $T/timed.load, timing: recorded,
      ops: 4, ramp: 0s }
YAML
cb run "$T/t.yaml" --conf "$CONF" --quiet --json "$T/t.json"
assert_rc 0 "timing: recorded"
/usr/bin/python3 - "$T/t.json" <<'PY' || fail "timing: recorded: see above"
import json, sys
p = json.load(open(sys.argv[1]))["phases"][0]
print(f"recorded: {p['ops']} ops in {p['duration_s']:.2f} s, errors {p['errors']}")
assert p["ops"] == 4 and p["errors"] == 0 and p["duration_s"] >= 1.8
assert p["by_op"]["QUERY_PATH_INFORMATION"]["expected_failures"] == 1
PY
profile tf >/dev/null <<YAML
name: tf
workloads:
  - { name: rp, layer: cephfs, fs: $FS, op: replay, timing: recorded }
YAML
cb run "$T/tf.yaml" --conf "$CONF" --quiet
assert_rc 2 "timing: recorded without times"
one_line "timing: recorded without times" "timing: recorded: $LOAD has no times"
echo "replay: ok"
