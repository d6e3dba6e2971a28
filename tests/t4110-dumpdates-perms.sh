#!/bin/sh
test_description='dumpdates -u: permissions, locking, interrupted updates

The layout Debian gives the file: /var/lib/dumpdates root:disk 0664 in a
root:root 0755 directory, here a private copy selected with -D.  A dump
run as user backup in group disk (as a backup system runs it) updates
the file in place, like dump 0.4b47; a dump run as root leaves its
owner, group and mode as they were; no other file appears beside it.
A symbolic link, a second name, an extended attribute survive an update;
a missing file is made with mode 0666 less the umask, as by 0.4b47.
The update locks the file itself: dumps waiting for that lock are all
recorded, also when the file was replaced while they waited.  A dump
killed while it waits, or between writing and truncating the file, or
before its rename, leaves records that both dump and 0.4b47 read whole.'
. "$(dirname "$0")/lib.sh"

DATE_RE='[A-Z][a-z][a-z] [A-Z][a-z][a-z] [ 0-9][0-9] [0-9][0-9]:[0-9][0-9]:[0-9][0-9] [0-9][0-9][0-9][0-9]'
OLD='Mon Jan  1 10:00:00 2024 +0000'

disk_gid=$(getent group disk | cut -d: -f3)
if test "$(getent passwd backup | cut -d: -f3)" = 34 && test -n "$disk_gid" &&
	test_have_prereq UNPRIV
then
	test_set_prereq BACKUP
fi
if strace -f -o /dev/null -e inject=ftruncate:signal=KILL true 2>/dev/null
then
	test_set_prereq STRACE
fi

# $as_backup CMD...: CMD as user backup in group disk (a simple
# command, so that CMD & gives the pid of CMD itself).
as_backup="setpriv --reuid=34 --regid=34 --groups=$disk_gid"

# debian_dd DIR: DIR (root:root 0755) holding DIR/dd (root:disk 0664)
# with the lines on standard input.
debian_dd() {
	rm -rf "$1" && mkdir -m 755 "$1" && cat >"$1/dd" &&
	chown root:disk "$1/dd" && chmod 664 "$1/dd"
}

# perms FILE: owner, group, mode.
perms() {
	stat -c '%U:%G %a' "$1"
}

# masked FILE: its lines, dates as DATE.
masked() {
	sed "s/ $DATE_RE [-+][0-9]*\$/ DATE/" "$1"
}

