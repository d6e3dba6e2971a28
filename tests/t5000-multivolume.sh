#!/bin/sh
test_description='dump -B/-M/-f a,b: multi-volume archives

Our dump splits the archive into volumes by -B size (a list, the last
value repeating), names them with -M (<name>001, ...) or from a -f list,
and restore 0.4b47 reads them back into the very tree it restores from a
single-volume archive of 0.4b47.  More than 20 split points, compressed
and not, fall in bitmaps, directories, headers and data runs.  Without
compression the volume headers (c_volume, c_tapea, c_firstrec, c_count,
c_inumber) and the volume messages equal 0.4b47 own for the same -B;
compressed volumes end where 0.4b47 rule ends them (bytes + 3 records of
look-ahead).  End of media (a small full file system) continues on the
next volume and the archive still restores completely.  A volume change
without a name asks on /dev/tty (driven here through script(1)); -q and
a missing terminal abort.'
. "$(dirname "$0")/lib.sh"

ZREC="$PYTHON $HELPERS/zrecords.py"

# The options must be wired into dump's command line.
if test_have_prereq OURDUMP &&
	! "$DUMP" -0 -M -B 100 -z -f /dev/null /nonexistent 2>&1 |
		grep -Eq "not supported|invalid option|illegal option|usage"
then
	test_set_prereq MULTIVOL
fi
if test_have_prereq MULTIVOL &&
	! "$DUMP" -0 -F true -f /dev/null /nonexistent 2>&1 |
		grep -Eq "not supported|invalid option|illegal option|usage"
then
	test_set_prereq VOLSCRIPT
fi
if test_have_prereq MULTIVOL &&
	! "$DUMP" -0 -c -s 10 -d 1600 -f /dev/null /nonexistent 2>&1 |
		grep -Eq "not supported|invalid option|illegal option|usage"
then
	test_set_prereq TAPELENGTH
fi
command -v script >/dev/null 2>&1 && test_set_prereq SCRIPT
command -v setsid >/dev/null 2>&1 && test_set_prereq SETSID
# Our restore reads -M volumes once it no longer refuses the option.
if test_have_prereq OURRESTORE &&
	! "$RESTORE" -t -M -f ./nonexistent 2>&1 | grep -q "not supported"
then
	test_set_prereq RESTORE_M
fi

# restore 0.4b47 -r of volumes <prefix>001... into directory $2, then its
# manifest; succeeds when it equals ${3:-ref}.man, what restore 0.4b47
# makes of a single-volume archive of the same dump program.
oracle_restores() {
	rm -rf "$2" && mkdir "$2" &&
	(cd "$2" && "$ORACLE_RESTORE" -r -M -f "../$1" >/dev/null 2>../"$2".err) &&
	manifest "$2" --mtime=s >"$2".man &&
	test_cmp ${3:-ref}.man "$2".man
}

# Volume lines of a dump's stderr, dates cut off.
volume_lines() {
	grep -E "Dumping volume|started with block|begins with blocks|Closing|Volume [0-9]* [0-9]* blocks|volume\(s\)" "$1" |
		sed "s/ at: .*//"
}

# The small image with 14 MiB of random data and a large directory
# (volume_image): an archive of about 17 MB, enough for the split points
# counted below and for three volumes of -B 6000.
test_expect_success ROOT,LOOP,ORACLE 'setup: image, and what restore 0.4b47 makes of a single volume' '
	volume_image fs.img 14 &&
	dev=$(image_attach fs.img) && echo $dev >dev &&
	"$ORACLE_DUMP" -0 -f osingle.dump $dev 2>osingle.err &&
	mkdir osingle && (cd osingle && "$ORACLE_RESTORE" -r -f ../osingle.dump) &&
	manifest osingle --mtime=s >oref.man &&
	test $(wc -l <oref.man) -gt 1000
'

test_expect_success ROOT,LOOP,ORACLE,MULTIVOL 'setup: the same of a single volume of ours' '
	"$DUMP" -0 -f single.dump $(cat dev) 2>single.err &&
	mkdir single && (cd single && "$ORACLE_RESTORE" -r -f ../single.dump) &&
	manifest single --mtime=s >ref.man &&
	test $(wc -l <ref.man) -gt 1000
'

# name|options: -b 1 makes volumes of exactly -B blocks, so the first
# lists put splits into the directories at the start (blocks 40-300).
# (restore 0.4b47 stumbles over volumes shorter than the 32 blocks it
# reads at a time, whoever wrote them: none here.)
UNCOMPRESSED='
bits|-b 1 -B 40,33,37,41,43,47,53,20000
dirs|-b 1 -B 300,151,97,20000
data|-B 3000
big|-B 9000
b64|-b 64 -B 4000
odd|-b 7 -B 1234,4321
'

