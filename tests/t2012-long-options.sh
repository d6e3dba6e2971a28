#!/bin/sh
test_description='long option names of dump and restore 0.4b56

Every long name does what its letter does (the same archive but for its
dates, the same listing, files, messages and status); the options that
have only a long name do what dump.8 and restore.8 say; getopt_long
refuses unknown, ambiguous and argument-less names in 0.4b56 words.'
. "$(dirname "$0")/lib.sh"

CMPDUMP="$HELPERS/cmpdump.py"
TAPETOOL=$HELPERS/tapetool
test -x "$TAPETOOL" && test_set_prereq TAPETOOL

# dump's stderr without what differs between two runs: dates, times,
# rates and the output's name.
norm() {
	sed -e '/Date /d' -e '/ at: /d' -e '/finished in/d' \
	    -e '/transfer rate/d' -e '/ took /d' -e '/^  DUMP: Closing /d' \
	    -e 's/) to .*$/) to OUT/' -e 's/positions to .*$/positions to QFA/' "$@"
}
# The first line of a refusal, the program's path cut to PROG.
first() {
	sed -n '1s|^[^ :]*: |PROG: |p' "$1"
}
# The name lines of a -t listing.
tlines() {
	grep -a "^ *[0-9][0-9]*	"
}

# A small tree: a file over 200 KiB for volumes of -B 200, a directory,
# a symbolic link; fixed times.
test_expect_success ROOT,LOOP 'setup: a small image, attached' '
	mkdir -p tree/d/e &&
	echo hello >tree/d/e/f && echo top >tree/top && ln -s top tree/lnk &&
	head -c 300000 /dev/urandom >tree/big &&
	touch -h -d "2020-01-01 00:00:00" tree/lnk &&
	touch -d "2020-01-01 00:00:00" tree/top tree/big tree/d/e/f \
		tree/d/e tree/d tree &&
	truncate -s 8M fs.img &&
	mke2fs -q -F -t ext4 -L lo-$$ -d tree fs.img &&
	dev=$(image_attach fs.img) &&
	echo 12 >excl
'

test_expect_success ROOT,LOOP,OURDUMP,PYTHON 'dump: long names write the archive, tables and messages of the letters' '
	"$DUMP" -0 -v -b 32 -L lbl -e 13 -E excl -h 0 -I 5 -D dd \
		-Q qa -A ta -f a.dump "$dev" 2>a.err &&
	"$DUMP" -0 --verbose --block-size=32 --label lbl --excluded-inodes 13 \
		--excluded-inodes-file excl --honor-nodump-level 0 \
		--max-ignore-errors 5 --dumpdates-file dd \
		--QFAfile qb --archive-file tb --output-file b.dump \
		"$dev" 2>b.err &&
	"$PYTHON" "$CMPDUMP" cmp --strict a.dump b.dump &&
	"$PYTHON" "$CMPDUMP" cmp --strict ta tb &&
	sed 3d qa >qa.n && sed 3d qb >qb.n && test_cmp qa.n qb.n &&
	grep "Excluding inode 13 from dump" b.err &&
	norm a.err >a.n && norm b.err >b.n && test_cmp a.n b.n
'

test_expect_success ROOT,LOOP,OURDUMP,PYTHON 'dump: --update-dumpdates, --dump-changed-since-time, --metadata-only as -u, -T, -m' '
	"$DUMP" -0 -u -D du1 -f u1.dump "$dev" 2>/dev/null &&
	"$DUMP" -0 --update-dumpdates -D du2 -f u2.dump "$dev" 2>/dev/null &&
	cut -d" " -f1,2 du1 >du1.n && cut -d" " -f1,2 du2 >du2.n &&
	echo "$dev 0" >du.exp && test_cmp du.exp du1.n && test_cmp du1.n du2.n &&
	"$DUMP" -1 -m -T "Wed Jan  1 00:00:00 2020" -D dd -f t1.dump \
		"$dev" 2>t1.err &&
	"$DUMP" -1 --metadata-only \
		--dump-changed-since-time="Wed Jan  1 00:00:00 2020" \
		-D dd -f t2.dump "$dev" 2>t2.err &&
	"$PYTHON" "$CMPDUMP" cmp --strict t1.dump t2.dump &&
	grep "Date of last level ? dump: Wed Jan  1 00:00:00 2020" t2.err
