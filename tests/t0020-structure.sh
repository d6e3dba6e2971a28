#!/bin/sh
test_description='the source tree keeps the shape a newcomer can follow

No C source file of the programs is above 800 lines; the files of each
program form layers (no circle of files calling each other, from the
objects'"'"' symbol tables); comments cite documents that are in the
repository (doc/, README.md, CONTRIBUTING.md), never a document outside
it; code, build files and tests name no person and no issue number;
every C file is laid out as .clang-format says (where clang-format is
installed).  Needs no root: it reads the sources and the built objects.'
. "$(dirname "$0")/lib.sh"

# The programs' sources: everything a user's binary is built from.
sources() {
	for d in common compat dump restore rmt
	do
		ls "$TOP/$d"/*.c "$TOP/$d"/*.h 2>/dev/null
	done
}

test_expect_success 'no C file of the programs is above 800 lines' '
	sources | while read -r f
	do
		n=$(wc -l <"$f") &&
		if test "$n" -gt 800
		then
			echo "${f#$TOP/}: $n lines"
		fi || return 1
	done >long &&
	test_cmp /dev/null long
'

test_have_prereq PYTHON && command -v nm >/dev/null 2>&1 &&
	test -f "$TOP/dump/main.o" && test -f "$TOP/restore/main.o" &&
	test_set_prereq OBJECTS

for prog in dump restore rmt common
do
	test_expect_success OBJECTS "$prog: no circle of files calling each other" '
		(cd "$TOP" && "$PYTHON" tests/helpers/filecycles.py '"$prog"'/*.o) >circles ||
		{ cat circles; false; }
	'
done

test_expect_success 'comments cite only documents in the repository' '
	(cd "$TOP" && sources | sed "s|^$TOP/||" && ls Makefile.in */Makefile.in \
		tests/*.sh tests/helpers/*.py tests/helpers/*.sh tests/helpers/*.c \
		tests/unit/*.[ch] tests/fuzz/*.[ch] bench/*.sh bench/*.c scripts/*.sh 2>/dev/null) | sort -u >files &&
	(cd "$TOP" && xargs grep -noE "[A-Za-z0-9_./-]+\.md\b" <"$TRASH_DIRECTORY/files") |
		while IFS=: read -r file line doc
		do
			case $doc in
			/*|./*) ;;	# a path on an installed system
			*) test -f "$TOP/$doc" || echo "$file:$line: $doc" ;;
			esac
		done >cited &&
	test_cmp /dev/null cited
'

test_expect_success 'no person and no issue number in code, build files and tests' '
	(cd "$TOP" && xargs grep -niE "engineer [A-Z]\b|issue [0-9]+|\bticket [0-9]+" \
		<"$TRASH_DIRECTORY/files") >named || true &&
	test_cmp /dev/null named
'

command -v clang-format >/dev/null 2>&1 && test_set_prereq CLANG_FORMAT

test_expect_success CLANG_FORMAT 'every C file is laid out as .clang-format says' '
	(cd "$TOP" && ls common/*.[ch] compat/*.[ch] dump/*.[ch] restore/*.[ch] \
		rmt/*.[ch] tests/unit/*.[ch] tests/fuzz/*.[ch] tests/helpers/*.[ch] \
		bench/*.c 2>/dev/null) >cfiles &&
	(cd "$TOP" && xargs clang-format --dry-run) <cfiles >unformatted 2>&1 &&
	test_cmp /dev/null unformatted
'

test_done