lib_ifs=$IFS
IFS='
'
for line in $UNCOMPRESSED
do
	IFS=$lib_ifs
	name=${line%%|*} opts=${line#*|}
	test_expect_success ROOT,LOOP,ORACLE,MULTIVOL "uncompressed $name ($opts): restore 0.4b47 reads our volumes" '
		"$DUMP" -0 '"$opts"' -M -f u'$name'. $(cat dev) 2>u'$name'.err &&
		test $(ls u'$name'.0* | wc -l) -ge 2 &&
		oracle_restores u'$name'. ru'$name'
	'

	test_expect_success ROOT,LOOP,ORACLE,MULTIVOL,!DUMP_IS_ORACLE "uncompressed $name: volume headers and messages equal 0.4b47 ones" '
		"$ORACLE_DUMP" -0 '"$opts"' -M -f o'$name'. $(cat dev) 2>o'$name'.err &&
		$ZREC volhdr o'$name'.0* >o'$name'.hdr &&
		$ZREC volhdr u'$name'.0* >u'$name'.hdr &&
		test_cmp o'$name'.hdr u'$name'.hdr &&
		(cd . && for f in o'$name'.0*; do stat -c %s $f; done) >o'$name'.sizes &&
		(cd . && for f in u'$name'.0*; do stat -c %s $f; done) >u'$name'.sizes &&
		test_cmp o'$name'.sizes u'$name'.sizes &&
		volume_lines o'$name'.err | sed "s/ o'$name'\./ X./" >o'$name'.lines &&
		volume_lines u'$name'.err | sed "s/ u'$name'\./ X./" >u'$name'.lines &&
		test_cmp o'$name'.lines u'$name'.lines
	'
done

test_expect_success ROOT,LOOP,ORACLE,MULTIVOL 'uncompressed: more than 20 split points in all' '
	n=0 && for f in u*.0*; do case $f in *.001) ;; *) n=$((n + 1)) ;; esac; done &&
	echo $n && test $n -gt 20
'

# name|options|first -B value|volumes the split check covers
COMPRESSED='
z3000|-z -B 3000|3000|all
z1500|-z -B 1500|1500|all
j5000|-j -B 5000|5000|all
y2000|-y -B 2000,7000|2000|first
zb1|-z -b 1 -B 40,60,20000|40|first
z9|-z9 -b 32 -B 4100|4100|all
'

