#!/bin/sh
test_description='dumps past 2038: dates whole in headers and dumpdates

c_date and c_ddate are 32-bit seconds; after January 2038 they wrap to
1901.  Our dump keeps the dates whole in the header extension
(doc/format.md 2.6): with the clock in March 2039 (helpers/fastclock.c)
the "Date of this level" lines, the dumpdates line and restore -t'"'"'s
header lines say 2039, a level 1 the next day finds the level 0 as its
base, and level 0 + level 1 restored with -r give the tree a level 0 of
the final state gives (a file deleted in between stays deleted).  The
file times are set past 2038 with debugfs, as they would be then.
Inode times come back to the nanosecond, before 1970 and past 2106 too
(the extension keeps them whole; c_dinode has microseconds and 32-bit
seconds).
Restores 0.4b47 and 0.4b56 read the files of the archives, but their
incremental restore of such a chain goes wrong (recorded as their
defects): they name the file of directory modes after c_date as a
negative number one way and a huge one the other, so directory modes
and times are not set and the deleted file stays, with status 0.'
. "$(dirname "$0")/lib.sh"

CC=${CC:-cc}
command -v "$CC" >/dev/null && test_set_prereq CC
# A sanitizer build wants its runtime first among the preloads.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
export ASAN_OPTIONS

# Thu Mar 17 00:00:00 2039 UTC, and one day.
T0=2183932800
DAY=86400

# at_clock SECONDS CMD...: CMD with time() at SECONDS.
at_clock() {
	at_t=$1 && shift &&
	env LD_PRELOAD="$TRASH_DIRECTORY/fastclock.so" \
		FASTCLOCK_FILE=/nonexistent FASTCLOCK_BASE="$at_t" "$@"
}

# set_times IMG STAMP PATH...: set atime, mtime and ctime of each PATH in IMG
# to STAMP (debugfs's YYYYMMDDHHMMSS).
set_times() {
	ti_img=$1 ti_stamp=$2 && shift 2 &&
	for ti_p
	do
		for ti_f in atime mtime ctime
		do
			echo "sif $ti_p $ti_f $ti_stamp"
		done
	done >times.cmds &&
	debugfs -w -f times.cmds "$ti_img" >/dev/null 2>times.err &&
	! grep -v "^debugfs [0-9]" times.err
}

# restored DIR ARCHIVE... : restore -r of each ARCHIVE in turn into a
# fresh DIR (our restore unless RESTORE_WITH is set).
restored() {
	rs_d=$1 && shift && rm -rf "$rs_d" && mkdir "$rs_d" &&
	for rs_a
	do
		(cd "$rs_d" && "${RESTORE_WITH:-$RESTORE}" -r -f "../$rs_a" \
			>/dev/null 2>>"../$rs_d.err") || return 1
	done
}

DATE39='Thu Mar 17 [0-9:]* 2039'
DATE39B='Fri Mar 18 [0-9:]* 2039'

test_expect_success ROOT,PYTHON,CC,OURDUMP,OURRESTORE 'setup: an image whose files date from 2039, the clock shim' '
	"$CC" -shared -fPIC -o fastclock.so "$HELPERS/fastclock.c" &&
	mkdir tree tree/d &&
	for i in 1 2 3; do head -c $((i * 100000)) /dev/urandom >tree/f$i || return 1; done &&
	echo keep >tree/d/keep && echo gone >tree/d/gone &&
	mke2fs -q -t ext4 -I 256 -d tree fs.img 16M &&
	set_times fs.img 20390316120000 / /d /f1 /f2 /f3 /d/keep /d/gone /lost+found &&
	debugfs -R "stat /f1" fs.img 2>/dev/null | grep -q "ctime: .* 2039"
'

test_expect_success ROOT,PYTHON,OURDUMP 'a level 0 in 2039: its lines and dumpdates say 2039' '
	at_clock $((T0 + 3600)) "$DUMP" -0 -u -D "$PWD/dd" -f l0.dump fs.img 2>l0.err &&
	grep "^  DUMP: Date of this level 0 dump: $DATE39\$" l0.err >l0.dates &&
	test $(wc -l <l0.dates) = 2 &&
	! grep " 19[0-6][0-9]\$" l0.err &&
	grep -x "fs.img 0 $DATE39 +0000" dd
'

