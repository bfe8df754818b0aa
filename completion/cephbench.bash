# bash completion for cephbench: the commands, each command's flags, read
# from `cephbench CMD --help` at each TAB so they follow the binary; files
# where a flag or an argument takes one (profiles *.yaml, results *.json);
# the installed profiles' names for run and doctor
# (PREFIX/share/cephbench/profiles/*.yaml beside PREFIX/bin/cephbench); the
# cluster's pools after -p/--pool when it answers within 3 s. Installed as
# share/bash-completion/completions/cephbench; tests/unit/completion.sh.

# The cephbench the line runs: its first word when that is a command, else
# the one on PATH.
_cephbench_bin() {
	command -v -- "${COMP_WORDS[0]}" 2>/dev/null || command -v cephbench 2>/dev/null
}

# A help text's flags, "FLAG METAVAR" a line (METAVAR "-": a switch), from
# its usage and option lines; "-p, --pool POOL" gives both the POOL, and
# a flag with a METAVAR anywhere takes a value.
_cephbench_flags() {
	awk '/^(usage: | +cephbench | *-)/ {
		n = split($0, w, /[ \t]+/)
		pend = ""
		for (i = 1; i <= n; i++) {
			t = w[i]
			sub(/^[[(]+/, "", t)
			sub(/[:.)\]]+$/, "", t)
			if (t !~ /^(--[A-Za-z][A-Za-z0-9-]*|-[A-Za-z]),?$/)
				continue
			if (t ~ /,$/) {
				sub(/,$/, "", t)
				pend = pend " " t
				continue
			}
			v = w[i + 1]
			sub(/[,:\])]+$/, "", v)
			if (v !~ /^[A-Z][A-Za-z0-9._=\/-]*$/)
				v = "-"
			pend = pend " " t
			m = split(pend, p, " ")
			for (k = 1; k <= m; k++)
				if (!(p[k] in meta) || meta[p[k]] == "-")
					meta[p[k]] = v
			pend = ""
		}
	}
	END {
		# "--client NAME ... (also --id, --name)": the aliases take NAME too
		if ("--client" in meta)
			meta["--id"] = meta["--name"] = meta["--client"]
		for (f in meta)
			print f, meta[f]
	}' | sort
}

# COMPREPLY: files matching the globs given (all files when none), and
# directories to go down into.
_cephbench_files() {
	local g
	compopt -o filenames 2>/dev/null
	if [ $# -eq 0 ]; then
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		return
	fi
	mapfile -t COMPREPLY < <(compgen -d -- "$cur")
	for g in "$@"; do
		mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -f -X "!$g" -- "$cur")
	done
}

# The pools of the cluster the line's --conf/--keyring/--client name,
# nothing when it does not answer within 3 s.
_cephbench_pools() {
	local i w v args=()
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]} v=${COMP_WORDS[i + 1]}
		case $w in
		-c | --conf) args+=(--conf "$v") ;;
		--keyring) args+=(--keyring "$v") ;;
		--client | --id | --name)
			if [[ $v == *.* ]]; then args+=(--name "$v"); else args+=(--id "$v"); fi
			;;
		esac
	done
	timeout 3 ceph "${args[@]}" osd pool ls 2>/dev/null </dev/null
}

# The names of the profiles installed beside the binary: PREFIX/bin's
# PREFIX, and the symlink's target's (where the binary itself looks).
_cephbench_profiles() {
	local bin f
	for bin in "$1" "$(readlink -f -- "$1")"; do
		for f in "$(dirname -- "$bin")"/../share/cephbench/profiles/*.yaml; do
			[ -f "$f" ] || continue
			f=${f##*/}
			echo "${f%.yaml}"
		done
	done | sort -u
}

_cephbench() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local bin cmd spec meta words i npos=0
	COMPREPLY=()
	bin=$(_cephbench_bin) || return 0
	if [ "$COMP_CWORD" -eq 1 ]; then
		words=$("$bin" --help 2>/dev/null | awk '/^Commands:/ { on = 1; next }
			on && !NF { exit } on { print $1 }')
		mapfile -t COMPREPLY < <(compgen -W "$words --help --version" -- "$cur")
		return 0
	fi
	cmd=${COMP_WORDS[1]}
	spec=$("$bin" "$cmd" --help 2>/dev/null | _cephbench_flags)
	[ -n "$spec" ] || return 0

	# the value of a flag
	meta=$(awk -v f="$prev" '$1 == f { print $2; exit }' <<<"$spec")
	if [ -n "$meta" ] && [ "$meta" != - ]; then
		case $prev in
		-p | --pool | --data-pool)
			mapfile -t COMPREPLY < <(compgen -W "$(_cephbench_pools)" -- "$cur")
			;;
		--format)
			words=$("$bin" "$cmd" --help 2>/dev/null | grep -E -- "--format" |
				grep -oE '\b(text|json|csv|markdown)\b' | sort -u)
			mapfile -t COMPREPLY < <(compgen -W "$words" -- "$cur")
			;;
		--preflight) mapfile -t COMPREPLY < <(compgen -W "ok warn any" -- "$cur") ;;
		--progress) mapfile -t COMPREPLY < <(compgen -W "auto always never jsonl" -- "$cur") ;;
		--io-type) mapfile -t COMPREPLY < <(compgen -W "read write readwrite rw" -- "$cur") ;;
		--io-pattern) mapfile -t COMPREPLY < <(compgen -W "seq rand" -- "$cur") ;;
		--cache) mapfile -t COMPREPLY < <(compgen -W "off writethrough writeback" -- "$cur") ;;
		--rw) mapfile -t COMPREPLY < <(compgen -W "read write randread randwrite" -- "$cur") ;;
		*)
			case $meta in
			*.json) _cephbench_files '*.json' ;;
			FILE | PAGE) _cephbench_files ;;
			esac
			;;
		esac
		return 0
	fi
	if [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "$(awk '{ print $1 }' <<<"$spec")" -- "$cur")
		return 0
	fi

	# an argument: how many came before this one (flags and their values skipped)
	for ((i = 2; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-*)
			meta=$(awk -v f="${COMP_WORDS[i]}" '$1 == f { print $2; exit }' <<<"$spec")
			[ -n "$meta" ] && [ "$meta" != - ] && i=$((i + 1))
			;;
		*) npos=$((npos + 1)) ;;
		esac
	done
	case $cmd in
	run | doctor)
		[ "$npos" -eq 0 ] || return 0
		_cephbench_files '*.yaml' '*.yml'
		mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -W "$(_cephbench_profiles "$bin")" -- "$cur")
		;;
	rados)
		[ "$npos" -eq 0 ] && mapfile -t COMPREPLY < <(compgen -W "write seq rand" -- "$cur")
		;;
	compare | merge | report) _cephbench_files '*.json' ;;
	history) [ "$npos" -eq 0 ] && _cephbench_files ;;
	esac
	return 0
}
complete -F _cephbench cephbench
