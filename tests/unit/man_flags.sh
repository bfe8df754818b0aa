#!/usr/bin/env bash
# The man pages against the binary: for cephbench and each of its commands
# (the Commands: of `cephbench --help`), the long and short flags its
# --help names are exactly those its page's OPTIONS define
# (docs/man/cephbench-CMD.1.scd, cephbench.1.scd); every page passes scdoc
# and renders through man without a groff warning; a page of a command
# that no longer exists fails. Each difference is one line naming the
# command and the flag. Then the check itself on a page made wrong both
# ways, which must fail naming the flag.
# usage: man_flags.sh CEPHBENCH SOURCE_DIR
set -uo pipefail
cb=${1:?usage: man_flags.sh CEPHBENCH SOURCE_DIR}
src=${2:?usage: man_flags.sh CEPHBENCH SOURCE_DIR}
man_dir=$src/docs/man
. "$(dirname "$0")/cli-lib.sh"

# The flags a command's help defines, one a line, sorted: the words
# --long and -X of its usage lines and its option lines (those starting
# with blanks and a '-'; prose names other commands' flags too, "written
# by --json"), at a line's start or after a blank, '[', '(', '|', ',' or a
# quote (so not the '-lock' of exclusive-lock, nor the '-1000' of 3-1000).
help_flags() {
	grep -E '^(usage: | +cephbench | *-)' | words
}
words() {
	grep -oE "(^|[][ (|,'\`])--?[A-Za-z][A-Za-z0-9-]*" |
		sed -E "s/^[][ (|,'\`]//" |
		grep -E '^(--[A-Za-z][A-Za-z0-9-]*|-[A-Za-z])$' | sort -u
}

# The flags a page defines: the *-X* and *--long* words of the term lines
# (those starting with *-) of its OPTIONS section, up to the next section;
# its ## subsections are part of it.
page_flags() {
	sed -n '/^# OPTIONS$/,/^# [^#]/p' "$1" | grep -E '^\*-' |
		grep -oE '\*--?[A-Za-z][A-Za-z0-9-]*\*' | tr -d '*' | sort -u
}

# compare WHO HELP_FILE PAGE: one failure per flag on one side only
# (cephbench's own help: every word but those of its Commands: list)
compare() {
	local who=$1 help=$2 page=$3 f
	if [ "$who" = cephbench ]; then
		sed '/^Commands:/,/^$/d' "$help" | words >"$T/h"
	else
		help_flags <"$help" >"$T/h"
	fi
	page_flags "$page" >"$T/p"
	[ -s "$T/h" ] || fail "$who: no flags found in its --help"
	while IFS= read -r f; do
		fail "$who: $f is in '$who --help' but not in the OPTIONS of $(basename "$page")"
	done < <(grep -Fxv -f "$T/p" "$T/h")
	while IFS= read -r f; do
		fail "$who: $f is in the OPTIONS of $(basename "$page") but not in '$who --help'"
	done < <(grep -Fxv -f "$T/h" "$T/p")
}

# A page must be scdoc's and render without a warning.
render() {
	local page=$1 name
	name=$(basename "$page" .scd)
	if ! scdoc <"$page" >"$T/$name" 2>"$T/err"; then
		fail "$(basename "$page"): scdoc: $(cat "$T/err")"
		return
	fi
	MANWIDTH=80 MANPAGER=cat man --warnings -l "$T/$name" >/dev/null 2>"$T/err"
	[ ! -s "$T/err" ] || fail "$(basename "$page"): man --warnings: $(cat "$T/err")"
}

"$cb" --help >"$T/help" || fail "cephbench --help: exit $?"
cmds=$(sed -n '/^Commands:/,/^$/p' "$T/help" | awk 'NF && !/^Commands:/ { print $1 }')
[ -n "$cmds" ] || fail "no commands in 'cephbench --help'"
compare cephbench "$T/help" "$man_dir/cephbench.1.scd"
for c in $cmds; do
	page=$man_dir/cephbench-$c.1.scd
	if [ ! -f "$page" ]; then
		fail "cephbench $c: no man page (docs/man/cephbench-$c.1.scd)"
		continue
	fi
	if ! "$cb" "$c" --help >"$T/help.$c" 2>"$T/err"; then
		fail "cephbench $c --help: exit $?: $(cat "$T/err")"
		continue
	fi
	compare "cephbench $c" "$T/help.$c" "$page"
done
for page in "$man_dir"/*.scd; do
	render "$page"
	c=$(basename "$page" .1.scd)
	c=${c#cephbench-}
	case $page in
	*/cephbench.1.scd | *.5.scd) ;;
	*) grep -qx -- "$c" <<<"$cmds" || fail "$(basename "$page"): no command '$c' in 'cephbench --help'" ;;
	esac
done

# The check itself: the run page without --dry-run and with a --bogus
# flag must fail on both, naming them.
before=$fails
sed -e '/^\*--dry-run\*/,/^$/d' "$man_dir/cephbench-run.1.scd" >"$T/wrong.scd"
printf '# OPTIONS\n\n*--bogus*\n\tnot a flag.\n' >>"$T/wrong.scd"
"$cb" run --help >"$T/help.run"
compare "cephbench run" "$T/help.run" "$T/wrong.scd" 2>"$T/self"
got=$((fails - before))
fails=$before
[ "$got" -eq 2 ] || fail "the check on a page made wrong: $got failures, want 2: $(cat "$T/self")"
for want in "--dry-run is in 'cephbench run --help' but not" "--bogus is in the OPTIONS of wrong.scd but not"; do
	grep -qF -- "$want" "$T/self" || fail "the check on a page made wrong: no '$want' in: $(cat "$T/self")"
done

[ "$fails" -eq 0 ] || {
	echo "man_flags: $fails failures" >&2
	exit 1
}
echo "man_flags: ok ($(wc -w <<<"$cmds") commands)"
