# The start the scripts testing the binary share (noop-cli.sh, bounds-cli.sh,
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

# run NAME WANT_RC YAML [FLAGS...]: the profile through the binary $cb, no
# cluster in the environment; its output in $T/NAME.out and .err
run() {
	local name=$1 want=$2 yaml=$3
	shift 3
	printf '%s\n' "$yaml" >"$T/$name.yaml"
	env -u CEPH_CONF -u CEPH_ARGS "$cb" run "$T/$name.yaml" "$@" >"$T/$name.out" 2>"$T/$name.err"
	local rc=$?
	[ "$rc" = "$want" ] || fail "$name: exit $rc, want $want: $(head -c 600 "$T/$name.err")"
}
