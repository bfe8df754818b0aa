#!/usr/bin/env bash
# The rados layer killed with -9 at random moments of a write + seq run
# (setup, ramp, measuring, the read, cleanup), each followed by cephbench
# cleanup: no object of any run is left in the namespace. Then a namesake:
# a run named like a killed write takes its objects over.
. "$(dirname "$0")/crash_lib.sh"

crash_flag=--pool
crash_target=$POOL
sed "s/POOL/$POOL/" >"$T/crash.yaml" <<'YAML'
name: crash
workloads:
  - {name: w, layer: rados, pool: POOL, op: write, block_size: 4K, ramp: 1s, duration: 2s}
  - {name: r, layer: rados, pool: POOL, op: seq, duration: 1s}
YAML

crash_state() { # RUN
	local state
	state=$(rados --conf "$CONF" -p "$POOL" --namespace cephbench get "$1.meta" - 2>/dev/null |
		sed -n 's/.*"state":"\([a-z]*\)".*/\1/p')
	echo "$(ns_objects | wc -l) objects, metadata ${state:-absent}"
}

crash_assert_clean() { # WHAT
	assert_ns_empty "$1"
}

crash_kills

# Namesake: a write killed once it wrote objects, then a run of the same name
# (write + seq, --no-cleanup): the killed run's objects go before it writes,
# a line says so, and the seq reads this run's objects only.
sed "s/POOL/$POOL/" >"$T/long.yaml" <<'YAML'
name: long
workloads:
  - {name: w, layer: rados, pool: POOL, op: write, block_size: 4K, duration: 60s}
YAML
sed "s/POOL/$POOL/" >"$T/again.yaml" <<'YAML'
name: again
workloads:
  - {name: w, layer: rados, pool: POOL, op: write, block_size: 4K, max_objects: 20}
  - {name: r, layer: rados, pool: POOL, op: seq}
YAML
"$CEPHBENCH" run "$T/long.yaml" --conf "$CONF" --run-name ns --quiet >/dev/null 2>&1 &
signal_and_wait KILL $!
old=$(ns_objects | wc -l)
[ "$old" -gt 21 ] || fail "namesake: the killed write left only $old objects"
cb run "$T/again.yaml" --conf "$CONF" --run-name ns --no-cleanup --format json
assert_rc 0 "namesake run"
grep -qF "workload 'w': took over what an earlier run named 'ns' left in pool '$POOL' (its write was writing): removed $old objects before writing" "$T/err" ||
	fail "namesake: no takeover line for $old objects: $(cat "$T/err")"
/usr/bin/python3 - "$T/out" <<'PY'
import json, sys
p = {r["name"]: r for r in json.load(open(sys.argv[1]))["phases"]}
assert p["w"]["ops"] == 20 and p["r"]["ops"] == 20 and p["r"]["errors"] == 0, \
    f"write {p['w']['ops']} ops, seq {p['r']['ops']} ops {p['r']['errors']} errors: expected 20 each"
PY
[ "$(ns_objects | wc -l)" -eq 21 ] || fail "namesake: $(ns_objects | wc -l) objects after it, expected its 20 and ns.meta"
echo "ok: namesake of a killed write: its $old objects removed first, said so, the seq read this run's 20"

# A read-only run of that name reads the kept complete write, and says so;
# once an object of it is missing, it is refused.
cb rados seq -p "$POOL" --conf "$CONF" --run-name ns
assert_rc 0 "seq of a kept write"
grep -qF "reads the 20 objects an earlier run named 'ns' wrote in pool '$POOL' (complete" "$T/err" ||
	fail "seq of a kept write: no line saying whose data: $(cat "$T/err")"
rados --conf "$CONF" -p "$POOL" --namespace cephbench rm ns.c0.19
cb rados seq -p "$POOL" --conf "$CONF" --run-name ns
assert_rc 3 "seq of an incomplete kept write"
one_line "seq of an incomplete kept write" "is incomplete (object ns.c0.19 is missing)"
crash_cleanup --run-name ns
assert_rc 0 "cleanup of the namesake's objects"
crash_assert_clean "after the namesake test"
echo "ok: a kept complete write read by a namesake, with a line; a missing object refused"
echo ok
