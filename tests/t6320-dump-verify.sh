#!/bin/sh
test_description='dump --verify: each volume read back before it is reported complete

With --verify dump reads every finished volume back from its file (its
cached pages dropped) and checks headers, block maps and the data
checksums of the header extension before the "Volume N completed"
lines: plain, compressed and multi-volume dumps verify.  A byte that the
disk keeps different from what was written (helpers/flipsync.c flips it
just before the fsync) is found: the volume, block and inode are named,
the dump aborts with status 3 and leaves dumpdates alone.  Outputs that
cannot be read back as files are refused before anything is read.'
. "$(dirname "$0")/lib.sh"

CC=${CC:-cc}
command -v "$CC" >/dev/null && test_set_prereq CC
# A sanitizer build wants its runtime first among the preloads.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
export ASAN_OPTIONS

test_expect_success ROOT,CC,OURDUMP 'setup: an image of files over many headers, the flip shim' '
	"$CC" -shared -fPIC -o flipsync.so "$HELPERS/flipsync.c" -ldl &&
	mkdir tree &&
	for i in 1 2 3 4; do head -c $((i * 400000)) /dev/urandom >tree/f$i || return 1; done &&
	seq 1 30000 >tree/seq &&
	mke2fs -q -t ext4 -d tree fs.img 32M
'

for z in plain -z -j
do
	test_expect_success ROOT,OURDUMP,OURRESTORE "$z: the volume verifies, then is reported complete" '
		opt='"$z"' && test "$opt" = plain && opt= ;
		"$DUMP" -0 $opt --verify -f v.dump fs.img 2>v.err &&
		grep -n "Volume 1 verified: every header and data checksum right\$" v.err >a &&
		grep -n "Volume 1 completed at" v.err >b &&
		test "$(cut -d: -f1 a)" -lt "$(cut -d: -f1 b)" &&
		grep -x "  DUMP: DUMP IS DONE" v.err &&
		"$RESTORE" --verify -f v.dump >/dev/null 2>&1
	'
done

test_expect_success ROOT,OURDUMP,OURRESTORE 'four compressed volumes of a size limit each verify' '
	"$DUMP" -0 -z -M -B 1200 --verify -f mv. fs.img 2>mv.err &&
	test -f mv.004 &&
	n=$(ls mv.0* | wc -l) &&
	test "$(grep -c "^  DUMP: Volume [0-9]* verified: every header and data checksum right\$" mv.err)" = "$n" &&
	grep -x "  DUMP: DUMP IS DONE" mv.err &&
	"$RESTORE" --verify -M -f mv. >/dev/null 2>&1
'

test_expect_success ROOT,CC,OURDUMP 'a byte the disk keeps otherwise: named, status 3, no dumpdates line' '
	: >flip.dump &&
	{ env LD_PRELOAD="$TRASH_DIRECTORY/flipsync.so" \
		FLIPSYNC_FILE="$TRASH_DIRECTORY/flip.dump" FLIPSYNC_OFFSET=$((1500 * 1024 + 77)) \
		"$DUMP" -0 -u -D "$PWD/dd" --verify -f flip.dump fs.img 2>flip.err; rc=$?; } &&
	test "$rc" = 3 &&
	grep "^  DUMP: Volume 1, block [0-9]*: the data before this header does not match its checksum (inode [0-9]*)\$" flip.err &&
	grep -x "  DUMP: Volume 1 FAILED verification: 1 problem(s) above" flip.err &&
	grep -x "  DUMP: The archive read back does not verify" flip.err &&
	grep -x "  DUMP: The ENTIRE dump is aborted." flip.err &&
	! grep "DUMP IS DONE" flip.err &&
	! test -s dd
'

test_expect_success ROOT,OURDUMP 'outputs that cannot be read back as files are refused first' '
	for out in - /dev/null
	do
		{ "$DUMP" -0 --verify -f "$out" fs.img >/dev/null 2>r.err; rc=$?; } &&
		test "$rc" = 1 &&
		grep "^  DUMP: --verify reads each volume back from a file: not from " r.err &&
		! grep "Dumping" r.err || return 1
	done
'

test_done
