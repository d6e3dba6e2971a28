#!/bin/sh
test_description='dump: bad input gets a clear message, a non-zero exit and never "DUMP IS DONE"

Runs detached from any terminal (setsid), so a question to the operator
cannot hang the test: it must end in an abort.'
. "$(dirname "$0")/lib.sh"

# run_dump NAME ARGS...: run our dump without a terminal, stderr to
# NAME.err, exit status to NAME.rc; never fails itself.
run_dump() {
	rd_name=$1
	shift
	setsid -w timeout 120 "$DUMP" "$@" </dev/null >"$rd_name.out" 2>"$rd_name.err"
	echo $? >"$rd_name.rc"
}

# failed_cleanly NAME: non-zero, not a signal/timeout, a message, no
# "DUMP IS DONE".
failed_cleanly() {
	rc=$(cat "$1.rc") &&
	test "$rc" != 0 && test "$rc" -lt 124 &&
	test -s "$1.err" &&
	! grep "DUMP IS DONE" "$1.err"
}

test_expect_success ROOT,LOOP 'setup: a small image' '
	make_image ext4 fs.img small &&
	dev=$(image_attach fs.img)
'

test_expect_success OURDUMP 'no such device' '
	run_dump nodev -0 -f out.dump -D dd /dev/no-such-device-here &&
	failed_cleanly nodev && test "$(cat nodev.rc)" = 1
'

test_expect_success OURDUMP,!DUMP_IS_ORACLE 'no such device: the message names it' '
	grep "no-such-device-here" nodev.err
'

test_expect_success ROOT,LOOP,OURDUMP 'not an ext2/3/4 file system' '
	truncate -s 8M zero.img &&
	zdev=$(image_attach zero.img) &&
	run_dump notfs -0 -f out.dump -D dd "$zdev" &&
	failed_cleanly notfs && test "$(cat notfs.rc)" = 1 &&
	grep -i "bad magic\|not an ext\|superblock\|super-block" notfs.err
'

# The file lies on a tmpfs of the check's own: on an ext4 that dump can
# read (the trash directory's may be) it is a file of that file system,
# which dump archives.
test_expect_success ROOT,OURDUMP,!DUMP_IS_ORACLE 'not an ext2/3/4 file system: a plain file' '
	scratch_mount tmpfs nofs size=2m &&
	test_when_finished "image_umount nofs" &&
	head -c 1048576 /dev/zero >nofs/zero.bin &&
	run_dump notfs2 -0 -f out.dump -D dd "$PWD/nofs/zero.bin" &&
	failed_cleanly notfs2
'

# A regular file that is no ext2/3/4 image is a file of the mounted file
# system holding it (a subset dump, as in 0.4b47).  When that file system
# cannot be opened (here: its device is closed to user backup), the
# message must name the operand, not only a device the user never gave
# (the root disk, for an image lying in "/").
test_expect_success ROOT,LOOP 'setup: a file of zeros on a mounted file system' '
	image_mount "$dev" mnt &&
	truncate -s 4M mnt/zero.img &&
	chmod 755 mnt && chmod 644 mnt/zero.img
'

# as_backup NAME DUMP ARGS...: DUMP as user backup (no group disk),
# stderr to NAME.err, exit status to NAME.rc; never fails itself.
as_backup() {
	ab_name=$1
	shift
	setsid -w timeout 120 setpriv --reuid=34 --regid=34 --clear-groups \
		"$@" </dev/null >"$ab_name.out" 2>"$ab_name.err"
	echo $? >"$ab_name.rc"
}

# closed DEV: DEV readable by root only for the current check.
closed() {
	cl_mode=$(stat -c %a "$1") && cl_owner=$(stat -c %u:%g "$1") &&
	test_when_finished "chown $cl_owner $1; chmod $cl_mode $1" &&
	chown 0:0 "$1" && chmod 600 "$1"
}

