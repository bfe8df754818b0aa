#!/usr/bin/env bash
# No CephFS tree of a run stays behind, and nothing outside /cephbench is
# touched: after kill -9 (by `cephbench cleanup --fs --run-name` and `--all`,
# and by a namesake run taking over), after SIGINT (exit 130), and a live
# run's tree is kept by cleanup and refused to a namesake.
. "$(dirname "$0")/cephfs_lib.sh"

user=/user-data-$RANDOM$RANDOM
bg=
# On exit, even on failure: no run of ours left going, no user data left.
cleanup_exit() {
	if [ -n "$bg" ] && kill -KILL "$bg" 2>/dev/null; then
		wait "$bg" 2>/dev/null || true
	fi
	ftree rm "$user" >/dev/null 2>&1 || true
	cephfs_at_exit
}
trap cleanup_exit EXIT
ftree seed "$user" || fail "cannot seed $user"
before=$(ftree sum "$user")
[ "$(fs_count "$user")" = "dirs 2 files 6" ] || fail "the seed made $(fs_count "$user")"

# A tree run whose file-create phase lasts well past what the test waits:
# 3 dirs x 20000 files.
p=$(cfs_profile long "op: tree, depth: 1, branch: 2, items: 20000, files_only: true")

# Start a run in the background; its pid in $bg.
bg_run() { # RUN-NAME ARGS...
	local run=$1
	shift
	"$CEPHBENCH" run "$p" --conf "$CONF" --run-name "$run" "$@" >"$T/$run.out" 2>"$T/$run.err" &
	bg=$!
}

# Wait until the run has made files in its tree (more than the tree).
wait_for_files() { # RUN-NAME
	wait_for_path "/cephbench/$1/wl/t.0"
	for _ in $(seq 1 100); do
		fs_count "/cephbench/$1" >"$T/count"
		[ "$(cut -d' ' -f4 "$T/count")" -gt 10 ] && return 0
		sleep 0.2
	done
	fail "run $1 made no files: $(cat "$T/count")"
}

# Kill a run with -9 while it creates files; its tree stays.
kill9() { # RUN-NAME
	bg_run "$1" --quiet
	wait_for_files "$1"
	kill -KILL $bg
	wait_bg $bg
	[ "$rc" -eq 137 ] || fail "kill -9 $1: exit $rc; stderr: $(cat "$T/$1.err")"
	fs_exists "/cephbench/$1" || fail "kill -9 $1: /cephbench/$1 is gone: the test did not catch the run"
}

# 1. kill -9, then cleanup --run-name: the tree goes, exit 0.
kill9 k1
# (nothing here looks into the killed run's tree before cleanup: the dead
# client's caps would hold a reader for the MDS's session timeout, a minute,
# until cleanup evicts that session)
start=$SECONDS
cb cleanup --fs "$FS" --run-name k1 --conf "$CONF"
assert_rc 0 "cleanup --run-name after kill -9"
echo "cleanup --run-name after kill -9: $((SECONDS - start)) s"
grep -qF "of run 'k1' from file system $FS" "$T/out" || fail "cleanup k1 said: $(cat "$T/out")"
assert_gone /cephbench/k1 "after kill -9 and cleanup --run-name"

# 2. The same with cleanup --all.
kill9 k2
start=$SECONDS
cb cleanup --fs "$FS" --all --conf "$CONF"
assert_rc 0 "cleanup --all after kill -9"
echo "cleanup --all after kill -9: $((SECONDS - start)) s"
assert_gone /cephbench/k2 "after kill -9 and cleanup --all"
# (/cephbench itself goes when empty; the isolation seed keeps entries there)
[ -z "$(ftree runs /cephbench)" ] || fail "after cleanup --all: runs left: $(ftree runs /cephbench)"

# 3. A namesake run after kill -9 takes the leftovers over: it runs with no
#    error, and its end-of-run cleanup removes everything.
kill9 k3
start=$SECONDS
cb run "$(cfs_profile small "op: tree, depth: 1, branch: 2, items: 4")" --conf "$CONF" \
	--run-name k3 --format json
