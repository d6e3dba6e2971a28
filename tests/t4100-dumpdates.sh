#!/bin/sh
test_description='dumpdates: -u bookkeeping, base dates, -W/-w, -S, bad input

The dumpdates file after a sequence of -u dumps (levels 0 1 2 1 0, then
one in another time zone) equals the one dump 0.4b47 keeps for the same
sequence, dates mapped to the dump that wrote them; the base dates
chosen match.  A dump that fails (output cannot be opened, SIGTERM after
it started) leaves the file as it was; dumps running at once are all
recorded.  -W/-w print what 0.4b47 prints for the same mount table,
fstab (bound over /etc/fstab in a private mount namespace) and
dumpdates.  -S is within 1% of 0.4b47s estimate for several shapes of
files at levels 0 and 1.  Bad input (levels, options, garbage lines in
dumpdates, -T dates) gets 0.4b47s messages and exit statuses.'
. "$(dirname "$0")/lib.sh"

# Time zones as POSIX TZ strings, which the C library reads without
# tzdata's files: India (+0530, no summer time) and New York's rules.
INDIA=IST-5:30
NEW_YORK=EST5EDT,M3.2.0,M11.1.0

DATE_RE='[A-Z][a-z][a-z] [A-Z][a-z][a-z] [ 0-9][0-9] [0-9][0-9]:[0-9][0-9]:[0-9][0-9] [0-9][0-9][0-9][0-9]'

# mask: dates, program names and output names out of messages, and the
# line 0.4b47 does not print (no_flush_line).
mask() {
	no_flush_line | sed -e "s/$DATE_RE/DATE/g" -e "s|^$DUMP:|dump:|" \
	    -e "s|^$ORACLE_DUMP:|dump:|" -e "s|$DUMP |dump |g" \
	    -e "s|$ORACLE_DUMP |dump |g" -e "s/[a-z0-9]*\.ours/OUT/g" \
	    -e "s/[a-z0-9]*\.ref/OUT/g" \
	    -e "s/^dump [^ ]* (using libext2fs/dump VERSION (using libext2fs/" \
	    -e "s/^	 *\[/	[/"
}

# step WHO N LEVEL: one -u dump of the mount point by WHO (ours or ref)
# at LEVEL into dd.WHO; the date it recorded, written in UTC or in
# India's time (+0530), becomes "STEP<N>" in dates.WHO (a sed script); its
# base-date line goes to bases.WHO.
step() {
	if test $1 = ours
	then
		prog=$DUMP
	else
		prog=$ORACLE_DUMP
	fi &&
	"$prog" -$3 -u -D "$PWD/dd.$1" -f s$2.$1 "$M" 2>s$2.$1.err &&
	d=$(sed -n "s/^  DUMP: Date of this level [0-9]* dump: \($DATE_RE\)$/\1/p" \
		s$2.$1.err | head -n 1) &&
	test -n "$d" && secs=$(date -d "$d" +%s) &&
	for z in UTC "$INDIA"
	do
		zd=$(TZ=$z date -d "@$secs" "+%a %b %e %H:%M:%S %Y") &&
		echo "s/$zd [-+][0-9][0-9][0-9][0-9]\$/STEP$2/" >>dates.$1 ||
		return 1
	done &&
	{ grep -e "Date of last level" -e "WARNING" s$2.$1.err || :; } |
		sed -e "s/$DATE_RE/DATE/" -e "s/dd\.$1/DD/" >>bases.$1
}

