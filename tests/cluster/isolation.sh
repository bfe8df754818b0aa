#!/usr/bin/env bash
# A benchmark never touches what it did not create: objects seeded in the
# pool's default namespace and in another namespace, one of them named like
# cephbench's own objects, are byte-identical after runs and cleanups.
. "$(dirname "$0")/lib.sh"

names="user-data bench.c0.0 bench.meta iso.c0.1"
seed() {
	for ns in "" other; do
		for o in $names; do
			head -c $((4096 + RANDOM)) /dev/urandom >"$T/seed"
			rados --conf "$CONF" -p "$POOL" ${ns:+--namespace "$ns"} put "$o" "$T/seed"
		done
	done
}
sums() {
	for ns in "" other; do
		for o in $names; do
			rados --conf "$CONF" -p "$POOL" ${ns:+--namespace "$ns"} get "$o" - | sha256sum |
				sed "s|-|$ns/$o|"
		done
	done
}
unseed() {
	for ns in "" other; do
		for o in $names; do
			rados --conf "$CONF" -p "$POOL" ${ns:+--namespace "$ns"} rm "$o" || true
		done
	done
}

trap 'unseed; at_exit' EXIT
seed
sums >"$T/before"

for mode in write seq rand; do
	cb rados $mode -p "$POOL" --conf "$CONF" --duration 1 -b 4K --run-name iso --no-cleanup --quiet
	assert_rc 0 "$mode"
done
cb rados write -p "$POOL" --conf "$CONF" --duration 1 -b 4K --run-name bench --quiet
assert_rc 0 "write run 'bench'"
cb cleanup --pool "$POOL" --conf "$CONF" --run-name iso
assert_rc 0 "cleanup --run-name"
cb cleanup --pool "$POOL" --conf "$CONF" --all
assert_rc 0 "cleanup --all"

sums >"$T/after"
diff "$T/before" "$T/after" || fail "seeded objects changed"
assert_ns_empty "after cleanup"
echo ok
