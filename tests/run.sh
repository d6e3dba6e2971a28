#!/bin/sh
# tests/run.sh [SCRIPT...] - run the test scripts one after the other
# (all tests/t[0-9]*.sh by default), show each script's result lines and
# end with the single line "N passed, N failed, N skipped".
#
# Counting (see tests/README): "ok" = passed; "ok ... # skip" = skipped
# (missing prerequisite or known upstream defect of dump 0.4b47);
# "not ok" = failed, including our own known breakages
# (test_expect_failure), so they are never hidden. A script that exits
# non-zero without any "not ok" line (it crashed) counts as one failure.
# Exit status: 0 when nothing failed, 1 otherwise.
here=$(cd "$(dirname "$0")" && pwd)
if test $# = 0
then
	set -- "$here"/t[0-9]*.sh
fi
passed=0 failed=0 skipped=0
out=$(mktemp "${TMPDIR:-/tmp}/dumptest-run.XXXXXX") || exit 1
trap 'rm -f "$out"' EXIT
for script
do
	test -f "$script" || continue
	name=$(basename "$script")
	echo "*** $name"
	started=$(date +%s)
	# A hung script must not eat the whole CI run: each gets a time
	# limit (SCRIPT_TIMEOUT seconds, default 1200) and counts as failed
	# when it is killed.  Each runs in a session of its own, without a
	# controlling terminal, so that no program under test can stop to ask
	# a question on the developer's /dev/tty.
	setsid -w timeout -k 10 "${SCRIPT_TIMEOUT:-1200}" sh "$script" </dev/null >"$out" 2>&1
	rc=$?
	sed 's/^/    /' "$out"
	p=$(grep -c '^ok [0-9]* - ' "$out")
	s=$(grep -c '^ok [0-9]* # skip' "$out")
	f=$(grep -c '^not ok [0-9]*' "$out")
	if test "$rc" != 0 && test "$f" = 0
	then
		echo "    not ok - $name exited with status $rc"
		f=1
	fi
	echo "    ($(( $(date +%s) - started )) s)"
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
done
echo "$passed passed, $failed failed, $skipped skipped"
test "$failed" = 0
