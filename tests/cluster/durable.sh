#!/usr/bin/env bash
# fio's durability keys on the sandbox: an fsync or fdatasync after every N
# writes makes exactly writes / N syncs, each timed apart (by_op's sync, not
# in the row's ops), and what the other side counted agrees: the OSD's
# writes on CephFS (each fsync commits the file's metadata: one journal
# write more than the same run without), a loop device's requests on krbd
# (a flush is one), the OSD's writes on RBD (librbd's flush with its cache
# off sends none). end_fsync adds one sync at the end. sync: dsync makes
# buffered CephFS writes reach the OSDs one by one, and krbd's writes flush
# the loop device (its flush requests in /proc/diskstats).
. "$(dirname "$0")/krbd_lib.sh"

new_loop A "$T/a.img" 32M
DEV=$(basename "$A")
profile dur >/dev/null <<YAML
name: dur
defaults: { ramp: 0s, block_size: 4K }
workloads:
  - { name: fs0, layer: cephfs, op: write, file_size: 4M, ops: 800 }
  - { name: fs4, layer: cephfs, op: write, file_size: 4M, ops: 800, fsync: 4 }
  - { name: fsd, layer: cephfs, op: randwrite, file_size: 4M, files: 2, ops: 300,
      fdatasync: 10, end_fsync: true, sync: dsync }
  - { name: fsb, layer: cephfs, op: write, file_size: 4M, ops: 300, direct: false }
  - { name: fsbd, layer: cephfs, op: write, file_size: 4M, ops: 300, direct: false, sync: dsync }
  - { name: img, layer: rbd, pool: $RBD_POOL, op: randwrite, image_size: 32M, ops: 800,
      concurrency: 8, flush: 4 }
  - { name: dev, layer: krbd, device: $A, op: randwrite, ops: 800, concurrency: 4, fsync: 4 }
  - { name: devd, layer: krbd, device: $A, op: write, ops: 300, fdatasync: 8, end_fsync: true,
      sync: dsync }
YAML
run_profile dur --allow-destructive
assert_rc 0 "durability keys"
assert_valid_json "$T/dur.json" "durability keys"

/usr/bin/python3 - "$T/dur.json" "$DEV" <<'PY' || fail "syncs against writes and counters: see above"
import json, sys

rec = json.load(open(sys.argv[1]))
dev = sys.argv[2]
ph = {p["name"]: p for p in rec["phases"]}
bad = []


def check(what, ok):
    if not ok:
        bad.append(what)


def syncs(p):
    return p.get("by_op", {}).get("sync", {}).get("ops", 0)


def osd_writes(p):
    return sum(o["write_ops"] for o in p["telemetry"]["cluster"]["osds"])


for name, writes, want in (("fs4", 800, 200), ("fsd", 300, 30 + 1), ("img", 800, 200),
                           ("dev", 800, 200), ("devd", 300, 300 // 8 + 1)):
    p = ph[name]
    check(f"{name}: ops {p['ops']}, want {writes}", p["ops"] == writes == p["write_ops"])
    check(f"{name}: {syncs(p)} syncs, want {want}", syncs(p) == want)
    s = p["by_op"]["sync"]
    check(f"{name}: sync histogram {s['histogram']['count']}", s["histogram"]["count"] == want)
    check(f"{name}: sync bytes {s['bytes']}", s["bytes"] == 0)
check("fs0 has no syncs", syncs(ph["fs0"]) == 0 and "sync" not in ph["fs0"].get("by_op", {}))
check("params", ph["fs4"]["params"]["fsync"] == 4 and ph["fsd"]["params"]["sync"] == "dsync"
      and ph["img"]["params"]["flush"] == 4)

# CephFS: one OSD write per fsync beyond the same run without; the few
# writes the MDS and the mgr make on their own timers land in either run,
# so the difference may fall short as well as over (CI once saw 197 of 200)
extra = osd_writes(ph["fs4"]) - osd_writes(ph["fs0"])
check(f"fs4: the OSDs counted {extra} more writes than fs0, for {syncs(ph['fs4'])} fsyncs",
      syncs(ph["fs4"]) - 8 <= extra <= 1.05 * syncs(ph["fs4"]) + 5)
# sync: dsync on buffered CephFS writes: each reaches the OSDs as it is
# made, where without it the client's cache holds them past the phase
check(f"fsbd: the OSDs counted {osd_writes(ph['fsbd'])} writes for 300 O_DSYNC ones",
      osd_writes(ph["fsbd"]) >= 300)
check(f"fsb: the OSDs counted {osd_writes(ph['fsb'])} writes for 300 buffered ones",
      osd_writes(ph["fsb"]) < 30)
# RBD: flushes write nothing (the image's header ops are rw_ops)
check(f"img: the OSDs counted {osd_writes(ph['img'])} writes for 800",
      abs(osd_writes(ph["img"]) - 800) <= 8)
# krbd: the loop device completed a request per write and per flush
for name in ("dev", "devd"):
    d = ph[name]["telemetry"]["host"]["disks"][dev]
    got, want = d["writes"] + d["writes_merged"], ph[name]["write_ops"] + syncs(ph[name])
    check(f"{name}: diskstats {got} write requests, cephbench {want} writes and syncs",
          abs(got - want) <= 0.01 * want)
for b in bad:
    print(b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY

# sync on krbd: RWF_SYNC / RWF_DSYNC writes reach the loop device with its
# cache flushed (its flush requests in /proc/diskstats), plain ones none
flushes() {
	awk -v d="$DEV" '$3 == d { print $19 }' /proc/diskstats
}
for mode in none dsync sync; do
	profile "k$mode" >/dev/null <<YAML
name: k$mode
workloads:
  - { name: w, layer: krbd, device: $A, op: write, block_size: 4K, ops: 300, concurrency: 4,
      sync: $mode }
YAML
	before=$(flushes)
	run_profile "k$mode" --allow-destructive
	assert_rc 0 "krbd sync: $mode"
	got=$(($(flushes) - before))
	echo "krbd sync: $mode: $got flush requests for 300 writes"
	if [ "$mode" = none ]; then
		[ "$got" -eq 0 ] || fail "krbd without sync: $got flush requests"
	else
		[ "$got" -gt 0 ] || fail "krbd sync: $mode: no flush request"
	fi
done

# The text says the syncs apart, and the saved record prints them again

cb report "$T/dur.json"
assert_rc 0 "report"
grep -q '^fs4: sync 200 ops, .*(not in the row.s ops)$' "$T/out" || fail "no sync line: $(cat "$T/out")"
grep -q '^dev: sync 200 ops, ' "$T/out" || fail "no krbd sync line: $(cat "$T/out")"
echo "ok"
