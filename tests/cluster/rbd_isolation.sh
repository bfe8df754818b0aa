#!/usr/bin/env bash
# An RBD benchmark never touches images it did not create: a user image
# full of random data is byte-identical (sha256 of rbd export) after every
# workload type, run beside it or on it (image:, read-only), after the
# refused writes and after cleanup --all; it still exists, carries no
# cephbench metadata and no watcher. Images named almost like cephbench's
# (or in another RBD namespace) survive cleanup --all too, as do objects in
# the namespace of cephbench's records that are not its records (no mark).
# A write with --allow-destructive writes a user image but leaves it in
# place.
. "$(dirname "$0")/rbd_lib.sh"

r=$RANDOM$RANDOM
user=userimg-$r
scratch=userscratch-$r
# cephbench.<run>.<n> with a run name that is not one (dots), or no
# number, and the name of one of this test's runs in another RBD namespace
# number; cephbench.isoum.0 is named exactly like an image of run 'isoum'
# but has no cephbench.run mark: cephbench did not make it.
lookalikes="cephbench.my.run.0 cephbench.iso cephbench.iso.0.bak cephbench..1 cephbench.isoum.0"
ns=cbtest-$r
in_ns=$ns/cephbench.iso.0
# Objects in the namespace of cephbench's records of images being made,
# without its mark: cephbench.bench.0 holds no record (the issue's),
# cephbench.bench.1 holds what a record of run 'bench' would, and
# cephbench.isoum.0 names the unmarked look-alike image as run isoum's.
records="cephbench.bench.0:junk cephbench.bench.1:bench cephbench.isoum.0:isoum"
records_sum() {
	for rec in $records; do
		rados --conf "$CONF" -p "$RBD_POOL" --namespace cephbench-creating get "${rec%%:*}" - |
			sha256sum | sed "s|-|${rec%%:*}|"
	done
}
unseed() {
	for rec in $records; do
		rados --conf "$CONF" -p "$RBD_POOL" --namespace cephbench-creating rm "${rec%%:*}" \
			>/dev/null 2>&1 || true
	done
	for i in "$user" "$scratch" $lookalikes "$in_ns"; do
		rbdc rm --no-progress "$RBD_POOL/$i" >/dev/null 2>&1 || true
	done
	rbdc namespace remove "$RBD_POOL/$ns" >/dev/null 2>&1 || true
}
trap 'unseed; rbd_at_exit' EXIT

assert_no_images "before the test"
head -c 64M /dev/urandom >"$T/seed"
rbdc import --no-progress "$T/seed" "$RBD_POOL/$user"
rbdc import --no-progress "$T/seed" "$RBD_POOL/$scratch"
rm -f "$T/seed"
for i in $lookalikes; do
	rbdc create --size 4M "$RBD_POOL/$i"
done
rbdc namespace create "$RBD_POOL/$ns"
rbdc create --size 4M "$RBD_POOL/$in_ns"
sum0=$(image_sum "$user")
rbdc ls -p "$RBD_POOL" | sort >"$T/before"

check() {
	local sum
	sum=$(image_sum "$user")
	[ "$sum" = "$sum0" ] || fail "$1: user image $user changed"
	image_exists "$user" || fail "$1: user image $user is gone"
	for i in $lookalikes; do
		image_exists "$i" || fail "$1: user image $i is gone"
	done
	rbdc info "$RBD_POOL/$in_ns" >/dev/null 2>&1 || fail "$1: user image $in_ns is gone"
	[ "$(watchers "$user")" -eq 0 ] || fail "$1: a watcher stayed on $user"
	rbdc image-meta list --format json "$RBD_POOL/$user" >"$T/meta"
	! grep -q cephbench "$T/meta" || fail "$1: cephbench metadata on $user: $(cat "$T/meta")"
}

# 1. Every op on images the run creates, beside the user image.
p=$(sed "s/POOL/$RBD_POOL/" <<'YAML' | profile own
name: own
defaults: { layer: rbd, pool: POOL, image_size: 64M, duration: 1s, concurrency: 8 }
workloads:
  - { name: write, op: write }
  - { name: randwrite, op: randwrite, images: 2 }
  - { name: read, op: read, prefill: true }
  - { name: randread, op: randread, prefill: true, verify: true }
  - { name: rw, op: rw, prefill: true }
  - { name: randrw, op: randrw, prefill: true }
YAML
)
cb run "$p" --conf "$CONF" --run-name iso --quiet
assert_rc 0 "own images"
check "a run of every op"
[ "$(cb_images | grep -v '^cephbench\.isoum\.0$' || true)" = "" ] ||
	fail "after a run of every op: images left: $(cb_images | tr '\n' ' ')"