# start_locker FILE [NEW]: a process that holds a write lock on FILE
# until release_locker; with NEW, it renames NEW over FILE before it lets
# go of the lock (as a dump replacing the file does).
start_locker() {
	rm -f locked ctl && mkfifo ctl && exec 8<>ctl &&
	{ "$PYTHON" -c '
import fcntl, os, sys
f = open(sys.argv[1], "r+")
fcntl.lockf(f, fcntl.LOCK_EX)
open("locked", "w").close()
sys.stdin.readline()
if len(sys.argv) > 2:
	os.rename(sys.argv[2], sys.argv[1])
' "$@" <ctl & locker=$!; } &&
	test_when_finished "kill $locker 2>/dev/null; exec 8>&-" &&
	i=0 && while ! test -e locked && test $i -lt 300
	do
		sleep 0.1 && i=$((i + 1))
	done &&
	test -e locked
}

release_locker() {
	echo go >&8 && wait $locker && exec 8>&-
}

# start_dump NAME CMD...: CMD -f NAME.fifo "$dev" in the background, its
# pid in $pid, standard error in NAME.err.  Returns once the dump has
# read dumpdates (its estimate is out); it then waits for a reader of
# its output, which drain NAME starts.
start_dump() {
	sd_name=$1 && shift && rm -f $sd_name.fifo &&
	mkfifo -m 666 $sd_name.fifo &&
	{ "$@" -f "$PWD/$sd_name.fifo" "$dev" 2>$sd_name.err & pid=$!; } &&
	test_when_finished "kill $pid 2>/dev/null || :" &&
	i=0 && while ! grep -q "estimated" $sd_name.err
	do
		kill -0 $pid 2>/dev/null && test $i -lt 600 || return 1
		sleep 0.1 && i=$((i + 1))
	done
}

drain() {
	{ cat $1.fifo >/dev/null & drained=$!; } &&
	test_when_finished "kill $drained 2>/dev/null || :"
}

# wait_blocked PID: until PID waits for a write lock (/proc/locks).
wait_blocked() {
	i=0 && while ! grep -q -e "-> POSIX *ADVISORY *WRITE $1 " /proc/locks
	do
		kill -0 $1 2>/dev/null && test $i -lt 600 || return 1
		sleep 0.1 && i=$((i + 1))
	done
}

test_expect_success ROOT,LOOP 'setup: a small file system on a loop device' '
	truncate -s 16M fs.img && mkfs.ext4 -q -F fs.img &&
	dev=$(image_attach fs.img)
'

test_expect_success ROOT,LOOP,ORACLE,OURDUMP,BACKUP 'as backup: -u rewrites the file in place, as 0.4b47 does' '
	disk_readable "$dev" &&
	printf "%s\n" "LABEL=other 0 $OLD" | debian_dd ours &&
	printf "%s\n" "LABEL=other 0 $OLD" | debian_dd ref &&
	ino=$(stat -c %i ours/dd) &&
	for l in 0 1 0
	do
		$as_backup "$DUMP" -$l -u -D "$PWD/ours/dd" -f /dev/null "$dev" 2>b.ours.err &&
		$as_backup "$ORACLE_DUMP" -$l -u -D "$PWD/ref/dd" -f /dev/null "$dev" 2>b.ref.err &&
		grep "DUMP IS DONE" b.ours.err || return 1
	done &&
	printf "%s\n" "LABEL=other 0 $OLD" "$dev 0 DATE" "$dev 1 DATE" >expect &&
	masked ours/dd | sed "s/^LABEL=other 0 DATE/LABEL=other 0 $OLD/" >actual &&
	test_cmp expect actual &&
	masked ref/dd | sed "s/^LABEL=other 0 DATE/LABEL=other 0 $OLD/" >actual.ref &&
	test_cmp expect actual.ref &&
	echo "root:disk 664" >expect &&
	perms ours/dd >actual && test_cmp expect actual &&
	perms ref/dd >actual && test_cmp expect actual &&
	test $(stat -c %i ours/dd) = $ino &&
	ls -a ours >list && printf "%s\n" . .. dd >expect && test_cmp expect list
'

test_expect_success ROOT,LOOP,ORACLE,OURDUMP 'as root: owner, group and mode stay, no other file; as 0.4b47' '
	printf "%s\n" "LABEL=other 0 $OLD" | debian_dd ours &&
	printf "%s\n" "LABEL=other 0 $OLD" | debian_dd ref &&
	"$DUMP" -0 -u -D "$PWD/ours/dd" -f /dev/null "$dev" 2>r.ours.err &&
	"$ORACLE_DUMP" -0 -u -D "$PWD/ref/dd" -f /dev/null "$dev" 2>r.ref.err &&
	printf "%s\n" "LABEL=other 0 $OLD" "$dev 0 DATE" >expect &&
	masked ours/dd | sed "s/^LABEL=other 0 DATE/LABEL=other 0 $OLD/" >actual &&
	test_cmp expect actual &&
	echo "root:disk 664" >expect &&
	perms ours/dd >actual && test_cmp expect actual &&
	perms ref/dd >actual && test_cmp expect actual &&
	ls -a ours >list && printf "%s\n" . .. dd >expect && test_cmp expect list
'

test_expect_success ROOT,LOOP,OURDUMP,BACKUP 'as backup after a root -u: still works' '
	disk_readable "$dev" &&
	$as_backup "$DUMP" -1 -u -D "$PWD/ours/dd" -f /dev/null "$dev" 2>b2.err &&
	grep "DUMP IS DONE" b2.err &&
	grep "^$dev 1 $DATE_RE +0000$" ours/dd &&
	echo "root:disk 664" >expect && perms ours/dd >actual && test_cmp expect actual
'

test_expect_success ROOT,LOOP,OURDUMP 'as root: other modes and owners stay too (0600, 0640 backup:disk)' '
	for m in 600 640
	do
		echo "$dev 0 $OLD" | debian_dd m$m && chmod $m m$m/dd &&
		chown backup m$m/dd && "$DUMP" -1 -u -D "$PWD/m$m/dd" -f /dev/null "$dev" 2>m.err &&
		echo "backup:disk $m" >expect && perms m$m/dd >actual &&
		test_cmp expect actual && grep "^$dev 1 " m$m/dd || return 1
	done
'

test_expect_success ROOT,LOOP,OURDUMP,ATTR 'as root: a symbolic link, a second name, an extended attribute stay' '
	echo "$dev 0 $OLD" | debian_dd ln && ln -s dd ln/sym && ln ln/dd ln/hard &&
	echo "$dev 0 $OLD" | debian_dd xa && setfattr -n user.note -v kept xa/dd &&
	ino=$(stat -c %i ln/dd) && xino=$(stat -c %i xa/dd) &&
	"$DUMP" -1 -u -D "$PWD/ln/sym" -f /dev/null "$dev" 2>ln1.err &&
	"$DUMP" -2 -u -D "$PWD/ln/hard" -f /dev/null "$dev" 2>ln2.err &&
	"$DUMP" -1 -u -D "$PWD/xa/dd" -f /dev/null "$dev" 2>xa.err &&
	test -h ln/sym && test $(stat -c %i ln/dd) = $ino &&
	test $(stat -c %i ln/hard) = $ino && test $(stat -c %i xa/dd) = $xino &&
	printf "%s\n" "$dev 0 DATE" "$dev 1 DATE" "$dev 2 DATE" >expect &&
	masked ln/dd >actual && test_cmp expect actual &&
	getfattr --only-values -n user.note xa/dd >note && printf kept >expect &&
	test_cmp expect note && grep "^$dev 1 " xa/dd &&
	ls -a ln >list && printf "%s\n" . .. dd hard sym >expect && test_cmp expect list
'

test_expect_success ROOT,LOOP,ORACLE,OURDUMP 'a missing file is made empty with mode 0666 less the umask, as 0.4b47' '
	mkdir -m 755 new &&
	(umask 027 && "$DUMP" -0 -u -D "$PWD/new/ours" -f /dev/null "$dev" 2>n.ours.err) &&
	(umask 027 && "$ORACLE_DUMP" -0 -u -D "$PWD/new/ref" -f /dev/null "$dev" 2>n.ref.err) &&
	grep "^  DUMP: WARNING: no file .$PWD/new/ours., making an empty one$" n.ours.err &&
	echo "root:root 640" >expect &&
	perms new/ours >actual && test_cmp expect actual &&
	perms new/ref >actual && test_cmp expect actual &&
	echo "$dev 0 DATE" >expect && masked new/ours >actual && test_cmp expect actual &&
	ls -a new >list && printf "%s\n" . .. ours ref >expect && test_cmp expect list
'

test_expect_success ROOT,LOOP,ORACLE,OURDUMP,BACKUP 'as backup, a file it cannot write or create: message and status of 0.4b47' '
	disk_readable "$dev" &&
	echo "$dev 0 $OLD" | debian_dd ro && chmod 644 ro/dd &&
	for f in ro/dd ro/missing
	do
		rc=0 && $as_backup "$DUMP" -1 -u -D "$PWD/$f" -f /dev/null "$dev" 2>e.ours || rc=$? &&
		orc=0 && $as_backup "$ORACLE_DUMP" -1 -u -D "$PWD/$f" -f /dev/null "$dev" 2>e.ref || orc=$? &&
		test $rc = $orc && tail -n 2 e.ours >t.ours && tail -n 2 e.ref >t.ref &&
		test_cmp t.ref t.ours && cat t.ours >>all || return 1
	done &&
	grep "^  DUMP: cannot rewrite $PWD/ro/dd: Permission denied$" all &&
	grep "^  DUMP: cannot create $PWD/ro/missing: Permission denied$" all &&
	echo "$dev 0 $OLD" >expect && test_cmp expect ro/dd && ! test -e ro/missing
'

test_expect_success ROOT,LOOP,OURDUMP,BACKUP,PYTHON 'a dump that waited while the file was replaced records into the new file' '
	disk_readable "$dev" &&
	echo "$dev 0 $OLD" | debian_dd re &&
	printf "%s\n" "$dev 0 $OLD" "LABEL=new 0 $OLD" >re/new &&
	chown root:disk re/new && chmod 664 re/new &&
	start_dump re $as_backup "$DUMP" -2 -u -D "$PWD/re/dd" && p=$pid &&
	start_locker re/dd re/new && drain re &&
	wait_blocked $p && release_locker && wait $p &&
	printf "%s\n" "$dev 0 $OLD" "LABEL=new 0 $OLD" "$dev 2 DATE" >expect &&
	masked re/dd | sed "s/ 0 DATE\$/ 0 $OLD/" >actual && test_cmp expect actual &&
	ls -a re >list && printf "%s\n" . .. dd >expect && test_cmp expect list
'

test_expect_success ROOT,LOOP,OURDUMP,BACKUP,PYTHON 'two dumps waiting for the lock (root and backup): both recorded' '
	disk_readable "$dev" &&
	echo "$dev 0 $OLD" | debian_dd two &&
	start_dump two3 "$DUMP" -3 -u -D "$PWD/two/dd" && p3=$pid &&
	start_dump two4 $as_backup "$DUMP" -4 -u -D "$PWD/two/dd" && p4=$pid &&
	start_locker two/dd && drain two3 && drain two4 &&
	wait_blocked $p3 && wait_blocked $p4 && release_locker &&
	wait $p3 && wait $p4 &&
	masked two/dd | sed "s/ 0 DATE\$/ 0 $OLD/" | sort >actual &&
	printf "%s\n" "$dev 0 $OLD" "$dev 3 DATE" "$dev 4 DATE" >expect &&
	test_cmp expect actual &&
	echo "root:disk 664" >expect && perms two/dd >actual && test_cmp expect actual &&
	ls -a two >list && printf "%s\n" . .. dd >expect && test_cmp expect list
'

test_expect_success ROOT,LOOP,OURDUMP,BACKUP,PYTHON 'a dump killed while it waits for the lock changes nothing' '
	disk_readable "$dev" &&
	echo "$dev 0 $OLD" | debian_dd kw && cp kw/dd before &&
	start_dump kw $as_backup "$DUMP" -1 -u -D "$PWD/kw/dd" && p=$pid &&
	start_locker kw/dd && drain kw &&
	wait_blocked $p && kill -KILL $p && { wait $p || :; } && release_locker &&
	test_cmp before kw/dd &&
	ls -a kw >list && printf "%s\n" . .. dd >expect && test_cmp expect list
'

# The new text is shorter than the old by the length of the old last
# line but its first 6 bytes: left behind the new text, that tail would
# read as a record of /home.  The dump is killed once the padded text is
# written (the old length, blanks at the end), then once the file is cut
# to the new length (the last newline still a blank).
test_expect_success ROOT,LOOP,ORACLE,OURDUMP,BACKUP,STRACE 'killed in the middle of an in-place rewrite: whole records only' '
	disk_readable "$dev" &&
	pad=$(printf "%40s" "") &&
	for inject in ftruncate:signal=KILL pwrite64:signal=KILL:when=2
	do
		printf "%s\n" "$dev 0${pad}$OLD" "LABEL=/home 0 $OLD" | debian_dd kt &&
		size=$(stat -c %s kt/dd) &&
		{ strace -f -o /dev/null -e trace=${inject%%:*} -e inject=$inject \
			$as_backup "$DUMP" -0 -u -D "$PWD/kt/dd" -f /dev/null "$dev" 2>kt.err || :; } &&
		! grep "DUMP IS DONE" kt.err &&
		echo "$inject $(stat -c %s kt/dd)" >>sizes &&
		awk "{ sub(/ +\$/, \"\"); print }" kt/dd | masked /dev/stdin >actual &&
		printf "%s\n" "$dev 0 DATE" "LABEL=/home 0 DATE" >expect &&
		test_cmp expect actual &&
		grep "^LABEL=/home 0 $OLD  *\$" kt/dd &&
		sed -n "s|^$dev 0 \($DATE_RE\) +0000 *\$|\1|p" kt/dd >written &&
		test -s written &&
		for prog in "$DUMP" "$ORACLE_DUMP"
		do
			"$prog" -1 -D "$PWD/kt/dd" -f /dev/null "$dev" 2>kt.read.err &&
			! grep "Unknown format" kt.read.err &&
			grep "Date of last level 0 dump: $(cat written)\$" kt.read.err ||
			return 1
		done || return 1
	done &&
	printf "%s\n" "ftruncate:signal=KILL $size" \
		"pwrite64:signal=KILL:when=2 $((size - 39))" >expect &&
	test_cmp expect sizes &&
	$as_backup "$DUMP" -0 -u -D "$PWD/kt/dd" -f /dev/null "$dev" 2>kt2.err &&
	! grep " \$" kt/dd && test $(wc -l <kt/dd) = 2 &&
	ls -a kt >list && printf "%s\n" . .. dd >expect && test_cmp expect list
'

test_expect_success ROOT,LOOP,OURDUMP,STRACE 'as root, killed before its rename: the old file stays whole' '
	printf "%s\n" "$dev 0 $OLD" "LABEL=x 1 $OLD" | debian_dd kr && cp kr/dd before &&
	test_when_finished "rm -f kr/dd.??????" &&
	{ strace -f -o /dev/null -e trace=rename,renameat,renameat2 \
		-e inject=rename,renameat,renameat2:signal=KILL \
		"$DUMP" -1 -u -D "$PWD/kr/dd" -f /dev/null "$dev" 2>kr.err || :; } &&
	! grep "DUMP IS DONE" kr.err &&
	test_cmp before kr/dd &&
	echo "root:disk 664" >expect && perms kr/dd >actual && test_cmp expect actual
'

# strace sends the signal as the rename starts: the temporary file is
# there, written and synced.  The master only notes a signal and acts on
# it between records, so the update runs to its end: no dumpdates.XXXXXX
# is left, the file is whole and new.
for sig in TERM INT
do
	test_expect_success ROOT,LOOP,OURDUMP,STRACE "SIG$sig as the new file is renamed in: no temporary file left" '
		printf "%s\n" "$dev 0 $OLD" | debian_dd ks &&
		test_when_finished "rm -rf ks" &&
		# (LeakSanitizer cannot run under ptrace)
		{ ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		  strace -f -o /dev/null -e trace=rename,renameat,renameat2 \
			-e inject=rename,renameat,renameat2:signal='$sig' \
			"$DUMP" -1 -u -D "$PWD/ks/dd" -f /dev/null "$dev" 2>ks.err
		  echo $? >ks.rc; } &&
		ls -a ks >list && printf "%s\n" . .. dd >expect && test_cmp expect list &&
		masked ks/dd >actual &&
		printf "%s\n" "$dev 0 DATE" "$dev 1 DATE" >expect && test_cmp expect actual &&
		grep "^$dev 0 $OLD\$" ks/dd &&
		echo 0 >expect && test_cmp expect ks.rc && grep "DUMP IS DONE" ks.err
	'
done

test_done
