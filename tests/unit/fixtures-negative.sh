#!/usr/bin/env bash
# check_fixtures must fail on a release's fixtures made wrong the ways a new
# Ceph release could change them, naming the file: each corruption on a
# fresh copy of every release's directory, one at a time.
# usage: fixtures-negative.sh CHECK_FIXTURES RELEASES_DIR
set -euo pipefail
check=${1:?usage: fixtures-negative.sh CHECK_FIXTURES RELEASES_DIR}
releases=${2:?usage: fixtures-negative.sh CHECK_FIXTURES RELEASES_DIR}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() {
	echo "fixtures-negative: $*" >&2
	exit 1
}
# FILE, the sed expression that corrupts it (a key renamed, a value changed)
corruptions=(
	'status s/"num_up_osds"/"up_osds"/'
	'status s/"pgmap"/"pg_map"/'
	'osd-dump s/"pool_name":"bench"/"pool_name":"other"/'
	'osd-dump s/"pool_name": "bench"/"pool_name": "other"/'
	'osd-perf-dump s/"op_w"/"op_write"/'
	'mds-perf-dump s/"mds_server"/"server"/'
	'fs-get s/"up:active"/"up:standby"/'
	'version s/ceph version /ceph release /'
	'osd-metadata s/"hostname"/"host_name"/'
)
n=0
for rel in "$releases"/*/; do
	rel=${rel%/}
	name=$(basename "$rel")
	"$check" "$rel" >/dev/null || fail "$name: its own fixtures fail"
	for c in "${corruptions[@]}"; do
		file=${c%% *}
		expr=${c#* }
		rm -rf "${T:?}/$name"
		cp -r "$rel" "$T/$name"
		sed -i "$expr" "$T/$name/$file.json"
		# the sed must have changed something, or the control proves nothing
		cmp -s "$rel/$file.json" "$T/$name/$file.json" && continue
		rc=0
		"$check" "$T/$name" >"$T/out" 2>&1 || rc=$?
		[ "$rc" -eq 1 ] || fail "$name: $file corrupted by '$expr': exit $rc, expected 1"
		grep -qF "$name/$file: " "$T/out" ||
			fail "$name: $file corrupted by '$expr': the failure does not name it: $(cat "$T/out")"
		n=$((n + 1))
	done
done
[ "$n" -ge 8 ] || fail "only $n corruptions took: the fixtures' format changed under the test"
echo "fixtures-negative: $n corrupted copies, each refused naming its file"