# 2. Read workloads on the user image itself (image:), in a profile and ad
#    hoc, seq and rand, kept or not.
p=$(sed "s/POOL/$RBD_POOL/; s/USER/$user/" <<'YAML' | profile on
name: on
defaults: { layer: rbd, pool: POOL, image: USER, duration: 1s, concurrency: 8 }
workloads:
  - { name: read, op: read }
  - { name: randread, op: randread, block_size: 64K }
  - { name: rw0, op: randrw, rw_mix_read: 100 }
YAML
)
cb run "$p" --conf "$CONF" --run-name iso --json "$T/on.json" --quiet
assert_rc 0 "reads on the user image"
assert_valid_json "$T/on.json" "reads on the user image"
/usr/bin/python3 - "$T/on.json" <<'PY' || fail "reads on the user image: see above"
import json, sys
for p in json.load(open(sys.argv[1]))["phases"]:
    assert p["read_ops"] > 0 and p["write_ops"] == 0 and p["errors"] == 0, p["name"]
PY
check "reads on the user image (profile)"
for pat in seq rand; do
	cb rbd "$RBD_POOL/$user" --conf "$CONF" --io-type read --io-pattern $pat --duration 1 \
		--run-name iso --no-cleanup --quiet
	assert_rc 0 "cephbench rbd $user --io-pattern $pat"
	check "cephbench rbd $user --io-type read --io-pattern $pat"
done

# 3. The refused writes (and prefill, and verify that needs it).
for io in "write seq" "write rand" "readwrite seq" "readwrite rand"; do
	set -- $io
	cb rbd "$RBD_POOL/$user" --conf "$CONF" --io-type "$1" --io-pattern "$2" --duration 1 --quiet
	assert_rc 2 "$1/$2 on the user image"
	check "refused $1/$2"
done
cb rbd "$RBD_POOL/$user" --conf "$CONF" --io-type read --prefill --verify --duration 1 --quiet
assert_rc 2 "prefill of the user image"
check "refused prefill"

# A run whose images would be named like the unmarked look-alike refuses
# to take it over.
id1=$(rbdc info --format json "$RBD_POOL/cephbench.isoum.0" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
cb rbd -p "$RBD_POOL" --conf "$CONF" --image-size 8M --ops 10 --run-name isoum --quiet
assert_rc 2 "a run named like an unmarked image"
grep -q "was not made by cephbench run 'isoum'" "$T/err" || fail "isoum run said: $(cat "$T/err")"
id2=$(rbdc info --format json "$RBD_POOL/cephbench.isoum.0" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
[ "$id1" = "$id2" ] || fail "the unmarked cephbench.isoum.0 was replaced ($id1 -> $id2)"
check "refused takeover of an unmarked image"

# 3a. Objects in the records' namespace that are not cephbench's records:
#     cleanups keep them, and the unmarked image one names as run isoum's;
#     a run whose record would overwrite one is refused before it creates.
for rec in $records; do
	printf %s "${rec#*:}" >"$T/rec"
	rados --conf "$CONF" -p "$RBD_POOL" --namespace cephbench-creating put "${rec%%:*}" "$T/rec"
done
records_sum >"$T/records.before"
for run in "--run-name bench" "--run-name isoum" --all; do
	cb cleanup --pool "$RBD_POOL" --conf "$CONF" $run
	assert_rc 0 "cleanup $run beside objects that are not records"
	records_sum >"$T/records.after"
	diff "$T/records.before" "$T/records.after" || fail "cleanup $run changed objects that are not records"
	check "cleanup $run beside objects that are not records"
done
cb rbd -p "$RBD_POOL" --conf "$CONF" --image-size 8M --ops 10 --quiet
assert_rc 2 "a run whose record is taken"
one_line "a run whose record is taken" "object cephbench.bench.0 in namespace 'cephbench-creating' of pool '$RBD_POOL' was not made by cephbench (no cephbench.run mark): refused, left as it is; use another --run-name"
image_exists cephbench.bench.0 && fail "a run whose record is taken made its image"
records_sum >"$T/records.after"
diff "$T/records.before" "$T/records.after" || fail "a refused run changed objects that are not records"

# 4. Cleanups: of the run that read the user image, then of everything.
cb cleanup --pool "$RBD_POOL" --conf "$CONF" --run-name iso
assert_rc 0 "cleanup --run-name iso"
check "cleanup --run-name"
cb cleanup --pool "$RBD_POOL" --conf "$CONF" --all
assert_rc 0 "cleanup --all"
check "cleanup --all"

# 5. --allow-destructive writes the scratch user image (the guard is not
#    all that kept the other one intact) but never removes it.
sum1=$(image_sum "$scratch")
cb rbd "$RBD_POOL/$scratch" --conf "$CONF" --io-type write --io-pattern rand --duration 1 \
	--allow-destructive --quiet
assert_rc 0 "write with --allow-destructive"
image_exists "$scratch" || fail "a write with --allow-destructive removed the image"
[ "$(image_sum "$scratch")" != "$sum1" ] || fail "a write with --allow-destructive wrote nothing"
cb cleanup --pool "$RBD_POOL" --conf "$CONF" --all
image_exists "$scratch" || fail "cleanup --all removed $scratch"

check "the end"
rbdc ls -p "$RBD_POOL" | sort >"$T/after"
diff "$T/before" "$T/after" || fail "the pool's image list changed"
unseed
image_exists "$user" && fail "could not remove $user"
rbdc namespace ls "$RBD_POOL" | grep -q "$ns" && fail "could not remove namespace $ns"
echo ok