'

test_expect_success ROOT,LOOP,OURDUMP,OURRESTORE 'dump: --z-compress, --bz-compress, --lzo-compress as -z, -j, -y' '
	for p in "-z4 --z-compress=4" "-j --bz-compress" "-y --lzo-compress"
	do
		set -- $p &&
		"$DUMP" -0 $1 -D dd -f c1.dump "$dev" 2>c1.err &&
		"$DUMP" -0 $2 -D dd -f c2.dump "$dev" 2>c2.err &&
		grep Compressing c1.err >c1.n && grep Compressing c2.err >c2.n &&
		test_cmp c1.n c2.n &&
		"$RESTORE" -t -f c1.dump 2>/dev/null | tlines >c1.list &&
		"$RESTORE" -t -f c2.dump 2>/dev/null | tlines >c2.list &&
		test_cmp c1.list c2.list || return 1
	done &&
	grep -q "level 4" c2.n || grep -q lzo c2.n
'

cat >eot.sh <<\EOF
#!/bin/sh
echo "$@" | sed "s|.*/||" >>"${0%.sh}.log"
EOF

test_expect_success ROOT,LOOP,OURDUMP 'dump: --multivolume, --blocks-per-volume, --eot-script as -M, -B, -F' '
	chmod +x eot.sh && mkdir m &&
	"$DUMP" -0 -M -B 200 -F "$PWD/eot.sh" -D dd -f m/v "$dev" 2>m1.err &&
	mv eot.log m1.log && mv m m1 && mkdir m &&
	"$DUMP" -0 --multivolume --blocks-per-volume 200 \
		--eot-script "$PWD/eot.sh" -D dd -f m/v "$dev" 2>m2.err &&
	mv eot.log m2.log && mv m m2 &&
	test -f m1/v002 &&
	(cd m1 && wc -c v*) >m1.sizes && (cd m2 && wc -c v*) >m2.sizes &&
	test_cmp m1.sizes m2.sizes && test_cmp m1.log m2.log &&
	norm m1.err >m1.n && norm m2.err >m2.n && test_cmp m1.n m2.n
'

test_expect_success ROOT,LOOP,OURDUMP 'dump: --cartridge, --density, --tape-feet-per-volume, --auto-size as -c, -d, -s, -a' '
	"$DUMP" -0 -c -d 6250 -s 1000 -D dd -f /dev/null "$dev" 2>s1.err &&
	"$DUMP" -0 --cartridge --density 6250 --tape-feet-per-volume=1000 \
		-D dd -f /dev/null "$dev" 2>s2.err &&
	grep "Writing 32 Kilobyte records" s2.err &&
	grep "tape(s)" s2.err &&
	norm s1.err >s1.n && norm s2.err >s2.n && test_cmp s1.n s2.n &&
	test_must_fail "$DUMP" -0 --auto-size --cartridge -D dd -f /dev/null \
		"$dev" 2>a2.err &&
	grep "You cannot use the a and c flags together." a2.err
'

# -W and -w also list what the mount tables hold, which other users of
# the machine change: only the header and this file system are compared.
test_expect_success ROOT,LOOP,OURDUMP 'dump: --size-estimate-only, --print-all-dump-stats, --print-dump-stats as -S, -W, -w' '
	"$DUMP" -0 -S -D dd "$dev" >e1.out 2>/dev/null &&
	"$DUMP" -0 --size-estimate-only -D dd "$dev" >e2.out 2>/dev/null &&
	test_cmp e1.out e2.out &&
	"$DUMP" -D du1 -W >w1.out 2>&1 &&
	"$DUMP" -D du1 --print-all-dump-stats >w2.out 2>&1 &&
	"$DUMP" -D du1 -w >w3.out 2>&1 &&
	"$DUMP" -D du1 --print-dump-stats >w4.out 2>&1 &&
	for i in 1 2 3 4
	do
		sed -n -e "1p" -e "\|$dev|p" w$i.out >w$i.n || return 1
	done &&
	test_cmp w1.n w2.n && test_cmp w3.n w4.n && grep "$dev" w2.n
'

