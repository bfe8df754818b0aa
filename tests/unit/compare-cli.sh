#!/usr/bin/env bash
# `cephbench compare` on synthetic results with known differences
# (compare_gen.py): real shifts are called, with a CI holding the true
# change; shifts within noise are not; repeats are used when both sides
# have them; --fail-if-worse; --by groups and baselines; interrupted and
# failed phases marked and not judged; bad input is one line and exit 2.
# shellcheck source=tests/unit/results-lib.sh
. "$(dirname "$0")/results-lib.sh"
# the generated records are valid ones; the matrix rows' workload, matrix
# and step keys are not in the schema yet, so those are checked without them
"$py" - "$d/matrix.json" "$d/matrix-stripped.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for p in doc["phases"]:
    for k in ("workload", "matrix", "step"):
        p.pop(k, None)
json.dump(doc, open(sys.argv[2], "w"))
PY
"$src/tests/validate-json" "$src/docs/result.schema.json" "$d"/base.json "$d"/up10.json \
	"$d"/down10.json "$d"/noisy-*.json "$d"/rep-*.json "$d/matrix-stripped.json" \
	"$d"/intr-down50.json "$d"/failed-a.json "$d"/errs-down10.json >/dev/null ||
	fail "generated files are not valid cephbench-result/1"

# check JSON PYTHON-EXPR: the expression holds for the JSON in $d/out.json (as j)
check() {
	"$py" -c "import json, sys; j = json.load(open('$d/out.json')); sys.exit(0 if ($2) else 1)" ||
		fail "$1: $2"
}
# cmp ARGS...: run compare, keep stdout/stderr/exit code
cmp() {
	set +e
	"$bin" compare "$@" >"$d/out.json" 2>"$d/err"
	rc=$?
	set -e
}

# (a) +10 % IOPS with 1 % noise over 60 s: significant, CI holds +10 and is
# narrow (the partial second dropped: 60 values, not 61)
cmp --format json "$d/base.json" "$d/up10.json"
[ "$rc" -eq 0 ] || fail "(a) exit $rc"
ph='j["comparisons"][0]["phases"][0]'
check "(a)" "$ph[\"data\"] == 'seconds' and $ph[\"n_a\"] == 60 and $ph[\"n_b\"] == 60"
check "(a)" "$ph[\"iops\"][\"verdict\"] == 'better' and $ph[\"iops\"][\"ci_pct\"][0] <= 10 <= $ph[\"iops\"][\"ci_pct\"][1]"
check "(a)" "9 < $ph[\"iops\"][\"ci_pct\"][0] and $ph[\"iops\"][\"ci_pct\"][1] < 11"
check "(a)" "$ph[\"bw_bytes_per_s\"][\"verdict\"] == 'better' and $ph[\"lat_mean_us\"][\"verdict\"] == 'better'"
check "(a)" "$ph[\"lat_p99_us\"][\"tested\"] is False and abs($ph[\"lat_p99_us\"][\"change_pct\"] + 9.1) < 0.5"
check "(a)" "j['comparisons'][0]['only_a'] == ['only-a'] and j['comparisons'][0]['only_b'] == ['only-b']"
check "(a) short" "j['comparisons'][0]['phases'][1]['iops']['tested'] is False and abs(j['comparisons'][0]['phases'][1]['iops']['change_pct'] - 100) < 1e-9"
cmp "$d/base.json" "$d/up10.json"
grep -Eq '^  IOPS .*  B \+10\.0 % IOPS \(95 % CI \+9\.[0-9]…\+10\.[0-9] %\), better$' "$d/out.json" ||
	fail "(a) text verdict: $(grep IOPS "$d/out.json")"
grep -Eq '^  IOPS .* \+100\.0 %  not tested: fewer than 2 values on a side$' "$d/out.json" ||
	fail "(a) short phase: $(grep -A1 '^short' "$d/out.json")"
grep -q '^only in A: only-a$' "$d/out.json" && grep -q '^only in B: only-b$' "$d/out.json" ||
	fail "(a) unmatched phases not listed"
# a higher confidence gives a wider interval
cmp --format json --confidence 99.9 "$d/base.json" "$d/up10.json"
check "(a) --confidence" "j['confidence_pct'] == 99.9 and $ph[\"iops\"][\"ci_pct\"][0] < 9.7"

# (b) +1 % within 5 % noise: no verdict
cmp "$d/noisy-base.json" "$d/noisy-up1.json"
grep -Eq '^  IOPS .* \+1\.0 %  no significant difference$' "$d/out.json" ||
	fail "(b) $(grep IOPS "$d/out.json")"

