#!/bin/sh
test_description='dumpdates: the base of a level N under another name of the file system

dumpdates lines are keyed by the operand as typed; a level N given a
mount point, device, LABEL= or UUID= that has no line of a lower level
takes the latest one recorded under another name of the same file
system (the same block device now), says so on one line, and records
its own line under the name as typed.  Before, and in 0.4b47 to 0.4b56,
it printed two WARNING lines and made a level 0: after
"dump --use-blockdev-for-dumpdates" (0.4b56 or ours) wrote
"/dev/loopN 0", every "dump -1 -u MOUNTPOINT" was a full dump.  A line
of another file system or of a subdirectory is never taken.'
. "$(dirname "$0")/lib.sh"

DATE_RE='[A-Z][a-z][a-z] [A-Z][a-z][a-z] [ 0-9][0-9] [0-9][0-9]:[0-9][0-9]:[0-9][0-9] [0-9][0-9][0-9][0-9]'

# date_of DD NAME LEVEL: the date of NAME's line of LEVEL in DD.
date_of() {
	sed -n "s|^$2 $3 \\($DATE_RE\\) [-+][0-9]*\$|\\1|p" "$1"
}

# used WHICH OPERAND DD ERR [LEVEL]: ERR says the level 0 line of WHICH
# (in DD) is the base of a dump of OPERAND at LEVEL (1), and warns of
# nothing.
used() {
	d=$(date_of "$3" "$1" 0) && test -n "$d" &&
	printf "%s\n" \
		"  DUMP: Using the level 0 dump recorded for $1, the same file system as $2" \
		"  DUMP: Date of this level ${5:-1} dump: DATE" \
		"  DUMP: Date of last level 0 dump: $d" >expect &&
	sed -n -e "/Using the level/p" -e "/Date of/p" -e "/WARNING/p" "$4" |
		sed -e "3q" -e "s/\\(this level [0-9]* dump: \\)$DATE_RE/\\1DATE/" >actual &&
	test_cmp expect actual
}

# The label is the script's own: another script's image with the same
# label would make LABEL= name two devices.  The mount point is short
# (short_dir): restore -t shows it from c_filesys, 63 characters at most,
# which a checkout at a long path would overflow.
test_expect_success ROOT,LOOP 'setup: a labelled file system, mounted, with a subdirectory' '
	L=n$$ && truncate -s 16M fs.img && mkfs.ext4 -q -F -L "$L" fs.img &&
	U=$(blkid -p -s UUID -o value fs.img) && test -n "$U" &&
	M=$(short_dir)/m && DEV=$(image_attach fs.img) && image_mount "$DEV" "$M" &&
	mkdir "$M/sub" && echo a >"$M/sub/a" && echo old >"$M/old" && sync &&
	: the files a second older than any level 0 && sleep 1
'

test_expect_success ROOT,LOOP,OURDUMP 'a level 0 keyed by the device (--use-blockdev-for-dumpdates): level 1 of the mount point is based on it' '
	"$DUMP" -0 -u --use-blockdev-for-dumpdates -D "$PWD/dd" -f l0.dump "$M" 2>l0.err &&
	grep -x "$DEV 0 $DATE_RE +0000" dd &&
	sleep 1 && echo new >"$M/new" && sync &&
	"$DUMP" -1 -u -D "$PWD/dd" -f l1.dump "$M" 2>l1.err &&
	used "$DEV" "$M" dd l1.err &&
	grep "^  DUMP: DUMP IS DONE\$" l1.err &&
	printf "%s\n" "$DEV 0 DATE +0000" "$M 1 DATE +0000" >expect &&
	sed "s/$DATE_RE/DATE/" dd >actual && test_cmp expect actual &&
	"$RESTORE" -t -f l1.dump >l1.list &&
	grep "^Level 1 dump of $M on .*:$DEV\$" l1.list &&
	grep "	\./new\$" l1.list && ! grep "	\./old\$" l1.list