test_expect_success ROOT,PYTHON,OURDUMP,OURRESTORE 'the next day: a level 1 is based on it; restore -t says 2039' '
	: a file changed, one deleted, their directory changed with them &&
	echo changed >new1 && printf "rm /d/gone\nrm /f2\nwrite new1 f2\n" >chg.cmds &&
	debugfs -w -f chg.cmds fs.img >/dev/null 2>&1 &&
	set_times fs.img 20390317120000 / /d /f2 &&
	at_clock $((T0 + DAY + 3600)) "$DUMP" -1 -u -D "$PWD/dd" -f l1.dump fs.img 2>l1.err &&
	grep "^  DUMP: Date of last level 0 dump: $DATE39\$" l1.err &&
	! grep WARNING l1.err &&
	grep -x "fs.img 1 $DATE39B +0000" dd &&
	"$RESTORE" -t -f l1.dump >l1.list 2>/dev/null &&
	grep -x "Dump   date: $DATE39B" l1.list &&
	grep -x "Dumped from: $DATE39" l1.list &&
	grep "	\./f2\$" l1.list && ! grep "	\./f1\$" l1.list
'

test_expect_success ROOT,PYTHON,OURDUMP,OURRESTORE 'restore -r of level 0 + level 1 equals a level 0 of the end state' '
	at_clock $((T0 + 2 * DAY)) "$DUMP" -0 -f end.dump fs.img 2>/dev/null &&
	restored end end.dump && manifest end --no-root >end.man &&
	grep "^f2	.*size=8 " end.man && ! grep "^d/gone	" end.man &&
	restored chain l0.dump l1.dump && manifest chain --no-root |
		grep -v "^restoresymtable	" >chain.man &&
	test_cmp end.man chain.man &&
	grep "^f1	.*mtime=2183889600\." chain.man
'

# upstream R DIR: restore R -r of the chain into DIR, with a TMPDIR of
# its own (its mode file names come out differently for a 2039 date and
# would meet another run'"'"'s).
upstream() {
	mkdir "$2.tmp" &&
	TMPDIR=$PWD/$2.tmp RESTORE_WITH=$1 restored "$2" l0.dump l1.dump &&
	manifest "$2" --no-root | grep -v "^restoresymtable	" >"$2.man"
}

test_known_upstream_defect ROOT,PYTHON,ORACLE 'restore 0.4b47: a 2039 chain keeps the deleted file, no directory modes, status 0' '
	upstream "$ORACLE_RESTORE" o47 &&
	grep "^d/gone	" o47.man && grep "^cannot open mode file" o47.err &&
	grep -v "^d	\|^d/gone	\|^lost+found	" end.man >want &&
	grep -v "^d	\|^d/gone	\|^lost+found	" o47.man >got && test_cmp want got
'

test_known_upstream_defect ROOT,PYTHON,UPSTREAM56 'restore 0.4b56: the same' '
	upstream "$UPSTREAM56/restore" o56 &&
	grep "^d/gone	" o56.man && grep "^cannot open mode file" o56.err &&
	grep -v "^d	\|^d/gone	\|^lost+found	" end.man >want &&
	grep -v "^d	\|^d/gone	\|^lost+found	" o56.man >got && test_cmp want got
'

test_expect_success ROOT,LOOP,PYTHON,OURDUMP,OURRESTORE 'times to the nanosecond, before 1970 and past 2106, come back exactly' '
	truncate -s 16M tm.img && mke2fs -q -F -t ext4 -I 256 tm.img &&
	image_mount tm.img tm &&
	echo a >tm/ns && touch -d "2021-05-06 07:08:09.123456789" tm/ns &&
	echo b >tm/old && touch -d "1960-02-03 04:05:06.5" tm/old &&
	echo c >tm/far && touch -d "2200-01-01 00:00:00.987654321" tm/far &&
	mkdir tm/dir && touch -d "2150-01-01 01:02:03.000000007" tm/dir &&
	ln -s ns tm/link && touch -h -d "2107-02-03 00:00:00.000000011" tm/link &&
	(cd tm && stat -c "%n %X.%x %Y %y" ns old far dir link) >want.times &&
	grep -c " 1960-\| 2200-\| 2150-\| 2107-" want.times >n && test "$(cat n)" = 4 &&
	image_umount tm &&
	"$DUMP" -0 -f tm.dump tm.img 2>/dev/null &&
	restored tmr tm.dump &&
	(cd tmr && stat -c "%n %X.%x %Y %y" ns old far dir link) >got.times &&
	test_cmp want.times got.times
'

test_done
