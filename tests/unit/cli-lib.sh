# The start the scripts testing the binary share (noop-cli.sh,
# newcomer-cli.sh, man_flags.sh, completion.sh), sourced: a scratch
# directory T (removed on exit) and fail MSG, which counts into fails; the
# script ends with `[ "$fails" -eq 0 ]`.
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
fail() {
	echo "FAIL: $*" >&2
	fails=$((fails + 1))
}
