#!/usr/bin/env bash
# `cephbench cleanup` with a target flag given more than once cleans every
# place given, in that order, with a line each (issue 41: a second --pool
# silently replaced the first and left its objects). A missing place among
# them is an error that spares the others.
. "$(dirname "$0")/lib.sh"

P2=cbtest-second-$$
drop_pool() {
	ceph --conf "$CONF" osd pool rm "$P2" "$P2" --yes-i-really-really-mean-it >/dev/null 2>&1 || true
}
trap 'drop_pool; at_exit' EXIT
ceph --conf "$CONF" osd pool create "$P2" 8 >/dev/null 2>&1
ceph --conf "$CONF" osd pool application enable "$P2" rados >/dev/null 2>&1

# write RUN: objects of run RUN kept in both pools
write_both() {
	local p
	for p in "$POOL" "$P2"; do
		cb rados write -p "$p" --conf "$CONF" --ops 40 -b 4K --run-name "$1" --no-cleanup --quiet
		assert_rc 0 "rados write $1 in $p"
		[ "$(ns_objects_of "$p" | wc -l)" -gt 1 ] || fail "the write of $1 left nothing in $p"
	done
}

assert_ns_empty "before the test"

# 1. Both pools, in the order given, each reported.
write_both two
cb cleanup --pool "$POOL" --conf "$CONF" --pool "$P2" --run-name two
assert_rc 0 "cleanup --pool A --pool B"
[ "$(ns_objects_of "$POOL" | wc -l)" -eq 0 ] || fail "first pool not cleaned: $(ns_objects_of "$POOL" | head -3)"
[ "$(ns_objects_of "$P2" | wc -l)" -eq 0 ] || fail "second pool not cleaned: $(ns_objects_of "$P2" | head -3)"
grep '^rados: removed' "$T/out" | sed 's/.* from pool //' >"$T/order"
printf '%s\n' "$POOL" "$P2" | cmp -s - "$T/order" ||
	fail "rados lines not one per pool in order given: $(cat "$T/out")"

# 2. The other order, as -p and --pool=: reported in that order.
write_both rev
cb cleanup -p "$P2" --conf "$CONF" --pool="$POOL" --run-name rev
assert_rc 0 "cleanup -p B --pool=A"
grep '^rados: removed' "$T/out" | sed 's/.* from pool //' >"$T/order"
printf '%s\n' "$P2" "$POOL" | cmp -s - "$T/order" || fail "reversed order: $(cat "$T/out")"
grep -Eq "^rados: removed [1-9][0-9]* objects of run 'rev' from pool $P2\$" "$T/out" ||
	fail "no count for $P2: $(cat "$T/out")"

# 3. Negative control: one pool given, the other keeps its objects.
write_both one
cb cleanup --pool "$P2" --conf "$CONF" --run-name one
assert_rc 0 "cleanup one pool"
[ "$(ns_objects_of "$POOL" | wc -l)" -gt 1 ] || fail "a pool not given was cleaned"
[ "$(ns_objects_of "$P2" | wc -l)" -eq 0 ] || fail "the pool given was not cleaned"

# 4. A missing pool between two: exit 3 naming it, both others cleaned.
cb rados write -p "$P2" --conf "$CONF" --ops 40 -b 4K --run-name one --no-cleanup --quiet
assert_rc 0 "rados write one in $P2"
cb cleanup --pool "$POOL" --pool cbtest-nosuch-$$ --pool "$P2" --conf "$CONF" --run-name one
assert_rc 3 "cleanup with a missing pool"
grep -q "pool 'cbtest-nosuch-$$' does not exist" "$T/err" || fail "missing pool not named: $(cat "$T/err")"
[ "$(ns_objects_of "$POOL" | wc -l)" -eq 0 ] || fail "first pool left after a missing one"
[ "$(ns_objects_of "$P2" | wc -l)" -eq 0 ] || fail "last pool left after a missing one"

# 5. Pools and a file system mixed: each in the order given.
write_both mixed
cb cleanup --pool "$P2" --fs cephfs --pool "$POOL" --conf "$CONF" --run-name mixed
assert_rc 0 "cleanup --pool --fs --pool"
grep -E '^(rados|cephfs): removed' "$T/out" | sed 's/.* from //' >"$T/order"
printf '%s\n' "pool $P2" "file system cephfs" "pool $POOL" | cmp -s - "$T/order" ||
	fail "mixed order: $(cat "$T/out")"
assert_ns_empty "after the mixed cleanup"

# 6. The same pool twice, or --run-name twice, is refused before connecting.
cb cleanup --pool "$P2" --pool "$P2" --conf "$CONF" --all
assert_rc 2 "the same pool twice"
cb cleanup --pool "$P2" --conf "$CONF" --run-name a --run-name b
assert_rc 2 "--run-name twice"
grep -qx "cephbench cleanup: --run-name given twice; give it once" "$T/err" || fail "$(cat "$T/err")"
echo "PASS"
