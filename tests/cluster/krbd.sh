#!/usr/bin/env bash
# The krbd layer's data path, on loop devices over files in $T and on an RBD
# image exposed as a file by rbd-fuse (librbd underneath): every op runs
# with no errors and a read/write split that agrees with the op;
# rw_mix_read is honoured; the prefill writes the documented pattern on
# every byte of every device (recomputed by krbd_pattern.py, not by
# cephbench); a verified read catches a block changed behind cephbench's
# back and names the device and offset; a device list writes each device
# with its own index's pattern.
. "$(dirname "$0")/krbd_lib.sh"

MNT="" FUSE_PID="" IMG="" BG=""
krbd_more_exit() {
	if [ -n "$BG" ]; then # a cephbench left running by a failed check
		kill -INT "$BG" 2>/dev/null
		wait "$BG" 2>/dev/null
	fi
	if [ -n "$MNT" ]; then
		mountpoint -q "$MNT" && { fusermount -u "$MNT" || umount -l "$MNT"; }
		rmdir "$MNT"
	fi
	if [ -n "$FUSE_PID" ]; then
		# unmounted, it closes the image and exits; killed only if stuck
		for _ in $(seq 1 50); do
			kill -0 "$FUSE_PID" 2>/dev/null || break
			sleep 0.2
		done
		kill "$FUSE_PID" 2>/dev/null
		wait "$FUSE_PID" 2>/dev/null
	fi
	if [ -n "$IMG" ]; then
		# a killed rbd-fuse's watch lasts up to 30 s on the OSD
		for _ in $(seq 1 90); do
			rbd --conf "$CONF" rm --no-progress "$RBD_POOL/$IMG" >/dev/null 2>&1 && break
			rbd --conf "$CONF" info "$RBD_POOL/$IMG" >/dev/null 2>&1 || break
			sleep 0.5
		done
	fi
}

MiB=$((1 << 20))

# 1. Every op on a 16M loop device, in one profile; the reads (and a
#    buffered randrw) after a prefill, verified. Valid phases in order, no
#    errors, every byte accounted, reads only read, writes only write,
#    mixes do both. Two run cold: O_DIRECT reads past the page cache, the
#    buffered one after its pages were dropped (fadvise); a loop device
#    has no pool whose OSDs could drop theirs.
new_loop A "$T/a.img" 16M
profile ops >/dev/null <<YAML
name: ops
defaults: { layer: krbd, device: $A, duration: 1s, concurrency: 8 }
workloads:
  - { name: write, op: write }
  - { name: randwrite, op: randwrite }
  - { name: read, op: read, prefill: true, verify: true, cold: true }
  - { name: randread, op: randread, prefill: true, verify: true }
  - { name: rw, op: rw, prefill: true, verify: true }
  - { name: randrw, op: randrw }
  - { name: buffered, op: randrw, prefill: true, verify: true, direct: false, cold: true }
YAML
run_profile ops --allow-destructive
assert_rc 0 "every op"
assert_valid_json "$T/ops.json" "every op"
"$(dirname "$0")/block_phases.py" "$T/ops.json" krbd "$A" $((16 * MiB)) \
	write:write randwrite:randwrite read.prefill:prefill read:read \
	randread.prefill:prefill randread:randread rw.prefill:prefill rw:rw \
	randrw:randrw buffered.prefill:prefill buffered:randrw || fail "every op: see above"
/usr/bin/python3 - "$T/ops.json" <<'PY' || fail "cold: see above"
import json, sys
ph = {p["name"]: p for p in json.load(open(sys.argv[1]))["phases"]}
for name, how in (("read", "direct"), ("buffered", "fadvise"), ("randread", None)):
    c = ph[name].get("cold")
    assert (c and c["client"]) == how and (not c or c["osds"] == 0), (name, c)
PY
# the verified rw and buffered randrw kept the pattern where they wrote
pattern_check "$A" 0 || fail "after the verified runs, $A does not hold the pattern"

# 2. rw_mix_read: 70 -> 70 % of the ops read (+-2 points), random and
#    sequential. Counts, not durations: 20000 ops put 2 points at 6
#    standard deviations.
profile mix >/dev/null <<YAML
name: mix
defaults: { layer: krbd, device: $A, ops: 20000, rw_mix_read: 70, concurrency: 16 }
workloads:
  - { name: randrw, op: randrw, prefill: true, verify: true }
  - { name: rw, op: rw }
