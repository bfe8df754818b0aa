#!/usr/bin/env bash
# Telemetry's OSD counters: for a rados write, an rbd write and a CephFS data
# write phase the run itself prints that the cluster's count (the OSDs' perf
# counters between the phase's marks) agrees with cephbench's within 1 %
# (ops; bytes for CephFS), and its JSON says the same; a client whose caps
# refuse the OSDs' perf dump completes the run with one note and no cluster
# counters; telemetry: off leaves them out.
. "$(dirname "$0")/cephfs_lib.sh"
HERE=$(dirname "$0")
RBD_POOL=${CEPHBENCH_TEST_RBD_POOL:-rbd}
trap '"$CEPHBENCH" cleanup --conf "$CONF" --pool "$RBD_POOL" --all --quiet >/dev/null 2>&1 || true
	ceph --conf "$CONF" auth rm client.cbtmlimited >/dev/null 2>&1 || true; cephfs_at_exit' EXIT

p=$(profile agree <<YAML
name: agree
defaults: { concurrency: 8, ramp: 500ms }
workloads:
  - { name: rw, layer: rados, pool: $POOL, op: write, block_size: 4K, duration: 1500ms }
  - { name: bw, layer: rbd, pool: $RBD_POOL, op: randwrite, block_size: 4K, image_size: 16M, duration: 1500ms }
  - { name: fw, layer: cephfs, fs: $FS, op: write, block_size: 64K, duration: 1500ms }
YAML
)
cb run "$p" --conf "$CONF" --run-name tmagree --json "$T/a.json" --detail
assert_rc 0 "the run"
for ph in rw bw; do
	grep -qE "^$ph: cluster counted [0-9,]+ ops, [0-9.]+ MiB; cephbench [0-9,]+ \(ops compared: agree within 1 %\)$" "$T/out" ||
		fail "$ph: no agreement line: $(grep "^$ph:" "$T/out")"
	grep -qE "^$ph: cluster mean [0-9.]+ ms, client mean [0-9.]+ ms" "$T/out" ||
		fail "$ph: no latency line"
done
grep -qE "^fw: cluster counted [0-9,]+ ops, [0-9.]+ MiB; cephbench [0-9.]+ MiB \(bytes compared: agree within 1 %\)$" "$T/out" ||
	fail "fw: no agreement line: $(grep '^fw:' "$T/out")"
grep -qE "^fw: MDS counted [0-9]+ requests" "$T/out" || fail "fw: no MDS line"
grep -q "slow OSD" "$T/out" && fail "a slow OSD named on a healthy sandbox: $(grep 'slow OSD' "$T/out")"
"$HERE/../validate-json" "$HERE/../../docs/result.schema.json" "$T/a.json" >/dev/null ||
	fail "the JSON result does not match docs/result.schema.json"
/usr/bin/python3 - "$T/a.json" <<'PY'
import json, sys
ph = {p["name"]: p for p in json.load(open(sys.argv[1]))["phases"]}
for name, what in (("rw", "ops"), ("bw", "ops"), ("fw", "bytes")):
    c = ph[name]["telemetry"]["cluster"]
    mine, theirs = c["client_" + what], c[what]
    print(f"{name}: cluster {theirs} {what}, cephbench {mine}")
    assert c["compared"] == what, (name, c["compared"])
    assert c["agree"] is True and c["agree_note"] is None, (name, c)
    assert mine > 100 and abs(theirs - mine) <= 0.01 * mine, (name, mine, theirs)
    # the loop's ops over the span, ramp included: more than the measured window's
    assert c["client_ops"] >= ph[name]["ops"], name
    assert len(c["osds"]) >= 1 and c["slow_osds"] == [], name
    assert sum(o["ops"] for o in c["osds"]) == c["ops"], name
assert "mds" in ph["fw"]["telemetry"]["cluster"]
assert "mds" not in ph["rw"]["telemetry"]["cluster"]
PY
[ $? -eq 0 ] || fail "the JSON's cluster section"

# A client allowed to read the monitors and write the pool, not to ask the
# OSDs: the run completes; one note says what was left out.
ceph --conf "$CONF" auth get-or-create client.cbtmlimited mon 'allow r' osd "allow rw pool=$POOL" \
	-o "$T/limited.keyring" >/dev/null 2>&1 || fail "cannot create client.cbtmlimited"
p=$(profile limited <<YAML
name: limited
workloads:
  - { name: w, layer: rados, pool: $POOL, op: write, block_size: 4K, duration: 1s }
  - { name: r, layer: rados, pool: $POOL, op: seq, duration: 1s }
YAML
)
cb run "$p" --conf "$CONF" --client cbtmlimited --keyring "$T/limited.keyring" --json "$T/l.json" --detail
assert_rc 0 "the run of the limited client"
[ "$(grep -c '^telemetry: ' "$T/err")" -eq 1 ] || fail "expected one telemetry note: $(cat "$T/err")"
grep -q "^telemetry: cannot read the OSDs' perf counters (osd.[0-9]* perf dump: Permission denied; it needs osd 'allow \*')" "$T/err" ||
	fail "the note: $(cat "$T/err")"
grep -q "cluster counted" "$T/out" && fail "cluster counters printed without them"
/usr/bin/python3 - "$T/l.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert len(r["telemetry_notes"]) == 1, r["telemetry_notes"]
for p in r["phases"]:
    assert p["ops"] > 0, p["name"]
    assert "cluster" not in p.get("telemetry", {}), p["name"]
PY
[ $? -eq 0 ] || fail "the limited run's JSON"
# --quiet keeps the note out of stderr, not out of the record
cb run "$p" --conf "$CONF" --client cbtmlimited --keyring "$T/limited.keyring" --quiet
assert_rc 0 "the quiet run of the limited client"
grep -q "^telemetry: " "$T/err" && fail "a note under --quiet: $(cat "$T/err")"

# telemetry: off: no cluster section, no note
p=$(profile off <<YAML
name: off
telemetry: off
workloads:
  - { name: w, layer: rados, pool: $POOL, op: write, block_size: 4K, duration: 1s }
YAML
)
cb run "$p" --conf "$CONF" --client cbtmlimited --keyring "$T/limited.keyring" --json "$T/o.json"
assert_rc 0 "telemetry: off"
grep -q "^telemetry: " "$T/err" && fail "a note with telemetry off: $(cat "$T/err")"
/usr/bin/python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
assert "telemetry_notes" not in r
assert "cluster" not in r["phases"][0].get("telemetry", {})' "$T/o.json" || fail "telemetry: off JSON"
echo "ok"
