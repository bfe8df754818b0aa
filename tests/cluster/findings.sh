#!/usr/bin/env bash
# The findings of the default profile (profiles/quick.yaml, shortened to 2 s
# a row): the text report has the pre-flight line, the table, then a
# findings block of at most ten lines, each naming a phase of the run,
# which are the record's "findings" (the page draws the same); no line of
# telemetry's without --detail, yet the JSON keeps it all; `report
# --detail` of the record prints every phase's telemetry, and `report` of
# it prints what the run printed, byte for byte.
. "$(dirname "$0")/cephfs_lib.sh"
RBD_POOL=${CEPHBENCH_TEST_RBD_POOL:-rbd}
trap '"$CEPHBENCH" cleanup --conf "$CONF" --pool "$RBD_POOL" --all --quiet >/dev/null 2>&1 || true
	cephfs_at_exit' EXIT
QUICK=$(dirname "$0")/../../profiles/quick.yaml

cb run "$QUICK" --conf "$CONF" --run-name findq --json "$T/q.json" \
	-o defaults.duration=2s -o defaults.ramp=0s
assert_rc 0 "the quick profile"
cp "$T/out" "$T/run.out"

# the order: pre-flight, table (and its cached rows' legend), findings
/usr/bin/python3 - "$T/run.out" "$T/q.json" <<'PY' || fail "the report's findings: $(cat "$T/run.out")"
import json, sys
text = open(sys.argv[1]).read().split("\n")
rec = json.load(open(sys.argv[2]))
names = [p["name"] for p in rec["phases"]]
pre = next(i for i, l in enumerate(text) if l.startswith("preflight: "))
head = next(i for i, l in enumerate(text) if l.startswith("phase ") and " layer " in l)
fnd = next(i for i, l in enumerate(text) if l.startswith("findings:"))
assert pre < head < fnd, (pre, head, fnd)
# right under the table: only the table's legend of cached rows between
between = text[head + len(names) + 1:fnd]
assert all(l == "" or ": cached: " in l for l in between), between
block = []
for l in text[fnd + 1:]:
    if not l.startswith("  "):
        break
    block.append(l[2:])
assert len(block) <= 10, block
f = rec["findings"]
assert isinstance(f, list) and all(isinstance(s, str) for s in f), f
if not f:
    assert text[fnd] == "findings: none, nothing needs attention", text[fnd]
elif len(f) <= 10:
    assert block == f, (block, f)
else:
    assert block[:9] == f[:9] and block[9].startswith("... and %d more" % (len(f) - 9)), block
for s in f:
    assert s.split(": ")[0] in names, "a finding names no phase: " + s
print("findings:", len(f), *("  " + s for s in f), sep="\n")
PY

# no telemetry's lines without --detail; the record has them all
for s in "client CPU" "host CPU" "cluster counted" "cluster mean" "MDS counted" "slow OSD:"; do
	grep -q "^[a-z0-9.-]*: $s" "$T/run.out" && fail "'$s' printed without --detail: $(grep "$s" "$T/run.out")"
done
/usr/bin/python3 - "$T/q.json" <<'PY' || fail "the record lacks telemetry"
import json, sys
for p in json.load(open(sys.argv[1]))["phases"]:
    t = p.get("telemetry", {})
    assert "client" in t and "cluster" in t, (p["name"], sorted(t))
PY

# report: the run's text byte for byte; --detail: each phase's telemetry
/usr/bin/python3 - "$T/run.out" >"$T/want" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
m = re.search(r"\ncephbench [^\n]*: run '", s)
s = s[m.start():]
c = re.search(r"^cleanup: ", s, re.M)
sys.stdout.write(s[:c.start()] if c else s)
PY
cb report "$T/q.json"
assert_rc 0 "report"
cmp -s "$T/out" "$T/want" || fail "report differs from the run's text: $(diff "$T/want" "$T/out")"
cb report --detail "$T/q.json"
assert_rc 0 "report --detail"
for ph in obj-write-4k img-randwrite-4k fs-randwrite-4k; do
	grep -q "^$ph: client CPU " "$T/out" || fail "--detail: no client CPU line of $ph: $(cat "$T/out")"
	grep -q "^$ph: cluster counted " "$T/out" || fail "--detail: no cluster line of $ph"
done
grep -q "^md-tree[a-z.-]*: MDS counted " "$T/out" || fail "--detail: no MDS line: $(cat "$T/out")"
echo ok
