#!/usr/bin/env bash
# The binary on bad input: each case must give exactly its expected line on
# stderr, nothing on stdout and exit 2. (check_profile asserts the profile
# messages in-process too.)
#   profiles: every tests/data/bad/*.yaml through `cephbench run --dry-run`;
#     the line is "cephbench run: " + the first line's "# expect: MSG" (or
#     the .expect file's), FILE standing for the path.
#   flags: every tests/data/bad-flags/*.args: "# expect: LINE", then the
#     arguments after "cephbench", one per line (an empty line is an empty
#     argument). CEPH_CONF points nowhere, so a command that got past its
#     checks would fail differently. Paths are relative to the source tree.
set -euo pipefail
mode=${1:?usage: bad-input-cli.sh profiles|flags CEPHBENCH SOURCE_DIR}
bin=$(realpath "${2:?usage: bad-input-cli.sh profiles|flags CEPHBENCH SOURCE_DIR}")
cd "${3:?usage: bad-input-cli.sh profiles|flags CEPHBENCH SOURCE_DIR}"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export CEPH_CONF=/nonexistent/ceph.conf
unset CEPH_ARGS
n=0 bad=0

# check NAME WANT ARG...: cephbench ARG... must print WANT alone and exit 2
check() {
	local name=$1 want=$2 rc got
	shift 2
	set +e
	"$bin" "$@" >"$out/stdout" 2>"$out/stderr"
	rc=$?
	set -e
	got=$(cat "$out/stderr")
	if [ "$rc" -ne 2 ] || [ "$got" != "$want" ] || [ -s "$out/stdout" ]; then
		echo "FAIL $name: exit $rc"
		echo "  want: $want"
		echo "  got:  $got"
		[ ! -s "$out/stdout" ] || echo "  stdout: $(head -c 200 "$out/stdout")"
		bad=$((bad + 1))
	fi
	n=$((n + 1))
}

case $mode in
profiles)
	for f in tests/data/bad/*.yaml; do
		if [ -f "${f%.yaml}.expect" ]; then
			want=$(head -1 "${f%.yaml}.expect")
		else
			want=$(head -1 "$f" | sed -n 's/^# expect: //p')
		fi
		check "$f" "cephbench run: ${want//FILE/$f}" run --dry-run "$f"
	done
	min=50
	;;
flags)
	for f in tests/data/bad-flags/*.args; do
		mapfile -t lines <"$f"
		check "$f" "${lines[0]#\# expect: }" "${lines[@]:1}"
	done
	min=50
	;;
*)
	echo "usage: bad-input-cli.sh profiles|flags CEPHBENCH SOURCE_DIR" >&2
	exit 2
	;;
esac
[ "$n" -ge "$min" ] || { echo "only $n bad $mode"; exit 1; }
echo "$n bad $mode, $bad failures"
[ "$bad" -eq 0 ]
