#!/usr/bin/env bash
# Operator workflows on the sandbox: expect: thresholds (exit codes, the
# PASS/FAIL table, JSON verdicts), matrix rows from lists, repeat, optional
# workloads, and the acceptance and pool-compare profiles.
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
J() { /usr/bin/python3 -c "import json,sys; d=json.load(open(sys.argv[1])); $2" "$1"; }

# --- thresholds: all hold -> 0; impossible ones -> 1, named, cleanup done
p=$(profile thr <<EOF
name: thr
defaults: { pool: $POOL, concurrency: 4, ops: 400 }
workloads:
  - { name: easy, layer: rados, op: write, block_size: 4K,
      expect: { min_iops: 1, min_bw: 1K/s, max_mean_latency: 30s, max_p99: 30s, max_p999: 30s, max_errors: 0 } }
EOF
)
cb run "$p" --conf "$CONF" --json "$T/pass.json"
assert_rc 0 "thresholds that hold"
grep -q "^expectations: PASS, 6 of 6 passed" "$T/out" || fail "no PASS table: $(cat "$T/out")"
[ "$(grep -c ' PASS$' "$T/out")" -eq 6 ] || fail "expected 6 PASS rows: $(cat "$T/out")"
J "$T/pass.json" 'v=d["verdict"]; assert v=={"result":"pass","passed":6,"failed":0}, v
e=d["phases"][0]["expect"]; assert [x["threshold"] for x in e]==["min_iops","min_bw","max_mean_latency","max_p99","max_p999","max_errors"], e
assert all(x["pass"] for x in e)
p=d["phases"][0]; assert abs(e[0]["measured"]-p["iops"])<1e-6*p["iops"]; assert int(e[3]["measured"])==p["latency_us"]["p99"], (e[3], p["latency_us"])' ||
	fail "JSON verdicts of a passing run"
"$ROOT/tests/validate-json" "$ROOT/docs/result.schema.json" "$T/pass.json" >/dev/null || fail "schema"
# --json writes a new file (mkstemp) renamed into place: readable, no leftovers
[ "$(stat -c %a "$T/pass.json")" = 644 ] || fail "--json file mode $(stat -c %a "$T/pass.json")"
if ls "$T"/pass.json.tmp.* >/dev/null 2>&1; then fail "--json left a temporary file"; fi

cb run "$p" --conf "$CONF" --json "$T/fail.json" -o easy.expect.min_iops=100000000 \
	-o 'easy.expect.max_p99=1us'
assert_rc 1 "an impossible threshold"
grep -q "^expectations: FAIL, 4 of 6 passed" "$T/out" || fail "no FAIL table: $(cat "$T/out")"
grep -Eq '^easy +min_iops .* FAIL( \(client-bound\))?$' "$T/out" || fail "min_iops row not FAIL: $(cat "$T/out")"
grep -Eq '^easy +max_p99 .* FAIL( \(client-bound\))?$' "$T/out" || fail "max_p99 row not FAIL: $(cat "$T/out")"
J "$T/fail.json" 'v=d["verdict"]; assert v=={"result":"fail","passed":4,"failed":2}, v
e={x["threshold"]:x for x in d["phases"][0]["expect"]}
assert not e["min_iops"]["pass"] and e["min_iops"]["margin_pct"] < -99, e["min_iops"]
assert not e["max_p99"]["pass"] and e["max_p99"]["expected"]==1.0, e["max_p99"]' ||
	fail "JSON verdicts of a failing run"
assert_ns_empty "after a failed threshold"

# --quiet: a failing run still prints its FAIL rows (cron mails them).
cb run "$p" --conf "$CONF" --quiet -o easy.expect.min_iops=100000000
assert_rc 1 "quiet, failing"
grep -Eq '^easy +min_iops .* FAIL( \(client-bound\))?$' "$T/out" || fail "--quiet hid the failure: $(cat "$T/out")"
if grep -q ' PASS$' "$T/out"; then fail "--quiet printed PASS rows: $(cat "$T/out")"; fi

# An error outranks a failed threshold: exit 3, not 1.
cb run "$p" --conf "$CONF" -o pool=no-such-pool -o easy.expect.min_iops=100000000
assert_rc 3 "a missing pool with thresholds"

# --- matrix: 2 pools x 2 block sizes, ops-limited; repeat: 3
p=$(profile mtx <<EOF
name: mtx
defaults: { concurrency: 4, ops: 200 }
workloads:
  - { name: w, layer: rados, op: write, pool: [$POOL, rbd], block_size: [4K, 64K] }
  - { name: r, layer: rados, op: write, pool: $POOL, block_size: 4K, repeat: 3 }
EOF
)
cb run "$p" --conf "$CONF" --json "$T/mtx.json"
assert_rc 0 "matrix run"
J "$T/mtx.json" 'ph=d["phases"]
names=[p["name"] for p in ph]
want=["w_pool-'"$POOL"'_block_size-4K","w_pool-'"$POOL"'_block_size-64K","w_pool-rbd_block_size-4K","w_pool-rbd_block_size-64K","r"]
assert names==want, names
for p in ph[:4]:
    assert p["workload"]=="w" and p["ops"]==200, p["name"]
    assert p["pool"]==p["matrix"]["pool"] and p["block_size"]==(4096 if p["matrix"]["block_size"]=="4K" else 65536), p
