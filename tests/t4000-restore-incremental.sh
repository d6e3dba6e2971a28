#!/bin/sh
test_description='restore -r over a level 0, 1, 2 chain

A small ext4 file system is dumped at level 0, changed (files added,
modified, deleted and renamed, hard links added and removed, a directory
replaced by a file and a file by a directory, a directory moved, a
permission-only and an mtime-only change), dumped at level 1, changed
again (types changed back, a directory renamed, a link removed) and
dumped at level 2, each time by our dump and by dump 0.4b47 with their
own dumpdates files.  The chain is restored with our restore from our
archives and from 0.4b47 archives, and with restore 0.4b47 from ours;
each result must equal the last state by manifest.  Applying a level out
of order is refused with 0.4b47 messages and status 1.'
. "$(dirname "$0")/lib.sh"

# dump_state N: dump the (unmounted) image at level N, ours and 0.4b47's.
dump_state() {
	"$DUMP" -$1 -u -D "$PWD/dd.ours" -f l$1.ours "$dev" 2>dump$1.ours.err &&
	"$ORACLE_DUMP" -$1 -u -D "$PWD/dd.ref" -f l$1.ref "$dev" \
		2>dump$1.ref.err
}

# state_manifest N: remount, record the manifest of state N, unmount.
state_manifest() {
	image_mount "$dev" mnt &&
	manifest mnt --no-root --exclude=lost+found >state$1.manifest &&
	manifest mnt --no-root --exclude=lost+found --mtime=s \
		>state$1.s.manifest &&
	image_umount mnt
}

# chain RESTORE SUFFIX DIR: restore l0, l1, l2 with RESTORE into DIR.
chain() {
	rm -rf "$3" && mkdir "$3" &&
	for l in 0 1 2
	do
		(cd "$3" && "$1" -r -f ../l$l.$2 </dev/null) \
			>"$3.out$l" 2>"$3.err$l" || return 1
	done
}

# check_chain DIR [PRECISION]: DIR equals the last state; with "s",
# mtimes are compared to the second (dump 0.4b47 records no microseconds
# of an ext4 time).
check_chain() {
	manifest "$1" --no-root --exclude=restoresymtable \
		--exclude=lost+found ${2:+--mtime=$2} >"$1.manifest" &&
	test_cmp state2${2:+.$2}.manifest "$1.manifest"
}

test_expect_success ROOT,LOOP,ORACLE,OURDUMP,PYTHON 'setup: three states, dumped by both dumps' '
	test_when_finished "image_umount mnt 2>/dev/null; :" &&
	truncate -s 32M fs.img &&
	mkfs.ext4 -q -F -b 1024 fs.img &&
	dev=$(image_attach fs.img) &&
	image_mount "$dev" mnt &&
	(cd mnt &&
	 mkdir -p d1/sub d2 dir2file keep/deep &&
	 echo a >a && echo b >b && echo c >c && ln c d1/c2 &&
	 echo s >d1/sub/s && echo x >dir2file/x &&
	 echo file >file2dir && echo m >fmode && echo t >fmtime &&
	 echo r >renamed.old && echo k >keep/deep/k && ln keep/deep/k kl &&
	 ln -s a sym && mkfifo fifo &&
	 dd if=/dev/urandom of=big bs=1k count=300 2>/dev/null &&
	 truncate -s 5M sparse && echo end >>sparse &&
	 chown 4000:5000 b && chmod 640 a) &&
	image_umount mnt &&
	state_manifest 0 &&
	dump_state 0 &&
	sleep 1 &&
	image_mount "$dev" mnt &&
	(cd mnt &&
	 echo new >new && echo more >>a && rm b &&
	 mv d1/sub d2/sub2 && mv renamed.old renamed.new &&
	 ln a d2/alink && rm d1/c2 &&
	 rm -r dir2file && echo nowfile >dir2file &&
	 rm file2dir && mkdir file2dir && echo in >file2dir/in &&
	 chmod 600 fmode && touch -m -d "2001-02-03 04:05:06" fmtime &&
	 dd if=/dev/urandom of=big bs=1k count=10 seek=100 conv=notrunc \
		2>/dev/null) &&
	image_umount mnt &&
	state_manifest 1 &&
	sleep 1 &&
	dump_state 1 &&
	sleep 1 &&
	image_mount "$dev" mnt &&
	(cd mnt &&
	 rm d2/alink && mv d2 d3 && rm dir2file && mkdir dir2file &&
	 echo back >dir2file/y && rm -r file2dir && echo again >file2dir &&
	 ln renamed.new d3/rlink && rm kl && echo c2 >c && rm sym &&
	 ln -s new sym) &&
	image_umount mnt &&
	state_manifest 2 &&
	sleep 1 &&
	dump_state 2 &&
	! cmp -s state0.manifest state2.manifest
