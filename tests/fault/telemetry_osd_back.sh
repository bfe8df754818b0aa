#!/usr/bin/env bash
# Telemetry after an OSD stopped answering (issue 41, item 9): osd.1 frozen
# (SIGSTOP, still up in the map) when a phase starts: its perf dump times
# out (--timeout 4s) and it alone is left out, with a note, while osd.0
# and osd.2 are still read; thawed and marked down by hand, it comes up
# anew (a new up_from epoch), and the later phases read it again. Before,
# the first timeout turned the cluster's telemetry off for the rest of
# the run: no OSD rows at all after it (the negative control is that the
# first phase lacks osd.1 while the others have it).
. "$(dirname "$0")/lib.sh"

thaw() {
	local pid
	pid=$(daemon_pid osd.1) && kill -CONT "$pid" 2>/dev/null || true
}
trap 'thaw; daemon_pid osd.1 >/dev/null || osd_start 1; wait_clean; at_exit' EXIT
wait_clean

# The map epoch osd.N came up at (0 when down).
up_from() { # N
	fceph osd dump -f json | /usr/bin/python3 -c '
import json, sys
o = next(o for o in json.load(sys.stdin)["osds"] if o["osd"] == int(sys.argv[1]))
print(o["up_from"] if o["up"] else 0)' "$1"
}

# noop phases: no I/O waits on the frozen OSD, only telemetry asks it
p=$(profile back <<YAML
name: back
cluster: { timeout: 4s }
workloads:
  - { name: n1, layer: noop, op: write, duration: 20s }
  - { name: n2, layer: noop, op: write, duration: 3s }
  - { name: w, layer: rados, pool: $POOL, op: write, block_size: 4K, duration: 3s }
YAML
)
kill -STOP "$(daemon_pid osd.1)" || fail "cannot freeze osd.1"
set +e
timeout 300 "$CEPHBENCH" run "$p" --conf "$CONF" --run-name back --json "$T/r.json" \
	>"$T/out" 2>"$T/err" &
pid=$!
set -e
# n1's start asks osd.1 within a few seconds and waits out the timeout;
# then osd.1 thaws and is marked down: it boots up again at once
sleep 12
thaw
was=$(up_from 1)
fceph osd down 1 >/dev/null
for _ in $(seq 1 120); do
	[ "$(up_from 1)" -gt "$was" ] && break
	sleep 0.5
done
[ "$(up_from 1)" -gt "$was" ] || fail "osd.1 did not come up anew after 'ceph osd down 1'"
wait_bg "$pid"
assert_rc 0 "a run with osd.1 frozen at its first phase"
/usr/bin/python3 - "$T/r.json" <<'PY' || fail "telemetry: $(cat "$T/err")"
import json, sys
r = json.load(open(sys.argv[1]))
notes = r.get("telemetry_notes") or []
print("notes:", notes)
def osds(name):
    [ph] = [p for p in r["phases"] if p["name"] == name]
    return sorted(o["osd"] for o in ph["telemetry"]["cluster"].get("osds", []))
rows = {n: osds(n) for n in ("n1", "n2", "w")}
print("osd rows:", rows)
assert any("osd.1 did not answer" in n for n in notes), "no note of osd.1's silence"
assert any("osd.1 is up again" in n for n in notes), "no note of osd.1's return"
assert 1 not in rows["n1"] and rows["n1"] == [0, 2], "n1: osd.1 left out, the others read"
assert rows["w"] == [0, 1, 2], "w: osd.1 read again"
PY
cb cleanup --conf "$CONF" --pool "$POOL" --run-name back
assert_rc 0 cleanup
echo ok