YAML
run_profile mix --allow-destructive
assert_rc 0 "rw_mix_read 70"
/usr/bin/python3 - "$T/mix.json" <<'PY' || fail "rw_mix_read: see above"
import json, sys
ph = {p["name"]: p for p in json.load(open(sys.argv[1]))["phases"]}
assert list(ph) == ["randrw.prefill", "randrw", "rw"], "phases: %s" % list(ph)
for n in ("randrw", "rw"):
    p = ph[n]
    share = 100 * p["read_ops"] / p["ops"]
    print(f"{n} 70: {p['ops']} ops, {p['read_ops']} reads: {share:.2f} %")
    assert p["ops"] == 20000 and p["errors"] == 0, "%s: ops %d, errors %d" % (n, p["ops"], p["errors"])
    assert abs(share - 70) <= 2, "%s: read share %.2f %%, expected 70 +- 2" % (n, share)
PY

# 3. The prefill writes the pattern on every byte, the short last 4M write
#    included: a zeroed device of 10M + 12.5K (not a multiple of the 4M
#    prefill writes nor of the 4K block), a read phase of 64 ops after the
#    prefill, then the pattern checked here over the whole device.
size=$((10 * MiB + 12 * 1024 + 512))
new_loop P "$T/p.img" "$size"
if pattern_check "$P" 0 >"$T/neg"; then fail "the pattern check passes on zeros: $(cat "$T/neg")"; fi
profile fill >/dev/null <<YAML
name: fill
workloads:
  - { name: fill, layer: krbd, op: read, device: $P, prefill: true, ops: 64 }
YAML
run_profile fill --allow-destructive
assert_rc 0 "prefill of $P"
/usr/bin/python3 - "$T/fill.json" "$size" <<'PY' || fail "prefill: see above"
import json, sys
size = int(sys.argv[2])
ph = {p["name"]: p for p in json.load(open(sys.argv[1]))["phases"]}
f, r = ph["fill.prefill"], ph["fill"]
print(f"prefill: {f['write_ops']} writes, {f['write_bytes']} bytes of {size}; read: {r['read_ops']} ops")
assert f["write_ops"] == 3 and f["write_bytes"] == size and f["errors"] == 0, "prefill did not write the device once"
assert r["read_ops"] == 64 and r["write_ops"] == 0 and r["errors"] == 0, "read phase"
PY
pattern_check "$P" 0 || fail "after a prefill, $P does not hold the pattern"
pattern_check "$T/p.img" 0 >/dev/null || fail "after a prefill, the file behind $P does not hold the pattern"

# 4. A verified read catches a block changed behind cephbench's back: on a
#    zeroed 1M device, once the run's prefill has written offset 409600
#    (block 100), dd overwrites that block while the randread phase runs
#    (256 blocks: it is read within milliseconds). Exit 3, one line naming
#    the device and the offset; the JSON counts the error.
new_loop V "$T/v.img" 1M
profile vf >/dev/null <<YAML
name: vf
workloads:
  - { name: r, layer: krbd, op: randread, device: $V, prefill: true, verify: true, duration: 30s, concurrency: 4 }
YAML
set +e
timeout 120 "$CEPHBENCH" run "$T/vf.yaml" --conf "$CONF" --quiet --json "$T/vf.json" --allow-destructive \
	>"$T/out" 2>"$T/err" &
BG=$!
set -e
for _ in $(seq 1 300); do
	pattern_has "$V" 0 409600 4096 && break
	kill -0 "$BG" 2>/dev/null || break
	sleep 0.1
done
pattern_has "$V" 0 409600 4096 || fail "the prefill never wrote offset 409600 of $V: $(cat "$T/err")"
dd if=/dev/urandom of="$V" bs=4096 seek=100 count=1 oflag=direct conv=notrunc status=none
wait_bg "$BG"
BG=""
assert_rc 3 "verified read of a changed block"
assert_valid_json "$T/vf.json" "verified read of a changed block"
one_line "verified read of a changed block" "$V offset 409600" "verify failed"
/usr/bin/python3 - "$T/vf.json" <<'PY' || fail "verified read of a changed block: see above"
import json, sys
ph = {p["name"]: p for p in json.load(open(sys.argv[1]))["phases"]}
print(f"changed block: prefill {ph['r.prefill']['errors']} errors, randread {ph['r']['read_ops']} reads, {ph['r']['errors']} errors")
assert ph["r.prefill"]["errors"] == 0, "the prefill had errors"
assert ph["r"]["errors"] > 0 and ph["r"]["failed"], "the changed block was not reported"
PY

