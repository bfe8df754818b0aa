#!/usr/bin/env bash
# The RADOS object ops on the sandbox, looked at through librados
# (python3-rados, never cephbench): omap sets exactly ops x omap_keys new
# keys of omap_value_size bytes on the run's objects, xattr sets values of
# xattr_size, stat and the others are what the OSDs counted, a mix's kinds
# take their percents; nothing is left after cleanup (the keys go with the
# objects); an object named like the run's but without its mark gets no key
# (the sets are guarded by the mark: errors, counted) and cleanup leaves it;
# delete removes every other object once, and a read after it is refused.
. "$(dirname "$0")/lib.sh"

profile o >/dev/null <<YAML
name: o
defaults: { ramp: 0s, layer: rados, pool: $POOL }
workloads:
  - { name: w, op: write, block_size: 4K, object_size: 16K, max_objects: 200 }
  - { name: om, op: omap, ops: 1000, omap_keys: 4, omap_value_size: 100 }
  - { name: xa, op: xattr, ops: 1000, xattr_size: 256 }
  - { name: st, op: stat, ops: 2000 }
  - { name: mx, op: mix, ops: 4000, xattr_size: 256,
      mix: { read: 50, write: 20, stat: 10, omap: 10, xattr: 10 } }
YAML
cb run "$T/o.yaml" --conf "$CONF" --no-cleanup --json "$T/o.json"
assert_rc 0 "object ops"
cp "$T/out" "$T/o.out"
# from $T: python3-rados, not a directory named rados
(cd "$T" && timeout 300 /usr/bin/python3 - "$CONF" "$POOL" "$T/o.json") <<'PY' || fail "the objects and the record: see above"
import json, sys
import rados

c = rados.Rados(conffile=sys.argv[1])
c.connect(timeout=60)
io = c.open_ioctx(sys.argv[2])
io.set_namespace("cephbench")
keys, vsizes, xattrs = {}, set(), 0
for i in range(200):
    name = f"o.c0.{i}"
    with rados.ReadOpCtx() as r:
        it, _ = io.get_omap_vals(r, "", "", 1 << 20)
        io.operate_read_op(r, name)
        for k, v in it:
            keys[k] = keys.get(k, 0) + 1
            vsizes.add((k.split(".")[0], len(v)))
    for k, v in io.get_xattrs(name):
        if k.startswith("bench."):
            xattrs += 1
            assert len(v) == 256, (name, k, len(v))
bad = []
om = [k for k in keys if k.startswith("om.")]
# each op's keys are new: 4000 names, each on one object
if len(om) != 4000 or any(keys[k] != 1 for k in om):
    bad.append(f"omap: {len(om)} keys of workload om, not 4000 each once")
if ("om", 100) not in vsizes or any(s != 100 for w, s in vsizes if w == "om"):
    bad.append(f"omap values: {sorted(vsizes)}")
if not 0 < xattrs <= 200 * 8:
    bad.append(f"xattrs: {xattrs}")
rec = {p["name"]: p for p in json.load(open(sys.argv[3]))["phases"]}
for n in ("om", "xa", "st"):
    p = rec[n]
    osd = p["telemetry"]["cluster"]["osds"]
    theirs = sum(o["ops"] for o in osd)
    if abs(theirs - p["ops"]) > 0.01 * p["ops"] + 3:
        bad.append(f"{n}: the OSDs counted {theirs} ops, cephbench {p['ops']}")
if rec["om"]["bytes"] != 1000 * 4 * 100 or rec["xa"]["bytes"] != 1000 * 256:
    bad.append("omap and xattr bytes")
mx = rec["mx"]["by_op"]
want = {"read": 50, "write": 20, "stat": 10, "omap": 10, "xattr": 10}
if sum(k["ops"] for k in mx.values()) != 4000 or sorted(mx) != sorted(want):
    bad.append(f"mix kinds {sorted(mx)}")
for k, pct in want.items():
    # 4000 draws: a standard deviation of at most 0.8 %
    share = 100 * mx[k]["ops"] / 4000
    print(f"mix: {k} {share:.1f} % (asked {pct})")
    if abs(share - pct) > 3:
        bad.append(f"mix: {k} took {share:.1f} %, not {pct}")
