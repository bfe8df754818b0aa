#!/usr/bin/env bash
# kill -9 leaves librados' admin socket (ceph-client.admin.<pid>.asok) in
# the conf's run directory (issue 41); the next run or cleanup removes it,
# and nothing else: not a socket someone serves, not a file, not another
# name's.
. "$(dirname "$0")/lib.sh"

# the admin socket a client of this conf gets (the sandbox's names $pid)
dir=$(dirname "$(ceph-conf -c "$CONF" -n client.admin --lookup admin_socket)")
sock_of() { echo "$dir/ceph-client.admin.$1.asok"; }
kept=()
junk=()
trap 'kill "${kept[@]}" 2>/dev/null || true; rm -f "${junk[@]}"; at_exit' EXIT

# kill9 RUN: a write killed with -9; its pid on stdout, its socket left
kill9() {
	"$CEPHBENCH" rados write -p "$POOL" --conf "$CONF" --duration 60 -b 4K --run-name "$1" \
		--quiet >/dev/null 2>&1 &
	local bg=$!
	wait_for_objects
	[ -S "$(sock_of $bg)" ] || fail "no admin socket $(sock_of $bg) for the run"
	kill -9 $bg
	wait $bg 2>/dev/null || true
	[ -S "$(sock_of $bg)" ] || fail "kill -9 removed its socket: nothing to test"
	echo $bg
}

# 1. The next cleanup removes a killed run's socket.
dead=$(kill9 k1)
# beside it: a socket of a live process that serves it, a plain file and a
# socket of another client's name, both named with a dead pid
/usr/bin/python3 -c '
import os, socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1].replace("PID", str(os.getpid())))
s.listen(1)
print(os.getpid(), flush=True)
time.sleep(600)' "$(sock_of PID)" >"$T/live" &
kept+=($!)
for _ in $(seq 50); do [ -s "$T/live" ] && break; sleep 0.1; done
live=$(cat "$T/live")
[ -S "$(sock_of "$live")" ] || fail "the live socket was not made"
junk+=("$(sock_of "$live")" "$(sock_of "$dead").cbtest" "$dir/cbtest-client.other.$dead.asok")
: >"$(sock_of "$dead")".cbtest
other="$dir/cbtest-client.other.$dead.asok"
/usr/bin/python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$other"
cb cleanup --pool "$POOL" --conf "$CONF" --run-name k1
assert_rc 0 "cleanup after kill -9"
[ ! -e "$(sock_of "$dead")" ] || fail "cleanup left the killed run's socket $(sock_of "$dead")"
[ -S "$(sock_of "$live")" ] || fail "cleanup removed a socket a live process serves"
[ -f "$(sock_of "$dead")".cbtest ] || fail "cleanup removed a file of another name"
[ -S "$other" ] || fail "cleanup removed another name's socket"

# 2. The next run removes a killed run's socket too; a plain file named
#    with a dead pid stays (not a socket).
junk+=("$(sock_of 4999999)")
: >"$(sock_of 4999999)"
dead=$(kill9 k2)
cb rados write -p "$POOL" --conf "$CONF" --ops 10 -b 4K --run-name k3 --quiet
assert_rc 0 "a run after kill -9"
[ ! -e "$(sock_of "$dead")" ] || fail "the next run left the killed run's socket"
[ -f "$(sock_of 4999999)" ] || fail "a plain file named like a socket was removed"
cb cleanup --pool "$POOL" --conf "$CONF" --run-name k2 --quiet
assert_rc 0 "cleanup of k2"
echo PASS
