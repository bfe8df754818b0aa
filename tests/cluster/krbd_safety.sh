#!/usr/bin/env bash
# The krbd layer's safety rules: a device or file the run did not map is
# written (or prefilled) only with --allow-destructive, and never when it
# carries a filesystem or a partition table, nor while another program
# holds it; reads are always allowed; each refusal is one line on stderr,
# exit 2, nothing on stdout, and the data is left byte for byte. A missing
# device is one line too, and without kernel rbd a workload that would map
# images is one line, exit 3, and creates no image.
. "$(dirname "$0")/krbd_lib.sh"

HOLDER=""
krbd_more_exit() {
	if [ -n "$HOLDER" ]; then
		kill "$HOLDER" 2>/dev/null
		wait "$HOLDER" 2>/dev/null
	fi
}

# krbd_run EXPECTED_RC WHAT 'KEYS' [FLAGS] [-- STRINGS]: one krbd workload
# w with KEYS; expect the exit code, and for a refusal (rc != 0) one stderr
# line holding every STRING and an empty stdout.
krbd_run() {
	local code=$1 what=$2 keys=$3
	shift 3
	args_until_dashes "$@" --
	shift ${#ARGS[@]}
	[ $# -eq 0 ] || shift # the --
	profile k >/dev/null <<YAML
name: k
workloads:
  - { name: w, layer: krbd, $keys }
YAML
	run_profile k "${ARGS[@]}"
	assert_rc "$code" "$what"
	if [ "$code" -ne 0 ]; then
		one_line "$what" "$@"
		[ ! -s "$T/out" ] || fail "$what: stdout not empty: $(cat "$T/out")"
	fi
	echo "$what: exit $rc${*:+, one line with: $*}"
}

# What the last run's last phase did, into reads, writes and errors.
io_of() {
	read -r reads writes errors < <(/usr/bin/python3 -c 'import json, sys
p = json.load(open(sys.argv[1]))["phases"][-1]
print(p["read_ops"], p["write_ops"], p["errors"])' "$T/k.json")
}

write_ops=(write randwrite rw randrw)

# 1. A loop device over a file holding ext4: every writing op and a prefill
#    are refused without the flag and with it (naming ext4); so is the file
#    itself, and a device list holding it. Its bytes never change; reads
#    (and a randrw that only reads) run.
truncate -s 16M "$T/fs.img"
mkfs.ext4 -q -F "$T/fs.img"
before=$(sum "$T/fs.img")
new_loop E "$T/fs.img"
for op in "${write_ops[@]}"; do
	# the signature is named first: --allow-destructive would not help
	krbd_run 2 "$op on ext4" "op: $op, device: $E, ops: 100" -- "$E" "ext4" \
		"refused even with --allow-destructive"
	krbd_run 2 "$op on ext4 with --allow-destructive" "op: $op, device: $E, ops: 100" --allow-destructive -- \
		"$E" "ext4" "refused even with --allow-destructive"
done
krbd_run 2 "prefill of ext4" "op: randread, device: $E, prefill: true, ops: 100" -- \
	"workload 'w': $E" "ext4" "refused even with --allow-destructive"
krbd_run 2 "prefill of ext4 with --allow-destructive" "op: randread, device: $E, prefill: true, ops: 100" \
	--allow-destructive -- "workload 'w': $E" "ext4" "refused even with --allow-destructive"
krbd_run 2 "randwrite on an ext4 file with --allow-destructive" "op: randwrite, device: $T/fs.img, ops: 100" \
	--allow-destructive -- "$T/fs.img" "ext4" "refused even with --allow-destructive"
# a device list: the ext4 one second, after a writable one
new_loop Z "$T/zero.img" 4M
krbd_run 2 "randwrite on a list holding ext4" "op: randwrite, device: '$Z:$E', ops: 100" --allow-destructive -- \
	"$E" "ext4"
cmp -s -n $((4 << 20)) "$T/zero.img" /dev/zero || fail "a refused list wrote its first device $Z"
for op in read randread; do
	krbd_run 0 "$op on ext4" "op: $op, device: $E, ops: 1000"
	io_of
	if [ "$reads" -ne 1000 ] || [ "$writes" -ne 0 ] || [ "$errors" -ne 0 ]; then
		fail "$op on ext4: $reads reads, $writes writes, $errors errors"
	fi
done
krbd_run 0 "randrw with rw_mix_read 100 on ext4" "op: randrw, rw_mix_read: 100, device: $E, ops: 1000"
io_of
if [ "$reads" -ne 1000 ] || [ "$writes" -ne 0 ]; then
	fail "randrw 100 on ext4: $reads reads, $writes writes"
fi
[ "$(sum "$T/fs.img")" = "$before" ] || fail "the ext4 file changed"
type=$(blkid -p -o value -s TYPE "$T/fs.img" 2>&1 || true)
[ "$type" = ext4 ] || fail "the file is no longer ext4: $type"
echo "ext4: sha256 unchanged"

# 2. A partition table (an MBR with one partition, written here) is refused
#    even with the flag, and left as it was.
dd if=/dev/urandom of="$T/pt.img" bs=1M count=8 status=none
/usr/bin/python3 - "$T/pt.img" <<'PY'
import struct, sys
with open(sys.argv[1], "r+b") as f:
    f.seek(446)
    # one Linux partition from LBA 2048 to the end of 8M
    f.write(struct.pack("<B3sB3sII", 0, b"\0\0\0", 0x83, b"\0\0\0", 2048, 16384 - 2048))
    f.write(b"\0" * 48 + b"\x55\xaa")
PY
[ "$(blkid -p -o value -s PTTYPE "$T/pt.img")" = dos ] || fail "the test's MBR is not seen by blkid"
before=$(sum "$T/pt.img")
krbd_run 2 "randwrite on a partition table" "op: randwrite, device: $T/pt.img, ops: 100" --allow-destructive -- \
	"$T/pt.img" "partition table (dos)" "refused even with --allow-destructive"
[ "$(sum "$T/pt.img")" = "$before" ] || fail "the partitioned file changed"

# 3. A plain file of random data, not created by the run: refused without
#    the flag (naming the file and the flag), and left as it was; with the
#    flag it is written (it has no signature).
dd if=/dev/urandom of="$T/plain" bs=1M count=4 status=none
before=$(sum "$T/plain")
for op in "${write_ops[@]}"; do
	krbd_run 2 "$op on a plain file" "op: $op, device: $T/plain, ops: 100" -- \
		"$T/plain" "refused" "--allow-destructive"
done
krbd_run 2 "prefill of a plain file" "op: read, device: $T/plain, prefill: true, ops: 100" -- \
	"$T/plain" "workload 'w': prefill" "--allow-destructive"
# one file under two names would get two devices' patterns
ln -s "$T/plain" "$T/alias"
krbd_run 2 "a plain file listed twice" "op: randwrite, device: '$T/plain:$T/alias', ops: 100" \
	--allow-destructive -- "$T/plain" "$T/alias" "are the same file"
# a loop device and the file behind it are one device too
new_loop P "$T/plain"
krbd_run 2 "a loop device and its backing file" "op: randwrite, device: '$P:$T/plain', ops: 100" \
	--allow-destructive -- "$P" "$T/plain" "are the same file"
[ "$(sum "$T/plain")" = "$before" ] || fail "a refused run changed the plain file"
# a ':' in a path is written '\:' (fio's escape), as /dev/disk/by-path names need
cp "$T/plain" "$T/pci-0000:00"
krbd_run 0 "a path with a colon" "op: randread, device: '$T/pci-0000\\:00', ops: 100"
io_of
[ "$reads" -eq 100 ] || fail "a path with a colon: $reads reads"
krbd_run 0 "randread on a plain file" "op: randread, device: $T/plain, ops: 100"
[ "$(sum "$T/plain")" = "$before" ] || fail "a read run changed the plain file"
krbd_run 0 "randwrite on a plain file with --allow-destructive" "op: randwrite, device: $T/plain, ops: 100" \
	--allow-destructive
io_of
[ "$writes" -eq 100 ] || fail "randwrite on a plain file: $writes writes"
[ "$(sum "$T/plain")" != "$before" ] || fail "an allowed randwrite left the plain file as it was"

# 4. A block device another program holds (O_EXCL) is refused even with the
#    flag, and written once it is released.
new_loop H "$T/held.img" 4M
/usr/bin/python3 -c 'import os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL)
print("held", flush=True)
time.sleep(300)' "$H" >"$T/held" &
HOLDER=$!
for _ in $(seq 1 100); do
	grep -q held "$T/held" && break
	sleep 0.1
done
grep -q held "$T/held" || fail "could not hold $H"
krbd_run 2 "randwrite on a held device" "op: randwrite, device: $H, ops: 100" --allow-destructive -- \
	"$H" "in use"
cmp -s -n $((4 << 20)) "$T/held.img" /dev/zero || fail "a refused run wrote the held device $H"
kill "$HOLDER"
wait "$HOLDER" 2>/dev/null || true
HOLDER=""
krbd_run 0 "randwrite on the released device" "op: randwrite, device: $H, ops: 100" --allow-destructive
cmp -s -n $((4 << 20)) "$T/held.img" /dev/zero && fail "the released device $H was not written"

# 5. A device that does not exist, and one that is a directory.
krbd_run 2 "missing device" "op: randread, device: $T/no-such-dev, ops: 10" -- \
	"$T/no-such-dev" "No such file or directory"
krbd_run 2 "missing device in a list" "op: randread, device: '$Z:$T/no-such-dev', ops: 10" -- \
	"$T/no-such-dev" "No such file or directory"
mkdir "$T/dir"
krbd_run 2 "a directory" "op: randread, device: $T/dir, ops: 10" -- \
	"$T/dir" "neither a block device nor a regular file"

# 6. No kernel rbd (no /sys/bus/rbd): a workload that would create and map
#    images fails in one line naming /sys/bus/rbd and device:, with or
#    without the flag, and leaves no cephbench image in the pool.
if [ -e /sys/bus/rbd ]; then
	echo "no-kernel-rbd: skipped, this kernel has /sys/bus/rbd"
else
	krbd_run 3 "images without kernel rbd" "op: randwrite, pool: $RBD_POOL, image_size: 16M, ops: 100" -- \
		"/sys/bus/rbd" "device:"
	krbd_run 3 "images without kernel rbd, prefilled reads" \
		"op: randread, pool: $RBD_POOL, image_size: 16M, prefill: true, ops: 100" --allow-destructive -- \
		"/sys/bus/rbd" "device:"
	rbd --conf "$CONF" ls "$RBD_POOL" >"$T/ls"
	if grep '^cephbench\.' "$T/ls"; then fail "images left in pool $RBD_POOL"; fi
	echo "no-kernel-rbd: no cephbench image in pool $RBD_POOL"
fi
echo ok
