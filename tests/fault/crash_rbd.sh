#!/usr/bin/env bash
# The rbd layer killed with -9 at random moments of a run (image creation,
# the prefill, ramp, measuring, cleanup), each followed by cephbench
# cleanup: no cephbench.* image is left (a killed run's watch is cleared by
# cleanup, not waited out). Then a namesake run takes a killed run's images
# over.
. "$(dirname "$0")/crash_lib.sh"

crash_flag=--pool
crash_target=$RBD_POOL
sed "s/POOL/$RBD_POOL/" >"$T/crash.yaml" <<'YAML'
name: crash
workloads:
  - {name: w, layer: rbd, pool: POOL, op: randwrite, image_size: 16M, images: 2, prefill: true,
     block_size: 4K, ramp: 1s, duration: 2s}
YAML

crash_state() { # RUN
	local n
	n=$(images | grep -c "^cephbench\.$1\." || true)
	echo "$n images"
}

crash_assert_clean() { # WHAT
	assert_no_images "$1"
	assert_ns_empty "$1"
}

trap '"$CEPHBENCH" cleanup --conf "$CONF" --pool "$RBD_POOL" --all --quiet >/dev/null 2>&1 || true; at_exit' EXIT

crash_kills

# Namesake: a run with 3 images killed mid-run, then a run of the same name
# with 1 image (prefill + verified randread, --no-cleanup): all 3 images of
# the killed run go before it makes its own (a line says so), its read
# verifies its own prefill, and only its image is left.
sed "s/POOL/$RBD_POOL/" >"$T/long.yaml" <<'YAML'
name: long
workloads:
  - {name: w, layer: rbd, pool: POOL, op: randwrite, image_size: 16M, images: 3, duration: 60s}
YAML
sed "s/POOL/$RBD_POOL/" >"$T/again.yaml" <<'YAML'
name: again
workloads:
  - {name: r, layer: rbd, pool: POOL, op: randread, image_size: 16M, prefill: true, verify: true,
     duration: 1s, REUSE}
YAML
"$CEPHBENCH" run "$T/long.yaml" --conf "$CONF" --run-name ns --quiet >/dev/null 2>&1 &
bg=$!
for _ in $(seq 1 100); do
	[ "$(images | grep -c '^cephbench\.ns\.')" -eq 3 ] && break
	sleep 0.2
done
sleep 1
kill -KILL $bg
wait_bg $bg
[ "$rc" -eq 137 ] || fail "namesake: the long run ended with $rc before the kill"
[ "$(images | grep -c '^cephbench\.ns\.')" -eq 3 ] || fail "namesake: the killed run left $(images)"
old=$(rbd --conf "$CONF" image-meta get "$RBD_POOL/cephbench.ns.0" cephbench.instance)
sed 's/, REUSE//' "$T/again.yaml" >"$T/again1.yaml"
cb run "$T/again1.yaml" --conf "$CONF" --run-name ns --no-cleanup --format json
assert_rc 0 "namesake run"
grep -qF "workload 'r.prefill': took over what an earlier run named 'ns' left in pool '$RBD_POOL': removed 3 images before making its own" "$T/err" ||
	fail "namesake: no takeover line for 3 images: $(cat "$T/err")"
[ "$(images)" = cephbench.ns.0 ] || fail "namesake: images after it: $(images | tr '\n' ' ')"
[ "$(rbd --conf "$CONF" image-meta get "$RBD_POOL/cephbench.ns.0" cephbench.instance)" != "$old" ] ||
	fail "namesake: cephbench.ns.0 is still the killed run's"
/usr/bin/python3 - "$T/out" <<'PY'
import json, sys
p = {r["name"]: r for r in json.load(open(sys.argv[1]))["phases"]}
assert p["r.prefill"]["bytes"] == 16 << 20, f"prefill wrote {p['r.prefill']['bytes']} bytes, not one image"
assert p["r"]["ops"] > 0 and p["r"]["errors"] == 0, f"read: {p['r']['ops']} ops, {p['r']['errors']} errors"
PY
echo "ok: namesake of a killed run: its 3 images removed first, said so, the verified read on this run's own"

# With reuse: true a namesake reads the kept image as it is, and says so
# (its prefill skipped, the pattern being there).
sed 's/REUSE/reuse: true/' "$T/again.yaml" >"$T/again2.yaml"
cb run "$T/again2.yaml" --conf "$CONF" --run-name ns --format json
assert_rc 0 "reuse namesake run"
grep -qF "workload 'r.prefill': reuses 1 images an earlier run named 'ns' left in pool '$RBD_POOL' (reuse: true), all holding the prefill pattern: prefill skipped" "$T/err" ||
	fail "reuse namesake: no line saying what it reuses: $(cat "$T/err")"
crash_cleanup --run-name ns
assert_rc 0 "cleanup of the reused image"
crash_assert_clean "after the namesake tests"
echo "ok: a reuse namesake says what it reuses"
echo ok
