#!/usr/bin/env bash
# Every file cephbench reads or hands to the Ceph libraries is checked before
# anything opens it (src/infile.c, src/conn_files.c): a FIFO (with and
# without a writer), a device, a directory, a socket, an unreadable file or
# one past its size bound, as a profile, a result, a history, a ceph conf
# (--conf, CEPH_CONF, CEPH_ARGS, a profile's cluster: conf:), a keyring
# (--keyring, CEPH_ARGS, keyring = in the conf) or a key file, gives exactly
# one line, nothing on stdout and exit 2, and never hangs: each case runs
# under `timeout 20` (a FIFO used to hang forever, past --timeout, SIGINT and
# SIGTERM). None needs a cluster: the checks come before connecting, and the
# conf's monitor (127.0.0.1:1) would refuse a connection that got through.
#   usage: bad-files-cli.sh CEPHBENCH
set -euo pipefail
bin=$(realpath "${1:?usage: bad-files-cli.sh CEPHBENCH}")
d=$(mktemp -d)
writer=
cleanup() {
	[ -z "$writer" ] || kill "$writer" 2>/dev/null || true
	rm -rf "$d"
}
trap cleanup EXIT
chmod 755 "$d"
cd "$d"
unset CEPH_ARGS
export CEPH_CONF=/nonexistent/ceph.conf
n=0 bad=0

# check NAME WANT CMD...: CMD must print WANT alone on stderr and exit 2
check() {
	local name=$1 want=$2 rc got
	shift 2
	set +e
	timeout 20 "$@" </dev/null >"$d/stdout" 2>"$d/stderr"
	rc=$?
	set -e
	got=$(cat "$d/stderr")
	if [ "$rc" -ne 2 ] || [ "$got" != "$want" ] || [ -s "$d/stdout" ]; then
		echo "FAIL $name: exit $rc$([ "$rc" -ne 124 ] || echo ' (hung: killed by timeout)')"
		echo "  want: $want"
		echo "  got:  $got"
		[ ! -s "$d/stdout" ] || echo "  stdout: $(head -c 200 "$d/stdout")"
		bad=$((bad + 1))
	fi
	n=$((n + 1))
}

mkfifo fifo wfifo
# a writer holds wfifo open and never writes: a read of it would block too
sleep 600 >wfifo &
writer=$!
exec 3<wfifo # (opening for reading lets the writer's open return)
mkdir dir
python3 -c 'import socket; socket.socket(socket.AF_UNIX).bind("sock")'
printf '[global]\nmon_host = 127.0.0.1:1\n' >good.conf
printf '[client.admin]\n\tkey = AQBxz01mAAAAABAAm9p6vRr0H5P8Qk0pN2l2Ww==\n' >kr
: >empty.conf
printf '[global]\n\tkeyring = %s/kr\n' "$d" >nomon.conf
truncate -s 2M big.yaml
truncate -s 65M big.json
truncate -s 5M big.conf big.kr
printf 'name: p\nworkloads:\n  - { name: w, layer: rados, pool: p, op: write }\n' >unread.yaml
cp kr unread.kr
cp good.conf unread.conf
echo '{}' >unread.json
chmod 600 unread.*

# kind PATH: how the message names what PATH is
kind() {
	case $1 in
	fifo | wfifo) echo "a FIFO (named pipe)" ;;
	dir) echo "a directory" ;;
	sock) echo "a socket" ;;
	/dev/zero | /dev/null) echo "a character device" ;;
	esac
}

cleanup_cmd=("$bin" cleanup --pool p --all --timeout 1)
for f in fifo wfifo dir sock /dev/zero; do
	k=$(kind "$f")
	# profiles
	check "run $f" "cephbench run: $f: is $k: give a profile file" "$bin" run --dry-run "$f"
	# result files: compare, history --add
	check "compare $f" "cephbench compare: $f: is $k: give a result file" \
		"$bin" compare "$f" "$f"
	check "history --add $f" "cephbench history: $f: is $k: give a result file" \
		"$bin" history "$d/h.db" --add "$f"
	# histories
	check "history $f" "cephbench history: $f: is $k: give a history file (made by --history)" \
		"$bin" history "$f"
	check "history $f --add" \
		"cephbench history: $f: is $k: give a history file (made by --history)" \
		"$bin" history "$f" --add good.conf
	# confs, from each place a conf is named
	check "--conf $f" "cephbench cleanup: $f: is $k: give a ceph conf file (--conf)" \
		"${cleanup_cmd[@]}" --conf "$f"
	check "CEPH_CONF=$f" "cephbench cleanup: $f: is $k: give a ceph conf file (CEPH_CONF)" \
		env CEPH_CONF="$f" "${cleanup_cmd[@]}"
	check "CEPH_ARGS --conf $f" \
		"cephbench cleanup: $f: is $k: give a ceph conf file (--conf in CEPH_ARGS)" \
		env CEPH_ARGS="--conf $f" "${cleanup_cmd[@]}"
	# keyrings and key files, from each place one is named
	check "--keyring $f" "cephbench cleanup: $f: is $k: give a keyring file (--keyring)" \
		"${cleanup_cmd[@]}" --conf good.conf --keyring "$f"
	check "CEPH_ARGS --keyring $f" \
		"cephbench cleanup: $f: is $k: give a keyring file (--keyring in CEPH_ARGS)" \
		env CEPH_ARGS="--keyring=$f" "${cleanup_cmd[@]}" --conf good.conf
	check "CEPH_ARGS -k $f" \
		"cephbench cleanup: $f: is $k: give a keyring file (--keyring in CEPH_ARGS)" \
		env CEPH_ARGS="--id admin -k $f" "${cleanup_cmd[@]}" --conf good.conf
	printf '[global]\nmon_host = 127.0.0.1:1\n[client]\nkeyring = %s\n' "$f" >k.conf
	check "keyring = $f in the conf" \
		"cephbench cleanup: $f: is $k: give a keyring file (keyring in k.conf)" \
		"${cleanup_cmd[@]}" --conf k.conf
	printf '[global]\nmon_host = 127.0.0.1:1\n[client.admin]\nkeyfile = %s\n' "$f" >kf.conf
	check "keyfile = $f in the conf" "cephbench cleanup: $f: is $k: give a key file (keyfile)" \
		"${cleanup_cmd[@]}" --conf kf.conf --keyring kr