test_expect_success ROOT,UNPRIV,LOOP,OURDUMP,!DUMP_IS_ORACLE \
	'a file that is no image, file system closed: the message names it' '
	closed "$dev" &&
	as_backup noimg "$DUMP" -0 -f /dev/null "$PWD/mnt/zero.img" &&
	failed_cleanly noimg && test "$(cat noimg.rc)" = 1 &&
	grep -Fx "  DUMP: Cannot open $dev, the file system holding $PWD/mnt/zero.img (which is not an ext2/3/4 image): Permission denied" noimg.err &&
	as_backup noimgdir "$DUMP" -0 -f /dev/null "$PWD/mnt" &&
	failed_cleanly noimgdir &&
	as_backup noimgsub "$DUMP" -0 -f /dev/null "$PWD/mnt/lost+found" &&
	failed_cleanly noimgsub &&
	grep -Fx "  DUMP: Cannot open $dev, the file system holding $PWD/mnt/lost+found: Permission denied" noimgsub.err
'

test_expect_success ROOT,UNPRIV,LOOP,ORACLE \
	'a file that is no image, file system closed: 0.4b47 says "Cannot open"' '
	closed "$dev" &&
	as_backup onoimg "$ORACLE_DUMP" -0 -f /dev/null "$PWD/mnt/zero.img" &&
	failed_cleanly onoimg &&
	grep -Fx "  DUMP: Cannot open $dev" onoimg.err
'

test_expect_success ROOT,LOOP,OURDUMP 'unwritable output: -f /proc/nope' '
	run_dump unwr -0 -f /proc/nope -D dd "$dev" &&
	failed_cleanly unwr &&
	grep "/proc/nope" unwr.err
'

test_expect_success ROOT,LOOP,OURDUMP 'unwritable output: a directory that does not exist' '
	run_dump unwr2 -0 -f "$PWD/no/such/dir/out.dump" -D dd "$dev" &&
	failed_cleanly unwr2 &&
	grep "no/such/dir/out.dump" unwr2.err
'

test_expect_success ROOT,LOOP,OURDUMP 'output disk full' '
	truncate -s 512K tiny.img && mke2fs -q -F -t ext2 -m 0 tiny.img &&
	image_mount tiny.img tiny &&
	run_dump full -0 -f tiny/out.dump -D dd "$dev" &&
	failed_cleanly full &&
	grep -i "space\|write error\|end of tape\|End of tape" full.err
'

test_expect_success ROOT,LOOP,OURDUMP 'output disk full with -f - into a full file' '
	run_dump fullpipe -0 -f /dev/full -D dd "$dev" &&
	failed_cleanly fullpipe
'

test_expect_success OURDUMP 'bad option' '
	run_dump badopt -0 -K -f out.dump -D dd /dev/null &&
	failed_cleanly badopt && test "$(cat badopt.rc)" = 1 &&
	grep -i "invalid option\|unknown option\|usage" badopt.err
'

test_expect_success OURDUMP '-b 2000 is refused' '
	run_dump b2000 -0 -b 2000 -f out.dump -D dd /dev/null &&
	failed_cleanly b2000 && test "$(cat b2000.rc)" = 1 &&
	grep "^  DUMP: Please choose a blocksize <= 1024kB$" b2000.err
'

test_expect_success OURDUMP '-b 0 and -b x are refused' '
	run_dump b0 -0 -b 0 -f out.dump -D dd /dev/null &&
	failed_cleanly b0 && test "$(cat b0.rc)" = 1 &&
	run_dump bx -0 -b x -f out.dump -D dd /dev/null &&
	failed_cleanly bx && test "$(cat bx.rc)" = 1
'

test_expect_success OURDUMP 'no arguments: usage, exit 1' '
	run_dump noargs &&
	failed_cleanly noargs && test "$(cat noargs.rc)" = 1 &&
	grep -i "usage" noargs.err
'

test_done