'

test_expect_success ROOT,LOOP,ORACLE,OURDUMP,OURRESTORE,PYTHON 'our restore: our chain equals the last state' '
	chain "$RESTORE" ours r.oo &&
	check_chain r.oo &&
	cat r.oo.err0 r.oo.err1 r.oo.err2 >r.oo.err &&
	test_cmp /dev/null r.oo.err
'

test_expect_success ROOT,LOOP,ORACLE,OURDUMP,OURRESTORE,PYTHON 'our restore: level 1 then level 1 again is too high' '
	rm -rf r.hi && mkdir r.hi &&
	(cd r.hi && "$RESTORE" -r -f ../l0.ours && "$RESTORE" -r -f ../l1.ours) &&
	(cd r.hi && test_must_fail "$RESTORE" -r -f ../l1.ours) 2>hi.err &&
	grep "^Incremental tape too high\$" hi.err &&
	(cd r.hi && "$RESTORE" -r -f ../l1.ours; echo $? >../hi.rc) &&
	test "$(cat hi.rc)" = 1
'

test_expect_success ROOT,LOOP,ORACLE,OURDUMP,OURRESTORE,PYTHON 'our restore: level 2 right after level 0 is too low' '
	rm -rf r.lo && mkdir r.lo &&
	(cd r.lo && "$RESTORE" -r -f ../l0.ours) &&
	cp r.lo/restoresymtable before.tbl &&
	(cd r.lo && test_must_fail "$RESTORE" -r -f ../l2.ours) 2>lo.err &&
	grep "^Incremental tape too low\$" lo.err &&
	test_cmp before.tbl r.lo/restoresymtable
'

test_expect_success ROOT,LOOP,ORACLE,OURDUMP,OURRESTORE,PYTHON 'our restore: a forged or linked restoresymtable is refused' '
	rm -rf r.bad && mkdir r.bad &&
	(cd r.bad && "$RESTORE" -r -f ../l0.ours) &&
	ls -A r.bad | sort >bad.before &&
	sed "s| L a\$| L ..|" r.bad/restoresymtable >forged.tbl &&
	! cmp -s forged.tbl r.bad/restoresymtable &&
	cp forged.tbl r.bad/restoresymtable &&
	(cd r.bad && test_must_fail "$RESTORE" -r -f ../l1.ours) 2>bad.err &&
	grep "bad name" bad.err &&
	mv r.bad/restoresymtable real.tbl && ln -s ../real.tbl r.bad/restoresymtable &&
	(cd r.bad && test_must_fail "$RESTORE" -r -f ../l1.ours) 2>link.err &&
	grep "cannot open symbol table file" link.err &&
	ls -A r.bad | sort >bad.after &&
	test_cmp bad.before bad.after
'

test_expect_success ROOT,LOOP,ORACLE,OURDUMP,OURRESTORE,PYTHON 'our restore: the 0.4b47 chain equals the last state' '
	chain "$RESTORE" ref r.or &&
	check_chain r.or s
'

test_expect_success ROOT,LOOP,ORACLE,OURDUMP,PYTHON 'restore 0.4b47: our chain equals the last state' '
	chain "$ORACLE_RESTORE" ours r.ro &&
	check_chain r.ro
'

# The populated image (every inode kind, xattrs, odd names and modes):
# every top-level name renamed, so the directories below are not on the
# level 1 and must be kept from the level 0.
test_expect_success ROOT,LOOP,OURDUMP,OURRESTORE,PYTHON 'our restore: populated ext4, everything renamed, level 1' '
	make_image ext4 pop.img small &&
	pdev=$(image_attach pop.img) &&
	"$DUMP" -0 -u -D "$PWD/dd.pop" -f p0.ours "$pdev" 2>p0.err &&
	sleep 1 &&
	image_mount "$pdev" pmnt &&
	(cd pmnt &&
	 for n in *
	 do
		test "$n" = lost+found || mv "$n" "$n.moved" || exit 1
	 done &&
	 echo added >added) &&
	manifest pmnt --no-root --exclude=lost+found >pop.manifest &&
	image_umount pmnt &&
	sleep 1 &&
	"$DUMP" -1 -u -D "$PWD/dd.pop" -f p1.ours "$pdev" 2>p1.err &&
	rm -rf r.pop && mkdir r.pop &&
	(cd r.pop && "$RESTORE" -r -f ../p0.ours && "$RESTORE" -r -f ../p1.ours) &&
	manifest r.pop --no-root --exclude=restoresymtable \
		--exclude=lost+found >r.pop.manifest &&
	test_cmp pop.manifest r.pop.manifest
'

test_done
