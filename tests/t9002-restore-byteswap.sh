#!/bin/sh
test_description='restore reads archives written in the other byte order

helpers/tapetool swap converts a little-endian archive of a populated
image (every inode kind, hard links, sparse files, xattrs) to big-endian:
headers, c_inos tables and directory entries swapped, checksums recomputed,
data untouched.  The conversion is checked against restore 0.4b47 (it must
say "Note: Doing Byte swapping" and restore the same tree), then our
restore must list and restore the swapped archive exactly as the original.'
. "$(dirname "$0")/lib.sh"
. "$HELPERS/hostile.sh"
. "$HELPERS/byteswap.sh"

test_expect_success ROOT,LOOP,ORACLE,TAPETOOL,PYTHON 'setup: dump a populated image' '
	make_image ext4 fs.img small &&
	dev=$(image_attach fs.img) &&
	"$ORACLE_DUMP" -0 -f native.dump "$dev" 2>dump.err
'

test_expect_success ROOT,LOOP,ORACLE,TAPETOOL,PYTHON 'swapping twice gives the original bytes' '
	swap_twice native.dump swapped.dump back.dump
'

test_expect_success ROOT,LOOP,ORACLE,TAPETOOL,PYTHON 'the swapped archive has the same headers' '
	"$TAPETOOL" list native.dump | sed 1d >list.native &&
	"$TAPETOOL" list swapped.dump >list.swapped.raw &&
	head -n 1 list.swapped.raw | grep "byte-swapped" &&
	sed 1d list.swapped.raw >list.swapped &&
	test_cmp list.native list.swapped &&
	! grep NOTHEADER list.swapped &&
	"$TAPETOOL" ents native.dump | sed 1d >ents.native &&
	"$TAPETOOL" ents swapped.dump | sed 1d >ents.swapped &&
	test_cmp ents.native ents.swapped
'

test_expect_success ROOT,LOOP,ORACLE,TAPETOOL,PYTHON 'restore 0.4b47 swaps and restores the same tree' '
	"$ORACLE_RESTORE" -tvf swapped.dump >oracle.tv 2>&1 </dev/null &&
	grep "^Note: Doing Byte swapping" oracle.tv &&
	"$ORACLE_RESTORE" -tf native.dump >oracle.t.native 2>/dev/null </dev/null &&
	"$ORACLE_RESTORE" -tf swapped.dump >oracle.t.swapped 2>/dev/null </dev/null &&
	test_cmp oracle.t.native oracle.t.swapped &&
	swap_restore "$ORACLE_RESTORE" native.dump oracle-native &&
	swap_restore "$ORACLE_RESTORE" swapped.dump oracle-swapped &&
	test_cmp oracle-native.manifest oracle-swapped.manifest
'

test_expect_success ROOT,LOOP,ORACLE,TAPETOOL,PYTHON,OURRESTORE 'our restore -tv says it swaps' '
	timeout 300 "$RESTORE" -tvf swapped.dump >ours.tv 2>&1 </dev/null &&
	grep "^Note: Doing Byte swapping" ours.tv
'

test_expect_success ROOT,LOOP,ORACLE,TAPETOOL,PYTHON,OURRESTORE 'our restore -t lists the swapped archive like the original' '
	timeout 300 "$RESTORE" -tf native.dump >ours.t.native 2>ours.t.native.err </dev/null &&
	timeout 300 "$RESTORE" -tf swapped.dump >ours.t.swapped 2>ours.t.swapped.err </dev/null &&
	test_cmp ours.t.native ours.t.swapped
'

test_expect_success ROOT,LOOP,ORACLE,TAPETOOL,PYTHON,OURRESTORE 'our restore -r of the swapped archive gives the same tree' '
	swap_restore "$RESTORE" native.dump ours-native &&
	swap_restore "$RESTORE" swapped.dump ours-swapped &&
	test_cmp ours-native.manifest ours-swapped.manifest
'

test_expect_success ROOT,LOOP,ORACLE,TAPETOOL,PYTHON,OURRESTORE 'our restore -x of a subset of the swapped archive' '
	rm -rf sub-native sub-swapped && mkdir sub-native sub-swapped &&
	(cd sub-native && timeout 300 "$RESTORE" -x -a -o -y -f ../native.dump \
		./dir ./names </dev/null) &&
	(cd sub-swapped && timeout 300 "$RESTORE" -x -a -o -y -f ../swapped.dump \
		./dir ./names </dev/null) &&
	manifest sub-native --no-root >sub-native.manifest &&
	manifest sub-swapped --no-root >sub-swapped.manifest &&
	test_cmp sub-native.manifest sub-swapped.manifest &&
	grep "c\\.txt" sub-swapped.manifest
'

test_expect_success ROOT,LOOP,ORACLE,TAPETOOL,PYTHON,OURDUMP,OURRESTORE 'an archive of our dump, swapped, restores the same' '
	"$DUMP" -0 -f ourdump.dump "$dev" 2>ourdump.err &&
	swap_twice ourdump.dump ourdump.swapped ourdump.back &&
	swap_restore "$RESTORE" ourdump.dump od-native &&
	swap_restore "$RESTORE" ourdump.swapped od-swapped &&
	test_cmp od-native.manifest od-swapped.manifest
'

test_done