done

# A profile's cluster: conf: goes the same way as --conf.
printf 'name: p\ncluster: { conf: %s/fifo }\nworkloads:\n  - { name: w, layer: rados, pool: p, op: write, duration: 1s }\n' \
	"$d" >conf-fifo.yaml
check "cluster: conf: FIFO" \
	"cephbench run: $d/fifo: is a FIFO (named pipe): give a ceph conf file (--conf)" \
	"$bin" run conf-fifo.yaml --timeout 1

# Without --conf, CEPH_CONF or CEPH_ARGS: the default places librados
# searches, ~/.ceph/ceph.conf then ./ceph.conf (after /etc/ceph/ceph.conf,
# which a test must not plant: skipped where one exists).
if [ ! -e /etc/ceph/ceph.conf ]; then
	mkdir -p home/.ceph cwd
	mkfifo home/.ceph/ceph.conf cwd/ceph.conf
	dflt="is a FIFO (named pipe): give a ceph conf file (found in the default places; or give --conf)"
	check "HOME/.ceph/ceph.conf FIFO" "cephbench cleanup: $d/home/.ceph/ceph.conf: $dflt" \
		env -u CEPH_CONF HOME="$d/home" "${cleanup_cmd[@]}"
	check "./ceph.conf FIFO" "cephbench cleanup: ceph.conf: $dflt" \
		env -u CEPH_CONF HOME="$d/nohome" sh -c 'cd cwd && exec "$@"' sh "${cleanup_cmd[@]}"
else
	echo "note: /etc/ceph/ceph.conf exists: the default-place cases are skipped"
fi

# The conf librados would read is the first of a list that exists.
check "--conf list" "cephbench cleanup: fifo: is a FIFO (named pipe): give a ceph conf file (--conf)" \
	"${cleanup_cmd[@]}" --conf "$d/missing.conf,fifo,good.conf"

# Size bounds (sparse files: nothing is read past the bound).
check "big profile" "cephbench run: big.yaml: 2097152 bytes, more than a profile file may hold (1 MiB)" \
	"$bin" run --dry-run big.yaml
check "big result (compare)" \
	"cephbench compare: big.json: 68157440 bytes, more than a result file may hold (64 MiB)" \
	"$bin" compare big.json big.json
check "big result (history --add)" \
	"cephbench history: big.json: 68157440 bytes, more than a result file may hold (64 MiB)" \
	"$bin" history "$d/h.db" --add big.json
check "big conf" \
	"cephbench cleanup: big.conf: 5242880 bytes, more than a ceph conf file (--conf) may hold (4 MiB)" \
	"${cleanup_cmd[@]}" --conf big.conf
check "big keyring" \
	"cephbench cleanup: big.kr: 5242880 bytes, more than a keyring file (--keyring) may hold (4 MiB)" \
	"${cleanup_cmd[@]}" --conf good.conf --keyring big.kr

# A conf that names no monitor: exit 2 naming the conf, also with --keyring
# (it was exit 3 "no usable keyring (connecting to )").
nomon="no mon_host (or mon_addr): give the monitors' addresses (mon_host = ADDR[,ADDR...] in [global], or -m ADDR in CEPH_ARGS)"
check "empty conf" "cephbench cleanup: empty.conf: $nomon" "${cleanup_cmd[@]}" --conf empty.conf
check "empty conf, --keyring" "cephbench cleanup: empty.conf: $nomon" \
	"${cleanup_cmd[@]}" --conf empty.conf --keyring kr
check "/dev/null conf" "cephbench cleanup: /dev/null: $nomon" \
	"${cleanup_cmd[@]}" --conf /dev/null --keyring kr
check "conf with a keyring, no monitor" "cephbench cleanup: nomon.conf: $nomon" \
	"${cleanup_cmd[@]}" --conf nomon.conf

# Not readable, as a user other than the owner (root reads everything).
if setpriv --reuid=nobody --regid=nogroup --clear-groups true 2>/dev/null; then
	as_nobody=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
	# ASan's leak checker needs ptrace, which another user may not have
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
	perm=$(python3 -c 'import os; print(os.strerror(13))')
	check "unreadable profile" "cephbench run: unread.yaml: cannot open profile file: $perm" \
		"${as_nobody[@]}" "$bin" run --dry-run unread.yaml
	check "unreadable result" "cephbench compare: unread.json: cannot open result file: $perm" \
		"${as_nobody[@]}" "$bin" compare unread.json unread.json
	check "unreadable conf" \
		"cephbench cleanup: unread.conf: cannot open ceph conf file (--conf): $perm" \
		"${as_nobody[@]}" "${cleanup_cmd[@]}" --conf unread.conf
	check "unreadable keyring" \
		"cephbench cleanup: unread.kr: cannot open keyring file (--keyring): $perm" \
		"${as_nobody[@]}" "${cleanup_cmd[@]}" --conf good.conf --keyring unread.kr
else
	echo "note: cannot run as nobody (setpriv); the unreadable-file cases are skipped"
fi

echo "$n bad files, $bad failures"
[ "$bad" -eq 0 ]
