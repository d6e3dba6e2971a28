#!/bin/sh
test_description='the unit tier (tests/unit, make check-unit): each program passes'
. "$(dirname "$0")/lib.sh"

# One check per program; its own lines are kept in the trash directory
# (kept when a check fails) and shown by `make check-unit`.
for prog in spcl compress itime options dirs rmt
do
	bin=$TOP/tests/unit/t-$prog
	test -x "$bin" && test_set_prereq "UNIT_$prog"
	test_expect_success "UNIT_$prog" "unit/t-$prog: every check passes" '
		"$TOP/tests/unit/t-'$prog'" >t-'$prog'.out 2>&1 &&
		! grep "^not ok" t-'$prog'.out &&
		grep "^1\.\.[0-9]" t-'$prog'.out
	'
done
test_done
