#!/usr/bin/env bash
# The host part's disk figures (telemetry.host.disks) of krbd phases on a
# loop device, the stand-in for /dev/rbdN here: what the kernel counted in
# /proc/diskstats over each phase agrees with what cephbench reports within
# 1 % (requests: completed + merged, against ops; sectors x 512 against
# bytes), reads and writes each; a phase that only writes counts no reads;
# the per-second samples carry the device too.
. "$(dirname "$0")/krbd_lib.sh"

new_loop A "$T/a.img" 32M
NAME=$(basename "$A")
profile ds >/dev/null <<YAML
name: ds
defaults: { layer: krbd, device: $A, concurrency: 8 }
workloads:
  - { name: randwrite, op: randwrite, ops: 4000 }
  - { name: randread, op: randread, ops: 4000 }
  - { name: write64k, op: write, block_size: 64K, bytes: 16M }
  - { name: randrw, op: randrw, ops: 4000, rw_mix_read: 30 }
YAML
run_profile ds --allow-destructive
assert_rc 0 "krbd phases on $A"
assert_valid_json "$T/ds.json" "krbd phases on $A"

/usr/bin/python3 - "$T/ds.json" "$NAME" <<'PY' || fail "diskstats against the reported figures: see above"
import json, sys

rec = json.load(open(sys.argv[1]))
dev = sys.argv[2]
bad = []


def near(what, got, want):
    # within 1 % (and exactly 0 where cephbench reports none)
    if (want == 0 and got != 0) or abs(got - want) > 0.01 * want:
        bad.append(f"{what}: diskstats {got}, cephbench {want}")


names = [p["name"] for p in rec["phases"]]
if names != ["randwrite", "randread", "write64k", "randrw"]:
    bad.append(f"phases {names}")
for p in rec["phases"]:
    host = p.get("telemetry", {}).get("host")
    d = (host or {}).get("disks", {}).get(dev)
    if d is None:
        bad.append(f"{p['name']}: no telemetry.host.disks.{dev}")
        continue
    n = p["name"]
    near(f"{n} reads", d["reads"] + d["reads_merged"], p["read_ops"])
    near(f"{n} writes", d["writes"] + d["writes_merged"], p["write_ops"])
    near(f"{n} read bytes", d["read_sectors"] * 512, p["read_bytes"])
    near(f"{n} write bytes", d["write_sectors"] * 512, p["write_bytes"])
    if not any(dev in s.get("disks", {}) for s in host["samples"]):
        bad.append(f"{n}: no sample holds {dev}")
    if not 0 <= d["util_pct"] <= 100 or d["aqu_sz"] < 0:
        bad.append(f"{n}: util {d['util_pct']} aqu-sz {d['aqu_sz']}")
for b in bad:
    print(b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY

# the text report has the device's line under the table (--detail: a line
# of telemetry's)
cb run "$T/ds.yaml" --conf "$CONF" --allow-destructive --detail >"$T/out" 2>"$T/err"
grep -q "^randwrite: disk $NAME: 0 reads, [0-9]* writes" "$T/out" ||
	fail "no disk line for $NAME in the text report: $(cat "$T/out")"
echo "krbd_diskstats: ok"
