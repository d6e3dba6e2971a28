#!/bin/sh
test_description='restore: input forms, scheduler command lines, holes, options

Standard input and the key-letter forms Amanda uses (restore tbf 2 -,
restore xbf 2 - /abs/path/, restore -tvf -); reading a pipe to its end;
no terminal chatter in a non-interactive run; names not on the tape; a
1 GiB file with 4 KiB of data comes back sparse; byte-swapped and
compressed (-z, -j, -y) archives; -N writes nothing; -m names files by
inode number; -h does not descend.'
. "$(dirname "$0")/lib.sh"

TAPETOOL=$HELPERS/tapetool
# The name lines of a -t listing (the archive description differs in
# the dump date between archives).
tlines() {
	grep -a "^ *[0-9][0-9]*	"
}
test -x "$TAPETOOL" && test_set_prereq TAPETOOL

test_expect_success ROOT,LOOP,ORACLE 'setup: a small image and its archives' '
	mkdir tree && mkdir -p tree/d/e && echo hello >tree/d/e/f &&
	echo top >tree/top && ln -s top tree/lnk &&
	truncate -s 1G tree/sparse1g &&
	dd if=/dev/urandom of=tree/sparse1g bs=4096 count=1 seek=1000 conv=notrunc 2>/dev/null &&
	"$PYTHON" -c "
import os
# 5 MiB + 777 bytes of random data with zero runs of 1 KiB blocks that
# end off a 4 KiB boundary, and a zero 1 MiB run
b = bytearray(os.urandom(5 * 1048576 + 777))
for off, n in ((1048576 + 1024, 1024), (2097152 + 3072, 3072),
               (3 * 1048576 - 2048, 5120), (4 * 1048576, 1048576)):
    b[off:off + n] = bytes(n)
