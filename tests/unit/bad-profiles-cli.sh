#!/usr/bin/env bash
# The binary itself, on every bad profile in tests/data/bad: exactly one line
# on stderr, "cephbench run: " + the expected message, exit code 2, and
# nothing on stdout. (check_profile asserts the same messages in-process.)
set -euo pipefail
bin=${1:?usage: bad-profiles-cli.sh CEPHBENCH DATA_DIR}
dir=${2:?usage: bad-profiles-cli.sh CEPHBENCH DATA_DIR}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
n=0 bad=0
for f in "$dir"/*.yaml; do
	if [ -f "${f%.yaml}.expect" ]; then
		want=$(head -1 "${f%.yaml}.expect")
	else
		want=$(head -1 "$f" | sed -n 's/^# expect: //p')
	fi
	want="cephbench run: ${want//FILE/$f}"
	set +e
	"$bin" run --dry-run "$f" >"$out/stdout" 2>"$out/stderr"
	rc=$?
	set -e
	got=$(cat "$out/stderr")
	if [ "$rc" -ne 2 ] || [ "$got" != "$want" ] || [ -s "$out/stdout" ]; then
		echo "FAIL $f: exit $rc"
		echo "  want: $want"
		echo "  got:  $got"
		bad=$((bad + 1))
	fi
	n=$((n + 1))
done
[ "$n" -ge 12 ] || { echo "only $n bad profiles"; exit 1; }
echo "$n bad profiles, $bad failures"
[ "$bad" -eq 0 ]
