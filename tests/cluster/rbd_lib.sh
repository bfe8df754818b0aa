# Shared by the RBD cluster tests (rbd*.sh), on top of lib.sh: the RBD pool,
# and helpers that look at images with the rbd tool itself (never with
# cephbench). Sourced, not run.
. "$(dirname "$0")/lib.sh"

RBD_POOL=${CEPHBENCH_TEST_RBD_POOL:-rbd}
SCHEMA=$(dirname "$0")/../../docs/result.schema.json
VALIDATE=$(dirname "$0")/../validate-json

# On exit, even on failure: cephbench's images in the RBD pool go too, so a
# failed test does not make the next one fail. Scripts that seed images of
# their own chain their removal before this (trap '...; rbd_at_exit' EXIT).
rbd_at_exit() {
	"$CEPHBENCH" cleanup --conf "$CONF" --pool "$RBD_POOL" --all --quiet >/dev/null 2>&1 || true
	at_exit
}
trap rbd_at_exit EXIT

rbdc() {
	rbd --conf "$CONF" "$@"
}

# cephbench's images (cephbench.<run>.<n>) in the RBD pool, one per line,
# sorted. Lists to a file first: under pipefail, grep finding nothing fails.
cb_images() {
	rbdc ls -p "$RBD_POOL" >"$T/rbdls"
	grep -E '^cephbench\.[A-Za-z0-9_-]+\.[0-9]+$' "$T/rbdls" | sort || true
}

assert_no_images() {
	local left
	left=$(cb_images)
	[ -z "$left" ] || fail "$1: images left in pool $RBD_POOL: $(echo "$left" | tr '\n' ' ')"
}

image_exists() {
	rbdc ls -p "$RBD_POOL" >"$T/rbdls"
	grep -qx "$1" "$T/rbdls"
}

# Number of watchers of an image (0 when it does not exist).
watchers() {
	rbdc status --format json "$RBD_POOL/$1" 2>/dev/null |
		/usr/bin/python3 -c 'import json, sys; print(len(json.load(sys.stdin)["watchers"]))' 2>/dev/null ||
		echo 0
}

# Wait until a running cephbench has the image open (it has a watcher).
wait_for_watcher() {
	for _ in $(seq 1 100); do
		[ "$(watchers "$1")" -gt 0 ] && return 0
		sleep 0.2
	done
	fail "image $RBD_POOL/$1 never got a watcher"
}

# Value of an image metadata key, empty when absent.
image_meta() {
	rbdc image-meta get "$RBD_POOL/$1" "$2" 2>/dev/null || true
}

# sha256 of an image's content.
image_sum() {
	rbdc export --no-progress "$RBD_POOL/$1" - 2>/dev/null | sha256sum | cut -d' ' -f1
}

# Bytes of the image the cluster has allocated (rbd du).
image_used() {
	rbdc du --format json "$RBD_POOL/$1" |
		/usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)["images"][0]["used_size"])'
}

assert_valid_json() {
	"$VALIDATE" "$SCHEMA" "$1" >"$T/validate" ||
		fail "$2: the JSON result does not match docs/result.schema.json: $(cat "$T/validate")"
}

