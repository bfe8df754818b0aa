#!/usr/bin/env bash
# Each bad RBD input is one line on stderr naming the culprit, with its exit
# code (2 bad input, 3 cluster), nothing on stdout, and leaves no
# cephbench.* image behind.
. "$(dirname "$0")/rbd_lib.sh"

user=userimg-err-$RANDOM$RANDOM
trap 'rbdc rm --no-progress "$RBD_POOL/$user" >/dev/null 2>&1 || true; rbd_at_exit' EXIT

assert_no_images "before the test"

# Run cephbench; expect exit code $1, one stderr line holding the strings
# after the command (given after --), an empty stdout, no image left.
expect() {
	local code=$1 what=$2
	shift 2
	args_until_dashes "$@"
	shift $((${#ARGS[@]} + 1))
	cb "${ARGS[@]}"
	assert_rc "$code" "$what"
	one_line "$what" "$@"
	[ ! -s "$T/out" ] || fail "$what: stdout not empty: $(cat "$T/out")"
	assert_no_images "after $what"
}

adhoc=(rbd -p "$RBD_POOL" --conf "$CONF" --duration 1 --quiet)
run_profile() { # one rbd workload with the given keys
	local keys=$1
	shift
	profile bad <<YAML >/dev/null
name: bad
workloads:
  - { name: w, layer: rbd, $keys, duration: 1s }
YAML
	echo run "$T/bad.yaml" --conf "$CONF" --quiet "$@"
}

# Cluster errors: exit 3.
expect 3 "missing pool" rbd -p no-such-pool --conf "$CONF" --image-size 64M --duration 1 -- \
	"pool 'no-such-pool' does not exist"
expect 3 "missing pool (profile)" $(run_profile "pool: no-such-pool, op: write, image_size: 64M") -- \
	"pool 'no-such-pool' does not exist"
expect 3 "missing image" "${adhoc[@]}" "$RBD_POOL/no-such-image" --io-type read -- \
	"image 'no-such-image' does not exist in pool '$RBD_POOL'"
expect 3 "missing image (profile)" $(run_profile "pool: $RBD_POOL, op: randread, image: no-such-image") -- \
	"image 'no-such-image' does not exist in pool '$RBD_POOL'"

# Bad values: exit 2.
expect 2 "block_size > image_size" "${adhoc[@]}" --image-size 64M --io-size 128M -- \
	"block_size 128M is larger than image_size 64M"
expect 2 "block_size > image_size (profile)" \
	$(run_profile "pool: $RBD_POOL, op: randwrite, image_size: 1M, block_size: 2M") -- \
	"bad.yaml" "block_size 2M is larger than image_size 1M"
expect 2 "rw_mix_read 101" "${adhoc[@]}" --image-size 64M --io-type rw --rw-mix-read 101 -- \
	"rw_mix_read must be between 0 and 100"
expect 2 "rw_mix_read 101 (profile)" \
	$(run_profile "pool: $RBD_POOL, op: randrw, image_size: 64M, rw_mix_read: 101") -- \
	"bad.yaml" "rw_mix_read must be between 0 and 100"
expect 2 "no image_size" "${adhoc[@]}" --io-type write -- "--image-size"
expect 2 "no image_size (profile)" $(run_profile "pool: $RBD_POOL, op: write") -- \
	"bad.yaml" "needs image_size:"
expect 2 "no pool (profile)" $(run_profile "op: write, image_size: 64M") -- "bad.yaml" "needs pool:"
expect 2 "verify with randwrite" "${adhoc[@]}" --image-size 64M --io-pattern rand --prefill --verify -- \
	"verify" "op read, randread, or rw or randrw"
expect 2 "verify with randwrite (profile)" \
	$(run_profile "pool: $RBD_POOL, op: randwrite, image_size: 64M, prefill: true, verify: true") -- \
	"bad.yaml" "verify" "op read, randread, or rw or randrw"
expect 2 "unknown feature" "${adhoc[@]}" --image-size 64M --features layering,exclusive-lok -- \
	"unknown image feature 'exclusive-lok' (did you mean 'exclusive-lock'?)"
expect 2 "unknown feature (profile)" \
	$(run_profile "pool: $RBD_POOL, op: write, image_size: 64M, features: layring") -- \
	"bad.yaml" "unknown image feature 'layring' (did you mean 'layering'?)"
expect 2 "bad --io-type" "${adhoc[@]}" --image-size 64M --io-type randread -- \
	"--io-type 'randread'" "read, write or readwrite"
expect 2 "bad --io-pattern" "${adhoc[@]}" --image-size 64M --io-pattern zigzag -- \
	"--io-pattern 'zigzag'" "seq or rand"
expect 2 "typo flag" "${adhoc[@]}" --image-size 64M --io-szie 4K -- "did you mean '--io-size'"
expect 2 "unknown op (profile)" $(run_profile "pool: $RBD_POOL, op: randwrit, image_size: 64M") -- \
	"bad.yaml" "did you mean 'randwrite'"

# Reads of created images never written in full: refused, whatever reads.
for io in "read seq" "read rand" "readwrite seq" "readwrite rand"; do
	set -- $io
	expect 2 "$1/$2 of a never-filled image" "${adhoc[@]}" --image-size 64M --io-type "$1" --io-pattern "$2" \
		--run-name unfilled -- "never written in full" "prefill: true" "cephbench.unfilled.0"
done

# A user image: the run did not create it, so it only reads it.
rbdc create --size 4M "$RBD_POOL/$user"
for io in "write seq" "write rand" "readwrite seq" "readwrite rand"; do
	set -- $io
	expect 2 "$1/$2 on a user image" "${adhoc[@]}" "$RBD_POOL/$user" --io-type "$1" --io-pattern "$2" -- \
		"refused" "--allow-destructive" "$user"
done
expect 2 "prefill of a user image" "${adhoc[@]}" "$RBD_POOL/$user" --io-type read --prefill -- \
	"refused" "--allow-destructive" "prefill"
expect 2 "block_size > user image" "${adhoc[@]}" "$RBD_POOL/$user" --io-type read --io-size 8M -- \
	"block_size 8M is larger than image $RBD_POOL/$user (4M)"
expect 2 "verify on a user image without prefill" "${adhoc[@]}" "$RBD_POOL/$user" --io-type read --verify -- \
	"needs prefill: true"
expect 2 "image_size with image" "${adhoc[@]}" "$RBD_POOL/$user" --io-type read --image-size 4M -- \
	"image: names an existing image"
image_exists "$user" || fail "the user image is gone"

# A prefill whose setup fails half-way (image 1 is an unmarked look-alike,
# refused) leaves no "filled" mark on image 0, which it never wrote.
rbdc create --size 8M "$RBD_POOL/cephbench.hf.1"
cb rbd -p "$RBD_POOL" --conf "$CONF" --image-size 8M --images 2 --prefill --reuse \
	--io-type read --duration 1 --run-name hf --quiet
assert_rc 2 "prefill with a refused second image"
grep -q "was not made by cephbench run 'hf'" "$T/err" || fail "half-way prefill said: $(cat "$T/err")"
image_exists cephbench.hf.0 || fail "the kept image cephbench.hf.0 is missing"
[ -z "$(image_meta cephbench.hf.0 cephbench.content)" ] ||
	fail "cephbench.hf.0 is marked '$(image_meta cephbench.hf.0 cephbench.content)' but was never filled"
cb cleanup --pool "$RBD_POOL" --conf "$CONF" --run-name hf
assert_rc 0 "cleanup hf"
image_exists cephbench.hf.1 || fail "cleanup removed the unmarked cephbench.hf.1"
rbdc rm --no-progress "$RBD_POOL/cephbench.hf.1" >/dev/null
echo ok
