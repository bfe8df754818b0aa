#!/usr/bin/env bash
# Disturbed phases against the fault sandbox: three short runs make a
# history; then osd.1 is killed 3 s into a 20 s write and started again
# 4 s after the cluster marked it down: the phase is marked disturbed with
# the OSD named (JSON, the findings and --detail's text), `--regression` gives it no verdict ("the
# phase was disturbed"), and the next run's baseline leaves it out (3 runs,
# not 4). The cluster is given back with every PG clean.
. "$(dirname "$0")/lib.sh"

restore() {
	daemon_pid osd.1 >/dev/null || osd_start 1
	wait_clean
}
trap 'restore; at_exit' EXIT
wait_clean

W=(rados write -p "$POOL" --conf "$CONF" -b 4K -t 4 --run-name dist --history "$T/h.db"
	--regression 1000)

# the phase's regression annotation: "VERDICT RUNS REASON"
reg_of() { # FILE
	/usr/bin/python3 -c '
import json, sys
[ph] = json.load(open(sys.argv[1]))["phases"]
a = ph["regression"]
print(a["verdict"], a["baseline_runs"], a.get("reason", ""))' "$1"
}

for i in 1 2 3; do
	cb "${W[@]}" --duration 2 --json "$T/r$i.json" --quiet
	assert_rc 0 "history run $i"
	[ "$(phase_field "$T/r$i.json" disturbed)" = "[]" ] ||
		fail "quiet run $i disturbed: $(phase_field "$T/r$i.json" disturbed)"
done

cb_osd_bounce "${W[@]}" --duration 20 --json "$T/d.json" --detail
assert_rc 0 "a write through an OSD's outage"
reasons=$(phase_field "$T/d.json" disturbed)
echo "outage $(cat "$T/outage") s; disturbed: $reasons"
grep -q "osd.1 down at +" <<<"$reasons" || fail "the phase does not name osd.1 down: $reasons"
grep -q '^write: disturbed: .*osd.1 down at +' "$T/out" ||
	fail "the text report has no disturbed line: $(cat "$T/out")"
grep -q '^  write: disturbed: ' "$T/out" || fail "no finding of the disturbed phase: $(cat "$T/out")"
read -r verdict runs reason <<<"$(reg_of "$T/d.json")"
[ "$verdict" = none ] && [ "$runs" = 3 ] && [ "$reason" = "the phase was disturbed" ] ||
	fail "the disturbed phase was judged: $verdict $runs $reason"
wait_clean

cb "${W[@]}" --duration 2 --json "$T/after.json" --quiet
assert_rc 0 "the run after the outage"
read -r verdict runs reason <<<"$(reg_of "$T/after.json")"
[ "$runs" = 3 ] || fail "the baseline took the disturbed phase: $runs runs ($verdict $reason)"
/usr/bin/python3 - "$T/h.db" <<'PY' || fail "history"
import sqlite3, sys
rows = sqlite3.connect(sys.argv[1]).execute(
    "SELECT disturbed, disturbed_reasons FROM phases ORDER BY run_id").fetchall()
print("history disturbed:", [r[0] for r in rows])
assert [r[0] for r in rows] == [0, 0, 0, 1, 0], rows
assert "osd.1 down" in rows[3][1]
PY
echo ok
