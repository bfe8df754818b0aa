#!/usr/bin/env bash
# Each failure is one line naming the culprit, with its exit code, and
# leaves nothing in the namespace.
. "$(dirname "$0")/lib.sh"

one_line() {
	[ "$(wc -l <"$T/err")" -eq 1 ] || fail "$1: expected one line on stderr, got: $(cat "$T/err")"
	grep -q "$2" "$T/err" || fail "$1: stderr lacks '$2': $(cat "$T/err")"
}

# A monitor that does not listen: exit 3 within --timeout, naming it.
sed -E 's/^([[:space:]]*mon[ _]host[[:space:]]*=).*/\1 127.0.0.1:1/' "$CONF" >"$T/dead.conf"
grep -q "127.0.0.1:1" "$T/dead.conf" || fail "could not rewrite mon host in $CONF"
start=$SECONDS
cb rados write -p "$POOL" --conf "$T/dead.conf" --timeout 3 --duration 1
assert_rc 3 "dead monitor"
# Not a speed test: a margin wide enough for any machine, and far below the
# 30 s default that an ignored --timeout would take.
[ $((SECONDS - start)) -lt 20 ] || fail "dead monitor: --timeout 3 took $((SECONDS - start)) s"
one_line "dead monitor" "127.0.0.1:1"

# A pool that does not exist.
cb rados write -p no-such-pool --conf "$CONF" --duration 1
assert_rc 3 "missing pool"
one_line "missing pool" "pool 'no-such-pool' does not exist"

# A key the monitors refuse.
printf '[client.admin]\n\tkey = %s\n' "AQBvsmVn9NjxJxAAlr4QzqGSlkOr2dVMQtBGaw==" >"$T/bad.keyring"
cb rados write -p "$POOL" --conf "$CONF" --keyring "$T/bad.keyring" --duration 1
assert_rc 3 "refused auth"
one_line "refused auth" "refused"

# No conf at all.
CEPH_CONF=$T/none.conf cb rados write -p "$POOL" --duration 1
assert_rc 2 "missing conf"
one_line "missing conf" "conf"

# Reads of a run that wrote nothing.
cb rados seq -p "$POOL" --conf "$CONF" --run-name never-written
assert_rc 2 "seq without data"
one_line "seq without data" "no objects of run 'never-written'"

# Bad flags and values.
cb rados write -p "$POOL" --conf "$CONF" -b 4Q
assert_rc 2 "bad -b"
one_line "bad -b" "^cephbench rados: -b: block_size expects a size"
cb rados write -p "$POOL" --conf "$CONF" --durtion 5
assert_rc 2 "typo flag"
one_line "typo flag" "did you mean '--duration'"
cb rados write -p "$POOL" --conf "$CONF" --run-name ../x
assert_rc 2 "bad run name"
one_line "bad run name" "run-name"
cb run "$T/missing.yaml" --conf "$CONF"
assert_rc 2 "missing profile"
one_line "missing profile" "cannot open profile"

assert_ns_empty "after the failures"

# CEPH_CONF and CEPH_ARGS are honoured like the ceph tools do.
CEPH_CONF=$CONF cb rados write -p "$POOL" --duration 1 -b 4K --quiet
assert_rc 0 "CEPH_CONF"
CEPH_ARGS="--conf $CONF --id admin" cb rados write -p "$POOL" --duration 1 -b 4K --quiet
assert_rc 0 "CEPH_ARGS"
CEPH_ARGS="--id nobody" cb rados write -p "$POOL" --conf "$CONF" --duration 1 -b 4K --quiet
[ "$rc" -eq 3 ] || fail "CEPH_ARGS --id nobody was ignored (exit $rc)"
assert_ns_empty "after the CEPH_* runs"
echo ok
