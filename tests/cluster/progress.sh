#!/usr/bin/env bash
# --progress on the sandbox: the live line of every phase (one client,
# several, a CephFS tree phase, an RBD one), each ending with the phase's
# averages; jsonl's objects pass docs/progress.schema.json and their end
# event's ops are the record's row's; stdout stays the JSON document; on a
# terminal (script's pty) auto rewrites one line per phase; off a terminal
# auto and never print nothing, nor does --quiet.
. "$(dirname "$0")/cephfs_lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
J() { /usr/bin/python3 -c "import json,sys; d=json.load(open(sys.argv[1])); $2" "$1"; }

p=$(profile prog <<YAML
name: prog
defaults: { block_size: 4K }
workloads:
  - { name: one, layer: rados, pool: $POOL, op: write, duration: 3s, ramp: 1s, concurrency: 4 }
  - { name: two, layer: rados, pool: $POOL, op: write, ops: 400, clients: 2, concurrency: 4 }
  - { name: tree, layer: cephfs, fs: $FS, op: tree, depth: 1, branch: 2, items: 20 }
  - { name: img, layer: rbd, pool: rbd, op: randwrite, image_size: 16M, ops: 300, concurrency: 4 }
YAML
)

cb run "$p" --conf "$CONF" --progress jsonl --format json
assert_rc 0 "jsonl"
cp "$T/out" "$T/rec.json"
/usr/bin/python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/rec.json" ||
	fail "stdout is not one JSON document: $(head -c 300 "$T/out")"
/usr/bin/python3 - "$ROOT/docs/progress.schema.json" "$T/err" "$T/rec.json" <<'PY' || fail "jsonl lines"
import json, sys
import jsonschema

v = jsonschema.Draft7Validator(json.load(open(sys.argv[1])))
rec = json.load(open(sys.argv[3]))
rows = {p["name"]: p for p in rec["phases"]}
ends, ticks = {}, {}
for n, line in enumerate(open(sys.argv[2]), 1):
    if line.startswith("cleanup: "):  # the run's notes, as without --progress
        continue
    o = json.loads(line)
    errs = list(v.iter_errors(o))
    assert not errs, (n, line, errs[0].message)
    if o["event"] == "end":
        assert o["phase"] not in ends, ("two ends", o)
        ends[o["phase"]] = o
    else:
        assert o["phase"] not in ends, ("a tick after the end", o)
        ticks.setdefault(o["phase"], []).append(o)
assert sorted(ends) == sorted(rows), (sorted(ends), sorted(rows))
for name, e in ends.items():
    row = rows[name]
    # the clients' slots summed: the row's measured ops, no more, no less
    assert e["ops"] == row["ops"], (name, e["ops"], row["ops"])
    assert e["clients"] == row["clients"], (name, e, row["clients"])
    assert e["errors"] == 0 and e["p99_us"] and e["remaining_s"] == 0, e
    assert (e["mib_s"] is None) == (row["bytes"] == 0), (name, e, row["bytes"])
# a 1s ramp and 3s measured: ticks each second, remaining counting down
t = ticks.get("one", [])
assert len(t) >= 3, t
assert t[0]["ramping"] or t[0]["elapsed_s"] >= 1, t[0]
left = [x["remaining_s"] for x in t if not x["ramping"]]
assert left == sorted(left, reverse=True) and left[0] <= 4, left
ops = [x["ops"] for x in t]
assert ops == sorted(ops), ops
PY

# always, off a terminal: a line a second, each phase ending with done
cb run "$p" --conf "$CONF" --progress always --format json
assert_rc 0 "always"
# every row (the tree test's a row a step) ends with one done line
for n in $(J "$T/rec.json" 'print(*[p["name"] for p in d["phases"]])'); do
	[ "$(grep -c "^== $n: .* done | IOPS avg" "$T/err")" -eq 1 ] ||
		fail "always: phase $n has no one done line: $(cat "$T/err")"
done
grep -q '^== two: rados write, 2 clients' "$T/err" || fail "always: two clients: $(cat "$T/err")"
grep -q '^== tree.file-create: cephfs file-create, 1 client .* MiB/s - ' "$T/err" ||
	fail "always: the tree phase moves no data: $(grep tree "$T/err")"
[ "$(grep -c '^== one: .*s left |' "$T/err")" -ge 2 ] || fail "always: ticks of one: $(cat "$T/err")"

# auto and never off a terminal: the run's notes alone; --quiet: nothing
for how in "--progress auto" "--quiet" "--progress never"; do
	# shellcheck disable=SC2086
	cb run "$p" --conf "$CONF" $how
	assert_rc 0 "$how"
	! grep -v '^cleanup: ' "$T/err" || fail "$how printed progress on stderr"
	[ "$how" != --quiet ] || [ ! -s "$T/err" ] || fail "--quiet printed on stderr: $(cat "$T/err")"
done
# the table: a tree step's row moved no data, so neither bs nor MiB/s apply
grep -qE '^tree\.file-create +cephfs +file-create +[^ ]+ +- +1 +60 +[0-9.]+ +- \|' "$T/out" ||
	fail "the tree's rows in the table: $(cat "$T/out")"
grep -qE '^img +rbd +randwrite +[^ ]+ +4K +4 +300 +[0-9.]+ +[0-9.]+ \|' "$T/out" ||
	fail "the rbd row in the table: $(cat "$T/out")"
cb run "$p" --conf "$CONF" --quiet --progress jsonl
[ "$(grep -c '"event":"end"' "$T/err")" -eq "$(J "$T/rec.json" 'print(len(d["phases"]))')" ] ||
	fail "--quiet --progress jsonl: $(cat "$T/err")"

# auto on a terminal: one line per phase, rewritten in place, the report after
script -qec "$CEPHBENCH run $p --conf $CONF" /dev/null >"$T/tty" || fail "run on a pty"
/usr/bin/python3 - "$T/tty" <<'PY' || fail "the live lines on a terminal"
import re, sys

out = open(sys.argv[1], "rb").read().decode()
lines = out.split("\r\n")
live = [l for l in lines if l.startswith("== ")]
names = [re.match(r"== ([\w.-]+):", l).group(1) for l in live]
assert names[:2] == ["one", "two"] and names[-1] == "img", names
assert len(names) > 4 and all(n.startswith("tree.") for n in names[2:-1]), names
for l in live:
    # each a line rewritten in place: its updates after CR and erase-line
    parts = l.split("\r\x1b[K")
    assert all(p.startswith("== ") for p in parts), l
    assert "done | IOPS avg" in parts[-1], l
assert any(len(l.split("\r\x1b[K")) >= 3 for l in live), "no phase was rewritten each second"
assert "phase " in out and out.index("phase ") > out.index("== img:"), "report after the lines"
PY
cb run "$p" --conf "$CONF" --progress sometimes
assert_rc 2 "a bad --progress"
one_line "a bad --progress"
grep -q "^cephbench run: --progress 'sometimes': use auto, always, never or jsonl" "$T/err" ||
	fail "bad --progress message: $(cat "$T/err")"
echo ok
