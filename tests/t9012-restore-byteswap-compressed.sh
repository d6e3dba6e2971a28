#!/bin/sh
test_description='compressed archives written in the other byte order

helpers/tapetool swap converts a compressed little-endian archive of dump
0.4b47 (-z and -j) to big-endian: headers and directories swapped, each
record prefix written in the big-endian writer layout (cprefix.h) and its
payload compressed again.  Swapping back must give the original bytes,
and restore 0.4b47 must restore the swapped archive to the same tree:
that pins both prefix layouts to the real ones.  Our restore must then
restore it the same way.'
. "$(dirname "$0")/lib.sh"
. "$HELPERS/hostile.sh"

test_expect_success ROOT,LOOP,ORACLE,TAPETOOL,PYTHON 'setup: compressed dumps of a tree of several records' '
	mkdir tree tree/d &&
	for i in 1 2 3 4 5
	do
		head -c $((i * 200000)) /dev/urandom >tree/f$i &&
		seq 1 $((i * 30000)) >tree/d/t$i || return 1
	done &&
	mke2fs -q -t ext4 -d tree fs.img 32M &&
	dev=$(image_attach fs.img) &&
	"$ORACLE_DUMP" -0 -z -f native.z "$dev" 2>dump.err &&
	"$ORACLE_DUMP" -0 -j -f native.j "$dev" 2>>dump.err &&
	"$TAPETOOL" swap native.z swapped.z &&
	"$TAPETOOL" swap native.j swapped.j
'

test_expect_success ROOT,LOOP,ORACLE,TAPETOOL,PYTHON 'swapping twice gives the original bytes' '
	"$TAPETOOL" swap swapped.z back.z &&
	cmp native.z back.z &&
	"$TAPETOOL" swap swapped.j back.j &&
	cmp native.j back.j &&
	! cmp -s native.z swapped.z &&
	"$TAPETOOL" records native.z >rec.native &&
	"$TAPETOOL" records swapped.z >rec.swapped &&
	test $(wc -l <rec.native) -gt 10 &&
	test $(wc -l <rec.native) = $(wc -l <rec.swapped)
'

# restore -r of ARCHIVE with RESTORE-BINARY into DIR, then its manifest.
swap_restore() {
	rm -rf "$3" "$3.tmp" && mkdir "$3" "$3.tmp" &&
	(cd "$3" && timeout 300 "$1" -r -y -T "../$3.tmp" -f "../$2" \
		</dev/null) 2>"$3.err" &&
	rm -f "$3/restoresymtable" &&
	manifest "$3" --no-root >"$3.manifest"
}

test_expect_success ROOT,LOOP,ORACLE,TAPETOOL,PYTHON 'restore 0.4b47 restores the swapped archives' '
	swap_restore "$ORACLE_RESTORE" native.z oracle-native &&
	swap_restore "$ORACLE_RESTORE" swapped.z oracle-swapped &&
	test_cmp oracle-native.manifest oracle-swapped.manifest &&
	cmp tree/f5 oracle-swapped/f5 &&
	swap_restore "$ORACLE_RESTORE" swapped.j oracle-swapped-j &&
	test_cmp oracle-native.manifest oracle-swapped-j.manifest
'

test_expect_success ROOT,LOOP,ORACLE,TAPETOOL,PYTHON,OURRESTORE 'our restore restores the swapped archives the same' '
	swap_restore "$RESTORE" swapped.z ours-swapped &&
	test_cmp oracle-native.manifest ours-swapped.manifest &&
	! grep -i "error\|resync\|bad" ours-swapped.err &&
	swap_restore "$RESTORE" swapped.j ours-swapped-j &&
	test_cmp oracle-native.manifest ours-swapped-j.manifest
'

test_done