test_expect_success ROOT,LOOP,OURDUMP 'dump: --abort-on-intervention as -q: the question is a forced abort' '
	{ "$DUMP" -0 -q -D dd -f nodir/x "$dev" 2>q1.err; echo $? >q1.rc; } &&
	{ "$DUMP" -0 --abort-on-intervention -D dd -f nodir/x "$dev" \
		2>q2.err; echo $? >q2.rc; } &&
	echo 3 >q.exp && test_cmp q.exp q1.rc && test_cmp q.exp q2.rc &&
	grep "Do you want to retry the open? - forced abort" q2.err &&
	norm q1.err >q1.n && norm q2.err >q2.n && test_cmp q1.n q2.n
'

test_expect_success ROOT,LOOP,OURDUMP,PYTHON 'dump: the key-letter form of Amanda is unchanged' '
	"$DUMP" 0usfD 1048576 - dk "$dev" >k1.dump 2>/dev/null &&
	"$DUMP" -0 --update-dumpdates --tape-feet-per-volume 1048576 \
		--output-file - --dumpdates-file dk2 "$dev" >k2.dump 2>/dev/null &&
	"$PYTHON" "$CMPDUMP" cmp --strict k1.dump k2.dump &&
	cut -d" " -f1,2 dk >dk.n && test_cmp du.exp dk.n
'

test_expect_success ROOT,LOOP,OURDUMP,OURRESTORE '--dumpdates-time dates the header, the messages and the dumpdates line' '
	"$DUMP" -0 -u -D dt --dumpdates-time "Thu Jan  2 03:04:05 2020 +0200" \
		-f dt.dump "$dev" 2>dt.err &&
	grep -c "Date of this level 0 dump: Thu Jan  2 01:04:05 2020" dt.err >n &&
	echo 2 >n.exp && test_cmp n.exp n &&
	echo "$dev 0 Thu Jan  2 01:04:05 2020 +0000" >dt.exp &&
	test_cmp dt.exp dt &&
	"$RESTORE" -t -f dt.dump 2>/dev/null | sed -n 1p >hd &&
	echo "Dump   date: Thu Jan  2 01:04:05 2020" >hd.exp && test_cmp hd.exp hd &&
	"$DUMP" -0 -u -D dt --dumpdates-time "Fri Jan  3 00:00:00 2020" \
		-f dt.dump "$dev" 2>/dev/null &&
	echo "$dev 0 Fri Jan  3 00:00:00 2020 +0000" >dt.exp &&
	test_cmp dt.exp dt
'

test_expect_success ROOT,LOOP,OURDUMP '--dumpdates-time with a date that does not parse: bad time, status 1' '
	test_must_fail "$DUMP" -0 -D dd --dumpdates-time 2020-01-02T03:04:05 \
		-f bad.dump "$dev" 2>bad.err &&
	printf "  DUMP: bad time \"2020-01-02T03:04:05\"\n  DUMP: The ENTIRE dump is aborted.\n" >bad.exp &&
	test_cmp bad.exp bad.err && ! test -e bad.dump
'

test_expect_success ROOT,LOOP,OURDUMP,OURRESTORE '--filesys-name names an unlisted file system' '
	"$DUMP" -0 -D dd --filesys-name "My FS" -f fn.dump "$dev" 2>fn.err &&
	grep "^  DUMP: Dumping $dev (My FS) to fn.dump\$" fn.err &&
	"$RESTORE" -t -f fn.dump 2>/dev/null | sed -n 3p >fn.hd &&
	grep "^Level 0 dump of My FS on .*:$dev\$" fn.hd
'

# The mount point M is short (short_dir): the Dumping line shows the
# header's file-system field, 63 characters at most, which a mount point
# below the trash directory of a checkout at a long path would overflow.
# The checks below use the file system mounted there too.
test_expect_success ROOT,LOOP,OURDUMP,OURRESTORE '--filesys-name leaves a mounted file system its mount point' '
	M=$(short_dir)/src && image_mount "$dev" "$M" ro &&
	"$DUMP" -0 -D dd --filesys-name "My FS" -f fm.dump "$M" 2>fm.err &&
	grep -Fx "  DUMP: Dumping $dev ($M) to fm.dump" fm.err
'

