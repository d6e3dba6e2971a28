#!/bin/sh
test_description='the fuzz targets replay their corpus

Each fuzz target of tests/fuzz, built without libFuzzer (fuzz/replay-*,
made by make check with the normal compiler; in a sanitizer build under
ASan and UBSan), runs once over every seed of fuzz/corpus/TARGET and
every regression input of fuzz/regress/TARGET: restore reading archives,
directories, EA records and compressed records, dump reading damaged
file-system images.  Any crash or sanitizer report fails the check.'
. "$(dirname "$0")/lib.sh"

FUZZ=$TOP/tests/fuzz
# dump_abort() exits with pass I's buffers held, as dump itself does;
# fuzz_fs comes back from it, so its leaks are not checked.
fs_asan=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0

for t in header dirs ea zrecord fs
do
	if test -x "$FUZZ/replay-$t"
	then
		test_set_prereq "REPLAY_$t"
	fi
	test_expect_success "REPLAY_$t" "fuzz_$t: corpus and regression inputs" '
		set -- "$FUZZ/corpus/'$t'" &&
		if test -d "$FUZZ/regress/'$t'"
		then
			set -- "$@" "$FUZZ/regress/'$t'"
		fi &&
		if test '$t' = fs
		then
			ASAN_OPTIONS=$fs_asan "$FUZZ/replay-fs" "$@" >out 2>&1
		else
			"$FUZZ/replay-'$t'" "$@" >out 2>&1
		fi ||
		{ tail -n 40 out; false; } &&
		n=$(sed -n "s/^\([0-9]*\) inputs run$/\1/p" out) &&
		test "$n" -gt 0
	'
done

test_done
