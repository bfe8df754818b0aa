#!/usr/bin/env bash
# Across releases (tests/compat/run calls it): this machine's build against
# the root's cluster, and the root's build against this machine's cluster.
#   - against a cluster whose keys are AES256K (Tentacle): refused, exit 3,
#     one line naming the key type, the client library and both ways out;
#     an AES key refused naming auth_allowed_ciphers; with AES allowed, the
#     quick profile runs to the end, its record naming both versions, and
#     doctor warns of the pair;
#   - against a cluster of AES keys (Reef): the quick profile runs;
#   - the root's build against this machine's sandbox (HOST_CONF): runs;
#   - the two builds' records of one profile on one cluster merge, each
#     host's client libraries in merged_from, the merge's "mixed".
# Environment: RELEASE, CONF (the root's sandbox), INROOT_BUILD (the root's
# build directory), HOST_CEPHBENCH (this machine's binary), HOST_CONF (this
# machine's sandbox; that crossing is skipped without it).
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${RELEASE:?}" "${CONF:?}" "${INROOT_BUILD:?}" "${HOST_CEPHBENCH:?}"
T=$(mktemp -d /tmp/cephbench-cross.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() {
	echo "FAIL: cross[$RELEASE]: $*" >&2
	exit 1
}
inroot() { scripts/release-root run "$RELEASE" "$@"; }
rceph() { inroot ceph --conf "$CONF" "$@"; }
host_lib=$("$HOST_CEPHBENCH" --version | sed -n 's/^ceph client libraries //p')
root_lib=$(inroot "$INROOT_BUILD/cephbench" --version | sed -n 's/^ceph client libraries //p')
cluster=$(rceph version -f json | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["version"].split()[2])')
echo "cross[$RELEASE]: host client $host_lib, root client $root_lib, root cluster $cluster" >&2

# A short quick profile (every row of the README's first command)
short=(-o defaults.duration=1s -o defaults.ramp=0s)
quick() { # BINARY-PREFIX... -- ARGS: the run, its exit code in $rc
	rc=0
	"$@" >"$T/out" 2>"$T/err" || rc=$?
}
key_type() { /usr/bin/python3 -c 'import base64,sys; print(base64.b64decode(sys.argv[1])[0])' "$1"; }
admin_key=$(sed -n 's/^[[:space:]]*key = //p' "$(dirname "$CONF")/keyring" | head -1)

if [ "$(key_type "$admin_key")" = 2 ]; then
	# 1. the default: an AES256K key, unreadable to an older library
	quick "$HOST_CEPHBENCH" run profiles/quick.yaml --conf "$CONF" "${short[@]}"
	[ "$rc" -eq 3 ] || fail "AES256K key: exit $rc, expected 3: $(cat "$T/err")"
	[ "$(wc -l <"$T/err")" -eq 1 ] || fail "AES256K key: not one line: $(cat "$T/err")"
	for w in "client.admin" "AES256K key" "(Ceph $host_lib) cannot read" "19.2.6/20.2.4" \
		"ceph mon set auth_allowed_ciphers aes256k,aes" "weakens"; do
		grep -qF -- "$w" "$T/err" || fail "AES256K key: no '$w' in: $(cat "$T/err")"
	done
	quick "$HOST_CEPHBENCH" doctor --conf "$CONF"
	[ "$rc" -eq 3 ] && grep -q "^FAIL  key: the key of client.admin .* is an AES256K key" "$T/out" ||
		fail "doctor, AES256K key: exit $rc: $(cat "$T/out" "$T/err")"
	# 2. an AES key, refused by monitors that allow only aes256k
	ceph-authtool --conf /dev/null --create-keyring "$T/old.keyring" --gen-key -n client.cbold \
		--cap mon 'allow *' --cap osd 'allow *' --cap mds 'allow *' --cap mgr 'allow *' >/dev/null
	rceph auth import -i "$T/old.keyring" 2>/dev/null
	[ "$(rceph mon dump 2>/dev/null | sed -n 's/^auth_allowed_ciphers //p')" = aes256k ] ||
		fail "the cluster allows more than aes256k: $(rceph mon dump 2>&1)"
	old=(--client cbold --keyring "$T/old.keyring")
	quick "$HOST_CEPHBENCH" run profiles/quick.yaml --conf "$CONF" "${old[@]}" "${short[@]}"
	[ "$rc" -eq 3 ] || fail "AES key, aes256k only: exit $rc, expected 3: $(cat "$T/err")"
	for w in "client.cbold refused" "its key is AES" "(Ceph $host_lib) lacks AES256K" \
		"auth_allowed_ciphers" "ceph mon set auth_allowed_ciphers aes256k,aes"; do
		grep -qF -- "$w" "$T/err" || fail "AES key: no '$w' in: $(cat "$T/err")"
	done
	# 3. AES allowed: the old client runs the whole profile
	rceph mon set auth_allowed_ciphers aes256k,aes 2>/dev/null
	for _ in $(seq 30); do
		quick "$HOST_CEPHBENCH" doctor --conf "$CONF" "${old[@]}"
		[ "$rc" -ne 3 ] && break
		sleep 1
	done
	grep -q "^warn  versions: client libraries Ceph $host_lib .*, cluster Ceph $cluster .*AES" "$T/out" ||
		fail "doctor, AES allowed: no versions warning: $(cat "$T/out" "$T/err")"
	cred=("${old[@]}")
else
	cred=()
fi
quick "$HOST_CEPHBENCH" run profiles/quick.yaml --conf "$CONF" "${cred[@]}" "${short[@]}" \
	--json "$T/host.json" --run-name cross-host
[ "$rc" -eq 0 ] || fail "host build against $RELEASE's cluster: exit $rc: $(cat "$T/err")"
/usr/bin/python3 - "$T/host.json" "$host_lib" "$cluster" <<'EOF' || fail "host build's record"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["tool"]["ceph_client"] == sys.argv[2], r["tool"]
assert r["cluster"]["ceph_version"] == sys.argv[3], r["cluster"]
assert all(p["errors"] == 0 and p["ops"] > 0 for p in r["phases"]), "a phase failed"
EOF
tests/validate-json docs/result.schema.json "$T/host.json" >/dev/null || fail "host record: schema"

# The root's build on the same cluster, then the two records merged
quick inroot "$INROOT_BUILD/cephbench" run "$PWD/profiles/quick.yaml" --conf "$CONF" "${short[@]}" \
	--json "$T/root.json" --run-name cross-root
[ "$rc" -eq 0 ] || fail "root build on its cluster: exit $rc: $(cat "$T/err")"
quick "$HOST_CEPHBENCH" merge "$T/host.json" "$T/root.json" -o "$T/merged.json"
[ "$rc" -eq 0 ] || fail "merge of the two releases' records: exit $rc: $(cat "$T/err")"
/usr/bin/python3 - "$T/merged.json" "$host_lib" "$root_lib" <<'EOF' || fail "merged record"
import json, sys
r = json.load(open(sys.argv[1]))
libs = [m["tool"]["ceph_client"] for m in r["merged_from"]]
assert libs == sys.argv[2:], libs
want = "mixed" if sys.argv[2] != sys.argv[3] else sys.argv[2]
assert r["tool"]["ceph_client"] == want, r["tool"]
EOF
tests/validate-json docs/result.schema.json "$T/merged.json" >/dev/null || fail "merged record: schema"

# The root's build against this machine's cluster
if [ -n "${HOST_CONF:-}" ]; then
	quick inroot "$INROOT_BUILD/cephbench" run "$PWD/profiles/quick.yaml" --conf "$HOST_CONF" \
		"${short[@]}" --json "$T/back.json" --run-name cross-back
	[ "$rc" -eq 0 ] || fail "root build against this machine's cluster: exit $rc: $(cat "$T/err")"
	/usr/bin/python3 - "$T/back.json" "$root_lib" <<'EOF' || fail "root build's record on this machine's cluster"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["tool"]["ceph_client"] == sys.argv[2], r["tool"]
assert all(p["errors"] == 0 and p["ops"] > 0 for p in r["phases"]), "a phase failed"
EOF
fi
echo "cross[$RELEASE]: ok" >&2