'

test_expect_success ROOT,LOOP,OURDUMP,UPSTREAM56 'the same after 0.4b56 --use-blockdev-for-dumpdates' '
	"$UPSTREAM56/dump" -0 -u --use-blockdev-for-dumpdates -D "$PWD/dd56" \
		-f /dev/null "$M" 2>/dev/null &&
	grep -x "$DEV 0 $DATE_RE +0000" dd56 &&
	"$DUMP" -1 -u -D "$PWD/dd56" -f /dev/null "$M" 2>e56.err &&
	used "$DEV" "$M" dd56 e56.err &&
	grep -x "$M 1 $DATE_RE +0000" dd56 && test $(wc -l <dd56) = 2
'

test_expect_success ROOT,LOOP,OURDUMP 'a level 0 of the mount point: the base of the device, LABEL= and UUID=' '
	"$DUMP" -0 -u -D "$PWD/ddm" -f /dev/null "$M" 2>/dev/null &&
	cp ddm ddm.before &&
	for name in "$DEV" "LABEL=$L" "UUID=$U"
	do
		"$DUMP" -1 -D "$PWD/ddm" -f /dev/null "$name" 2>n.err &&
		used "$M" "$name" ddm n.err || return 1
	done &&
	test_cmp ddm.before ddm
'

test_expect_success ROOT,LOOP,OURDUMP 'a level 0 of LABEL=: the base of the mount point' '
	"$DUMP" -0 -u -D "$PWD/ddl" -f /dev/null "LABEL=$L" 2>/dev/null &&
	"$DUMP" -2 -u -D "$PWD/ddl" -f /dev/null "$M/" 2>l.err &&
	used "LABEL=$L" "$M" ddl l.err 2 &&
	printf "%s\n" "LABEL=$L 0 DATE +0000" "$M 2 DATE +0000" >expect &&
	sed "s/$DATE_RE/DATE/" ddl >actual && test_cmp expect actual
'

test_expect_success ROOT,LOOP,OURDUMP 'a line of the name as typed is taken silently, though another name has a later one' '
	"$DUMP" -0 -u -D "$PWD/ddt" -f /dev/null "$DEV" 2>/dev/null &&
	sleep 1 &&
	"$DUMP" -0 -u -D "$PWD/ddt" -f /dev/null "$M" 2>/dev/null &&
	"$DUMP" -1 -D "$PWD/ddt" -f /dev/null "$DEV" 2>t.err &&
	d=$(date_of ddt "$DEV" 0) && test -n "$d" &&
	grep -x "  DUMP: Date of last level 0 dump: $d" t.err &&
	! grep -e "Using the level" -e WARNING t.err
'

test_expect_success ROOT,LOOP,OURDUMP 'no base from another file system, nor between subdirectory and file system' '
	truncate -s 8M other.img && mkfs.ext4 -q -F other.img &&
	odev=$(image_attach other.img) && image_mount "$odev" omnt &&
	"$DUMP" -0 -u -D "$PWD/ddo" -f /dev/null "$PWD/omnt" 2>/dev/null &&
	"$DUMP" -0 -u -D "$PWD/ddo" -f /dev/null "$M/sub" 2>/dev/null &&
	for name in "$M" "$DEV" "LABEL=$L"
	do
		"$DUMP" -1 -D "$PWD/ddo" -f /dev/null "$name" 2>o.err &&
		grep -x "  DUMP: WARNING: There is no inferior level dump on this filesystem" o.err &&
		! grep "Using the level" o.err || return 1
	done &&
	"$DUMP" -0 -u -D "$PWD/dds" -f /dev/null "$DEV" 2>/dev/null &&
	"$DUMP" -1 -D "$PWD/dds" -f /dev/null "$M/sub" 2>s.err &&
	grep -x "  DUMP: WARNING: Assuming a level 0 dump by default" s.err &&
	! grep "Using the level" s.err
'

test_done
