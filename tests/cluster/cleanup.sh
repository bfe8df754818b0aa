#!/usr/bin/env bash
# Nothing of a run stays behind: after a normal run, after kill -9 followed
# by `cephbench cleanup --all`, and after SIGINT, SIGTERM or SIGUSR2 (exit 130,
# partial report), also when an admin socket client hung up on it first.
# A client whose caps forbid the removal gets one line naming what it could
# not remove.
. "$(dirname "$0")/lib.sh"

assert_ns_empty "before the test"

# 1. A normal run cleans up after itself.
cb rados write -p "$POOL" --conf "$CONF" --duration 2 -b 4K --run-name normal
assert_rc 0 "rados write"
grep -q "^write " "$T/out" || fail "no report row: $(cat "$T/out")"
assert_ns_empty "after a normal run"

# 2. kill -9 mid-write, then cleanup --all finds the objects.
"$CEPHBENCH" rados write -p "$POOL" --conf "$CONF" --duration 60 -b 4K --run-name crashed \
	--quiet >/dev/null 2>&1 &
signal_and_wait KILL $!
n=$(ns_objects | wc -l)
[ "$n" -gt 1 ] || fail "kill -9 left only $n objects: the test did not catch the write"
ns_has "^crashed\.meta$" || fail "the crashed run left no metadata object"
cb cleanup --pool "$POOL" --conf "$CONF" --all
assert_rc 0 "cleanup --all"
grep -q "removed $n objects" "$T/out" || fail "cleanup reported: $(cat "$T/out")"
assert_ns_empty "after kill -9 and cleanup --all"

# 3. SIGINT: drain, partial report, cleanup, exit 130.
"$CEPHBENCH" rados write -p "$POOL" --conf "$CONF" --duration 60 -b 4K --run-name sigint \
	>"$T/int.out" 2>"$T/int.err" &
signal_and_wait INT $!
[ "$rc" -eq 130 ] || fail "SIGINT: exit $rc, expected 130; stderr: $(cat "$T/int.err")"
grep -q "interrupted: partial" "$T/int.out" || fail "SIGINT: no partial report: $(cat "$T/int.out")"
grep -Eq "^write +rados +write .* partial$" "$T/int.out" || fail "SIGINT: no partial row: $(cat "$T/int.out")"
assert_ns_empty "after SIGINT"

# 4. SIGTERM is handled like SIGINT, in a profile run with several phases.
p=$(sed "s/POOL/$POOL/" <<'YAML' | profile term
name: term
workloads:
  - { name: w1, layer: rados, pool: POOL, op: write, block_size: 4K, duration: 60s }
  - { name: w2, layer: rados, pool: POOL, op: write, block_size: 4K, duration: 60s }
YAML
)
"$CEPHBENCH" run "$p" --conf "$CONF" >"$T/term.out" 2>"$T/term.err" &
signal_and_wait TERM $!
[ "$rc" -eq 130 ] || fail "SIGTERM: exit $rc, expected 130; stderr: $(cat "$T/term.err")"
grep -Eq "^w1 .* partial$" "$T/term.out" || fail "SIGTERM: no partial row: $(cat "$T/term.out")"
grep -q "^w2 " "$T/term.out" && fail "SIGTERM: the next phase ran"
assert_ns_empty "after SIGTERM"

# 4a. SIGUSR2 is handled like SIGINT. Before it, an admin socket client
#     that hangs up before the answer: the run must not die of SIGPIPE.
"$CEPHBENCH" rados write -p "$POOL" --conf "$CONF" --duration 60 -b 4K --run-name usr2 \
	>"$T/usr2.out" 2>"$T/usr2.err" &
bg=$!
wait_for_objects
asok="$(dirname "$(ceph-conf -c "$CONF" -n client.admin --lookup admin_socket)")/ceph-client.admin.$bg.asok"
[ -S "$asok" ] || fail "no admin socket $asok for the run"
/usr/bin/python3 - "$asok" <<'PY'
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
s.sendall(b'{"prefix": "config show"}\0')
s.close()
PY
sleep 1
kill -0 "$bg" 2>/dev/null || fail "the run died when an admin socket client hung up: $(cat "$T/usr2.err")"
kill -USR2 "$bg"
wait_bg "$bg"
[ "$rc" -eq 130 ] || fail "SIGUSR2: exit $rc, expected 130; stderr: $(cat "$T/usr2.err")"
grep -q "interrupted: partial" "$T/usr2.out" || fail "SIGUSR2: no partial report: $(cat "$T/usr2.out")"
assert_ns_empty "after SIGUSR2"

# 5. A --no-cleanup run is kept until cleanup --run-name removes exactly
#    that run; a read-only run never removes what it did not write.
cb rados write -p "$POOL" --conf "$CONF" --duration 1 -b 4K --run-name keep1 --no-cleanup --quiet
assert_rc 0 "write keep1"
cb rados write -p "$POOL" --conf "$CONF" --duration 1 -b 4K --run-name keep2 --no-cleanup --quiet
assert_rc 0 "write keep2"
cb rados seq -p "$POOL" --conf "$CONF" --run-name keep1 --quiet
assert_rc 0 "seq keep1"
ns_has "^keep1\." || fail "a read-only run removed objects it did not write"
cb cleanup --pool "$POOL" --conf "$CONF" --run-name keep1
assert_rc 0 "cleanup keep1"
ns_has "^keep1\." && fail "cleanup --run-name keep1 left keep1 objects"
ns_has "^keep2\." || fail "cleanup --run-name keep1 removed keep2 objects"
cb cleanup --pool "$POOL" --conf "$CONF" --run-name keep2
assert_ns_empty "after both cleanups"

# 6. A client whose caps cannot remove (read-only, or confined to another
#    namespace): one line naming the run, or "every run" with --all.
cb rados write -p "$POOL" --conf "$CONF" --duration 1 -b 4K --run-name keep3 --no-cleanup --quiet
assert_rc 0 "write keep3"
trap 'ceph --conf "$CONF" auth rm client.cbro >/dev/null 2>&1 || true
	ceph --conf "$CONF" auth rm client.cbns >/dev/null 2>&1 || true; at_exit' EXIT
ceph --conf "$CONF" auth get-or-create client.cbro mon 'allow r' osd "allow r pool=$POOL" \
	-o "$T/ro.keyring" >/dev/null 2>&1 || fail "cannot create client.cbro"
ceph --conf "$CONF" auth get-or-create client.cbns mon 'allow r' \
	osd "allow rw pool=$POOL namespace=other" -o "$T/ns.keyring" >/dev/null 2>&1 ||
	fail "cannot create client.cbns"
for who in cbro:ro cbns:ns; do
	for sel in "--all:every run" "--run-name keep3:run 'keep3'"; do
		cb cleanup --pool "$POOL" --conf "$CONF" --client "${who%%:*}" \
			--keyring "$T/${who#*:}.keyring" ${sel%%:*}
		assert_rc 3 "cleanup ${sel%%:*} as client.${who%%:*}"
		one_line "cleanup ${sel%%:*} as client.${who%%:*}" "objects of ${sel#*:} in namespace 'cephbench' of pool '$POOL'" \
			"Operation not permitted"
		grep -qF "'*'" "$T/err" && fail "cleanup ${sel%%:*} as client.${who%%:*} names run '*': $(cat "$T/err")"
	done
done
ns_has "^keep3\.meta$" || fail "a cleanup without the caps removed keep3's record"
cb cleanup --pool "$POOL" --conf "$CONF" --run-name keep3
assert_rc 0 "cleanup keep3"
assert_ns_empty "after the cleanups with and without caps"
echo ok