test_expect_success ROOT,LOOP,OURDUMP '--use-blockdev-for-dumpdates keys dumpdates by the device' '
	"$DUMP" -0 -u -D db1 -f /dev/null "$M" 2>/dev/null &&
	echo "$M 0" >db1.exp && cut -d" " -f1,2 db1 >db1.n &&
	test_cmp db1.exp db1.n &&
	"$DUMP" -0 -u -D db2 --use-blockdev-for-dumpdates -f /dev/null \
		"$M" 2>/dev/null &&
	cut -d" " -f1,2 db2 >db2.n && test_cmp du.exp db2.n &&
	"$DUMP" -1 -u -D db2 --use-blockdev-for-dumpdates -f /dev/null \
		"$M" 2>db2.err &&
	grep "Date of last level 0 dump" db2.err &&
	printf "%s 0\n%s 1\n" "$dev" "$dev" >db3.exp &&
	cut -d" " -f1,2 db2 >db3.n && test_cmp db3.exp db3.n
'

test_expect_success ROOT,LOOP,OURDUMP '--debug: bit 4 adds the dumpdates line, others nothing; a mask must be hex' '
	"$DUMP" -0 -D dd -f /dev/null "$dev" 2>g0.err &&
	"$DUMP" -0 -D dd --debug -f /dev/null "$dev" 2>g1.err &&
	"$DUMP" -0 -D dd --debug=1 -f /dev/null "$dev" 2>g2.err &&
	"$DUMP" -0 -D dd --debug=4 -f /dev/null "$dev" 2>g3.err &&
	norm g0.err >g0.n && norm g1.err >g1.n && norm g2.err >g2.n &&
	test_cmp g0.n g1.n && test_cmp g0.n g2.n &&
	echo "  DUMP: debug: dumpdates dd: lines of $dev below level 0" >g3.exp &&
	sed -n 1p g3.err >g3.n && test_cmp g3.exp g3.n &&
	test_must_fail "$DUMP" -0 -D dd --debug=zz "$dev" 2>g4.err &&
	echo "PROG: illegal --debug value -- zz" >g4.exp &&
	first g4.err >g4.n && test_cmp g4.exp g4.n
'

test_expect_success OURDUMP 'dump: unknown, ambiguous and argument-less long names as 0.4b56 refuses them' '
	test_must_fail "$DUMP" --kerberos x 2>r1.err &&
	test_must_fail "$DUMP" --label 2>r2.err &&
	test_must_fail "$DUMP" --cartridge=yes x 2>r3.err &&
	test_must_fail "$DUMP" --dump x 2>r4.err &&
	for i in 1 2 3 4; do first r$i.err; done >r.n &&
	cat >r.exp <<-\EOF &&
	PROG: unrecognized option '\''--kerberos'\''
	PROG: option '\''--label'\'' requires an argument
	PROG: option '\''--cartridge'\'' doesn'\''t allow an argument
	PROG: option '\''--dump'\'' is ambiguous; possibilities: '\''--dumpdates-time'\'' '\''--dumpdates-file'\'' '\''--dump-changed-since-time'\''
	EOF
	test_cmp r.exp r.n &&
	grep "^usage:" r1.err && grep "^usage:" r4.err
'

# ---- restore ----

test_expect_success ROOT,LOOP,OURRESTORE 'restore -t: long names list as the letters' '
	printf "./d\n./top\n" >names &&
	"$RESTORE" -t -v -h -c -H 10 -y -u -V -b 32 -s 1 -f k1.dump . ./d \
		>t1.out 2>&1 &&
	"$RESTORE" -t --verbose --no-hierarchical-restore --old-format \
		--hash-size 10 --no-abort-on-error --unlink-existing \
		--multi-volume-non-tape-medium --block-size=32 \
		--read-from-tape-fileno 1 --input-file k1.dump . ./d >t2.out 2>&1 &&
	test_cmp t1.out t2.out && grep "^dir " t2.out &&
	"$RESTORE" -t -0 -X names -f k1.dump >z1.out 2>/dev/null &&
	"$RESTORE" -t --zero-terminator --extractlist-file names \
		--input-file k1.dump >z2.out 2>/dev/null &&
	cmp z1.out z2.out && tr "\0" "\n" <z2.out | grep "	./d/e/f\$" &&
	"$RESTORE" -t -d -f k1.dump >d1.out 2>&1 &&
	"$RESTORE" -t --debug -f k1.dump >d2.out 2>&1 &&
	"$RESTORE" -t --debug=ff -f k1.dump >d3.out 2>&1 &&
	"$RESTORE" -t --debug=0 -f k1.dump >d4.out 2>&1 &&
	"$RESTORE" -t -f k1.dump >d5.out 2>&1 &&
	test_cmp d1.out d2.out && test_cmp d1.out d3.out &&
	test_cmp d5.out d4.out && ! test_cmp d1.out d5.out >/dev/null
