#!/bin/sh
test_description='compressed archives written in the other byte order

helpers/tapetool swap converts a compressed little-endian archive of dump
0.4b47 (-z and -j) to big-endian: headers and directories swapped, each
record prefix written in the big-endian writer layout (cprefix.h) and its
payload compressed again.  Swapping back must give the original bytes,
and restore 0.4b47 must restore the swapped archive to the same tree:
that pins both prefix layouts to the real ones.  Our restore must then
restore it the same way, and restore -P must give for each file the
start of the same record in either byte order, from which restore -Q
then finds the file.'
. "$(dirname "$0")/lib.sh"
. "$HELPERS/hostile.sh"
. "$HELPERS/byteswap.sh"

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
	"$ORACLE_DUMP" -0 -j -f native.j "$dev" 2>>dump.err
'

test_expect_success ROOT,LOOP,ORACLE,TAPETOOL,PYTHON 'swapping twice gives the original bytes' '
	swap_twice native.z swapped.z back.z &&
	swap_twice native.j swapped.j back.j &&
	"$TAPETOOL" records native.z >rec.native &&
	"$TAPETOOL" records swapped.z >rec.swapped &&
	test $(wc -l <rec.native) -gt 10 &&
	test $(wc -l <rec.native) = $(wc -l <rec.swapped)
'

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

# record_index RECORDS POSFILE: the position lines of POSFILE with each
# byte offset replaced by the index of the record starting there (0: the
# raw first record; "none": no record starts there).
record_index() {
	tail -n +6 "$2" | awk -v recs="$1" '
	BEGIN { while ((getline l < recs) > 0) { split(l, f, " "); at[f[2]] = f[1] } }
	{ split($0, f, "\t"); i = f[3] == 0 ? 0 : (f[3] in at ? at[f[3]] : "none");
	  print f[1], f[2], i }'
}

test_expect_success ROOT,LOOP,ORACLE,TAPETOOL,PYTHON,OURRESTORE 'restore -P gives the same records in either byte order' '
	"$RESTORE" -P pos.native -f native.z 2>/dev/null &&
	"$RESTORE" -P pos.swapped -f swapped.z 2>/dev/null &&
	record_index rec.native pos.native >idx.native &&
	record_index rec.swapped pos.swapped >idx.swapped &&
	test $(wc -l <idx.native) -ge 10 &&
	! grep " none\$" idx.native &&
	test $(awk "\$3 > 1" idx.native | wc -l) -ge 5 &&
	test_cmp idx.native idx.swapped
'

test_expect_success ROOT,LOOP,ORACLE,TAPETOOL,PYTHON,OURRESTORE 'restore -Q with those positions seeks to the file' '
	mkdir xq &&
	(cd xq && "$RESTORE" -x -d -Q ../pos.swapped -f ../swapped.z ./f5 \
		</dev/null >/dev/null 2>../xq.err) &&
	cmp tree/f5 xq/f5 && test ! -e xq/f4 &&
	grep "^QFA: inode [0-9]* at volume 1 position [1-9]" xq.err
'

test_done