# both_in_ns FSTAB OUT ARGS...: in one private mount namespace (so both
# see the same mount table, and nothing outside sees FSTAB bound over
# /etc/fstab) run our dump, then 0.4b47, with ARGS: OUT.ours, OUT.ref
# get their stdout, OUT.*.err their stderr, OUT.*.rc their status.
# The ext2/3/4 mounts of loop devices of other scripts running at the
# same time (below their trash or scratch directories) are unmounted in
# the namespace first: one that went away outside between the two runs
# was listed by one dump and not the other.  This script's own stay, and
# so does every mount on the way to it or to the source tree (a checkout
# on a loop-mounted image), as do the machine's disks.
both_in_ns() {
	ns_fstab=$1 ns_out=$2 && shift 2 &&
	unshare -m --propagation private sh -c '
		awk -v own="$5/" -v top="$6/" '"'"'$1 ~ /^\/dev\/loop/ &&
			$3 ~ /^ext[234]$/ && index($2, own) != 1 &&
			index(own, $2 "/") != 1 && index(top, $2 "/") != 1 {
				print $2 }'"'"' /proc/self/mounts |
			sort -r | while read -r m
			do
				umount -l "$m" 2>/dev/null
			done
		mount --bind "$1" /etc/fstab || exit 1
		out=$2 ours=$3 ref=$4 && shift 6
		"$ours" "$@" >$out.ours 2>$out.ours.err; echo $? >$out.ours.rc
		"$ref" "$@" >$out.ref 2>$out.ref.err; echo $? >$out.ref.rc
	' sh "$ns_fstab" "$ns_out" "$DUMP" "$ORACLE_DUMP" "$TRASH_DIRECTORY" \
		"$TOP" "$@"
}

# same_ns_results OUT: both runs of both_in_ns printed and ended alike.
same_ns_results() {
	test_cmp $1.ref $1.ours && test_cmp $1.ref.err $1.ours.err &&
	test_cmp $1.ref.rc $1.ours.rc
}

if test "$(id -u)" = 0 && test -f /etc/fstab &&
	unshare -m --propagation private true 2>/dev/null
then
	test_set_prereq NS
fi

test_expect_success ROOT,LOOP 'setup: a mounted file system with many small files, a few big ones, sparse ones' '
	truncate -s 96M fs.img &&
	mkfs.ext4 -q -F -b 4096 -O ^metadata_csum fs.img &&
	image_mount fs.img mnt &&
	M=$PWD/mnt && dev=$MOUNT_DEV &&
	mkdir mnt/small mnt/big mnt/sparse &&
	i=0 && while test $i -lt 600
	do
		echo "file $i" >mnt/small/f$i && i=$((i + 1)) || return 1
	done &&
	head -c 9000000 /dev/urandom >mnt/big/a &&
	head -c 5000000 /dev/urandom >mnt/big/b &&
	head -c 70000 /dev/urandom >mnt/big/c &&
	truncate -s 900M mnt/sparse/huge && echo tail >>mnt/sparse/huge &&
	dd if=/dev/urandom of=mnt/sparse/holes bs=4096 count=3 seek=100 2>/dev/null &&
	dd if=/dev/urandom of=mnt/sparse/holes bs=4096 count=2 seek=700 conv=notrunc 2>/dev/null &&
	truncate -s 40M mnt/sparse/empty &&
	sync
'

test_expect_success ROOT,LOOP,ORACLE,OURDUMP '-u levels 0 1 2 1 0: the same dumpdates as dump 0.4b47' '
	n=0 &&
	for level in 0 1 2 1 0
	do
		n=$((n + 1)) &&
		echo "change $n" >>mnt/small/f$n && sync &&
		step ours $n $level && step ref $n $level && sleep 1 || return 1
	done &&
	sed -f dates.ours dd.ours >norm.ours &&
	sed -f dates.ref dd.ref >norm.ref &&
	test_cmp norm.ref norm.ours &&
	cat >expect <<-EOF &&
	$M 0 STEP5
	$M 1 STEP4
	$M 2 STEP3
	EOF
	test_cmp expect norm.ours &&
	test_cmp bases.ref bases.ours &&
	grep -c "Date of last level 1 dump" bases.ours >count &&
	echo 1 >one && test_cmp one count
'