open(\"tree/holey\", \"wb\").write(b)
" &&
	truncate -s 64M fs.img &&
	mke2fs -q -F -t ext4 -b 4096 -d tree fs.img &&
	dev=$(image_attach fs.img) &&
	if command -v setfacl >/dev/null
	then
		image_mount "$dev" mnt &&
		setfacl -m u:1234:rw,g:55:r mnt/top &&
		setfacl -d -m u:1234:rwx mnt/d &&
		setfattr -n user.note -v "some value" mnt/d/e/f &&
		(cd mnt && getfacl -n top d) >acl.expect &&
		image_umount mnt
	fi &&
	"$ORACLE_DUMP" -0 -f a.dump "$dev" 2>/dev/null &&
	"$ORACLE_DUMP" -0 -z -f az.dump "$dev" 2>/dev/null &&
	"$ORACLE_DUMP" -0 -j -f aj.dump "$dev" 2>/dev/null &&
	"$ORACLE_DUMP" -0 -y -f ay.dump "$dev" 2>/dev/null &&
	"$ORACLE_RESTORE" -t -f a.dump >t.expect 2>/dev/null
'

test_expect_success ROOT,LOOP,ORACLE,OURRESTORE 'restore tbf 2 - reads standard input, nothing on stderr' '
	"$RESTORE" tbf 2 - <a.dump >t.actual 2>t.err &&
	test_cmp t.expect t.actual && test_cmp /dev/null t.err
'

test_expect_success ROOT,LOOP,ORACLE,OURRESTORE 'restore -tvf - prints leaf/dir lines like 0.4b47' '
	"$ORACLE_RESTORE" -tvf - <a.dump 2>/dev/null | grep -E "^(leaf|dir )" >tv.expect &&
	"$RESTORE" -tvf - <a.dump 2>tv.err | grep -E "^(leaf|dir )" >tv.actual &&
	test_cmp tv.expect tv.actual && test_cmp /dev/null tv.err &&
	grep "^leaf *[0-9]*	\./d/e/f$" tv.actual
'

test_expect_success ROOT,LOOP,ORACLE,OURRESTORE 'restore -t reads a pipe to its end' '
	{ cat a.dump a.dump; echo $? >cat.rc; } | "$RESTORE" -t -f - >/dev/null &&
	test "$(cat cat.rc)" = 0
'

test_expect_success ROOT,LOOP,ORACLE,OURRESTORE 'restore xbf 2 - /abs/path/ without a terminal: quiet, exact subset' '
	mkdir x1 && (cd x1 && setsid "$RESTORE" xbf 2 - /d/e/ </dev/null <../a.dump) 2>x1.err &&
	test_cmp /dev/null x1.err &&
	(cd x1 && find . | sort) >x1.list &&
	printf "%s\n" . ./d ./d/e ./d/e/f >x1.expect &&
	test_cmp x1.expect x1.list && test "$(cat x1/d/e/f)" = hello
'

test_expect_success ROOT,LOOP,ORACLE,OURRESTORE 'names not on the tape are reported, exit 0' '
	"$RESTORE" -t -f a.dump nothere d/e >t2.out 2>t2.err &&
	grep "^\./nothere is not on the tape$" t2.err &&
	grep "	\./d/e/f$" t2.out && ! grep "	\./top$" t2.out
'

test_expect_success ROOT,LOOP,ORACLE,OURRESTORE 'a 1 GiB file with 4 KiB of data comes back sparse' '
	mkdir r && (cd r && "$RESTORE" -r -f ../a.dump) &&
	test $(stat -c %s r/sparse1g) = 1073741824 &&
	test $(stat -c %b r/sparse1g) -le 64 &&
	cmp tree/sparse1g r/sparse1g
'

test_expect_success ROOT,LOOP,ORACLE,OURRESTORE 'a large file with zero runs off 4 KiB boundaries comes back byte for byte' '
	cmp tree/holey r/holey &&
	test $(stat -c %s r/holey) = $((5 * 1048576 + 777))
'

command -v strace >/dev/null 2>&1 && test_set_prereq STRACE
test_expect_success ROOT,LOOP,ORACLE,OURRESTORE,STRACE 'a large file goes through the page cache, its writeback started at once, and the same bytes come back' '
	mkdir rd && (cd rd && ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=fcntl,sync_file_range -o ../wb.trace "$RESTORE" -x -f ../a.dump ./holey) &&
	! grep "O_DIRECT" wb.trace &&
	grep "sync_file_range(.*SYNC_FILE_RANGE_WRITE) = 0" wb.trace &&
	cmp tree/holey rd/holey
'

command -v getfacl >/dev/null && test_set_prereq ACL
test_expect_success ROOT,LOOP,ORACLE,OURRESTORE,ACL 'ACLs and EAs come back; -C sees them equal' '
	(cd r && getfacl -n top d) >acl.actual &&
	test_cmp acl.expect acl.actual &&
	test "$(getfattr --only-values -n user.note r/d/e/f)" = "some value" &&
	"$RESTORE" -C -f a.dump -D "$PWD/r" >c.out 2>&1 &&
	test_when_finished "setfattr -n user.note -v \"some value\" r/d/e/f" &&
	setfattr -n user.note -v "other" r/d/e/f &&
	test_must_fail "$RESTORE" -C -f a.dump -D "$PWD/r" >c2.out 2>&1 &&
	grep "^\./d/e/f: EA user.note value changed" c2.out
'

test_expect_success ROOT,LOOP,ORACLE,OURRESTORE,TAPETOOL 'a byte-swapped archive reads the same' '
	"$TAPETOOL" swap a.dump swapped.dump &&
	"$RESTORE" -t -f swapped.dump >ts.actual 2>ts.err &&
	test_cmp t.expect ts.actual &&
	"$RESTORE" -tv -f swapped.dump | grep "^Note: Doing Byte swapping$" &&
	mkdir rs && (cd rs && "$RESTORE" -r -f ../swapped.dump) &&
	manifest r >r.man && manifest rs >rs.man && test_cmp r.man rs.man
'

for z in z j y
do
	test_expect_success ROOT,LOOP,ORACLE,OURRESTORE "a compressed archive (-$z) reads the same" '
		"$RESTORE" -t -f a'$z'.dump 2>tz.err | tlines >tz.actual &&
		tlines <t.expect >tz.expect && test_cmp tz.expect tz.actual &&
		grep "^Dump tape is compressed\.$" tz.err &&
		mkdir r'$z' && (cd r'$z' && "$RESTORE" -r -f - <../a'$z'.dump) 2>/dev/null &&
		manifest r >r.man && manifest r'$z' >r'$z'.man && test_cmp r.man r'$z'.man
	'
done

test_expect_success ROOT,LOOP,ORACLE,OURRESTORE '-N writes nothing' '
	mkdir n && (cd n && "$RESTORE" -x -a -N -o -f ../a.dump) &&
	test -z "$(ls -A n)"
'

test_expect_success ROOT,LOOP,ORACLE,OURRESTORE '-m extracts by inode number' '
	ino=$(grep "	\./d/e/f$" t.expect | awk "{print \$1}") &&
	mkdir m && (cd m && "$RESTORE" -x -a -m -o -f ../a.dump d/e/f) &&
	test "$(cat m/$ino)" = hello
'

test_expect_success ROOT,LOOP,ORACLE,OURRESTORE '-h extracts a directory without its contents' '
	mkdir h && (cd h && "$RESTORE" -x -a -h -o -f ../a.dump d) &&
	test -d h/d && ! test -e h/d/e
'

test_expect_success ROOT,LOOP,ORACLE,OURRESTORE '-x of a deep file: the directories made on the way get their archived modes, as 0.4b47' '
	mkdir xo xr &&
	(cd xo && "$ORACLE_RESTORE" -x -a -o -f ../a.dump ./d/e/f) &&
	(cd xr && "$RESTORE" -x -a -o -f ../a.dump ./d/e/f) &&
	(cd xo && stat -c "%n %a %u %g %Y" d d/e d/e/f) >xdirs.expect &&
	(cd xr && stat -c "%n %a %u %g %Y" d d/e d/e/f) >xdirs.actual &&
	test_cmp xdirs.expect xdirs.actual
'

test_expect_success ROOT,LOOP,ORACLE,OURRESTORE 'not a dump: clear message, exit 1' '
	head -c 100000 /dev/urandom >junk &&
	test_must_fail "$RESTORE" -t -f junk 2>junk.err &&
	grep "Tape is not a dump tape" junk.err
'

test_expect_success ROOT,LOOP,ORACLE,OURRESTORE 'a truncated archive ends cleanly' '
	head -c 70000 a.dump >trunc.dump &&
	mkdir tr && (cd tr && "$RESTORE" -r -f ../trunc.dump; echo $? >../tr.rc) 2>tr.err;
	test "$(cat tr.rc)" -lt 128
'

test_done
