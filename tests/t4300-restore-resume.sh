#!/bin/sh
test_description='restore -R: finish an interrupted restore -r

Multi-volume -M archives made by our dump with a small -B.  A level 0
-r is stopped at the start of volume 3 by its -F script (abort) and
another one by SIGTERM once volume 2 is asked for; each leaves a
checkpoint in ./restoresymtable, and restore -R -M completes the tree:
its manifest equals the dumped file system and the final table is no
longer a checkpoint.  The same for a compressed archive, and for a level
1 applied over the level 0 (the holding directory of the interrupted
incremental is removed); a tree finished by -R takes the next level.
Refusals: -R with no table, -R with the archive of another dump, an
incremental -r over a checkpoint.'
. "$(dirname "$0")/lib.sh"

# stop_at N: an -F script that aborts restore when volume N is wanted.
stop_at() {
	printf '#!/bin/sh\ntest "$2" -ge %s && exit 2\nexit 0\n' "$1" >stop$1.sh &&
	chmod +x stop$1.sh
}

# same_as STATE DIR: DIR holds exactly file system state STATE.
same_as() {
	manifest "$2" --no-root --exclude=restoresymtable \
		--exclude=lost+found >"$2.manifest" &&
	test_cmp state$1.manifest "$2.manifest"
}

test_expect_success ROOT,LOOP,OURDUMP,OURRESTORE,PYTHON 'setup: level 0 and level 1 archives on many volumes' '
	test_when_finished "image_umount mnt 2>/dev/null; :" &&
	truncate -s 32M fs.img &&
	mkfs.ext4 -q -F -b 1024 fs.img &&
	dev=$(image_attach fs.img) && echo "$dev" >dev &&
	image_mount "$dev" mnt &&
	(cd mnt &&
	 mkdir -p d/sub e gone &&
	 for i in 1 2 3 4 5 6 7 8 9 10 11 12
	 do
		dd if=/dev/urandom of=f$i bs=1k count=40 2>/dev/null || exit 1
	 done &&
	 echo x >d/x && echo s >d/sub/s && ln f3 d/f3link && ln -s f1 sym &&
	 echo g >gone/g && mkfifo e/fifo && chmod 750 d && chown 7:8 d/x &&
	 truncate -s 3M sparse && echo end >>sparse) &&
	image_umount mnt &&
	image_mount "$dev" mnt &&
	manifest mnt --no-root --exclude=lost+found >state0.manifest &&
	image_umount mnt &&
	"$DUMP" -0 -u -D "$PWD/dd" -B 150 -M -f l0. "$dev" 2>dump0.err &&
	test -f l0.004 &&
	"$DUMP" -0 -z -B 150 -M -f z0. "$dev" 2>dumpz.err &&
	test -f z0.002 &&
	sleep 1 &&
	image_mount "$dev" mnt &&
	(cd mnt &&
	 rm -r gone && mv d/sub e/sub && echo more >>d/x && rm f2 &&
	 mkdir new && echo n >new/n && ln f4 new/f4link &&
	 for i in 5 6 7 8
	 do
		dd if=/dev/urandom of=f$i bs=1k count=40 2>/dev/null || exit 1
	 done) &&
	image_umount mnt &&
	image_mount "$dev" mnt &&
	manifest mnt --no-root --exclude=lost+found >state1.manifest &&
	image_umount mnt &&
	"$DUMP" -1 -u -D "$PWD/dd" -B 60 -M -f l1. "$dev" 2>dump1.err &&
	test -f l1.003
'

test_expect_success ROOT,LOOP,OURDUMP,OURRESTORE,PYTHON '-r stopped by the -F script at volume 3, then -R -M' '
	stop_at 3 &&
	mkdir a && (
		cd a &&
		test_must_fail "$RESTORE" -r -M -F ../stop3.sh -f ../l0. \
			</dev/null >../a.out 2>../a.err
	) &&
	grep "^Restore aborted by the beginning of tape script$" a.err &&
	sed -n 3p a/restoresymtable >a.cp &&
	echo "checkpoint -" >a.cp.expect &&
	test_cmp a.cp.expect a.cp &&
	! same_as 0 a &&
	(cd a && "$RESTORE" -R -M -f ../l0. </dev/null >../aR.out 2>../aR.err) &&
	test ! -s aR.err &&
	same_as 0 a &&
	! grep "^checkpoint" a/restoresymtable &&
	grep "^end " a/restoresymtable