assert "matrix" not in ph[4] and ph[4]["workload"]=="r"
assert ph[4]["ops"]==600 and ph[4]["iterations"]["count"]==3 and len(ph[4]["iterations"]["iops"])==3, ph[4]' ||
	fail "matrix rows and repeat"
grep -q "^r: 3 iterations" "$T/out" || fail "repeat summary line missing: $(cat "$T/out")"
assert_ns_empty "after the matrix run"
[ -z "$(ns_objects_of rbd)" ] || fail "objects left in pool rbd"

# repeats run in rounds, alternating (A B C A B A): a pty makes cephbench
# print each phase's progress header, in the order the phases ran
pil=$(profile il <<EOF
name: il
defaults: { concurrency: 2, ops: 50, pool: $POOL, layer: rados, op: write, block_size: 4K }
workloads:
  - { name: a, repeat: 3 }
  - { name: b, pool: rbd, repeat: 2 }
  - { name: c }
EOF
)
set +e
script -qec "$CEPHBENCH run $pil --conf $CONF --json $T/il.json" /dev/null >"$T/il.out"
rc=$?
set -e
assert_rc 0 "repeats in rounds"
[ "$(grep -o '^== [abc]:' "$T/il.out" | tr -d '=: \n')" = abcaba ] ||
	fail "repeat rounds ran in another order: $(grep '^== ' "$T/il.out")"
J "$T/il.json" 'assert [(p["name"], p["ops"]) for p in d["phases"]]==[("a",150),("b",100),("c",50)], d["phases"]' ||
	fail "rows of the rounds"

# the same from the command line: -o KEY=[a, b]
cb run "$p" --conf "$CONF" --dry-run -o "w.pool=[$POOL]" -o 'r.concurrency=[1, 2, 8]'
assert_rc 0 "-o lists"
[ "$(grep -c '^  [wr]_' "$T/out")" -eq 5 ] || fail "-o lists: expected 5 rows: $(cat "$T/out")"

# --- optional: a layer this host lacks is skipped with a note, not an error
if [ ! -e /sys/bus/rbd ]; then
	p=$(profile opt <<EOF
name: opt
defaults: { concurrency: 4, ops: 100 }
workloads:
  - { name: w, layer: rados, op: write, pool: $POOL, block_size: 4K }
  - { name: k, layer: krbd, pool: rbd, image_size: 16M, op: randwrite, optional: true }
EOF
	)
	cb run "$p" --conf "$CONF" --json "$T/opt.json"
	assert_rc 0 "an optional krbd workload without kernel rbd"
	grep -q "skipped workload 'k' (optional): this kernel has no rbd support" "$T/err" ||
		fail "no skip note: $(cat "$T/err")"
	J "$T/opt.json" 'assert [p["name"] for p in d["phases"]]==["w"]
assert d["skipped"][0]["workload"]=="k"' || fail "skipped in JSON"
	cb run "$p" --conf "$CONF" -o k.optional=false
	assert_rc 3 "the same krbd workload, not optional"
	if rbd --conf "$CONF" -p rbd ls | grep -q '^cephbench\.'; then fail "images left by the krbd row"; fi
fi

# --- the ready profiles, shortened: every threshold judged, the exit code
# agreeing with the verdict (the sandbox is no production cluster: its
# figures may pass or fail)
# (their 4M RADOS writes bounded: each op is a new 4M object in memory)
cb run "$ROOT/profiles/acceptance.yaml" --conf "$CONF" --json "$T/acc.json" -o duration=1s \
	-o ramp=0s -o image_size=64M -o md-tree.items=4 -o md-tree.depth=1 \
	-o obj-write-4m.max_objects=64
[ "$rc" -eq 0 ] || [ "$rc" -eq 1 ] || fail "acceptance: exit $rc: $(cat "$T/err")"
J "$T/acc.json" 'ws={p["workload"] for p in d["phases"] if p.get("expect")}
assert ws=={"obj-write-4k","obj-rand-4k","obj-write-4m","obj-rand-4m","img-randwrite-4k","img-randread-4k","img-write-4m","img-read-4m","md-tree"}, ws
assert all(not p.get("expect") for p in d["phases"] if p.get("step")=="prefill")
v=d["verdict"]; sys.exit(0 if (v["result"]=="fail")==('"$rc"'==1) else 1)' ||
	fail "acceptance: verdicts vs exit $rc"
assert_ns_empty "after the acceptance profile"

cb run "$ROOT/profiles/pool-compare.yaml" --conf "$CONF" --json "$T/pc.json" -o duration=1s \
	-o ramp=0s -o repeat=2 -o image_size=64M -o obj-write-4m.max_objects=64
assert_rc 0 "pool-compare"
J "$T/pc.json" 'ph=d["phases"]
assert len(ph)==8 and all(p["iterations"]["count"]==2 for p in ph), [p["name"] for p in ph]
assert sorted({p["matrix"]["pool"] for p in ph})==["bench","rbd"]' || fail "pool-compare rows"
echo "expect: ok"
