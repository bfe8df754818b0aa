#!/usr/bin/env bash
# libcephfs 20.2's nonblocking I/O (cephfs/cephfs_nbio.c): one client with
# concurrency 8 keeps more than one op in flight, in randwrite and in
# randread. By Little's law the mean number of ops in flight is their rate
# times their mean time, which cannot pass 1 with one op in flight; taken
# three ways: by the cluster alone (writes: the OSDs' own op_w_latency,
# summed, over the run's time; memstore's reads leave too soon to queue
# there), by the OSDs' count of the run's ops over its time times the
# record's mean latency, and by the record alone (IOPS x mean latency). No
# error; every op an OSD op of its own (the OSDs' counters: O_DIRECT, no
# cache), every write in the file (the cephfs_tree helper). Negative
# controls: the same at concurrency 1, and sync: dsync (kept synchronous),
# never pass 1. Skipped (77) by a build without the feature (libcephfs
# before 20.2).
. "$(dirname "$0")/cephfs_lib.sh"

# The build's features, from a run's record (noop: no cluster needed).
p=$(profile probe <<'YAML'
name: probe
workloads:
  - { name: n, layer: noop, op: write, ops: 1 }
YAML
)
cb run "$p" --format json
assert_rc 0 "the features probe"
if ! /usr/bin/python3 -c '
import json, sys
sys.exit(0 if "cephfs_nonblocking_io" in json.load(open(sys.argv[1]))["tool"]["features"] else 1)' "$T/out"; then
	echo "skip: this build has no cephfs_nonblocking_io (libcephfs before 20.2)"
	exit 77
fi

# The OSDs' own counters, summed over every OSD: "op_w op_w_latency_sum
# op_r op_r_latency_sum" (seconds: the time from an op's arrival to its
# reply).
osd_times() {
	local ids
	ids=$(ceph --conf "$CONF" osd ls)
	for id in $ids; do
		ceph --conf "$CONF" tell "osd.$id" perf dump
	done | /usr/bin/python3 -c '
import json, sys
dec, text, pos, tot = json.JSONDecoder(), sys.stdin.read(), 0, [0, 0.0, 0, 0.0]
while pos < len(text.rstrip()):
    d, pos = dec.raw_decode(text, pos)
    while pos < len(text) and text[pos].isspace():
        pos += 1
    o = d["osd"]
    for i, k in enumerate(("op_w", "op_w_latency", "op_r", "op_r_latency")):
        tot[i] += o[k]["sum"] if k.endswith("latency") else o[k]
print(*tot)'
}

# Run PROFILE as run NAME (JSON record in $T/out, exit code in $rc); then
# $T/osd holds the OSDs' count of KIND (write, read) ops over the run and
# the seconds they spent on them, and $T/wall the run's time by this
# script's clock (setup included: the figures below are bounds from below).
run_counted() { # NAME KIND PROFILE ARGS...
	local name=$1 kind=$2 prof=$3 t0 t1 w0 wt0 r0 rt0 w1 wt1 r1 rt1
	shift 3
	read -r w0 wt0 r0 rt0 < <(osd_times)
	t0=$(date +%s.%N)
	cb run "$prof" --conf "$CONF" --format json --run-name "$name" "$@"
	t1=$(date +%s.%N)
	read -r w1 wt1 r1 rt1 < <(osd_times)
	if [ "$kind" = write ]; then
		echo "$((w1 - w0)) $wt0 $wt1" >"$T/osd"
	else
		echo "$((r1 - r0)) $rt0 $rt1" >"$T/osd"
	fi
	echo "$t0 $t1" >"$T/wall"
}

# The mean number of ops in flight by Little's law, to two decimals, on
# the record's row ROW: by the record (IOPS x mean latency), by the cluster's
# count (the OSDs' ops over the run's time x the row's mean latency), by
# the OSDs alone (the seconds they spent on the run's ops over its time).
in_flight() { # ROW record|count|osd
	local osd wall
	read -ra osd <"$T/osd"
	read -ra wall <"$T/wall"
	/usr/bin/python3 - "$T/out" "$1" "$2" "${osd[@]}" "${wall[@]}" <<'PY'
import json, sys
row, how, n, s0, s1, t0, t1 = sys.argv[2], sys.argv[3], *map(float, sys.argv[4:])
p = [p for p in json.load(open(sys.argv[1]))["phases"] if p["name"] == row][0]
mean = p["latency_us"]["mean"] / 1e6
print("%.2f" % {"record": p["iops"] * mean, "count": n / (t1 - t0) * mean,
                "osd": (s1 - s0) / (t1 - t0)}[how])
PY
}

# Whether X > Y (decimals).
gt() { /usr/bin/python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) > float(sys.argv[2]) else 1)' "$1" "$2"; }