# (c) repeats: the per-second samples are alike, the repeats differ by 10 %
cmp --format json "$d/rep-base.json" "$d/rep-up10.json" "$d/rep-up1.json"
check "(c)" "$ph[\"data\"] == 'repeats' and $ph[\"n_a\"] == 5 and $ph[\"iops\"][\"verdict\"] == 'better'"
check "(c)" "$ph[\"iops\"][\"ci_pct\"][0] <= 10 <= $ph[\"iops\"][\"ci_pct\"][1]"
check "(c)" "j['comparisons'][1]['b']['label'] == 'C' and j['comparisons'][1]['phases'][0]['iops']['verdict'] == 'none'"
cmp "$d/rep-base.json" "$d/rep-up1.json"
grep -q '^w (per-repeat rates: 5 vs 5)$' "$d/out.json" || fail "(c) text names the data"
grep -Eq '^  IOPS .*  no significant difference$' "$d/out.json" || fail "(c) +1 % within noise"

# (d) --fail-if-worse
cmp --fail-if-worse 5 "$d/base.json" "$d/down10.json"
[ "$rc" -eq 1 ] || fail "(d) 10 % drop: exit $rc"
[ "$(wc -l <"$d/err")" -eq 1 ] && grep -q '^cephbench compare: w: B IOPS -10\.0 % (95 % CI .*), worse than --fail-if-worse 5 %$' "$d/err" ||
	fail "(d) message: $(cat "$d/err")"
grep -q '^  IOPS' "$d/out.json" || fail "(d) the report is still printed"
cmp --fail-if-worse 5 "$d/base.json" "$d/up10.json"
[ "$rc" -eq 0 ] && [ ! -s "$d/err" ] || fail "(d) 10 % rise: exit $rc $(cat "$d/err")"
cmp --fail-if-worse 15 "$d/base.json" "$d/down10.json"
[ "$rc" -eq 0 ] || fail "(d) 10 % drop is within 15 %: exit $rc"
cmp --format json --fail-if-worse 5 "$d/base.json" "$d/up10.json" "$d/down10.json"
[ "$rc" -eq 1 ] && grep -q 'C IOPS -10' "$d/err" || fail "(d) third file: exit $rc $(cat "$d/err")"
check "(d)" "j['worse'] is True and j['fail_if_worse_pct'] == 5"

# (e) --by pool: groups agree on workload, step and block_size; the first row
# of a group (file order) is its baseline
cmp --format json --by pool "$d/matrix.json"
[ "$rc" -eq 0 ] || fail "(e) exit $rc $(cat "$d/err")"
check "(e)" "[(c['group'], c['a']['label'], c['b']['label'], c['phases'][0]['b_name']) for c in j['comparisons']] == [
	('w.prefill [block_size=4K]', 'pool=ssd', 'pool=hdd', 'w-hdd-4K.prefill'),
	('w [block_size=4K]', 'pool=ssd', 'pool=hdd', 'w-hdd-4K'),
	('w [block_size=4K]', 'pool=ssd', 'pool=nvme', 'w-nvme-4K'),
	('w [block_size=64K]', 'pool=hdd', 'pool=ssd', 'w-ssd-64K')]"
check "(e)" "j['alone'] == ['plain', 'solo-ssd'] and j['by'] == 'pool'"
check "(e)" "abs(j['comparisons'][3]['phases'][0]['iops']['estimate_pct'] - 100) < 1"
cmp --format json --by block_size "$d/matrix.json"
check "(e) by block_size" "[(c['a']['label'], c['b']['label'], c['phases'][0]['a_name']) for c in j['comparisons']] == [
	('block_size=4K', 'block_size=64K', 'w-ssd-4K'), ('block_size=4K', 'block_size=64K', 'w-hdd-4K')]"
check "(e) by block_size" "j['alone'] == ['w-ssd-4K.prefill', 'w-nvme-4K', 'w-hdd-4K.prefill', 'plain', 'solo-ssd']"
cmp --by pool "$d/matrix.json"
grep -q '^  IOPS .*  pool=hdd -50\.0 % IOPS' "$d/out.json" || fail "(e) text verdict names the row"

# notes: the lines of block w after its 4 metric rows, joined by |
notes() { awk '/^w /{f=1} f&&/^$/{exit} f' "$d/out.json" | tail -n +7 | tr '\n' '|'; }
# (g) partial phases. B interrupted at half the rate: the drop is shown and
# called worse, but marked and not judged by --fail-if-worse (exit 0)
cmp --fail-if-worse 5 "$d/base.json" "$d/intr-down50.json"
[ "$rc" -eq 0 ] && [ ! -s "$d/err" ] || fail "(g) interrupted B: exit $rc $(cat "$d/err")"
grep -Eq '^  IOPS .* -50\.0 %  B -50\.0 % IOPS .*, worse$' "$d/out.json" || fail "(g) interrupted B's verdict"
[ "$(notes)" = "  note: B's phase was interrupted (partial figures)|  note: not judged by --fail-if-worse|" ] ||
	fail "(g) interrupted B not marked: $(notes)"
