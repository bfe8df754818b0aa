#!/usr/bin/env bash
# The pre-flight gate against the fault sandbox: `ceph osd set noscrub`
# (HEALTH_WARN OSDMAP_FLAGS) refuses a run under require: ok (exit 3, one
# line naming the check, nothing written), and under --history stores it
# as skipped with its reason, with no regression; allow: [OSDMAP_FLAGS] and
# require: warn run. An OSD stopped refuses a run naming its degraded PGs;
# with wait: 60s and the OSD back within it, the run waits, then runs. The
# cluster is given back as it was: flag unset, OSDs up, PGs clean.
. "$(dirname "$0")/lib.sh"

restore() {
	fceph osd unset noscrub >/dev/null 2>&1 || true
	daemon_pid osd.1 >/dev/null || osd_start 1
	wait_clean
}
trap 'restore; at_exit' EXIT
wait_clean

# the health the monitors report has the check (it follows the flag at once)
wait_check() { # NAME
	for _ in $(seq 1 60); do
		fceph health -f json 2>/dev/null | grep -qF "\"$1\"" && return 0
		sleep 0.5
	done
	fail "health check $1 not raised within 30 s: $(fceph health 2>&1)"
}

pf_field() { # FILE KEY
	/usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["preflight"][sys.argv[2]])' "$@"
}

fceph osd set noscrub >/dev/null 2>&1 || fail "ceph osd set noscrub failed"
wait_check OSDMAP_FLAGS

cb rados write -p "$POOL" --conf "$CONF" -b 4K -t 2 --duration 2 --run-name pf --preflight ok --quiet
assert_rc 3 "noscrub, --preflight ok"
one_line "noscrub, --preflight ok" "cluster not ready: " "OSDMAP_FLAGS (noscrub flag(s) set)" \
	"(preflight require: ok)"
assert_ns_empty "a refused run"
echo "refused: $(cat "$T/err")"

# refused under --history: stored as skipped with its reason, no phase,
# no regression (exit 3, not 1), the textfile says skipped
p=$(profile pfok <<YAML
name: pfok
preflight: { require: ok }
workloads:
  - { name: w, layer: rados, pool: $POOL, op: write, block_size: 4K, concurrency: 2, duration: 2s }
YAML
)
cb run "$p" --conf "$CONF" --run-name pf --history "$T/h.db" --regression 10 --prom "$T/p.prom" \
	--json "$T/refused.json" --quiet
assert_rc 3 "refused under --history"
one_line "refused under --history" "cluster not ready: " "OSDMAP_FLAGS"
[ "$(pf_field "$T/refused.json" verdict)" = refused ] || fail "refused run's verdict: $(cat "$T/refused.json")"
"$(dirname "$0")/../validate-json" "$(dirname "$0")/../../docs/result.schema.json" "$T/refused.json" >/dev/null ||
	fail "the refused run's record is not valid"
/usr/bin/python3 - "$T/h.db" <<'PY' || fail "the refused run is not stored as skipped"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
runs = db.execute("SELECT skipped, skip_reason FROM runs").fetchall()
phases = db.execute("SELECT count(*) FROM phases").fetchone()[0]
print("history:", runs, phases, "phases")
assert len(runs) == 1 and runs[0][0] == 1 and "OSDMAP_FLAGS" in runs[0][1], runs
assert phases == 0
PY
"$CEPHBENCH" history "$T/h.db" | grep -q ' skipped: HEALTH_WARN OSDMAP_FLAGS (noscrub flag(s) set)$' ||
	fail "history does not list the skipped run: $("$CEPHBENCH" history "$T/h.db" 2>&1)"
grep -qx 'cephbench_skipped{profile="pfok"} 1' "$T/p.prom" || fail "textfile: $(cat "$T/p.prom")"
! grep -q '^cephbench_regression' "$T/p.prom" || fail "a skipped run has a regression: $(cat "$T/p.prom")"

# allowed, or require: warn (the default): it runs, the check recorded
p=$(profile pfallow <<YAML
name: pfallow
preflight: { require: ok, allow: [OSDMAP_FLAGS] }
workloads:
  - { name: w, layer: rados, pool: $POOL, op: write, block_size: 4K, concurrency: 2, duration: 1s }
YAML
)
cb run "$p" --conf "$CONF" --run-name pf --json "$T/allow.json" --quiet
assert_rc 0 "noscrub, allow: [OSDMAP_FLAGS]"
[ "$(pf_field "$T/allow.json" verdict)" = ready ] || fail "allowed: $(pf_field "$T/allow.json" verdict)"
pf_field "$T/allow.json" checks | grep -qF OSDMAP_FLAGS || fail "allowed: the check is not recorded"
cb rados write -p "$POOL" --conf "$CONF" -b 4K -t 2 --duration 1 --run-name pf --json "$T/warn.json"
assert_rc 0 "noscrub, require: warn"
grep -q '^preflight: ready (require: warn): HEALTH_WARN (OSDMAP_FLAGS)$' "$T/out" ||
	fail "the text report's preflight line: $(head -3 "$T/out")"
fceph osd unset noscrub >/dev/null 2>&1

# an OSD down: its PGs degraded once they peer (stale until then: on a
# loaded host some still were when the first of them was degraded)
osd_stop 1
for _ in $(seq 1 120); do
	fceph pg stat >"$T/pgstat" 2>/dev/null || true
	grep -q degraded "$T/pgstat" && ! grep -q stale "$T/pgstat" && break
	sleep 0.5
done
cb rados write -p "$POOL" --conf "$CONF" -b 4K -t 2 --duration 1 --run-name pf --quiet
assert_rc 3 "an OSD down"
one_line "an OSD down" "cluster not ready: " "pgs degraded" "(preflight require: warn)"
echo "refused: $(cat "$T/err")"

# wait: 60s, the OSD back within it: the run waits, then runs
p=$(profile pfwait <<YAML
name: pfwait
preflight: { wait: 60s }
workloads:
  - { name: w, layer: rados, pool: $POOL, op: write, block_size: 4K, concurrency: 2, duration: 1s }
YAML
)
set +e
timeout 120 "$CEPHBENCH" run "$p" --conf "$CONF" --run-name pf --json "$T/wait.json" >"$T/out" 2>"$T/err" &
pid=$!
set -e
sleep 3
osd_start 1
wait_bg "$pid"
assert_rc 0 "wait: 60s, the OSD back"
grep -qF "waiting up to 1m" "$T/err" || fail "the wait was not said: $(cat "$T/err")"
[ "$(pf_field "$T/wait.json" verdict)" = waited ] || fail "wait: verdict $(pf_field "$T/wait.json" verdict)"
echo "waited $(pf_field "$T/wait.json" waited_s) s: $(head -1 "$T/err")"
echo ok