'

test_expect_success ROOT,LOOP,OURRESTORE '--archive-file, --QFAfile as -A, -Q' '
	"$RESTORE" -t -A ta >a1.out 2>&1 &&
	"$RESTORE" -t --archive-file ta >a2.out 2>&1 &&
	test_cmp a1.out a2.out && grep "	./top\$" a2.out &&
	"$RESTORE" -t -Q qa -f a.dump >q1.out 2>&1 &&
	"$RESTORE" -t --QFAfile qa --input-file a.dump >q2.out 2>&1 &&
	test_cmp q1.out q2.out && grep "	./top\$" q2.out
'

test_expect_success ROOT,LOOP,OURRESTORE,PYTHON 'restore -x and -r: long names extract as the letters' '
	mkdir x1 x2 x3 x4 r1 r2 tdir &&
	(cd x1 && "$RESTORE" -x -a -o -u -T ../tdir -f ../k1.dump ./d ./top) &&
	(cd x2 && "$RESTORE" -x --no-ask-volume --set-curr-dir-perms \
		--unlink-existing --tmp-dir ../tdir --input-file ../k1.dump ./d ./top) &&
	manifest x1 >x1.man && manifest x2 >x2.man && test_cmp x1.man x2.man &&
	grep "^d/e/f	" x2.man &&
	(cd x3 && "$RESTORE" -x -a -o -m -f ../k1.dump ./d/e/f) &&
	(cd x4 && "$RESTORE" -x -a -o --extract-by-inode -f ../k1.dump ./d/e/f) &&
	ls x3 >x3.ls && ls x4 >x4.ls && test_cmp x3.ls x4.ls &&
	(cd r1 && "$RESTORE" -r -N -f ../k1.dump) &&
	(cd r2 && "$RESTORE" -r --no-write -f ../k1.dump) &&
	test -z "$(ls -A r1 r2 | grep -v :)" &&
	mkdir r3 r4 &&
	(cd r3 && "$RESTORE" -r -f ../k1.dump) &&
	(cd r4 && "$RESTORE" -r --input-file ../k1.dump) &&
	manifest r3 >r3.man && manifest r4 >r4.man && test_cmp r3.man r4.man
'

test_expect_success ROOT,LOOP,OURRESTORE '-C: --filesystem-name, --max-miscompares as -D, -L' '
	"$RESTORE" -C -D "$M" -L 1 -f k1.dump >c1.out 2>&1 &&
	"$RESTORE" -C --filesystem-name "$M" --max-miscompares 1 \
		--input-file k1.dump >c2.out 2>&1 &&
	test_cmp c1.out c2.out && grep -Fx "filesys = $M" c2.out
'

cat >sot.sh <<\EOF
#!/bin/sh
echo "$@" | sed "s|.*/||" >>"${0%.sh}.log"
EOF

test_expect_success ROOT,LOOP,OURRESTORE '--multivolume, --sot-script as -M, -F' '
	chmod +x sot.sh && mkdir v1 v2 && sot=$PWD/sot.sh &&
	(cd v1 && "$RESTORE" -x -a -o -M -F "$sot" -f ../m1/v ./big \
		>../v1.out 2>&1) &&
	mv sot.log v1.log &&
	(cd v2 && "$RESTORE" -x -a -o --multivolume \
		--sot-script "$sot" --input-file ../m1/v ./big \
		>../v2.out 2>&1) &&
	mv sot.log v2.log &&
	test_cmp v1.out v2.out && test_cmp v1.log v2.log &&
	cmp tree/big v2/big && grep "v002 2" v2.log
'