IFS='
'
for line in $COMPRESSED
do
	IFS=$lib_ifs
	name=${line%%|*} rest=${line#*|}
	opts=${rest%%|*} rest=${rest#*|}
	limit=${rest%%|*} which=${rest#*|}
	test_expect_success ROOT,LOOP,ORACLE,MULTIVOL "compressed $name ($opts): restore 0.4b47 reads our volumes" '
		"$DUMP" -0 '"$opts"' -M -f c'$name'. $(cat dev) 2>c'$name'.err &&
		test $(ls c'$name'.0* | wc -l) -ge 2 &&
		oracle_restores c'$name'. rc'$name'
	'

	test_expect_success ROOT,LOOP,MULTIVOL "compressed $name: volumes end where 0.4b47 ends them" '
		set -- c'$name'.0* &&
		if test '$which' = all
		then
			$ZREC split '$limit' "$@"
		else
			$ZREC split '$limit' "$1" "$2"
		fi
	'
done

test_expect_success ROOT,LOOP,ORACLE,MULTIVOL 'compressed: more than 20 split points in all' '
	n=0 && for f in c*.0*; do case $f in *.001) ;; *) n=$((n + 1)) ;; esac; done &&
	echo $n && test $n -gt 20
'

test_expect_success ROOT,LOOP,ORACLE,MULTIVOL 'volumes of 0.4b47 split the same way are read by restore 0.4b47 (control)' '
	oracle_restores odata. rodata oref
'

# restore 0.4b47 loses its way when a volume starts right after the
# file-removal map (TS_CLRI), whoever wrote the volumes.
test_known_upstream_defect ROOT,LOOP,ORACLE,MULTIVOL 'restore 0.4b47 cannot continue after a split behind the TS_CLRI map' '
	"$ORACLE_DUMP" -0 -b 1 -B 5,20000 -M -f oclri. $(cat dev) 2>oclri.err &&
	rm -rf roclri && mkdir roclri &&
	(cd roclri && "$ORACLE_RESTORE" -r -M -f ../oclri. 2>../roclri.err >/dev/null);
	grep "Incorrect block for <file removal list>" roclri.err
'

test_expect_success ROOT,LOOP,ORACLE,MULTIVOL,!DUMP_IS_ORACLE 'our volumes split behind the TS_CLRI map have 0.4b47 headers' '
	"$DUMP" -0 -b 1 -B 5,20000 -M -f uclri. $(cat dev) 2>uclri.err &&
	$ZREC volhdr oclri.0* >oclri.hdr && $ZREC volhdr uclri.0* >uclri.hdr &&
	test_cmp oclri.hdr uclri.hdr
'

# only_nameless ERR KIND: restore's only complaint in ERR is the inode
# 0.4b47's archives (KIND osingle) leave without a name.
only_nameless() {
	test "$2" = osingle &&
	grep -v "^Dump tape is compressed\.$" "$1" >r.left &&
	test "$(wc -l <r.left)" = 1 &&
	grep -q "has no name reached from the root: not restored$" r.left
}

test_expect_success ROOT,LOOP,ORACLE,MULTIVOL,RESTORE_M 'our restore reads our volumes and 0.4b47 ones' '
	# The reference is our own restore of the single-volume archive of the
	# same dump: 0.4b47 restores big device numbers and 255-byte names
	# wrongly, so ref.man cannot serve here.
	# 0.4b47 drops the 255-byte name from its directory entry: that
	# inode, on its archives, has no name and is reported (status 1).
	for single in single osingle
	do
		rm -rf our$single && mkdir our$single &&
		{ (cd our$single && "$RESTORE" -r -f ../$single.dump) 2>r.err ||
		  only_nameless r.err $single; } &&
		manifest our$single --mtime=s >our$single.man || return 1
	done &&
	for p in udata.:single odata.:osingle cz3000.:single uodd.:single
	do
		rm -rf x && mkdir x &&
		{ (cd x && "$RESTORE" -r -M -f ../${p%%:*}) 2>r.err ||
		  only_nameless r.err ${p#*:}; } &&
		manifest x --mtime=s >x.man && test_cmp our${p#*:}.man x.man || return 1
	done
'

test_expect_success ROOT,LOOP,ORACLE,MULTIVOL '-f a,b,c: volume n goes to the n-th name' '
	"$DUMP" -0 -B 6000 -f la,lb,lc $(cat dev) 2>list.err &&
	grep "Dumping volume 2 on lb" list.err &&
	grep "Dumping volume 3 on lc" list.err &&
	! grep "Change Volumes" list.err &&
	cp la l.001 && cp lb l.002 && cp lc l.003 &&
	oracle_restores l. rl
'

test_expect_success ROOT,LOOP,MULTIVOL,SETSID 'a list too short and no terminal: asks, aborts (exit 3)' '
	{ setsid -w "$DUMP" -0 -B 6000 -f sa,sb $(cat dev) 2>short.err </dev/null; echo $? >short.rc; } &&
	test $(cat short.rc) -eq 3 &&
	grep "Change Volumes: Mount volume #3" short.err &&
	grep "fopen on /dev/tty fails" short.err &&
	grep "The ENTIRE dump is aborted." short.err
'

test_expect_success ROOT,LOOP,MULTIVOL '-q: the volume question is a forced abort' '
	{ "$DUMP" -0 -q -B 6000 -f qa $(cat dev) 2>q.err; echo $? >q.rc; } &&
	test $(cat q.rc) -eq 3 &&
	grep "Change Volumes: Mount volume #2" q.err &&
	grep "Is the new volume mounted and ready to go? - forced abort" q.err
'

# The operator changes the medium: the test moves the finished volume
# away each time the question shows, then answers yes on the terminal.
test_expect_success ROOT,LOOP,ORACLE,MULTIVOL,SCRIPT 'operator answers the volume question on /dev/tty' '
	rm -f tty.in tty.out && mkfifo tty.in && : >tty.out &&
	exec 5<>tty.in &&
	{ script -qfec "\"$DUMP\" -0 -B 6000 -f tv $(cat dev)" /dev/null <tty.in >tty.out 2>&1 & } &&
	pid=$! &&
	n=1 && tries=0 &&
	while kill -0 $pid 2>/dev/null && test $tries -lt 600
	do
		if test "$(grep -c "ready to go" tty.out)" -ge $n
		then
			mv tv tv.00$n && n=$((n + 1)) && echo yes >&5
		fi
		tries=$((tries + 1)) && sleep 0.1
	done &&
	{ kill -9 $pid 2>/dev/null || :; } &&
	exec 5>&- &&
	wait $pid &&
	mv tv tv.00$n &&
	test $n -eq 3 &&
	grep "DUMP IS DONE" tty.out &&
	oracle_restores tv. rtv
'

# Length mode: (record bytes / density + gap) of tape per record, the
# volume ends when it exceeds -s feet; compressed, the last two records
# count as full ones.  Uncompressed volumes equal 0.4b47 ones in size;
# compressed ones come out as many.
for opts in "-s 40" "-c -s 30" "-d 6250 -s 60" "-z -s 40" "-j -c -s 60"
do
	name=$(echo "$opts" | tr -d " -")
	test_expect_success ROOT,LOOP,ORACLE,MULTIVOL,TAPELENGTH "tape length ($opts): volumes as 0.4b47's, restore 0.4b47 reads them" '
		"$DUMP" -0 '"$opts"' -M -f t'$name'. $(cat dev) 2>t'$name'.err &&
		"$ORACLE_DUMP" -0 '"$opts"' -M -f ot'$name'. $(cat dev) 2>ot'$name'.err &&
		ls ot'$name'.0* | wc -l >ot'$name'.count &&
		ls t'$name'.0* | wc -l >t'$name'.count &&
		test_cmp ot'$name'.count t'$name'.count &&
		case "'"$opts"'" in
		*-[zj]*) ;;
		*)	stat -c %s ot'$name'.0* >ot'$name'.sizes &&
			stat -c %s t'$name'.0* >t'$name'.sizes &&
			test_cmp ot'$name'.sizes t'$name'.sizes ;;
		esac &&
		oracle_restores t'$name'. rt'$name'
	'
done

# -F: the script gets the output name and the volume just finished;
# here it moves the volume away, as an autoloader would change tapes.
test_expect_success ROOT,LOOP,ORACLE,MULTIVOL,VOLSCRIPT '-F script: exit 0 goes on without asking' '
	printf "#!/bin/sh\necho \"\$*\" >>next.log\nmv \"\$1\" \"\$1.00\$2\"\n" >next.sh &&
	chmod +x next.sh &&
	"$DUMP" -0 -B 6000 -F "$PWD/next.sh" -f fv $(cat dev) 2>fv.err &&
	test $(grep -c "^  DUMP: Launching $PWD/next.sh\$" fv.err) -eq 2 &&
	! grep "Change Volumes" fv.err &&
	printf "fv 1\nfv 2\n" >next.expect && test_cmp next.expect next.log &&
	mv fv fv.003 &&
	oracle_restores fv. rfv
'

test_expect_success ROOT,LOOP,MULTIVOL,VOLSCRIPT,SETSID '-F script: exit 1 asks the operator, other statuses abort' '
	printf "#!/bin/sh\nexit 1\n" >ask.sh && printf "#!/bin/sh\nexit 5\n" >stop.sh &&
	chmod +x ask.sh stop.sh &&
	{ setsid -w "$DUMP" -0 -B 6000 -F "$PWD/ask.sh" -f fa $(cat dev) 2>fa.err </dev/null; echo $? >fa.rc; } &&
	test $(cat fa.rc) -eq 3 && grep "Change Volumes: Mount volume #2" fa.err &&
	{ "$DUMP" -0 -B 6000 -F "$PWD/stop.sh" -f fs $(cat dev) 2>fs.err; echo $? >fs.rc; } &&
	test $(cat fs.rc) -eq 3 &&
	grep "Dump aborted by the end of tape script" fs.err
'

# End of media: the first volume fills a small file system; the lost
# records are written again on the next volume, which restores.
for z in none -z -j
do
	test_expect_success ROOT,LOOP,ORACLE,MULTIVOL "end of media ($z): continues on the next volume, restores completely" '
		truncate -s 4M small.img &&
		mke2fs -q -F -t ext2 -m 0 small.img &&
		image_mount small.img small &&
		test_when_finished "image_umount small" &&
		zopt= && test '$z' = none || zopt='$z' &&
		"$DUMP" -0 $zopt -f small/a,eb $(cat dev) 2>eom.err &&
		grep "End of tape detected" eom.err &&
		grep "Dumping volume 2 on eb" eom.err &&
		grep "on 2 volume(s)" eom.err &&
		test $(stat -c %s small/a) -gt 1000000 &&
		cp small/a e.001 && cp eb e.002 &&
		oracle_restores e. re &&
		rm -f small/a
	'
done

test_expect_success ROOT,LOOP,MULTIVOL 'end of media on every -M volume: aborts instead of looping' '
	truncate -s 2M tiny.img &&
	mke2fs -q -F -t ext2 -m 0 tiny.img &&
	image_mount tiny.img tiny &&
	test_when_finished "image_umount tiny" &&
	{ "$DUMP" -0 -M -f tiny/m $(cat dev) 2>tiny.err; echo $? >tiny.rc; } &&
	test $(cat tiny.rc) -eq 3 &&
	grep "End of tape detected" tiny.err &&
	grep "The ENTIRE dump is aborted." tiny.err
'

test_done