# 5. Two devices of different sizes in one workload (device: A:B): random
#    writes reach both; a prefill writes all of both, each with its own
#    index's pattern (B's is not A's), and verified reads pass.
new_loop A2 "$T/a2.img" 8M
new_loop B2 "$T/b2.img" 6M
profile two >/dev/null <<YAML
name: two
workloads:
  - { name: w, layer: krbd, op: randwrite, device: "$A2:$B2", ops: 4000 }
YAML
run_profile two --allow-destructive
assert_rc 0 "randwrite on two devices"
cmp -s -n $((8 * MiB)) "$T/a2.img" /dev/zero && fail "randwrite on $A2:$B2 did not write $A2"
cmp -s -n $((6 * MiB)) "$T/b2.img" /dev/zero && fail "randwrite on $A2:$B2 did not write $B2"
echo "randwrite on two devices: both written"
profile two >/dev/null <<YAML
name: two
workloads:
  - { name: r, layer: krbd, op: randread, device: "$A2:$B2", prefill: true, verify: true, ops: 4000 }
YAML
run_profile two --allow-destructive
assert_rc 0 "verified randread on two devices"
/usr/bin/python3 - "$T/two.json" $((14 * MiB)) <<'PY' || fail "two devices: see above"
import json, sys
ph = {p["name"]: p for p in json.load(open(sys.argv[1]))["phases"]}
f, r = ph["r.prefill"], ph["r"]
print(f"two devices: prefill {f['write_ops']} writes, {f['write_bytes']} bytes; randread {r['read_ops']} reads, {r['errors']} errors")
# 8M in 2 writes, 6M in 2 (4M + 2M)
assert f["write_ops"] == 4 and f["write_bytes"] == int(sys.argv[2]), "the prefill did not write both once"
assert r["read_ops"] == 4000 and r["errors"] == 0, "verified reads"
PY
pattern_check "$A2" 0 || fail "$A2 (first of the list) does not hold device 0's pattern"
pattern_check "$B2" 1 || fail "$B2 (second of the list) does not hold device 1's pattern"

# 6. An RBD image through rbd-fuse (librbd does the I/O): prefill and a
#    verified randrw with no errors, then the image's content, exported by
#    the rbd tool once rbd-fuse has closed it, holds the pattern. O_DIRECT
#    opens of the fuse file work here, so direct stays true.
IMG=kt-fuse-$$
rbd --conf "$CONF" create --size 16M "$RBD_POOL/$IMG"
MNT=$(mktemp -d /tmp/kt-fuse.XXXXXX)
rbd-fuse -f -c "$CONF" -p "$RBD_POOL" -r "$IMG" "$MNT" 2>"$T/fuse.err" &
FUSE_PID=$!
for _ in $(seq 1 150); do
	[ -f "$MNT/$IMG" ] && break
	kill -0 "$FUSE_PID" 2>/dev/null || fail "rbd-fuse exited: $(cat "$T/fuse.err")"
	sleep 0.2
done
[ -f "$MNT/$IMG" ] || fail "rbd-fuse did not show $IMG in $MNT: $(cat "$T/fuse.err")"
profile fuse >/dev/null <<YAML
name: fuse
workloads:
  - { name: m, layer: krbd, op: randrw, device: $MNT/$IMG, prefill: true, verify: true, duration: 2s, concurrency: 8 }
