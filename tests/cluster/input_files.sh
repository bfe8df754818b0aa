#!/usr/bin/env bash
# The files a session hands librados, against the sandbox: every way of
# naming a good conf and keyring still connects (the checks refuse no real
# setup), a bad one named any way is one line and exit 2 before connecting
# (under `timeout 20`: a FIFO used to hang forever), a conf naming no
# monitor is exit 2 naming the conf, and cleanup of a pool that does not
# exist says there is nothing to clean up, never to create it.
# (bad-files-cli.sh has the cases that need no cluster.)
. "$(dirname "$0")/lib.sh"

cbt() {
	set +e
	timeout 20 "$CEPHBENCH" "$@" </dev/null >"$T/out" 2>"$T/err"
	rc=$?
	set -e
	[ "$rc" -ne 124 ] || fail "hung (killed by timeout 20): cephbench $*"
}
one_line() {
	[ "$(wc -l <"$T/err")" -eq 1 ] || fail "$1: expected one line on stderr, got: $(cat "$T/err")"
	[ "$(cat "$T/err")" = "$2" ] || fail "$1: expected '$2', got: $(cat "$T/err")"
}
write1=(rados write -p "$POOL" --duration 1 -b 4K --quiet --timeout 10)

KEYRING=$(ceph-conf -c "$CONF" -n client.admin --lookup keyring)
[ -f "$KEYRING" ] || fail "the sandbox conf names no keyring file: $KEYRING"
MON=$(ceph-conf -c "$CONF" -n client.admin --lookup mon_host)
chmod 755 "$T"
cp "$CONF" "$T/ceph.conf"
chmod 644 "$T/ceph.conf"
# the conf without its monitors, and without its client keyring
grep -Ev '^[[:space:]]*mon[ _]host[[:space:]]*=' "$CONF" >"$T/nomon.conf"
grep -Ev '^[[:space:]]*keyring[[:space:]]*=[[:space:]]*'"$KEYRING"'$' "$CONF" >"$T/nokr.conf"
! grep -q "$KEYRING" "$T/nokr.conf" || fail "could not take the keyring out of $CONF"
mkfifo "$T/fifo"

# 1. Good setups, named every way, still connect.
cbt "${write1[@]}" --conf "$CONF"
assert_rc 0 "--conf"
CEPH_CONF=$CONF cbt "${write1[@]}"
assert_rc 0 "CEPH_CONF"
CEPH_ARGS="--conf $CONF" cbt "${write1[@]}"
assert_rc 0 "CEPH_ARGS --conf"
cbt "${write1[@]}" --conf "$T/missing.conf,$CONF"
assert_rc 0 "a conf list whose first entry is missing"
cbt "${write1[@]}" --conf "$T/nokr.conf" --keyring "$KEYRING"
assert_rc 0 "--keyring"
CEPH_ARGS="--keyring=$KEYRING" cbt "${write1[@]}" --conf "$T/nokr.conf"
assert_rc 0 "CEPH_ARGS --keyring"
sed "s|^\[client\]\$|[client]\nkeyring = $T/missing.keyring,$KEYRING|" "$T/nokr.conf" >"$T/list.conf"
cbt "${write1[@]}" --conf "$T/list.conf"
assert_rc 0 "a keyring list whose first entry is missing"
CEPH_ARGS="-m $MON" cbt "${write1[@]}" --conf "$T/nomon.conf"
assert_rc 0 "monitors from CEPH_ARGS -m"
CEPH_ARGS="-m $MON --keyring $KEYRING" cbt "${write1[@]}" --conf /dev/null
assert_rc 0 "--conf /dev/null with -m and --keyring in CEPH_ARGS"
if [ ! -e /etc/ceph/ceph.conf ]; then
	mkdir "$T/cwd"
	cp "$CONF" "$T/cwd/ceph.conf"
	(cd "$T/cwd" && env -u CEPH_CONF HOME="$T/nohome" timeout 20 "$CEPHBENCH" "${write1[@]}") ||
		fail "./ceph.conf (a default place) did not connect"
fi
assert_ns_empty "after the good setups"

