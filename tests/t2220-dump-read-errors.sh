#!/bin/sh
test_description='dump goes on past unreadable blocks (EIO)

A disk with bad sectors is played by helpers/eiofault.c, preloaded: it
fails with EIO every read of the loop device that touches the given byte
ranges (two ranges inside one file'"'"'s data).  dump must report each
range on one "  DUMP: " line holding "error", dump it as zeros, count the
ranges in a closing line, finish with status 0 (4 with --strict), and
archive what 0.4b47 archives.  Where the kernel has device-mapper, the
same is checked through an "error" target.'
. "$(dirname "$0")/lib.sh"

CC=${CC:-cc}
command -v "$CC" >/dev/null && test_set_prereq CC
SHIM=$TRASH_DIRECTORY/eiofault.so
# A sanitizer build wants its runtime first among the preloads.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
export ASAN_OPTIONS
P=ROOT,LOOP,CC

# eio CMD...: CMD with reads of $dev failing over $ranges.
eio() {
	env LD_PRELOAD="$SHIM" EIOFAULT_PATH="$dev" EIOFAULT_RANGES="$ranges" \
		"$@"
}

test_expect_success $P 'setup: a file system, its bad ranges, the shim' '
	"$CC" -shared -fPIC -o "$SHIM" "$HELPERS/eiofault.c" -ldl &&
	mkdir src &&
	head -c 2097152 /dev/urandom >src/big &&
	echo small >src/small &&
	mke2fs -q -F -t ext4 -b 4096 -d src fs.img 16M &&
	first=$(debugfs -R "stat /big" fs.img 2>/dev/null |
		sed -n "s/^(0-511):\([0-9]*\)-[0-9]*\$/\1/p") &&
	test -n "$first" &&
	dev=$(image_attach fs.img) &&
	# file blocks 100-101 and 300: two ranges, 8 KiB and 4 KiB
	b1=$((first + 100)) b2=$((first + 300)) &&
	ranges=$((b1 * 4096)):8192,$((b2 * 4096)):4096 &&
	cp src/big expected &&
	dd if=/dev/zero of=expected bs=4096 seek=100 count=2 conv=notrunc &&
	dd if=/dev/zero of=expected bs=4096 seek=300 count=1 conv=notrunc &&
	test_must_fail eio dd if="$dev" of=/dev/null bs=4096 skip=$b1 count=1 &&
	eio dd if="$dev" of=/dev/null bs=4096 skip=$((b1 - 1)) count=1
'

test_expect_success $P,OURDUMP 'each unreadable range: one line, zeros, status 0' '
	eio "$DUMP" -0 -f ours.dump "$dev" </dev/null 2>ours.err &&
	grep "DUMP IS DONE" ours.err &&
	# slaves read in parallel: the lines may come in either order
	grep "error" ours.err | sort >errors &&
	cat >expected.errors <<-EOF &&
	  DUMP: read error from $dev: Input/output error: [sector $((b1 * 8)), ext2blk $b1]: count=8192, dumped as zeros
	  DUMP: read error from $dev: Input/output error: [sector $((b2 * 8)), ext2blk $b2]: count=4096, dumped as zeros
	EOF
	sort expected.errors >expected.sorted &&
	test_cmp expected.sorted errors &&
	grep -Fx "  DUMP: 2 unreadable range(s) reported above: dumped as zeros" ours.err
'

test_expect_success $P,OURDUMP 'the rest of the file and the other files restore' '
	mkdir out && (cd out && "$RESTORE" -rf ../ours.dump) &&
	cmp expected out/big && cmp src/small out/small
'

test_expect_success $P,OURDUMP '--strict: unreadable ranges make status 4' '
	{ eio "$DUMP" -0 --strict -f strict.dump "$dev" </dev/null \
		2>strict.err; test $? = 4; } &&
	grep "DUMP IS DONE" strict.err
'

test_expect_success $P,OURDUMP 'without read errors: no such line' '
	"$DUMP" -0 -f clean.dump "$dev" </dev/null 2>clean.err &&
	! grep -i "error\|unreadable" clean.err
'

test_expect_success $P,ORACLE,OURDUMP 'dump 0.4b47 goes on too, and archives the same' '
	eio "$ORACLE_DUMP" -0 -f oracle.dump "$dev" </dev/null 2>oracle.err &&
	grep "DUMP IS DONE" oracle.err &&
	grep -F "  DUMP: read error from $dev: Input/output error: [block $((b1 * 8)), ext2blk $b1]: count=4096" oracle.err &&
	"$PYTHON" "$HELPERS/cmpdump.py" cmp oracle.dump ours.dump
'

# The same through the kernel: a device-mapper table with an "error"
# target over the first range.  Removed even when a check fails, and at
# the latest when the script ends (also after an interrupt).
dmname=dumptest-eio-$$
dmsetup targets 2>/dev/null | grep -q "^error" && test_set_prereq DM
test_have_prereq DM && test_at_exit "dmsetup remove $dmname 2>/dev/null"

test_expect_success $P,DM,OURDUMP 'a device-mapper error target: the same line' '
	test_when_finished "dmsetup remove $dmname 2>/dev/null || :" &&
	sectors=$(blockdev --getsz "$dev") &&
	s1=$((b1 * 8)) &&
	printf "0 %d linear %s 0\n%d 16 error\n%d %d linear %s %d\n" \
		$s1 "$dev" $s1 $((s1 + 16)) $((sectors - s1 - 16)) "$dev" \
		$((s1 + 16)) | dmsetup create "$dmname" &&
	"$DUMP" -0 -f dm.dump "/dev/mapper/$dmname" </dev/null 2>dm.err &&
	grep -F "  DUMP: read error from /dev/mapper/$dmname: Input/output error: [sector $s1, ext2blk $b1]: count=8192, dumped as zeros" dm.err &&
	grep "DUMP IS DONE" dm.err
'

test_done