test_expect_success ROOT,LOOP,OURRESTORE '--no-set-curr-dir-perms: no question, "." left alone, also with -o' '
	mkdir n1 n2 n3 && chmod 700 n1 n2 n3 &&
	(cd n1 && echo y | "$RESTORE" -x -a -f ../k1.dump ./top 2>../n1.err) &&
	(cd n2 && echo y | "$RESTORE" -x -a --no-set-curr-dir-perms \
		-f ../k1.dump ./top 2>../n2.err) &&
	(cd n3 && "$RESTORE" -x -a -o --no-set-curr-dir-perms \
		-f ../k1.dump ./top 2>../n3.err </dev/null) &&
	grep "set owner/mode for" n1.err &&
	! grep "set owner/mode for" n2.err && ! grep "set owner/mode" n3.err &&
	test -f n2/top && test -f n3/top &&
	stat -c %a "$M" n1 n2 n3 >modes &&
	printf "755\n755\n700\n700\n" >modes.exp && test_cmp modes.exp modes
'

test_expect_success ROOT,LOOP,OURRESTORE '-q, --abort-on-intervention: a question ends the run, status 1' '
	mkdir q1 q2 q3 q4 &&
	(cd q1 && test_must_fail "$RESTORE" -x -q -f ../k1.dump ./top \
		</dev/null 2>../q1.err) &&
	test -z "$(ls -A q1)" &&
	grep "Specify next volume #" q1.err &&
	grep "operator intervention needed: aborting (-q)" q1.err &&
	(cd q2 && echo y | test_must_fail "$RESTORE" -x -a \
		--abort-on-intervention -f ../k1.dump ./top 2>../q2.err) &&
	grep "set owner/mode for" q2.err && test -f q2/top &&
	(cd q3 && "$RESTORE" -x -a -o -q -f ../k1.dump ./top </dev/null) &&
	(cd q4 && "$RESTORE" -x -a -q --no-set-curr-dir-perms -f ../k1.dump \
		./top </dev/null) &&
	test -f q3/top && test -f q4/top &&
	"$RESTORE" -t -q -f k1.dump >/dev/null 2>&1 &&
	mkdir q5 &&
	(cd q5 && echo none | test_must_fail "$RESTORE" -r -q -f ../m1/v001 \
		2>../q5.err) &&
	grep "Mount tape volume 2" q5.err && grep "aborting (-q)" q5.err
'

test_expect_success ROOT,LOOP,OURRESTORE,TAPETOOL '--ignore-compression-flag-for-0.4b45-dumps reads a flagged plain archive' '
	"$TAPETOOL" set k1.dump f45.dump 0 c_flags $(( $("$TAPETOOL" list k1.dump |
		awk "NR == 2 { print \$7 }") | 0x80 )) &&
	test_must_fail "$RESTORE" -t -f f45.dump >f1.out 2>/dev/null &&
	"$RESTORE" -t --ignore-compression-flag-for-0.4b45-dumps -f f45.dump \
		>f2.out 2>f2.err &&
	"$RESTORE" -t -f k1.dump 2>/dev/null | tlines >f0.list &&
	tlines <f2.out >f2.list && test_cmp f0.list f2.list &&
	! grep compressed f2.err
'

test_expect_success ROOT,LOOP,OURRESTORE 'restore -l of 0.4b47 is still accepted' '
	"$RESTORE" -t -l -f k1.dump >l.out 2>&1 &&
	test_cmp d5.out l.out
'

test_expect_success OURRESTORE 'restore: unknown, ambiguous and argument-less long names as 0.4b56 refuses them' '
	test_must_fail "$RESTORE" -t --kerberos 2>s1.err &&
	test_must_fail "$RESTORE" -t --tmp-dir 2>s2.err &&
	test_must_fail "$RESTORE" -t --verbose=1 2>s3.err &&
	test_must_fail "$RESTORE" -t --no 2>s4.err &&
	test_must_fail "$RESTORE" -t --debug=zz 2>s5.err &&
	test_must_fail "$RESTORE" --no-write 2>s6.err &&
	for i in 1 2 3 4 5 6; do first s$i.err; done >s.n &&
	cat >s.exp <<-\EOF &&
	PROG: unrecognized option '\''--kerberos'\''
	PROG: option '\''--tmp-dir'\'' requires an argument
	PROG: option '\''--verbose'\'' doesn'\''t allow an argument
	PROG: option '\''--no'\'' is ambiguous; possibilities: '\''--no-set-curr-dir-perms'\'' '\''--no-ask-volume'\'' '\''--no-hierarchical-restore'\'' '\''--no-write'\'' '\''--no-abort-on-error'\''
	PROG: illegal --debug value -- zz
	PROG: none of C, i, R, r, t or x options specified
	EOF
	test_cmp s.exp s.n
'

test_done
