#!/usr/bin/env bash
# clients: N on the rados and rbd layers. Checked against what the cluster
# saw: the row's ops are its clients' sum and what the OSDs counted (within
# 1 %); each client's objects (rados) or image (rbd) were written by one
# Ceph client instance of its own, as many ops as its per_client row says
# (from the OSDs' history of ops, which names the client of each op); reads
# find every writer's objects; a namesake takes over, and cleanup removes,
# every client's objects and images; an image the run did not create is
# shared by clients only for reads. (krbd: krbd_map.sh.)
. "$(dirname "$0")/rbd_lib.sh"

# The OSDs keep their last 20 ops by default: here enough history for
# every op of a measured run, restored on exit. Past its size an OSD drops
# its quickest ops first, whatever their age, so the history is emptied
# before each measured run (a dump trims it to the size, then 0).
OSDS=$(ceph --conf "$CONF" osd ls)
history_size() {
	for id in $OSDS; do
		ceph --conf "$CONF" tell "osd.$id" config set osd_op_history_size "$1" >/dev/null
	done
}
clear_history() {
	history_size 0
	for id in $OSDS; do
		ceph --conf "$CONF" tell "osd.$id" dump_historic_ops >/dev/null
	done
	history_size 30000
}
old_size=$(ceph --conf "$CONF" tell "osd.${OSDS%%[[:space:]]*}" config get osd_op_history_size |
	/usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)["osd_op_history_size"])')
trap 'history_size "$old_size" || true; rbd_at_exit' EXIT

# Every OSD's op history into $T/hist.N.json.
dump_history() {
	for id in $OSDS; do
		ceph --conf "$CONF" tell "osd.$id" dump_historic_ops >"$T/hist.$id.json"
	done
}

# From the dumped history: for each writer of the objects whose name
# matches the regex $1 (its group 1 naming the writer: a client's object
# prefix, an image's data prefix), the Ceph client instances that wrote
# them and how many ops each, as JSON {writer: {client: ops}}.
writers() {
	/usr/bin/python3 - "$1" "$T"/hist.*.json <<'PY'
import collections, json, re, sys
obj = re.compile(sys.argv[1])
# osd_op(client.4185.0:2551 1.9 1:96a3dca4:NAMESPACE::NAME:head [writefull 0~4096] ...),
# the object as POOL:HASH:NAMESPACE:KEY:NAME:SNAP, then its ops
op = re.compile(r"osd_op\((client\.\d+)\.\d+:\d+ \S+ \d+:[0-9a-f]+:[^:]*:[^:]*:(\S+?):head \[([^\]]*)\]")
write = re.compile(r"\b(write|writefull) ")
seen = collections.defaultdict(collections.Counter)
for path in sys.argv[2:]:
    for o in json.load(open(path))["ops"]:
        m = op.match(o["description"])
        if not m or not write.search(m.group(3)):
            continue
        w = obj.match(m.group(2))
        if w:
            seen[w.group(1)][m.group(1)] += 1
print(json.dumps(seen))
PY
}

