#!/usr/bin/env bash
# scripts/check-packages --here on this tree, then on copies of it made
# wrong the ways a package list goes wrong: each must fail naming the
# culprit. usage: packages-check.sh SOURCE_DIR
set -euo pipefail
src=${1:?usage: packages-check.sh SOURCE_DIR}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() {
	echo "packages-check: $*" >&2
	exit 1
}

"$src/scripts/check-packages" --here || fail "the tree's own lists do not pass (see above)"

# A copy of the tree made wrong in each way below at once (the check
# reports every problem it finds: none hides another).
mkdir "$T/tree"
cp -r "$src/scripts" "$src/tests" "$src/bench" "$src/.ci" "$src/CMakeLists.txt" "$T/tree/"
rm -rf "$T/tree/tests/fuzz/corpus"
P=$T/tree/scripts/packages-tests
C=$T/tree/scripts/commands
# The issue's repro: fusermount (tests/cluster/krbd.sh) from fuse, which
# rbd-fuse only recommends, without fuse in the list. This machine has fuse:
# the check must not take it for granted.
sed -i 's/^rbd-fuse fuse /rbd-fuse /' "$P"
# A bench script's command whose package is in no list (fio: nothing listed
# depends on it).
sed -i 's/^fio$//' "$P"
for p in fuse fio; do
	if sed 's/#.*//' "$P" | tr -s ' ' '\n' | grep -qx "$p"; then
		fail "the edit leaving out $p did not take"
	fi
done
# Commands a script starts using, reached only through wrappers, an array
# run as "${A[@]}", a trap string, find -exec and a python3 here-document.
cat >"$T/tree/tests/cluster/new_test.sh" <<'EOF'
#!/usr/bin/env bash
W=(env LC_ALL=C timeout -s KILL 5 nc)
"${W[@]}" -z localhost 1
trap 'lsof -p $$' EXIT
find . -exec xxd {} +
/usr/bin/python3 - <<'PY'
import yaml
PY
EOF
# A name listed that nothing uses any more, and a wrong package for another.
echo "tac coreutils" >>"$C"
sed -i 's/^\(mkfs\.ext4 *\)e2fsprogs/\1util-linux/' "$C"

rc=0
"$T/tree/scripts/check-packages" --here >"$T/out" 2>&1 || rc=$?
[ "$rc" -eq 1 ] || fail "the broken copy: exit $rc, expected 1: $(cat "$T/out")"
while IFS= read -r line; do
	grep -qF -- "$line" "$T/out" || fail "the broken copy: no '$line' in: $(cat "$T/out")"
done <<'EOF'
fusermount: comes from fuse, which the package lists neither list nor depend on
fio: comes from fio, which the package lists neither list nor depend on
nc: used by the tree (scripts/used-commands --why) but not in scripts/commands
lsof: used by the tree (scripts/used-commands --why) but not in scripts/commands
xxd: used by the tree (scripts/used-commands --why) but not in scripts/commands
find: used by the tree (scripts/used-commands --why) but not in scripts/commands
py:yaml: used by the tree (scripts/used-commands --why) but not in scripts/commands
tac: in scripts/commands but the tree no longer uses it
mkfs.ext4: scripts/commands says util-linux, but
EOF
[ "$(wc -l <"$T/out")" -eq 9 ] || fail "the broken copy: expected 9 problems, got: $(cat "$T/out")"
echo "packages-check: ok"