# the same file but whole: the flag alone makes the difference (exit 1)
"$py" -c "import json; d = json.load(open('$d/intr-down50.json')); d['interrupted'] = d['phases'][0]['interrupted'] = False; json.dump(d, open('$d/down50.json', 'w'))"
cmp --fail-if-worse 5 "$d/base.json" "$d/down50.json"
[ "$rc" -eq 1 ] && [ -z "$(notes)" ] || fail "(g) whole 50 % drop: exit $rc, notes $(notes)"
cmp --format json --fail-if-worse 5 "$d/base.json" "$d/intr-down50.json"
check "(g) interrupted B" "$ph[\"b_interrupted\"] is True and $ph[\"b_failed\"] is False and $ph[\"a_interrupted\"] is False and $ph[\"judged\"] is False and j['worse'] is False"
check "(g) interrupted B" "$ph[\"iops\"][\"verdict\"] == 'worse' and $ph[\"a_errors\"] == 0 and $ph[\"b_errors\"] == 0"
# A failed on errors: marked in text and JSON, with its count
cmp "$d/failed-a.json" "$d/up10.json"
[ "$rc" -eq 0 ] || fail "(g) failed A: exit $rc"
[ "$(notes)" = "  op errors: A 1001, B 0|  note: A's phase failed after 1001 errors (partial figures)|" ] ||
	fail "(g) failed A not marked: $(notes)"
grep -q 'not judged' "$d/out.json" && fail "(g) 'not judged' without --fail-if-worse"
cmp --format json "$d/failed-a.json" "$d/up10.json"
check "(g) failed A" "$ph[\"a_failed\"] is True and $ph[\"a_errors\"] == 1001 and $ph[\"a_interrupted\"] is False and $ph[\"b_failed\"] is False and $ph[\"judged\"] is False"
# op errors within max_errors: counts shown, the pair still judged
cmp --fail-if-worse 5 "$d/base.json" "$d/errs-down10.json"
[ "$rc" -eq 1 ] && grep -q 'B IOPS -10' "$d/err" || fail "(g) errors within max_errors: exit $rc $(cat "$d/err")"
[ "$(notes)" = "  op errors: A 0, B 12|" ] || fail "(g) errors within max_errors: $(notes)"
cmp --format json "$d/base.json" "$d/errs-down10.json"
check "(g) errors" "$ph[\"b_errors\"] == 12 and $ph[\"b_failed\"] is False and $ph[\"judged\"] is True"

# (f) bad input: exit 2, one line naming the culprit, nothing on stdout
bad() {
	local want=$1
	shift
	cmp "$@"
	if [ "$rc" -ne 2 ] || [ "$(wc -l <"$d/err")" -ne 1 ] || [ -s "$d/out.json" ] ||
		! grep -q -- "^cephbench compare: $want" "$d/err"; then
		fail "(f) compare $*: exit $rc, stderr: $(cat "$d/err")"
	fi
}
bad "$d/missing.json: cannot open result file: No such file or directory$" "$d/base.json" "$d/missing.json"
bad "$d/not.json: not JSON (line 1 column " "$d/base.json" "$d/not.json"
bad "$d/wrong-schema.json: not a cephbench result (schema 'x'; expected cephbench-result/2)$" \
	"$d/base.json" "$d/wrong-schema.json"
bad "give two result files or more" "$d/base.json"
bad "--by 'pool': $d/base.json has no matrix rows" --by pool "$d/base.json"
bad "--by 'pol': $d/matrix.json has no matrix row varying 'pol' (its matrix keys: 'pool', 'block_size')$" \
	--by pol "$d/matrix.json"
bad "--by pool compares the rows of one file" --by pool "$d/matrix.json" "$d/base.json"
bad "--confidence '100': give a percentage" --confidence 100 "$d/base.json" "$d/up10.json"
bad "--fail-if-worse 'x': give a percentage" --fail-if-worse x "$d/base.json" "$d/up10.json"
bad "--format 'xml': use text or json$" --format xml "$d/base.json" "$d/up10.json"
bad "unknown flag '--fail-if-wrose' (did you mean '--fail-if-worse'?)$" --fail-if-wrose 5 "$d/base.json" "$d/up10.json"
"$py" -c "import json; d = json.load(open('$d/base.json')); del d['phases'][0]['samples']; json.dump(d, open('$d/nosamples.json', 'w'))"
bad "$d/nosamples.json: phases\[0\]\.samples: expected an array, got nothing$" "$d/nosamples.json" "$d/up10.json"
# a phase that cannot say whether it is whole is not taken as whole
"$py" -c "import json; d = json.load(open('$d/base.json')); del d['phases'][0]['failed']; json.dump(d, open('$d/nofailed.json', 'w'))"
bad "$d/nofailed.json: phases\[0\]\.failed: expected true or false, got nothing$" \
	"$d/base.json" "$d/nofailed.json"

[ "$fails" -eq 0 ] && echo "compare-cli: all checks passed"
[ "$fails" -eq 0 ]