for b in bad:
    print(b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
grep -q '^mx: omap [0-9,]* ops' "$T/o.out" || fail "no omap line for the mix: $(cat "$T/o.out")"

# an object named like the run's but without its mark (a user's, or a
# namesake's): the guarded sets fail on it, counted as errors, and leave it
# as it is
trap 'rados --conf "$CONF" -p "$POOL" --namespace cephbench rm o.c0.3 >/dev/null 2>&1 || true; at_exit' EXIT
rados --conf "$CONF" -p "$POOL" --namespace cephbench rmxattr o.c0.3 cephbench.run
# its xattrs (names and values) and omap, as they are before the sets
unmarked_sum() {
	(cd "$T" && timeout 120 /usr/bin/python3 - "$CONF" "$POOL") <<'PY'
import hashlib, sys
import rados
c = rados.Rados(conffile=sys.argv[1])
c.connect(timeout=60)
io = c.open_ioctx(sys.argv[2])
io.set_namespace("cephbench")
h = hashlib.sha256()
for k, v in sorted(io.get_xattrs("o.c0.3")):
    h.update(k.encode() + b"=" + v + b";")
with rados.ReadOpCtx() as r:
    it, _ = io.get_omap_vals(r, "", "", 1 << 20)
    io.operate_read_op(r, "o.c0.3")
    for k, v in it:
        h.update(k.encode() + b"=" + v + b";")
print(h.hexdigest())
PY
}
before=$(unmarked_sum)
profile o2 >/dev/null <<YAML
name: o2
workloads:
  - { name: om2, layer: rados, pool: $POOL, op: omap, ops: 2000, max_errors: 2000 }
  - { name: xa2, layer: rados, pool: $POOL, op: xattr, ops: 2000, max_errors: 2000 }
YAML
cb run "$T/o2.yaml" --conf "$CONF" --run-name o --no-cleanup --json "$T/o2.json"
assert_rc 0 "object ops beside an unmarked object"
(cd "$T" && timeout 300 /usr/bin/python3 - "$CONF" "$POOL" "$T/o2.json") <<'PY' || fail "the unmarked object: see above"
import json, sys
import rados

c = rados.Rados(conffile=sys.argv[1])
c.connect(timeout=60)
io = c.open_ioctx(sys.argv[2])
io.set_namespace("cephbench")
with rados.ReadOpCtx() as r:
    it, _ = io.get_omap_vals(r, "om2.", "", 1 << 20)
    io.operate_read_op(r, "o.c0.3")
    new = [k for k, _ in it if k.startswith("om2.")]
rec = {p["name"]: p for p in json.load(open(sys.argv[3]))["phases"]}
errors = [rec[n]["errors"] for n in ("om2", "xa2")]
print(f"o.c0.3: {len(new)} keys of om2; errors {errors}")
assert not new and all(e > 0 for e in errors), (new, errors)
PY
[ "$(unmarked_sum)" = "$before" ] || fail "the unmarked object's xattrs or omap changed"

# delete: every object of the run once, over two clients; the unmarked one
# is refused (an error) and stays; the records say the data is gone
profile o3 >/dev/null <<YAML
name: o3
workloads:
  - { name: del, layer: rados, pool: $POOL, op: delete, clients: 2, max_errors: 1 }
  - { name: after, layer: rados, pool: $POOL, op: rand, ops: 10 }
YAML
cb run "$T/o3.yaml" --conf "$CONF" --run-name o --no-cleanup --json "$T/o3.json"
assert_rc 3 "a read after the delete"
grep -q "the write of run 'o' in pool '$POOL' is deleted (an op delete removed it)" "$T/err" ||
	fail "the read after the delete: $(cat "$T/err")"
/usr/bin/python3 - "$T/o3.json" <<'PY' || fail "the delete's row"
import json, sys
p = json.load(open(sys.argv[1]))["phases"][0]
assert p["name"] == "del" and p["ops"] == 199 and p["errors"] == 1, (p["ops"], p["errors"])
PY
[ "$(ns_objects | grep -c '^o\.c')" = 1 ] || fail "after the delete: $(ns_objects | tr '\n' ' ')"
cb cleanup --conf "$CONF" --pool "$POOL" --run-name o
assert_rc 0 "cleanup"
# all but the unmarked object, which is not cephbench's to remove
[ "$(ns_objects)" = o.c0.3 ] || fail "after cleanup: $(ns_objects | tr '\n' ' ')"
rados --conf "$CONF" -p "$POOL" --namespace cephbench rm o.c0.3
assert_ns_empty "after cleanup"
echo "ok"
