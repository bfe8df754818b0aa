# The start the scripts testing commands on generated results share
# (compare-cli.sh, result-input-cli.sh), sourced with the script's
# arguments CEPHBENCH SOURCE_DIR: bin, src, py, a scratch directory d
# (removed on exit) holding compare_gen.py's results, and fail MSG, which
# counts into fails.
set -euo pipefail
bin=${1:?usage: $(basename "$0") CEPHBENCH SOURCE_DIR}
src=${2:?usage: $(basename "$0") CEPHBENCH SOURCE_DIR}
py=/usr/bin/python3
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
fails=0
fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}
"$py" "$src/tests/unit/compare_gen.py" "$d"
