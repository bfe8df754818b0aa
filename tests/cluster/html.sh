#!/usr/bin/env bash
# The HTML page of a real sandbox run (rados, rbd and a cephfs tree), opened
# in a real headless Chromium (tests/html/check_page.py): no console error,
# no network request, every chart drawn with as many points as the JSON has
# samples. A page that cannot be written never fails the run; a target in a
# missing directory is refused before anything runs.
. "$(dirname "$0")/lib.sh"

HERE=$(dirname "$0")
cat >"$T/p.yaml" <<'YAML'
name: page
defaults: { duration: 2s, ramp: 0s, concurrency: 4, pool: bench }
workloads:
  - { name: w, layer: rados, op: write, block_size: 4K }
  - { name: r, layer: rados, op: rand, block_size: 4K }
  - { name: img, layer: rbd, pool: rbd, op: randrw, block_size: 4K, image_size: 16M, prefill: true }
  - { name: md, layer: cephfs, op: tree, depth: 1, branch: 2, items: 4, clients: 2 }
YAML

cb run "$T/p.yaml" --conf "$CONF" --run-name page --json "$T/r.json" --html "$T/r.html"
assert_rc 0 "the run with --html"
[ -s "$T/r.html" ] || fail "no page written"
grep -q 'src=\|href="http' "$T/r.html" && fail "the page loads something from elsewhere"
/usr/bin/python3 "$HERE/../html/check_page.py" "$T/r.html" "$T/r.png" "$T/r.json" \
	>"$T/check" 2>&1 || fail "the page in Chromium: $(cat "$T/check")"

# --- a target in a missing directory: refused first, nothing ran
cb run "$T/p.yaml" --conf "$CONF" --run-name page --html "$T/none/r.html"
assert_rc 2 "--html into a missing directory"
grep -q -- "--html $T/none/r.html: cannot open" "$T/err" || fail "no line naming --html: $(cat "$T/err")"
[ "$(grep -c . "$T/err")" -eq 1 ] || fail "more than one line: $(cat "$T/err")"
grep -q '^== ' "$T/out" && fail "a phase ran before the bad --html was refused"
echo "ok"