YAML
run_profile fuse --allow-destructive
assert_rc 0 "randrw on an rbd-fuse image"
/usr/bin/python3 - "$T/fuse.json" $((16 * MiB)) <<'PY' || fail "rbd-fuse: see above"
import json, sys
ph = {p["name"]: p for p in json.load(open(sys.argv[1]))["phases"]}
f, m = ph["m.prefill"], ph["m"]
print(f"rbd-fuse: prefill {f['write_bytes']} bytes; randrw {m['read_ops']} reads, {m['write_ops']} writes, {m['errors']} errors")
assert f["write_bytes"] == int(sys.argv[2]) and f["errors"] == 0, "prefill"
assert m["read_ops"] > 0 and m["write_ops"] > 0 and m["errors"] == 0 and not m["failed"], "verified randrw"
PY
fusermount -u "$MNT"
wait "$FUSE_PID" || fail "rbd-fuse exited badly: $(cat "$T/fuse.err")"
FUSE_PID=""
rbd --conf "$CONF" export --no-progress "$RBD_POOL/$IMG" "$T/img" >/dev/null 2>"$T/export.err" ||
	fail "rbd export: $(cat "$T/export.err")"
pattern_check "$T/img" 0 || fail "the exported image $IMG does not hold the pattern"

# 6b. block_size as a distribution on a loop device: the device wrote the
#     row's bytes exactly (its own count of sectors written: direct I/O,
#     nothing merged away), every op a 4K multiple inside 4K-64K at a 4K
#     offset inside the device (the op trace); reads of weighted sizes over
#     the prefill verify, so every offset and length held the pattern.
new_loop S "$T/s.img" 16M
profile szw >/dev/null <<YAML
name: szw
workloads:
  - { name: w, layer: krbd, device: $S, op: randwrite, block_size: 4K-64K, ops: 3000, concurrency: 8 }
YAML
written() { awk '{ print $7 }' "/sys/block/$(basename "$S")/stat"; }
before=$(written)
rm -f "$T/szw.trace"
CEPHBENCH_OP_TRACE="$T/szw.trace" run_profile szw --allow-destructive
assert_rc 0 "krbd sizes"
after=$(written)
/usr/bin/python3 - "$T/szw.json" "$T/szw.trace" "$before" "$after" <<'PY' || fail "krbd sizes: see above"
import json, sys
p = json.load(open(sys.argv[1]))["phases"][0]
ops = [tuple(map(int, l.split())) for l in open(sys.argv[2]) if not l.startswith("#")]
dev = (int(sys.argv[4]) - int(sys.argv[3])) * 512
print(f"krbd sizes: {len(ops)} ops, the row {p['bytes']} bytes, the device wrote {dev}, mean {p['sizes']['mean']:.0f}")
assert len(ops) == 3000 and p["ops"] == 3000 and p["errors"] == 0
assert p["bytes"] == sum(n for _, n in ops) == dev
assert all(n % 4096 == 0 and 4096 <= n <= 65536 for _, n in ops)
assert len({n for _, n in ops}) == 16
assert all((w & ((1 << 48) - 1)) % 4096 == 0 and (w & ((1 << 48) - 1)) + n <= 16 << 20 for w, n in ops)
PY
profile szr >/dev/null <<YAML
name: szr
workloads:
  - { name: r, layer: krbd, device: $S, op: randread, block_size: { 4K: 50, 64K: 50 }, prefill: true,
      verify: true, ops: 2000, concurrency: 8 }
YAML
run_profile szr --allow-destructive
assert_rc 0 "krbd sizes verified"

# 7. libaio itself failing (io_getevents refused, made so by the aio_fail
#    shim: this cannot be caused for real) ends the run at once, exit 3, one
#    line, every op in flight counted as an error: none is left in flight,
#    which would keep the run going forever, deaf to signals (cb's timeout
#    would then fail the exit code check).
if [ -n "${AIO_FAIL:-}" ]; then
	profile aiofail >/dev/null <<YAML
name: aiofail
workloads:
  - { name: r, layer: krbd, op: randread, device: $A, duration: 60s, concurrency: 32 }
YAML
	# ASan wants its runtime first; the shim comes first here on purpose
	AIO_FAIL_AFTER=200 LD_PRELOAD=$AIO_FAIL ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 \
		run_profile aiofail
	assert_rc 3 "io_getevents failing"
	one_line "io_getevents failing" "reaping completions: Invalid argument"
	/usr/bin/python3 - "$T/aiofail.json" <<'PY' || fail "io_getevents failing: see above"
import json, sys
p = json.load(open(sys.argv[1]))["phases"][0]
print(f"io_getevents failing: {p['ops']} ops, {p['errors']} errors")
assert p["failed"] and p["errors"] == 32, "the 32 ops in flight must be counted as errors"
PY
fi
echo ok