# 2. A FIFO as keyring, named three ways, with the live cluster's conf.
fifo_line="is a FIFO (named pipe): give a keyring file"
cbt "${write1[@]}" --conf "$CONF" --keyring "$T/fifo"
assert_rc 2 "--keyring FIFO"
one_line "--keyring FIFO" "cephbench rados: $T/fifo: $fifo_line (--keyring)"
CEPH_ARGS="--keyring $T/fifo" cbt "${write1[@]}" --conf "$CONF"
assert_rc 2 "CEPH_ARGS --keyring FIFO"
one_line "CEPH_ARGS --keyring FIFO" "cephbench rados: $T/fifo: $fifo_line (--keyring in CEPH_ARGS)"
sed "s|^\[client\]\$|[client]\nkeyring = $T/fifo|" "$T/nokr.conf" >"$T/fifo.conf"
cbt "${write1[@]}" --conf "$T/fifo.conf"
assert_rc 2 "keyring = FIFO in the conf"
one_line "keyring = FIFO in the conf" \
	"cephbench rados: $T/fifo: $fifo_line (keyring in $T/fifo.conf)"

# 3. No monitor in the conf: exit 2 naming it, also with a good keyring
#    (was exit 3 "no usable keyring for the client (connecting to )").
nomon="no mon_host (or mon_addr): give the monitors' addresses (mon_host = ADDR[,ADDR...] in [global], or -m ADDR in CEPH_ARGS)"
cbt "${write1[@]}" --conf "$T/nomon.conf" --keyring "$KEYRING"
assert_rc 2 "conf without mon_host"
one_line "conf without mon_host" "cephbench rados: $T/nomon.conf: $nomon"
cbt cleanup --pool "$POOL" --all --conf "$T/nomon.conf"
assert_rc 2 "cleanup, conf without mon_host"
one_line "cleanup, conf without mon_host" "cephbench cleanup: $T/nomon.conf: $nomon"

# 4. The keyring the conf names, unreadable for another user: exit 2 naming
#    it (Ceph would say "no usable keyring" after connecting).
if setpriv --reuid=nobody --regid=nogroup --clear-groups true 2>/dev/null; then
	[ "$(stat -c %a "$KEYRING")" = 600 ] || fail "the sandbox keyring is not mode 600"
	set +e
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 timeout 20 \
		setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$CEPHBENCH" "${write1[@]}" --conf "$T/ceph.conf" </dev/null >"$T/out" 2>"$T/err"
	rc=$?
	set -e
	assert_rc 2 "unreadable keyring, as nobody"
	one_line "unreadable keyring, as nobody" \
		"cephbench rados: $KEYRING: cannot open keyring file (keyring in $T/ceph.conf): Permission denied"
else
	echo "note: cannot run as nobody (setpriv): the unreadable keyring case is skipped"
fi
assert_ns_empty "after the refusals"

# 5. Cleanup of a pool that does not exist: nothing to clean up, exit 3 (a
#    typo in a cron job's --pool must not pass), no hint to create it, and
#    the pool still does not exist.
for how in "--all" "--run-name bench"; do
	# shellcheck disable=SC2086 # $how is two words on purpose
	cbt cleanup --pool no-such-pool $how --conf "$CONF"
	assert_rc 3 "cleanup $how of a missing pool"
	one_line "cleanup $how of a missing pool" \
		"cephbench cleanup: pool 'no-such-pool' does not exist: nothing to clean up in it (check --pool)"
done
! ceph --conf "$CONF" osd pool ls | grep -qx no-such-pool || fail "cleanup created the pool"
# with --fs too: the file system is still cleaned (of a run of this test's
# own name: --all would reach the seed's and other tests' trees)
cbt cleanup --pool no-such-pool --fs cephfs --run-name input-files --conf "$CONF"
assert_rc 3 "cleanup of a missing pool and a file system"
one_line "cleanup of a missing pool and a file system" \
	"cephbench cleanup: pool 'no-such-pool' does not exist: nothing to clean up in it (check --pool)"
grep -q "^cephfs: removed .* from file system cephfs$" "$T/out" ||
	fail "the file system was not cleaned: $(cat "$T/out")"

echo "input files: ok"
