#!/bin/sh
# tests/run.sh [-j JOBS] [SCRIPT...] - run the test scripts (all
# tests/t[0-9]*.sh by default), JOBS of them at a time, show each
# script's result lines as it finishes and end with the single line
# "N passed, N failed, N skipped".
#
# JOBS: -j, else $TEST_JOBS, else one more than the number of processors:
# some scripts spend much of their time waiting (Amanda's scheduler, a
# terminal, ssh), and a script more keeps the processors busy then (on 2
# cores: 504 s against 538 s for the whole suite). The scripts are
# independent: each has its own trash directory, loop devices and
# mounts, and the few that change the machine itself (packages,
# /sbin/dump) serialise themselves with test_lock_system (lib.sh). The
# longest scripts start first (tests/durations) so that no long script is
# left alone at the end.
#
# Counting (see tests/README): "ok" = passed; "ok ... # skip" = skipped
# (missing prerequisite or known upstream defect of dump 0.4b47);
# "not ok" = failed, including our own known breakages
# (test_expect_failure), so they are never hidden. A script that exits
# non-zero without any "not ok" line (it crashed) counts as one failure.
# Exit status: 0 when nothing failed, 1 otherwise.
here=$(cd "$(dirname "$0")" && pwd)

# run_one RESULTS SCRIPT: run one script into RESULTS/NAME.out, count its
# lines into RESULTS/NAME.count and print its block in one piece.
run_one() {
	name=$(basename "$2" .sh)
	started=$(date +%s)
	# A hung script must not eat the whole CI run: each gets a time
	# limit (SCRIPT_TIMEOUT seconds, default 1200) and counts as failed
	# when it is killed.  Each runs in a session of its own, without a
	# controlling terminal, so that no program under test can stop to ask
	# a question on the developer's /dev/tty.
	# The session's id is the pid of timeout (setsid forks only for a
	# process group leader, which a job of this shell is not): an
	# interrupted run.sh stops every script through it.
	setsid -w timeout -k 10 "${SCRIPT_TIMEOUT:-1200}" sh "$2" \
		</dev/null >"$1/$name.out" 2>&1 &
	echo $! >"$1/$name.pid"
	wait $!
	rc=$?
	test -d "$1" || exit 0	# the whole run was interrupted
	rm -f "$1/$name.pid"
	p=$(grep -c '^ok [0-9]* - ' "$1/$name.out")
	s=$(grep -c '^ok [0-9]* # skip' "$1/$name.out")
	f=$(grep -c '^not ok [0-9]*' "$1/$name.out")
	if test "$rc" != 0 && test "$f" = 0
	then
		echo "not ok - $name.sh exited with status $rc" >>"$1/$name.out"
		f=1
	fi
	echo "$p $s $f $(( $(date +%s) - started ))" >"$1/$name.count"
	{
		flock 9
		echo "*** $name.sh"
		sed 's/^/    /' "$1/$name.out"
		echo "    ($(( $(date +%s) - started )) s)"
	} 9>>"$1/print.lock"
}

if test "${1:-}" = --one
then
	run_one "$2" "$3"
	exit 0
fi

jobs=${TEST_JOBS:-}
if test "${1:-}" = -j
then
	jobs=$2
	shift 2
fi
case "$jobs" in
''|*[!0-9]*|0) jobs=$(( $(nproc 2>/dev/null || echo 1) + 1 )) ;;
esac
if test $# = 0
then
	set -- "$here"/t[0-9]*.sh
fi

# The interpreter the scripts use (helpers/python.sh), chosen once here
# for the whole run.
if test -z "${PYTHON:-}"
then
	. "$here/helpers/python.sh"
	run_py=$(pick_python python3)
	test -x "$run_py" && PYTHON=$run_py && export PYTHON
fi

results=$(mktemp -d "${TMPDIR:-/tmp}/dumptest-run.XXXXXX") || exit 1
# The test images of this run, each built once (lib.sh, make_image).
mkdir "$results/images" || exit 1
TEST_IMAGE_CACHE=$results/images
export TEST_IMAGE_CACHE
pool=
trap 'rm -rf "$results"' EXIT
# Interrupted: stop the scripts still running (each cleans up its loop
# devices and mounts on TERM), then go.
stop_scripts() {
	test -z "$pool" || kill "$pool" 2>/dev/null	# start no more
	# twice: a script started just now has its pid file a moment later
	for round in 1 2
	do
		for pidfile in "$results"/*.pid
		do
			# /bin/kill: the shell's own kill may not take a group
			test -f "$pidfile" && /bin/kill -TERM -- "-$(cat "$pidfile")" 2>/dev/null
		done
		test "$round" = 2 || sleep 1
	done
	exit 130
}
trap stop_scripts INT TERM

# Longest first: "SECONDS PATH" for every script that exists (unknown
# ones count as long: better started early than found late), sorted.
for script
do
	test -f "$script" || continue
	name=$(basename "$script" .sh)
	secs=$(awk -v n="$name" '$1 == n { print $2 }' "$here/durations" 2>/dev/null)
	echo "${secs:-600} $script"
done | sort -k1,1nr -k2 | cut -d' ' -f2- >"$results/order"

started=$(date +%s)
echo "running $(wc -l <"$results/order") script(s), $jobs at a time"
# In the background, so that the traps above run as soon as a signal
# comes (a shell runs them only between its own commands).
tr '\n' '\0' <"$results/order" |
	xargs -0 -n 1 -P "$jobs" sh "$here/run.sh" --one "$results" &
pool=$!
wait $pool

passed=0 failed=0 skipped=0 failures=
while read -r script
do
	name=$(basename "$script" .sh)
	if test -f "$results/$name.count"
	then
		read -r p s f secs <"$results/$name.count"
	else
		p=0 s=0 f=1
	fi
	passed=$((passed + p)) skipped=$((skipped + s)) failed=$((failed + f))
	test "$f" = 0 || failures="$failures $name.sh"
done <"$results/order"
# TEST_DURATIONS=FILE: write this run's seconds per script to FILE in
# the layout of tests/durations (longest first; the scripts left out
# keep their old figure): TEST_DURATIONS=$PWD/tests/durations refreshes
# the schedule after a whole run on a quiet machine.
if test -n "${TEST_DURATIONS:-}"
then
	{
		sed -n '/^#/p' "$here/durations"
		{
			for count in "$results"/*.count
			do
				read -r p s f secs <"$count" &&
				echo "$(basename "$count" .count) $secs"
			done
			# the scripts this run left out keep their old figure
			grep -v '^#' "$here/durations" | while read -r name secs
			do
				test -f "$results/$name.count" || echo "$name $secs"
			done
		} | sort -k2,2nr -k1,1
	} >"$results/durations" && cp "$results/durations" "$TEST_DURATIONS"
fi
test -z "$failures" || echo "failed in:$failures"
echo "wall time $(( $(date +%s) - started )) s"
echo "$passed passed, $failed failed, $skipped skipped"
test "$failed" = 0
