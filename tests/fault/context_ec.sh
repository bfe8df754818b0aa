#!/usr/bin/env bash
# Context across pool kinds: the same workload on a replicated pool and on
# an erasure-coded one (k=2, m=1 over the fault sandbox's 3 OSDs), both made
# here and removed at the end (never by cephbench); compare names the
# pool's type and its erasure-code profile beside the figures, and the
# record's profile is the one the monitors hold.
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
REP=fault-context-rep
EC=fault-context-ec
PROFILE=fault-context-ec21
drop_pools() {
	for p in "$REP" "$EC"; do
		fceph osd pool rm "$p" "$p" --yes-i-really-really-mean-it >/dev/null 2>&1 || true
	done
	fceph osd erasure-code-profile rm "$PROFILE" >/dev/null 2>&1 || true
}
trap 'drop_pools; at_exit' EXIT
drop_pools
fceph osd erasure-code-profile set "$PROFILE" k=2 m=1 crush-failure-domain=osd >/dev/null ||
	fail "cannot make the erasure-code profile"
fceph osd pool create "$REP" 8 >/dev/null 2>&1 || fail "cannot create pool $REP"
fceph osd pool create "$EC" 8 8 erasure "$PROFILE" >/dev/null 2>&1 || fail "cannot create pool $EC"
for p in "$REP" "$EC"; do
	fceph osd pool application enable "$p" rados >/dev/null 2>&1 || fail "cannot tag pool $p"
done
wait_clean

for p in "$REP" "$EC"; do
	cb rados write 2 -p "$p" --conf "$CONF" -b 4K -t 4 --run-name fault-context --json "$T/$p.json"
	assert_rc 0 "a write to $p"
done
"$(dirname "$0")/../validate-json" "$(dirname "$0")/../../docs/result.schema.json" \
	"$T/$REP.json" "$T/$EC.json" >"$T/validate" || fail "schema: $(cat "$T/validate")"
cb compare "$T/$REP.json" "$T/$EC.json"
assert_rc 0 "compare"
grep -qxF "  differs: pool: $EC (A: $REP)" "$T/out" || fail "compare did not name the pool: $(cat "$T/out")"
line=$(grep -F "  differs: B's pool $EC (A: $REP): " "$T/out") ||
	fail "compare did not name the pools' differences: $(cat "$T/out")"
for s in "type erasure (A: replicated)" "erasure_code_profile name=$PROFILE k=2 m=1 plugin=jerasure (A: none)"; do
	grep -qF -- "$s" <<<"$line" || fail "compare's pool line lacks '$s': $line"
done
fceph osd erasure-code-profile get "$PROFILE" -f json >"$T/profile"
cb compare --format json "$T/$REP.json" "$T/$EC.json"
"$PY" - "$T/out" "$T/$EC.json" "$T/profile" "$EC" <<'PYEOF' || fail "the erasure-coded pool's context"
import json, sys
cmp, rec, prof, ec = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), json.load(open(sys.argv[3])), sys.argv[4]
diffs = cmp["comparisons"][0]["phases"][0]["differences"]
t = next(d for d in diffs if d["kind"] == "pool" and d["key"] == "type")
assert (t["a"], t["b"], t["b_name"]) == ("replicated", "erasure", ec), t
c = rec["context"]["pools"][ec]
e = c["erasure_code_profile"]
assert c["type"] == "erasure", c
assert (e["k"], e["m"], e["plugin"]) == (int(prof["k"]), int(prof["m"]), prof["plugin"]), (e, prof)
assert c["size"] == 3 and c["min_size"] == 2, c
PYEOF
echo "context_ec: ok"