test_expect_success ROOT,LOOP,ORACLE,OURDUMP 'a -u dump in another time zone rewrites every line in it, as 0.4b47' '
	printf "%s\n" "LABEL=other 3 Mon Jan  1 10:00:00 2024 +0100" >>dd.ours &&
	printf "%s\n" "LABEL=other 3 Mon Jan  1 10:00:00 2024 +0100" >>dd.ref &&
	TZ=$INDIA && export TZ &&
	step ours 6 1 && step ref 6 1 &&
	TZ=UTC && export TZ &&
	sed -f dates.ours dd.ours >norm.ours &&
	sed -f dates.ref dd.ref >norm.ref &&
	test_cmp norm.ref norm.ours &&
	grep "^LABEL=other 3 Mon Jan  1 14:30:00 2024 +0530$" dd.ours &&
	test $(grep -c " +0530$" dd.ours) = 4
'

test_expect_success ROOT,LOOP,OURDUMP 'a dump whose output cannot be opened leaves dumpdates unchanged' '
	cp dd.ours before &&
	test_must_fail "$DUMP" -1 -u -q -D "$PWD/dd.ours" -f "$PWD/no/such/dir/x" "$M" 2>open.err &&
	grep "Cannot open output" open.err &&
	test_cmp before dd.ours
'

test_expect_success ROOT,LOOP,ORACLE 'so does dump 0.4b47 (it asks whether to retry, -q aborts with 3)' '
	cp dd.ref before.ref &&
	rc=0 && "$ORACLE_DUMP" -1 -u -q -D "$PWD/dd.ref" -f "$PWD/no/such/dir/x" "$M" 2>open.ref.err || rc=$? &&
	test $rc = 3 &&
	test_cmp before.ref dd.ref
'

# The status 0.4b47 gives: it asks before giving up.
test_expect_success ROOT,LOOP,OURDUMP 'an output that cannot be opened: "retry the open?" question and status 3 as 0.4b47' '
	rc=0 && "$DUMP" -1 -u -q -D "$PWD/dd.ours" -f "$PWD/no/such/dir/x" "$M" 2>open2.err || rc=$? &&
	grep "Do you want to retry the open? - forced abort" open2.err &&
	test $rc = 3
'

# descendants PID: the processes below PID.
descendants() {
	for d in $(pgrep -P "$1")
	do
		echo $d && descendants $d
	done
}

# term_dump PROG DD ERR: start PROG -u writing to standard output, a
# FIFO nobody reads (held open here), TERM it once it runs, keep its
# exit status in ERR.status.  Its helper processes are killed after it:
# those of dump 0.4b47 stay blocked on the FIFO otherwise, holding the
# loop device.
term_dump() {
	rm -f fifo && mkfifo fifo && exec 7<>fifo &&
	{ "$1" -0 -u -D "$PWD/$2" -f - "$M" >fifo 2>"$3" & pid=$!; } &&
	i=0 && while ! grep -q "Pass IV" "$3" && test $i -lt 100
	do
		sleep 0.1 && i=$((i + 1))
	done &&
	sleep 0.3 && helpers=$(descendants $pid) && kill -TERM $pid &&
	{ wait $pid; echo $? >"$3.status"; } &&
	{ test -z "$helpers" || kill -KILL $helpers 2>/dev/null || :; } &&
	exec 7>&-
}

test_expect_success ROOT,LOOP,OURDUMP 'a dump terminated after it started leaves dumpdates unchanged' '
	cp dd.ours before &&
	term_dump "$DUMP" dd.ours term.err &&
	test "$(cat term.err.status)" != 0 &&
	grep "Pass IV" term.err && ! grep "DUMP IS DONE" term.err &&
	test_cmp before dd.ours
'

test_expect_success ROOT,LOOP,ORACLE 'dump 0.4b47 too: "Signal on pipe: cannot recover", status 3' '
	cp dd.ref before.ref &&
	term_dump "$ORACLE_DUMP" dd.ref term.ref.err &&
	test "$(cat term.ref.err.status)" = 3 &&
	grep "^  DUMP: Signal on pipe: cannot recover$" term.ref.err &&
	test_cmp before.ref dd.ref
