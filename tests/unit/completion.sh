#!/usr/bin/env bash
# completion/cephbench.bash in bash, with no stub: the just-built binary
# first on PATH through a temporary prefix (PREFIX/bin/cephbench, a
# symlink; PREFIX/share/cephbench/profiles/*.yaml), COMP_WORDS and
# COMP_CWORD set as bash sets them, the function it registers called,
# COMPREPLY checked: commands, flags (each command's the same as its man
# page's OPTIONS), installed profile names, files by kind, values, and
# pools silently none when no cluster answers.
# usage: completion.sh CEPHBENCH SOURCE_DIR
set -uo pipefail
cb=${1:?usage: completion.sh CEPHBENCH SOURCE_DIR}
src=${2:?usage: completion.sh CEPHBENCH SOURCE_DIR}
. "$(dirname "$0")/cli-lib.sh"

mkdir -p "$T/prefix/bin" "$T/prefix/share/cephbench/profiles" "$T/work/sub"
ln -s "$(realpath "$cb")" "$T/prefix/bin/cephbench"
touch "$T/prefix/share/cephbench/profiles/"{quick,health}.yaml
touch "$T/work/"{a.json,b.yaml,c.txt}
export PATH="$T/prefix/bin:$PATH"
# no cluster: the pool lookup must give nothing, quietly
export CEPH_CONF=$T/none.conf
unset CEPH_ARGS
cd "$T/work" || exit 1
# shellcheck source=/dev/null
source "$src/completion/cephbench.bash"
# the function it registered for cephbench (complete -F FUNC cephbench)
fn=$(complete -p cephbench 2>/dev/null | awk '{ for (i = 1; i < NF; i++) if ($i == "-F") print $(i + 1) }')
[ -n "$fn" ] || {
	echo "FAIL: completion/cephbench.bash registers no function for cephbench" >&2
	exit 1
}

# offers LINE: what TAB at the end of LINE offers, one a line, sorted, into
# $T/got (a line ending in a blank completes a new, empty word); not in a
# subshell, so that its fail counts
offers() {
	local line=$1
	read -r -a COMP_WORDS <<<"$line"
	[[ $line == *" " ]] && COMP_WORDS+=("")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE=$line
	COMP_POINT=${#line}
	COMPREPLY=()
	"$fn" 2>"$T/err"
	[ ! -s "$T/err" ] || fail "'$line<TAB>' wrote to stderr: $(cat "$T/err")"
	: >"$T/got"
	[ "${#COMPREPLY[@]}" -eq 0 ] || printf '%s\n' "${COMPREPLY[@]}" | sort >"$T/got"
}
# expect LINE WORDS...: TAB offers exactly WORDS
expect() {
	local line=$1 got want
	shift
	offers "$line"
	got=$(tr '\n' ' ' <"$T/got")
	want=
	[ $# -eq 0 ] || want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
	[ "$got" = "$want" ] || fail "'$line<TAB>': offers '$got', want '$want'"
}
# has LINE WORD...: TAB offers WORD among others
has() {
	local line=$1 w got
	shift
	offers "$line"
	for w in "$@"; do
		grep -qxF -- "$w" "$T/got" || fail "'$line<TAB>': no '$w' in: $(tr '\n' ' ' <"$T/got")"
	done
}
# hasnt LINE WORD...: TAB does not offer WORD
hasnt() {
	local line=$1 w got
	shift
	offers "$line"
	for w in "$@"; do
		! grep -qxF -- "$w" "$T/got" || fail "'$line<TAB>': offers '$w'"
	done
}

expect "cephbench ra" rados
expect "cephbench r" run rados rbd report
has "cephbench " run rados rbd fs cleanup compare history merge report --help --version
expect "cephbench rados --po" --pool
expect "cephbench rados " write seq rand
expect "cephbench rados write " # a SECONDS or flags: nothing to offer
expect "cephbench run q" quick
has "cephbench run " quick health b.yaml sub
hasnt "cephbench run " a.json c.txt
expect "cephbench run quick " # one profile
expect "cephbench run --run-name x q" quick
has "cephbench compare a.json " a.json sub
hasnt "cephbench compare " b.yaml c.txt
expect "cephbench history h.db --add " a.json sub
expect "cephbench merge a.json -o " a.json sub
has "cephbench run quick --json " a.json b.yaml c.txt sub
expect "cephbench report --format " text json csv markdown
expect "cephbench compare --format " text json
expect "cephbench run x --progress " auto always never jsonl
expect "cephbench rbd --io-type " read write readwrite rw
expect "cephbench rbd --io-pattern r" rand
expect "cephbench rados write -p " # no cluster: no pools, nothing on stderr
expect "cephbench rados write --pool b"
expect "cephbench fs -z" -z
has "cephbench fs --" --rw --bs --fs --clients --run-name
expect "cephbench nosuchcommand --"

# each command's flags: those its man page defines
cmds=$("$cb" --help | awk '/^Commands:/ { on = 1; next } on && !NF { exit } on { print $1 }')
for c in $cmds; do
	page=$src/docs/man/cephbench-$c.1.scd
	[ -f "$page" ] || continue # man_flags.sh fails on it
	want=$(sed -n '/^# OPTIONS$/,/^# [^#]/p' "$page" | grep -E '^\*-' |
		grep -oE '\*--?[A-Za-z][A-Za-z0-9-]*\*' | tr -d '*' | sort -u | tr '\n' ' ')
	offers "cephbench $c -"
	got=$(sort -u "$T/got" | tr '\n' ' ')
	[ "$got" = "$want" ] || fail "'cephbench $c -<TAB>': offers '$got', its man page defines '$want'"
done

[ "$fails" -eq 0 ] || {
	echo "completion: $fails failures" >&2
	exit 1
}
echo "completion: ok"