assert_rc 0 "a namesake run after kill -9"
echo "a namesake run after kill -9: $((SECONDS - start)) s"
rows >"$T/rows"
[ "$(wc -l <"$T/rows")" -eq 10 ] || fail "namesake run: expected 10 rows: $(cat "$T/rows")"
! grep -qv ' 0 [0-9]*$' "$T/rows" || fail "namesake run: errors: $(cat "$T/rows")"
assert_row wl.file-create ops 12 "namesake run"
assert_gone /cephbench/k3 "after the namesake run"

# 4. A live run: cleanup keeps its tree (exit 3, one line), a namesake run
#    is refused; SIGINT then ends it with exit 130 and its tree removed.
bg_run live
wait_for_files live
cb cleanup --fs "$FS" --run-name live --conf "$CONF"
assert_rc 3 "cleanup of a live run"
one_line "cleanup of a live run" "live run" "pid $bg"
fs_exists /cephbench/live/wl/t.0 || fail "cleanup removed a live run's tree"
cb cleanup --fs "$FS" --all --conf "$CONF"
assert_rc 3 "cleanup --all with a live run"
fs_exists /cephbench/live/wl/t.0 || fail "cleanup --all removed a live run's tree"
# (a run directory of its own, as on another host: here the run lock would
# refuse it before it looks at the tree)
CEPHBENCH_RUN_DIR=$T/other-host cb run "$p" --conf "$CONF" --run-name live --quiet
assert_rc 3 "a namesake of a live run"
one_line "a namesake of a live run" "/cephbench/live" "live run (pid $bg)"
kill -0 $bg 2>/dev/null || fail "the live run ended early: $(cat "$T/live.err")"
fs_exists /cephbench/live/wl/t.0 || fail "a refused namesake removed a live run's tree"
kill -INT $bg
wait_bg $bg
[ "$rc" -eq 130 ] || fail "SIGINT: exit $rc, expected 130; stderr: $(cat "$T/live.err")"
grep -q "file-create" "$T/live.out" || fail "SIGINT: no report: $(cat "$T/live.out")"
assert_gone /cephbench/live "after SIGINT"

# 5. A symlink planted in /cephbench (to the user's data) is never followed:
#    cleanup --all and --run-name leave it and what it points to, with a
#    note (cephfs_marks.sh has more of these).
cb run "$(cfs_profile small "op: tree, depth: 1, branch: 2, items: 4")" --conf "$CONF" \
	--run-name sl --no-cleanup --quiet
assert_rc 0 "a run kept for the symlink case"
ftree symlink /cephbench/evil "$user" || fail "cannot plant /cephbench/evil"
cb cleanup --fs "$FS" --all --conf "$CONF"
assert_rc 0 "cleanup --all beside a symlink"
assert_gone /cephbench/sl "cleanup --all beside a symlink"
fs_exists /cephbench/evil || fail "cleanup --all removed the symlink /cephbench/evil"
cb cleanup --fs "$FS" --run-name evil --conf "$CONF"
assert_rc 0 "cleanup --run-name of a symlink"
[ ! -s "$T/err" ] || fail "cleanup --run-name of a symlink: stderr: $(cat "$T/err")"
grep -qF "cephfs: left 1 entry of /cephbench" "$T/out" && grep -qF "evil (not a directory)" "$T/out" ||
	fail "cleanup --run-name of a symlink: no note: $(cat "$T/out")"
fs_exists /cephbench/evil || fail "cleanup --run-name removed the symlink /cephbench/evil"
ftree unlink /cephbench/evil || fail "cannot remove /cephbench/evil"

# The user's data outside /cephbench: untouched by all of it.
[ "$(ftree sum "$user")" = "$before" ] || fail "$user changed: $before, now $(ftree sum "$user")"
echo "cephfs_cleanup: ok"