'

test_expect_success ROOT,LOOP,OURDUMP 'SIGTERM while writing to a pipe: "Signal on pipe: cannot recover", status 3 as 0.4b47' '
	test "$(cat term.err.status)" = 3 &&
	grep "^  DUMP: Signal on pipe: cannot recover$" term.err
'

test_expect_success ROOT,LOOP,OURDUMP 'four -u dumps at once on one dumpdates file: all recorded' '
	printf "%s\n" "$M 0 Mon Jan  1 10:00:00 2024 +0000" >dd.many &&
	{ "$DUMP" -0 -u -D "$PWD/dd.many" -f m1.dump "$dev" 2>m1.err & p1=$!; } &&
	{ "$DUMP" -3 -u -D "$PWD/dd.many" -f m2.dump "$M" 2>m2.err & p2=$!; } &&
	{ "$DUMP" -4 -u -D "$PWD/dd.many" -f m3.dump "$M" 2>m3.err & p3=$!; } &&
	{ "$DUMP" -5 -u -D "$PWD/dd.many" -f m4.dump "$M/" 2>m4.err & p4=$!; } &&
	wait $p1 && wait $p2 && wait $p3 && wait $p4 &&
	grep "Date of last level 0 dump: Mon Jan  1 10:00:00 2024" m2.err &&
	sed "s/ $DATE_RE [-+][0-9]*\$/ DATE/" dd.many | sort >actual &&
	printf "%s\n" "$dev 0 DATE" "$M 0 DATE" "$M 3 DATE" "$M 4 DATE" \
		"$M 5 DATE" | sort >expect &&
	test_cmp expect actual &&
	grep "^$M 0 Mon Jan  1 10:00:00 2024 +0000$" dd.many &&
	! ls dd.many.?????? 2>/dev/null
'

test_expect_success ROOT,LOOP,ORACLE,OURDUMP '-S within 1% of 0.4b47: whole file system at levels 0 and 1, each shape alone' '
	base=$(date "+%a %b %e %H:%M:%S %Y") && sleep 1 &&
	echo more >>mnt/small/f7 && echo more >>mnt/big/c &&
	echo more >>mnt/sparse/holes && sync &&
	printf "%s\n" "$M 0 $base +0000" >dd.S &&
	for args in "-0 $M" "-1 $M" "-0 $M/small" "-0 $M/big" "-0 $M/sparse" \
		"-0 $M/sparse/huge $M/big/a" "-1 -T \"$base\" $M"
	do
		eval "\"\$DUMP\" -S -D dd.S $args" >S.ours 2>/dev/null &&
		eval "\"\$ORACLE_DUMP\" -S -D dd.S $args" >S.ref 2>/dev/null &&
		a=$(cat S.ours) && b=$(cat S.ref) &&
		echo "$args: ours $a, 0.4b47 $b" &&
		test $(( (a - b) * 100 )) -le $b && test $(( (b - a) * 100 )) -le $b ||
		return 1
	done &&
	"$DUMP" -1 -S -D dd.S "$M" >S1 && "$DUMP" -0 -S -D dd.S "$M" >S0 &&
	test $(cat S1) -lt $(( $(cat S0) / 10 ))
'