# 1. rados: 4 clients write 2000 4K objects each, 2 clients read them all
#    in order, 3 read at random. The run's name is this test's own: the
#    history may still hold an earlier test's ops.
RUN=clr-${T##*.}
p=$(sed "s/POOL/$POOL/" <<'YAML' | profile rados
name: clients
defaults: { pool: POOL, concurrency: 8, ramp: 0s }
workloads:
  - { name: w, layer: rados, op: write, block_size: 4K, ops: 2000, clients: 4 }
  - { name: s, layer: rados, op: seq, clients: 2, duration: 60s }
  - { name: r, layer: rados, op: rand, clients: 3, ops: 500 }
YAML
)
clear_history
read -r w0 wb0 r0 rb0 < <(osd_counters)
cb run "$p" --conf "$CONF" --run-name "$RUN" --no-cleanup --json "$T/rados.json" --quiet
assert_rc 0 "rados clients: 4"
read -r w1 wb1 r1 rb1 < <(osd_counters)
dump_history
"$VALIDATE" "$SCHEMA" "$T/rados.json" || fail "rados: the JSON result does not match the schema"
ns_objects >"$T/objects"
writers "^$RUN\\.c(\\d+)\\.\\d+\$" >"$T/writers.json"
/usr/bin/python3 - "$T/rados.json" "$T/objects" "$T/writers.json" "$RUN" \
	"$((w1 - w0))" "$((wb1 - wb0))" "$((r1 - r0))" "$((rb1 - rb0))" <<'PY'
import collections, json, re, sys
res, objects, writers = json.load(open(sys.argv[1])), open(sys.argv[2]).read().split(), json.load(open(sys.argv[3]))
run = sys.argv[4]
cw, cwb, cr, crb = map(int, sys.argv[5:])
ph = {p["name"]: p for p in res["phases"]}
for name, n in (("w", 4), ("s", 2), ("r", 3)):
    p = ph[name]
    rows = p["per_client"]
    assert p["clients"] == n and [c["client"] for c in rows] == list(range(n)), f"{name}: {rows}"
    for k in ("ops", "bytes", "errors"):
        assert p[k] == sum(c[k] for c in rows), f"{name}: {k} {p[k]} is not the clients' sum"
    assert p["errors"] == 0, f"{name}: {p['errors']} errors"
    assert max(c["duration_s"] for c in rows) == p["duration_s"], f"{name}: not the slowest's time"
    print(f"{name}: {p['ops']} ops = " + " + ".join(str(c["ops"]) for c in rows))
w = ph["w"]
assert [c["ops"] for c in w["per_client"]] == [2000] * 4, w["per_client"]
# the objects: one per 4K write, client k's named RUN.c<k>.N, and the
# records: the run's (4 clients) and clients 1-3's own
per = collections.Counter(m.group(1) for m in map(re.compile(rf"^{run}\.c(\d+)\.\d+$").match, objects) if m)
assert per == {str(k): 2000 for k in range(4)}, f"objects per client: {per}"
assert sorted(o for o in objects if ".meta" in o) == [run + m for m in (".meta", ".meta.c1", ".meta.c2", ".meta.c3")], objects
# each client's objects written by one Ceph client instance, its own
assert sorted(writers) == ["0", "1", "2", "3"], f"writers: {writers}"
ids = [next(iter(writers[k])) for k in sorted(writers)]
assert all(len(writers[k]) == 1 for k in writers) and len(set(ids)) == 4, f"instances: {writers}"
for k in range(4):
    ops = writers[str(k)][ids[k]]
    want = w["per_client"][k]["ops"]
    assert abs(ops - want) <= max(1, want // 100), f"client {k}: the OSDs saw {ops} writes, it says {want}"
print("instances:", ", ".join(f"c{k} {ids[k]}" for k in range(4)))
# seq read every writer's objects once, between its 2 clients
assert ph["s"]["ops"] == 8000 and [c["ops"] for c in ph["s"]["per_client"]] == [4000, 4000], ph["s"]["per_client"]
bad = []
for what, mine, theirs in (("write ops", w["ops"], cw), ("write bytes", w["bytes"], cwb),
                           ("read ops", ph["s"]["ops"] + ph["r"]["ops"], cr),
                           ("read bytes", ph["s"]["bytes"] + ph["r"]["bytes"], crb)):
    diff = abs(mine - theirs) / max(theirs, 1)
    print(f"{what}: cephbench {mine}, cluster {theirs}, diff {diff * 100:.3f} %")
    if diff > 0.01:
        bad.append(what)
assert not bad, "differ by more than 1 %: " + ", ".join(bad)
PY
echo "ok: rados clients: 4: the row is the clients' sum and what the OSDs counted, one instance per client"

# 2. A namesake with 2 clients takes every client's objects over; its
#    cleanup removes what it wrote.
sed 's/clients: 4/clients: 2/; /name: [sr],/d' "$p" >"$T/rados2.yaml"
cb run "$T/rados2.yaml" --conf "$CONF" --run-name "$RUN" --no-cleanup --json "$T/rados2.json"
assert_rc 0 "rados namesake"
grep -q "took over what an earlier run named '$RUN' left in pool '$POOL' (its write was complete): removed 8004 objects" "$T/err" ||
	fail "rados namesake: no takeover of every client's objects: $(cat "$T/err")"
ns_objects >"$T/objects"
[ "$(grep -c "^$RUN\\.c[01]\\." "$T/objects")" -eq 4000 ] && ! grep -q "^$RUN\\.c[23]\\." "$T/objects" ||
	fail "rados namesake: objects of clients 2 and 3 left, or clients 0 and 1 short"
cb cleanup --conf "$CONF" --pool "$POOL" --run-name "$RUN"
assert_rc 0 "rados cleanup"
grep -q "rados: removed 4002 objects of run '$RUN'" "$T/out" || fail "rados cleanup: $(cat "$T/out")"
assert_ns_empty "after the rados cleanup"
echo "ok: rados: a namesake took over every client's objects, cleanup removed them all"

# 3. rbd: 4 clients write an image each, on 4 instances; a namesake takes
#    the 4 over; the end-of-run cleanup removes them all.
cat >"$T/rbd.yaml" <<YAML
name: clrbd
defaults: { pool: $RBD_POOL, concurrency: 4, ramp: 0s, image_size: 16M, block_size: 4K }
workloads:
  - { name: w, layer: rbd, op: randwrite, ops: 500, clients: 4 }
YAML
clear_history
cb run "$T/rbd.yaml" --conf "$CONF" --no-cleanup --json "$T/rbd.json" --quiet
assert_rc 0 "rbd clients: 4"
dump_history
[ "$(cb_images | tr '\n' ' ')" = "cephbench.clrbd.0 cephbench.clrbd.1 cephbench.clrbd.2 cephbench.clrbd.3 " ] ||
	fail "rbd clients: 4: images $(cb_images | tr '\n' ' ')"
for i in 0 1 2 3; do
	rbdc info --format json "$RBD_POOL/cephbench.clrbd.$i" |
		/usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)["block_name_prefix"])'
