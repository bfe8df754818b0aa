#!/usr/bin/env bash
# The Debian package, as an operator gets it (issue 26):
#   deb.sh build DIR     a Release build without tests in DIR, then CPack's
#                        .deb: its dependencies computed from the binary
#                        (librados2, librbd1, libcephfs2), its files the
#                        binary, profiles, man pages, completion, docs
#   deb.sh install DIR   apt-get install ./DIR/cephbench_*.deb, then the
#                        installed cephbench: --version, man -w for a page
#                        of each section, the completion, the quick profile
#                        found by name and run against the sandbox; then
#                        apt-get remove, and not one of its files is left
# install is skipped (77) where a cephbench package is installed already:
# it is not this test's to replace or remove.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
what=${1:?usage: deb.sh build|install DIR}
B=${2:?usage: deb.sh build|install DIR}
fail() {
	echo "FAIL: $*" >&2
	exit 1
}
version=$(sed -n 's/^project(cephbench VERSION \([0-9.]*\).*/\1/p' "$ROOT/CMakeLists.txt")
[ -n "$version" ] || fail "no version in CMakeLists.txt"

if [ "$what" = build ]; then
	rm -rf "$B"
	cmake -S "$ROOT" -B "$B" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr \
		-DCB_BUILD_TESTS=OFF >"$B.log" 2>&1 || fail "configure: $(tail -5 "$B.log")"
	cmake --build "$B" -j "$(nproc)" >>"$B.log" 2>&1 || fail "build: $(tail -20 "$B.log")"
	(cd "$B" && cpack -G DEB >>"$B.log" 2>&1) || fail "cpack: $(tail -20 "$B.log")"
	deb=$(ls "$B"/cephbench_"$version"_*.deb) || fail "no .deb in $B"
	deps=$(dpkg-deb -f "$deb" Depends)
	for lib in librados2 librbd1 libcephfs2 libyaml-0-2 libjansson4; do
		case "$deps" in *"$lib"*) ;; *) fail "Depends lacks $lib: $deps" ;; esac
	done
	dpkg-deb -c "$deb" | awk '{print $6}' >"$B/contents"
	for f in ./usr/bin/cephbench ./usr/share/cephbench/profiles/quick.yaml \
		./usr/share/man/man1/cephbench.1.gz ./usr/share/man/man1/cephbench-run.1.gz \
		./usr/share/man/man5/cephbench-profile.5.gz \
		./usr/share/bash-completion/completions/cephbench ./usr/share/doc/cephbench/README.md; do
		grep -qxF "$f" "$B/contents" || fail "$deb lacks $f: $(cat "$B/contents")"
	done
	echo "ok: $deb"
	exit 0
fi

[ "$what" = install ] || fail "usage: deb.sh build|install DIR"
CONF=${CEPHBENCH_TEST_CONF:?CEPHBENCH_TEST_CONF must name the sandbox conf}
[ "$(id -u)" -eq 0 ] || {
	echo "skip: apt-get install needs root"
	exit 77
}
if dpkg-query -W -f='${Status}' cephbench 2>/dev/null | grep -q 'ok installed'; then
	echo "skip: a cephbench package is installed on this host: not this test's to replace"
	exit 77
fi
deb=$(ls "$B"/cephbench_"$version"_*.deb) || fail "no .deb in $B (deb.sh build first)"
T=$(mktemp -d /tmp/cephbench-deb.XXXXXX)
installed=false
at_exit() {
	if $installed; then
		apt-get remove -y -qq cephbench >/dev/null 2>&1 || true
	fi
	rm -rf "$T"
}
trap 'at_exit || true' EXIT

DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$deb" \
	>"$T/apt.log" 2>&1 || fail "apt-get install $deb: $(tail -5 "$T/apt.log")"
installed=true
dpkg -L cephbench >"$T/files"

[ "$(command -v cephbench)" = /usr/bin/cephbench ] || fail "cephbench is $(command -v cephbench)"
[ "$(/usr/bin/cephbench --version | head -1)" = "cephbench $version" ] ||
	fail "--version: $(/usr/bin/cephbench --version)"
for page in "1 cephbench" "1 cephbench-run" "1 cephbench-doctor" "5 cephbench-profile"; do
	# shellcheck disable=SC2086
	where=$(man -w $page 2>&1) || fail "man -w $page: $where"
	case "$where" in /usr/share/man/*) ;; *) fail "man -w $page: $where" ;; esac
done
[ -f /usr/share/bash-completion/completions/cephbench ] || fail "no bash completion"
# the completion offers the installed profiles by name
got=$(bash -c '. /usr/share/bash-completion/completions/cephbench
	COMP_WORDS=(cephbench run qu); COMP_CWORD=2; COMP_LINE="cephbench run qu"
	COMP_POINT=${#COMP_LINE}; read -ra c < <(complete -p cephbench)
	"${c[-2]}" cephbench qu run 2>/dev/null; echo "${COMPREPLY[*]}"')
case " $got " in *" quick "*) ;; *) fail "completion of 'run qu': '$got'" ;; esac

# the installed quick profile, found by name, shortened for the test; under
# a run name of its own (the sandbox's seeded user data holds objects named
# like run quick's, which a run named quick rightly refuses to write over)
cd "$T"
set +e
/usr/bin/cephbench run quick --conf "$CONF" -o duration=2s -o ramp=0s --run-name debquick \
	--json "$T/q.json" \
	>"$T/out" 2>"$T/err"
rc=$?
set -e
[ "$rc" -eq 0 ] || fail "run quick: exit $rc: $(cat "$T/err")"
# the default profile's layer breakdown compares like with like
grep -q '^Layer breakdown' "$T/out" || fail "run quick: no layer breakdown: $(cat "$T/out")"
! grep -q 'ops in flight differ' "$T/out" || fail "run quick compares layers at different depths"
/usr/bin/python3 - "$T/q.json" <<'PY' || fail "run quick's record"
import json, sys
rec = json.load(open(sys.argv[1]))
assert rec["profile"]["name"] == "quick", rec["profile"]
names = {p["name"] for p in rec["phases"]}
for want in ("obj-write-4k", "img-randwrite-4k", "fs-randwrite-4k"):
    assert want in names, (want, sorted(names))
assert all(p["ops"] > 0 and not p.get("failed") for p in rec["phases"]), rec["phases"]
PY

DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq cephbench >"$T/apt.log" 2>&1 ||
	fail "apt-get remove: $(tail -5 "$T/apt.log")"
installed=false
left=""
while read -r f; do
	# its directories may be shared (/usr/bin); its files and its own
	# directories must be gone
	if [ -e "$f" ] && { [ ! -d "$f" ] || [[ "$f" == */cephbench* ]]; }; then
		left="$left $f"
	fi
done <"$T/files"
[ -z "$left" ] || fail "apt-get remove left:$left"
if dpkg-query -W -f='${Status}' cephbench 2>/dev/null | grep -qv 'not-installed'; then
	fail "after remove: $(dpkg-query -W -f='${Status}' cephbench)"
fi
echo ok