test_expect_success ROOT,LOOP,ORACLE,OURDUMP 'bad levels and options: the messages and statuses of 0.4b47' '
	printf "%s\n" "$dev 9 Mon Jan  1 10:00:00 2024 +0000" >dd.lv &&
	for args in "-x" "-10" "-1 -0" "-11 -T junk" "-h 11" "-h x" "-b 2000" "-9 -u -T 2024"
	do
		rc=0 && "$DUMP" $args -D dd.lv -f lv.ours "$dev" >o.out 2>lv.ours.err || rc=$? &&
		orc=0 && "$ORACLE_DUMP" $args -D dd.lv -f lv.ref "$dev" >r.out 2>lv.ref.err || orc=$? &&
		echo "$args: $rc" >>st.ours && echo "$args: $orc" >>st.ref &&
		{ no_flush_line <lv.ours.err | sed -n 1,6p | mask; } >>m.ours &&
		{ no_flush_line <lv.ref.err | sed -n 1,6p | mask; } >>m.ref ||
		return 1
	done &&
	test_cmp st.ref st.ours &&
	test $(grep -c "^  DUMP: Date of this level 10 dump: DATE$" m.ours) = 2 &&
	test $(grep -c "^  DUMP: Date of last level 9 dump: DATE$" m.ours) = 2 &&
	grep "^dump: invalid option -- .x.$" m.ours &&
	test_cmp m.ref m.ours &&
	test_must_fail "$DUMP" -x 2>usage.err &&
	ind=$(sed -n "4s/^	\( *\)\[-d density\].*/\1/p" usage.err) &&
	test ${#ind} = $(( ${#DUMP} + 1 ))
'

test_expect_success ROOT,LOOP,OURDUMP 'a level that does not fit an int is refused before anything is done' '
	test_must_fail "$DUMP" -99999999999 -u -D "$PWD/dd.big" -f big.dump "$dev" 2>big.err &&
	grep "level too large" big.err &&
	! test -e big.dump && ! test -e dd.big
'

test_expect_success ROOT,LOOP,ORACLE,OURDUMP 'garbage in dumpdates: reported as line 1, later lines unread, and lost by -u (as 0.4b47)' '
	cat >garbage <<-EOF &&
	$M 0 Sun Nov 22 13:02:04 2026 +0000
	LABEL=x 0 Sun Nov 22 13:02:04 2026 +0000
	$M 1 Sun Xyz 22 13:02:04 2026 +0000
	$M 1 Sun Nov 22 14:02:04 2026 +0000
	EOF
	cp garbage g.ours && cp garbage g.ref &&
	"$DUMP" -2 -u -D "$PWD/g.ours" -f g.dump.ours "$M" 2>g.ours.err &&
	"$ORACLE_DUMP" -2 -u -D "$PWD/g.ref" -f g.dump.ref "$M" 2>g.ref.err &&
	mask <g.ours.err >gm.ours && mask <g.ref.err >gm.ref &&
	sed -n 1,3p g.ours.err | sed "s/$DATE_RE/DATE/" >actual &&
	cat >expect <<-EOF &&
	  DUMP: Unknown format in $PWD/g.ours, line 1
	  DUMP: Date of this level 2 dump: DATE
	  DUMP: Date of last level 0 dump: DATE
	EOF
	test_cmp expect actual &&
	grep -v -e "took" -e "transfer rate" -e "finished in" gm.ref >gm.ref2 &&
	grep -v -e "took" -e "transfer rate" -e "finished in" gm.ours >gm.ours2 &&
	test_cmp gm.ref2 gm.ours2 &&
	sed "s/ $DATE_RE +0000\$/ DATE/" g.ours >n.ours &&
	sed "s/ $DATE_RE +0000\$/ DATE/" g.ref >n.ref &&
	test_cmp n.ref n.ours &&
	test $(wc -l <g.ours) = 3 && grep "^$M 2 " g.ours
'

test_expect_success ROOT,LOOP,ORACLE,OURDUMP '-T: bad dates refused, good ones as the base (messages as 0.4b47)' '
	for t in "bad date" "Sun Xyz 22 13:02:04 2026" "Sun Nov 22" "" \
		"Sun Nov 22 13:02:04 2026" "Sun Nov 22 13:02:04 2026 +0530" \
		"Sun Nov 22 13:02:04 2026 -0800" "Thu Jan  1 00:00:00 1970"
	do
		rc=0 && "$DUMP" -1 -T "$t" -f t.ours "$dev" >/dev/null 2>t.ours.err || rc=$? &&
		orc=0 && "$ORACLE_DUMP" -1 -T "$t" -f t.ref "$dev" >/dev/null 2>t.ref.err || orc=$? &&
		echo "$t: $rc" >>ts.ours && echo "$t: $orc" >>ts.ref &&
		{ no_flush_line <t.ours.err | sed -n 1,3p | mask; } >>tm.ours &&
		{ no_flush_line <t.ref.err | sed -n 1,3p | mask; } >>tm.ref &&
		sed -n "s/^  DUMP: Date of last level ? dump: //p" t.ours.err >>tl.ours &&
		sed -n "s/^  DUMP: Date of last level ? dump: //p" t.ref.err >>tl.ref ||
		return 1
	done &&
	test_cmp ts.ref ts.ours &&
	test_cmp tm.ref tm.ours &&
	test_cmp tl.ref tl.ours &&
	grep "^  DUMP: bad time \"bad date\"$" tm.ours &&
	grep "^Sun Nov 22 21:02:04 2026$" tl.ours &&
	test_must_fail "$DUMP" -1 -u -T "Sun Nov 22 13:02:04 2026" -f t.x "$dev" 2>tu.err &&
	grep "You cannot use the T and u flags together" tu.err
'

test_expect_success ROOT,LOOP,ORACLE,OURDUMP,NS '-W and -w: as 0.4b47 for the same mount table, fstab and dumpdates' '
	truncate -s 8M other.img && mkfs.ext4 -q -F -L i4aother other.img &&
	odev=$(image_attach other.img) &&
	now=$(date "+%a %b %e %H:%M:%S %Y") &&
	cat >fstab <<-EOF &&
	# comment
	$dev $M ext4 defaults 1 2
	$odev /srv/other ext4 defaults 2 2
	LABEL=i4aother /srv/again ext4 defaults 5 2
	UUID=00000000-0000-0000-0000-00000000abcd /u ext4 defaults 1 2
	tmpfs /t tmpfs defaults 1 0
	$PWD/fs.img /img ext4 loop 1 2
	$odev /srv/ext3 ext3 defaults 0 0
	EOF
	cat >dd.W <<-EOF &&
	$M 0 Sat Nov 21 10:00:00 2020 +0000
	$M 1 $now +0000
	${odev#/} 0 Tue Jan  2 03:04:05 2024 +0000
	zzz/unknown 4 Fri Mar  1 12:00:00 2024 +0100
	aaa-unknown 2 Fri Mar  1 12:00:00 2024 +0100
	aaa-unknown 3 Fri Mar  1 12:00:01 2024 +0100
	epoch 0 Thu Jan  1 00:05:00 1970 +0000
	EOF
	for opt in -W -w
	do
		both_in_ns "$PWD/fstab" W -D "$PWD/dd.W" $opt &&
		same_ns_results W && cat W.ours >>W.all &&
		TZ=$NEW_YORK both_in_ns "$PWD/fstab" W -D "$PWD/dd.W" $opt &&
		same_ns_results W && cat W.ours >>W.all || return 1
	done &&
	grep "^  $dev	($M) Last dump: Level 1, Date $now$" W.all &&
	grep "^> $odev	(/srv/other) Last dump: Level 0, Date Tue Jan  2 03:04:05 2024$" W.all &&
	grep "^     epoch	(      ) Last dump: never$" W.all &&
	grep "^  aaa-unknown	(      ) Last dump: Level 3, Date Fri Mar  1 11:00:01 2024$" W.all &&
	grep "^  aaa-unknown	(      ) Last dump: Level 3, Date Fri Mar  1 06:00:01 2024$" W.all &&
	! grep "/u)" W.all && ! grep "/t)" W.all && ! grep "/img)" W.all
'

test_expect_success ROOT,LOOP,ORACLE,OURDUMP,NS '-W: later -D ignored, garbage lines, as 0.4b47' '
	printf "%s\n" "$M 0 Sat Nov 21 10:00:00 2020 +0000" "garbage" \
		"$M 1 Sat Nov 21 11:00:00 2020 +0000" >dd.G &&
	for args in "-D $PWD/dd.G -W" "-W -D $PWD/dd.G" "-D $PWD/dd.G -w -D $PWD/dd.W"
	do
		both_in_ns "$PWD/fstab" G $args && same_ns_results G || return 1
	done &&
	grep "Unknown format in $PWD/dd.G, line 1" G.ours.err
'

test_expect_success ROOT,LOOP,ORACLE,OURDUMP,NS '-W: a frequency above 3659 is fatal where it is taken, as 0.4b47' '
	cp fstab fstab.big1 && echo "$odev /srv/big ext4 defaults 3660 2" >>fstab.big1 &&
	echo "$dev /srv/big ext4 defaults 3660 2" >fstab.big2 &&
	echo "$odev /srv/big ext4 defaults 3660 2" >fstab.big3 &&
	for n in 1 2 3
	do
		both_in_ns "$PWD/fstab.big$n" B -D "$PWD/dd.W" -W &&
		same_ns_results B &&
		echo "$n: $(cat B.ours.rc)" >>Bst.ours &&
		echo "$n: $(cat B.ref.rc)" >>Bst.ref &&
		cat B.ours.err >>Berr.all || return 1
	done &&
	printf "%s\n" "1: 0" "2: 3" "3: 3" >expect && test_cmp expect Bst.ours &&
	test_cmp Bst.ref Bst.ours &&
	grep "^  DUMP: Dump frequency in fstab/mtab for $dev is too big: 3660 > 3659$" Berr.all &&
	grep "^  DUMP: Dump frequency in fstab/mtab for /srv/big $odev is too big: 3660 > 3659$" Berr.all
'

# 0.4b47 cannot dump an image file: it takes it for a file inside the
# file system holding it, a subset, and so refuses -u.  Ours dumps the
# image as a file system, and -u records it under the name given.
test_expect_success ORACLE 'dump 0.4b47 -u of an image file: refused as a subdirectory, status 1' '
	mkdir -p itree && echo x >itree/f &&
	mke2fs -q -F -t ext4 -d itree "$PWD/i.img" 4M &&
	: >i.ref.dd &&
	{ "$ORACLE_DUMP" -0 -u -D "$PWD/i.ref.dd" -f /dev/null "$PWD/i.img" 2>i.ref.err
	  echo $? >i.ref.rc; } &&
	echo 1 >expect && test_cmp expect i.ref.rc &&
	printf "  DUMP: You can\047t update the dumpdates file when dumping a subdirectory\n  DUMP: The ENTIRE dump is aborted.\n" >expect &&
	test_cmp expect i.ref.err && test ! -s i.ref.dd
'

test_expect_success OURDUMP '-u of an image file: recorded under its name, the base of level 1' '
	mkdir -p itree && echo x >itree/f &&
	mke2fs -q -F -t ext4 -d itree "$PWD/i.img" 4M &&
	: >i.ours.dd &&
	"$DUMP" -0 -u -D "$PWD/i.ours.dd" -f /dev/null "$PWD/i.img" 2>i0.err &&
	grep "DUMP IS DONE" i0.err &&
	"$DUMP" -1 -u -D "$PWD/i.ours.dd" -f /dev/null "$PWD/i.img" 2>i1.err &&
	d0=$(sed -n "s|^$PWD/i.img 0 \($DATE_RE\) +0000\$|\1|p" i.ours.dd) &&
	test -n "$d0" &&
	grep "^  DUMP: Date of last level 0 dump: $d0\$" i1.err &&
	grep "^$PWD/i.img 1 $DATE_RE +0000\$" i.ours.dd &&
	test $(wc -l <i.ours.dd) = 2
'

test_done