done >"$T/prefixes"
writers '^(rbd_data\.[0-9a-f]+)\.[0-9a-f]+$' >"$T/writers.json"
/usr/bin/python3 - "$T/rbd.json" "$T/prefixes" "$T/writers.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["phases"][0]
prefixes, writers = open(sys.argv[2]).read().split(), json.load(open(sys.argv[3]))
rows = p["per_client"]
assert p["clients"] == 4 and [c["ops"] for c in rows] == [500] * 4, rows
for k in ("ops", "bytes", "errors"):
    assert p[k] == sum(c[k] for c in rows), f"{k} {p[k]} is not the clients' sum"
assert p["errors"] == 0
# image k (client k's) written by one instance, its own, 500 times
ids = []
for k, pre in enumerate(prefixes):
    w = writers.get(pre, {})
    assert len(w) == 1, f"image {k}: written by {w}"
    (cid, n), = w.items()
    # within 1 %, as the OSDs' counters above: their history can miss an op
    # (a CI run saw 499 of 500)
    assert abs(n - rows[k]["ops"]) <= max(1, rows[k]["ops"] // 100), f"image {k}: the OSDs saw {n} writes, client {k} says {rows[k]['ops']}"
    ids.append(cid)
assert len(set(ids)) == 4, f"image writers {ids}"
print(f"w: {p['ops']} ops = " + " + ".join(str(c["ops"]) for c in rows) + "; image writers " + ", ".join(ids))
PY
cb run "$T/rbd.yaml" --conf "$CONF" --json "$T/rbd2.json"
assert_rc 0 "rbd namesake"
grep -q "took over what an earlier run named 'clrbd' left in pool '$RBD_POOL': removed 4 images" "$T/err" ||
	fail "rbd namesake: no takeover of every client's image: $(cat "$T/err")"
grep -q "cleanup: removed 4 rbd images of run 'clrbd'" "$T/err" || fail "rbd namesake: cleanup: $(cat "$T/err")"
assert_no_images "after the rbd namesake"
echo "ok: rbd clients: 4: an image per client, each written by its own instance; takeover and cleanup of all 4"

# 4. An image the run did not create: clients share it for reads only.
rbdc create --size 16M "$RBD_POOL/clients-shared"
trap 'rbdc rm "$RBD_POOL/clients-shared" >/dev/null 2>&1 || true; history_size "$old_size" || true; rbd_at_exit' EXIT
rbdc bench --io-type write --io-total 16M --io-size 4M "$RBD_POOL/clients-shared" >/dev/null
cb rbd "$RBD_POOL/clients-shared" --conf "$CONF" --io-type read --io-pattern rand --ops 300 \
	--clients 3 --json "$T/shared.json" --quiet
assert_rc 0 "rbd image: clients: 3, reads"
/usr/bin/python3 - "$T/shared.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["phases"][0]
assert p["ops"] == 900 and [c["ops"] for c in p["per_client"]] == [300] * 3 and p["errors"] == 0, p["per_client"]
PY
cb rbd "$RBD_POOL/clients-shared" --conf "$CONF" --io-type write --ops 300 --clients 3 --allow-destructive
assert_rc 2 "rbd image: clients: 3, writes"
one_line "rbd image: clients: 3, writes" "clients: 3 would write image 'clients-shared' together"
rbdc rm "$RBD_POOL/clients-shared" >/dev/null 2>&1
assert_no_images "after the shared image"
echo "ok: rbd image: read by 3 clients; writes by several refused"
