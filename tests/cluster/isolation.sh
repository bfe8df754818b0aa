#!/usr/bin/env bash
# A benchmark never touches what it did not create: objects seeded in the
# pool's default namespace and in another namespace, one of them named like
# cephbench's own objects, are byte-identical after runs and cleanups. So
# are users' objects in cephbench's own namespace that lack its mark: named
# exactly like a run's data object (the run stops at it, naming it), like a
# run's record (the run is refused before it writes), almost like a run's,
# or like no run's (tests/seed.sh plants more). A namespace 'cephbench'
# that RBD uses (registered, or holding RBD's objects) is refused by runs
# and cleanups alike, its image intact: the pool's RBD namespace, the same
# with the registry's key gone, RBD's objects alone, and in pool rbd.
. "$(dirname "$0")/lib.sh"

r=$RANDOM
names="user-data bench.c0.0 bench.meta iso.c0.1"
# in namespace cephbench, none with cephbench's mark
own="isoum.c0.3 isofm.meta isofc.meta.c1 iso.c0.1.bak iso.c01.1 iso.meta.c0 iso.c0.1x"
seeded=$(seed_names cephbench)
vms=cbtest-vms-$r
rados_() { rados --conf "$CONF" "$@"; }
rbd_() { rbd --conf "$CONF" "$@"; }
seed() {
	for ns in "" other; do
		for o in $names; do
			head -c $((4096 + RANDOM)) /dev/urandom >"$T/seed"
			rados_ -p "$POOL" ${ns:+--namespace "$ns"} put "$o" "$T/seed"
		done
	done
	for o in $own; do
		head -c $((4096 + RANDOM)) /dev/urandom >"$T/seed"
		rados_ -p "$POOL" --namespace cephbench put "$o" "$T/seed"
	done
}
sums() {
	for ns in "" other; do
		for o in $names; do
			rados_ -p "$POOL" ${ns:+--namespace "$ns"} get "$o" - | sha256sum | sed "s|-|$ns/$o|"
		done
	done
	for o in $own $seeded; do
		rados_ -p "$POOL" --namespace cephbench get "$o" - | sha256sum | sed "s|-|cephbench/$o|"
	done
}
unseed() {
	for ns in "" other; do
		for o in $names; do
			rados_ -p "$POOL" ${ns:+--namespace "$ns"} rm "$o" || true
		done
	done
	for o in $own; do
		rados_ -p "$POOL" --namespace cephbench rm "$o" || true
	done
	rbd_ rm --no-progress rbd/cephbench/vmdisk-$r >/dev/null 2>&1 || true
	rbd_ namespace remove rbd/cephbench >/dev/null 2>&1 || true
	ceph --conf "$CONF" osd pool rm "$vms" "$vms" --yes-i-really-really-mean-it >/dev/null 2>&1 || true
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

# An object named exactly like a run's data object, without the mark: the
# write stops there, naming it, and the run's own objects go.
for run in isoum:isoum.c0.3 quick:quick.c0.5; do
	cb rados write -p "$POOL" --conf "$CONF" --max-objects 8 -b 4K -t 1 --run-name "${run%%:*}" --quiet
	assert_rc 3 "write over ${run#*:}"
	one_line "write over ${run#*:}" "object ${run#*:} offset 0 (there already, not made by this run: left as it is) write failed: File exists"
	rados_ -p "$POOL" --namespace cephbench ls | grep "^${run%%:*}\.c" >"$T/left" || true
	[ "$(cat "$T/left")" = "${run#*:}" ] || fail "after run ${run%%:*}: $(tr '\n' ' ' <"$T/left")"
done

# A record of the run without the mark: refused before any write, by a
# write and a read, and with two clients for client 1's record.
for args in "write --run-name isofm:isofm.meta" "seq --run-name isofm:isofm.meta" \
	"write --clients 2 --run-name isofc:isofc.meta.c1"; do
	run=${args%%:*}
	run=${run##* }
	cb rados ${args%%:*} -p "$POOL" --conf "$CONF" --duration 1 -b 4K --quiet
	assert_rc 2 "rados ${args%%:*}"
	one_line "rados ${args%%:*}" "object ${args#*:} in namespace 'cephbench' of pool '$POOL' was not made by cephbench (no cephbench.run mark): refused, left as it is; use another --run-name"
	ns_objects | grep "^$run\." >"$T/left" || true
	[ "$(cat "$T/left")" = "${args#*:}" ] || fail "after rados ${args%%:*}: $(tr '\n' ' ' <"$T/left")"
done

# cleanup says what it left: the unmarked names of the run, or with --all
# everything in the namespace (no run's objects are left by now)
cb cleanup --pool "$POOL" --conf "$CONF" --run-name isoum
assert_rc 0 "cleanup --run-name isoum"
grep -qxF "rados: removed 0 objects of run 'isoum' from pool $POOL" "$T/out" ||
	fail "cleanup --run-name isoum said: $(cat "$T/out")"
grep -qxF "rados: left 1 objects in namespace 'cephbench' that cephbench did not make (named like the run's, without its mark)" "$T/out" ||
	fail "cleanup --run-name isoum's note: $(cat "$T/out")"
cb cleanup --pool "$POOL" --conf "$CONF" --all
assert_rc 0 "cleanup --all"
all=$(rados_ -p "$POOL" --namespace cephbench ls | wc -l)
grep -qxF "rados: removed 0 objects of every run from pool $POOL" "$T/out" ||
	fail "cleanup --all said: $(cat "$T/out")"
grep -qxF "rados: left $all objects in namespace 'cephbench' that cephbench did not make" "$T/out" ||
	fail "cleanup --all's note (with $all objects in the namespace): $(cat "$T/out")"

sums >"$T/after"
diff "$T/before" "$T/after" || fail "seeded objects changed"
ns_objects | sort >"$T/left"
[ "$(cat "$T/left")" = "$(tr ' ' '\n' <<<"$own" | sort)" ] ||
	fail "after cleanup, the namespace holds: $(tr '\n' ' ' <"$T/left")"

# --- RBD's namespace 'cephbench' (the issue's repro): refused, intact.
refused() { # WHAT POOL WHY
	one_line "$1" "pool '$2': RBD uses its namespace 'cephbench' ($3" \
		"), where cephbench's RADOS objects go: refused, nothing written or removed there; use another pool"
}
rbd_state() { # POOL [IMAGE]: the namespace's objects and the image's data
	rados_ -p "$1" --namespace cephbench ls | sort
	[ -z "${2:-}" ] || rbd_ export --no-progress "$1/cephbench/$2" - | sha256sum
}
both_refused() { # POOL WHY IMAGE
	rbd_state "$1" "${3:-}" >"$T/rbd.before"
	cb rados write 1 -p "$1" -b 4K --run-name rbd_data --conf "$CONF"
	assert_rc 2 "rados write in pool $1 ($2)"
	refused "rados write in pool $1" "$1" "$2"
	cb cleanup --pool "$1" --all --conf "$CONF"
	assert_rc 2 "cleanup --all of pool $1 ($2)"
	refused "cleanup --all of pool $1" "$1" "$2"
	grep -q "^rbd: removed 0 images of every run from pool $1$" "$T/out" ||
		fail "cleanup of pool $1: the rbd layer's cleanup did not run: $(cat "$T/out")"
	cb cleanup --pool "$1" --run-name rbd_data --conf "$CONF"
	assert_rc 2 "cleanup --run-name rbd_data of pool $1 ($2)"
	rbd_state "$1" "${3:-}" >"$T/rbd.after"
	diff "$T/rbd.before" "$T/rbd.after" || fail "pool $1 ($2): RBD's namespace changed"
}
ceph --conf "$CONF" osd pool create "$vms" 8 >/dev/null 2>&1 || fail "cannot create pool $vms"
rbd_ pool init "$vms"
rbd_ namespace create "$vms/cephbench"
rbd_ create -s 8M "$vms/cephbench/vmdisk"
rbd_ bench --io-type write --io-total 4M "$vms/cephbench/vmdisk" >/dev/null
both_refused "$vms" "listed in the pool's RBD namespace registry" vmdisk
# without the registry's key (an older layout): RBD's own objects tell
rados_ -p "$vms" rmomapkey rbd_namespace name_cephbench
both_refused "$vms" "it holds rbd_" vmdisk
# nothing but RBD's objects of an image, by hand: no registry, no directory
rbd_ rm --no-progress "$vms/cephbench/vmdisk"
rbd_ namespace remove "$vms/cephbench" 2>/dev/null || true
for o in $(rados_ -p "$vms" --namespace cephbench ls); do
	rados_ -p "$vms" --namespace cephbench rm "$o"
done
head -c 4096 /dev/urandom >"$T/seed"
rados_ -p "$vms" --namespace cephbench put rbd_data.10ab2c.0000000000000000 "$T/seed"
both_refused "$vms" "it holds rbd_data.10ab2c.0000000000000000"
# pool rbd itself, as in the issue, and the seed's pool
rbd_ namespace create rbd/cephbench
rbd_ create -s 8M "rbd/cephbench/vmdisk-$r"
both_refused rbd "listed in the pool's RBD namespace registry" "vmdisk-$r"
rbd_ rm --no-progress "rbd/cephbench/vmdisk-$r"
rbd_ namespace remove rbd/cephbench
both_refused seed-rbdns "listed in the pool's RBD namespace registry" seed-vmdisk
echo ok
