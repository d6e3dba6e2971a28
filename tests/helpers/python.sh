# tests/helpers/python.sh - sourced by run.sh and lib.sh.
#
# pick_python NAME prints the interpreter the tests run for NAME (what
# $PYTHON says, python3 by default).  The suite starts python3 some 700
# times: for python3 it is the distribution's own interpreter
# (/usr/bin/python3, some 40 ms a start here) rather than the one PATH
# finds first, which may be a version manager's shim (a shell script
# that forks some 200 processes, 480 ms) or an interpreter whose
# site-packages take 90 ms to import; otherwise the interpreter behind
# NAME, asked once.
pick_python() {
	if test "$1" = python3 && test -x /usr/bin/python3
	then
		echo /usr/bin/python3
	else
		"$1" -c 'import sys; print(sys.executable)' 2>/dev/null
	fi
}
