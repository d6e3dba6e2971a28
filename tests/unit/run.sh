#!/bin/sh
# tests/unit/run.sh PROGRAM... - run the unit programs one after the
# other, show their lines and end with the single line
# "N passed, N failed, N skipped", counted as tests/run.sh counts.  A
# program that exits non-zero without a "not ok" line, or ends without
# its plan "1..N" (it crashed), counts as one failure.
passed=0 failed=0 skipped=0
out=$(mktemp "${TMPDIR:-/tmp}/dump-unit-run.XXXXXX") || exit 1
trap 'rm -f "$out"' EXIT
for prog
do
	echo "*** $prog"
	"./$prog" >"$out" 2>&1
	rc=$?
	sed 's/^/    /' "$out"
	p=$(grep -c '^ok [0-9]* - ' "$out")
	s=$(grep -c '^ok [0-9]* # skip' "$out")
	f=$(grep -c '^not ok [0-9]*' "$out")
	if test "$f" = 0 && { test "$rc" != 0 || ! grep -q '^1\.\.[0-9]' "$out"; }
	then
		echo "    not ok - $prog exited with status $rc or without its plan"
		f=1
	fi
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
done
echo "$passed passed, $failed failed, $skipped skipped"
test "$failed" = 0