# The OSDs counted the N ops of a run of O_DIRECT I/O: each op an OSD op of
# its own, none served by a cache (the MDS's journal adds a few writes).
assert_osd_ops() { # N WHAT
	local got
	read -r got _ <"$T/osd"
	[ "$got" -ge "$1" ] && [ "$got" -le $(($1 + $1 / 100 + 100)) ] ||
		fail "$2: the OSDs counted $got ops, the run made $1"
}

# The three figures of ROW, on stdout.
say_in_flight() { # ROW WHAT
	echo "$2: in flight by the record $(in_flight "$1" record), by the OSDs' count at least $(in_flight "$1" count), by the OSDs' time at least $(in_flight "$1" osd)"
}

IO="layer: cephfs, fs: $FS, block_size: 4K, clients: 1, ramp: 0s"

# --- randwrite, concurrency 8: 16000 writes, each a block of its own
# (coverage: each of the 65536 blocks once a pass), so the file holds
# exactly as many written blocks as the run made writes.
N=16000
p=$(profile w <<YAML
name: w
workloads:
  - { name: wl, $IO, op: randwrite, file_size: 256M, concurrency: 8, ops: $N, coverage: true }
YAML
)
run_counted nbio-w write "$p" --no-cleanup
assert_rc 0 "randwrite, concurrency 8"
assert_row wl concurrency 8 "randwrite"
assert_row wl clients 1 "randwrite"
assert_row wl ops $N "randwrite"
assert_row wl errors 0 "randwrite"
assert_osd_ops $N "randwrite"
say_in_flight wl "randwrite"
gt "$(in_flight wl record)" 3 || fail "randwrite: IOPS x mean latency is $(in_flight wl record), expected above 3"
gt "$(in_flight wl count)" 1.5 ||
	fail "randwrite: the OSDs' writes a second x mean latency is $(in_flight wl count), expected above 1.5"
gt "$(in_flight wl osd)" 1.5 ||
	fail "randwrite: the OSDs spent $(in_flight wl osd) s a second on writes, expected above 1.5"
got=$(ftree written /cephbench/nbio-w/wl) || fail "cannot read /cephbench/nbio-w/wl back"
[ "$got" = "$N" ] || fail "randwrite: the file holds $got written 4 KiB blocks, the run wrote $N"
cb cleanup --fs "$FS" --run-name nbio-w --conf "$CONF"
assert_rc 0 "cleanup --run-name nbio-w"
assert_gone /cephbench/nbio-w "after the randwrite"

# --- randread, concurrency 8, of a file the prefill wrote whole.
N=32000
p=$(profile r <<YAML
name: r
workloads:
  - { name: wl, $IO, op: randread, file_size: 64M, concurrency: 8, ops: $N }
YAML
)
run_counted nbio-r read "$p" --no-cleanup
assert_rc 0 "randread, concurrency 8"
assert_row wl concurrency 8 "randread"
assert_row wl ops $N "randread"
assert_row wl errors 0 "randread"
assert_row wl bytes $((N * 4096)) "randread"
assert_row wl.prefill errors 0 "randread"
assert_osd_ops $N "randread"
say_in_flight wl "randread"
gt "$(in_flight wl record)" 3 || fail "randread: IOPS x mean latency is $(in_flight wl record), expected above 3"
gt "$(in_flight wl count)" 1.5 ||
	fail "randread: the OSDs' reads a second x mean latency is $(in_flight wl count), expected above 1.5"
got=$(ftree written /cephbench/nbio-r/wl) || fail "cannot read /cephbench/nbio-r/wl back"
[ "$got" = $((64 * 256)) ] || fail "randread: the prefilled file holds $got written 4 KiB blocks of $((64 * 256))"
cb cleanup --fs "$FS" --run-name nbio-r --conf "$CONF"
assert_rc 0 "cleanup --run-name nbio-r"

# --- Negative controls: one op in flight, by concurrency 1, and by sync:
# dsync (O_DSYNC writes stay synchronous whatever concurrency asks: the
# plan says 1). The same figures stay at most 1 (the OSDs' time less: they
# see only part of each op's).
for neg in "randwrite, concurrency: 1" "randwrite, concurrency: 8, sync: dsync" \
	"randread, concurrency: 1"; do
	kind="write"
	[ "${neg%%,*}" = randread ] && kind="read"
	p=$(profile neg <<YAML
name: neg
workloads:
  - { name: wl, $IO, file_size: 64M, duration: 8s, op: $neg }
YAML
)
	run_counted nbio-neg $kind "$p"
	assert_rc 0 "$neg"
	assert_row wl concurrency 1 "$neg"
	assert_row wl errors 0 "$neg"
	say_in_flight wl "$neg"
	for how in record count osd; do
		! gt "$(in_flight wl $how)" 1.05 ||
			fail "$neg: $(in_flight wl $how) in flight by the $how figure, above 1 with one op in flight"
	done
done
assert_gone /cephbench/nbio-neg "after the negative controls"

echo "cephfs_nbio: ok"
