#!/usr/bin/env bash
# Telemetry after the monitors stopped answering (issue 41, item 9): the
# monitor stopped (SIGTERM) during a noop phase, so the state sampler's
# `status` times out (--timeout 3s); started again, it is asked again
# once telemetry's backoff for the monitors has passed, and the next
# phase is judged for disturbance again (its record has `disturbed`) and
# has the OSDs' counters. Before, the first timeout turned telemetry off
# for the rest of the run: no `disturbed` after it (the negative control
# is the note of the timeout itself, which shows the sampler did ask
# while the monitor was away).
. "$(dirname "$0")/lib.sh"

trap 'daemon_pid mon.a >/dev/null || mon_start; at_exit' EXIT

# noop: no I/O waits on the monitor, only telemetry asks it
p=$(profile monback <<YAML
name: monback
cluster: { timeout: 3s }
workloads:
  - { name: n1, layer: noop, op: write, duration: 16s }
  - { name: w, layer: rados, pool: $POOL, op: write, block_size: 4K, duration: 3s }
YAML
)
set +e
timeout 300 "$CEPHBENCH" run "$p" --conf "$CONF" --run-name monback --json "$T/r.json" \
	>"$T/out" 2>"$T/err" &
pid=$!
set -e
sleep 4
mon_stop
sleep 5
mon_start
wait_bg "$pid"
assert_rc 0 "a run with the monitor stopped in its first phase"
/usr/bin/python3 - "$T/r.json" <<'PY' || fail "telemetry: $(cat "$T/err")"
import json, sys
r = json.load(open(sys.argv[1]))
notes = r.get("telemetry_notes") or []
print("notes:", notes)
away = [i for i, n in enumerate(notes) if "monitors did not answer in time" in n]
back = [i for i, n in enumerate(notes) if "monitors answered again" in n]
assert away, "no note of the monitors' silence"
assert back and back[0] > away[0], "no note of the monitors' return"
[w] = [p for p in r["phases"] if p["name"] == "w"]
print("w disturbed:", w.get("disturbed"), "osds:", len(w["telemetry"]["cluster"].get("osds", [])))
assert "disturbed" in w, "w was not judged for disturbance"
assert len(w["telemetry"]["cluster"]["osds"]) == 3, "w lacks the OSDs' counters"
PY
cb cleanup --conf "$CONF" --pool "$POOL" --run-name monback
assert_rc 0 cleanup
echo ok