'

# restore writes its own pid (as the shell it replaces) before it starts:
# written by the parent after the fork, it could come after restore
# already asked for volume 2.
test_expect_success ROOT,LOOP,OURDUMP,OURRESTORE,PYTHON '-r killed (SIGTERM) when volume 2 is wanted, then -R -M' '
	cat >kill.sh <<-EOF &&
	#!/bin/sh
	test "\$2" -ge 2 || exit 0
	kill -TERM \$(cat "$PWD/b.pid")
	sleep 1
	exit 0
	EOF
	chmod +x kill.sh &&
	mkdir b &&
	(cd b && exec sh -c "echo \$\$ >../b.pid && exec \"\$@\"" sh \
		"$RESTORE" -r -F ../kill.sh -f ../l0.001 </dev/null \
		>../b.out 2>../b.err) &
	{ wait $! ; echo $? >b.status; } &&
	test "$(cat b.status)" = 143 &&
	grep "^checkpoint -$" b/restoresymtable &&
	(cd b && "$RESTORE" -R -M -f ../l0. </dev/null >../bR.out 2>../bR.err) &&
	same_as 0 b
'

test_expect_success ROOT,LOOP,OURDUMP,OURRESTORE,PYTHON '-R of a compressed archive, verbose' '
	stop_at 2 &&
	mkdir z && (
		cd z &&
		test_must_fail "$RESTORE" -r -F ../stop2.sh -f ../z0.001 \
			</dev/null >/dev/null 2>../z.err
	) &&
	(cd z && "$RESTORE" -R -v -M -f ../z0. </dev/null >../zR.out 2>../zR.err) &&
	same_as 0 z &&
	grep "^Continue extraction of new leaves$" zR.out &&
	grep "^Check pointing the restore$" zR.out &&
	! grep -v "^Dump tape is compressed.$" zR.err
'

test_expect_success ROOT,LOOP,OURDUMP,OURRESTORE,PYTHON 'incremental -r stopped at volume 2, then -R -M' '
	mkdir i &&
	(cd i && "$RESTORE" -r -M -f ../l0. </dev/null >/dev/null 2>../i0.err) &&
	same_as 0 i &&
	stop_at 2 &&
	(
		cd i &&
		test_must_fail "$RESTORE" -r -F ../stop2.sh -f ../l1.001 \
			</dev/null >../i1.out 2>../i1.err
	) &&
	grep "^checkpoint RSTTMP\." i/restoresymtable &&
	ls -d i/RSTTMP.* &&
	! same_as 1 i &&
	(cd i && "$RESTORE" -R -M -f ../l1. </dev/null >../iR.out 2>../iR.err) &&
	test ! -s iR.err &&
	! ls -d i/RSTTMP.* 2>/dev/null &&
	same_as 1 i &&
	(cd a && "$RESTORE" -r -M -f ../l1. </dev/null >/dev/null 2>../a1.err) &&
	same_as 1 a
'

test_expect_success ROOT,LOOP,OURDUMP,OURRESTORE 'refusals: no table, another dump, -r over a checkpoint' '
	mkdir n && (
		cd n
		"$RESTORE" -R -M -f ../l0. </dev/null >../n.out 2>../n.err
		echo $? >../n.status
	) &&
	test "$(cat n.status)" = 1 &&
	grep "cannot open symbol table file ./restoresymtable" n.err &&
	(
		cd a
		"$RESTORE" -R -M -f ../z0. </dev/null >../w.out 2>../w.err
		echo $? >../w.status
	) &&
	test "$(cat w.status)" = 1 &&
	grep "^Wrong dump date$" w.err &&
	grep "restoresymtable was written for another dump" w.err &&
	(
		cd b &&
		stop_at 2 &&
		test_must_fail "$RESTORE" -r -F ./stop2.sh -f ../z0.001 \
			</dev/null >/dev/null 2>/dev/null
	) &&
	(
		cd b
		"$RESTORE" -r -M -f ../l1. </dev/null >../c.out 2>../c.err
		echo $? >../c.status
	) &&
	test "$(cat c.status)" = 1 &&
	grep "is the checkpoint of an unfinished restore" c.err
'

test_done
