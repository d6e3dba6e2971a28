#!/bin/sh
test_description='restore and restore 0.4b47 side by side: options, modes

Our restore and restore 0.4b47 run with the same arguments on the same
archive (of an image file made with mke2fs -d, dumped by our dump); the
messages (less the program name), the standard output and the exit
status must be equal.'
. "$(dirname "$0")/lib.sh"

# both ARGS...: run both restores in fresh directories o/ and u/ with
# ARGS; write o.out/o.err/o.rc and u.out/u.err/u.rc; the program name in
# front of the messages is cut off.
both() {
	rm -rf o u && mkdir o u &&
	(cd o && "$ORACLE_RESTORE" "$@" </dev/null >../o.out 2>../o.err
	 echo $? >../o.rc) &&
	(cd u && "$RESTORE" "$@" </dev/null >../u.out 2>../u.err
	 echo $? >../u.rc) &&
	sed -i 's|^[^ :]*restore: ||' o.err u.err
}

# same ARGS...: both, then equal output, messages and status.
same() {
	both "$@" &&
	test_cmp o.err u.err && test_cmp o.out u.out && test_cmp o.rc u.rc
}

test_expect_success OURDUMP 'setup: an archive of a small file system' '
	mkdir -p tree/d1/d2 && echo hi >tree/d1/f && echo x >tree/d1/d2/g &&
	echo top >tree/a &&
	mke2fs -q -F -t ext4 -d tree fs.img 8M &&
	"$DUMP" -0 -f a0.dump fs.img 2>dump.err
'

for args in "-t -H 0" "-t -H x" "-t -H -1" "-t -H 5x" "-t -H 5" \
	"-t -e" "-t -E 5" "-t -E 5 -e" "-P p -e" "-P p -E 1" \
	"-t -b 0" "-t -b -5" "-t -b 1x" "-tv -b 1025" "-tv -b 99999" \
	"-t -L -1" "-t -L x" "-t -s 0" "-t -s x" "-t -c" "-tv -c"
do
	test_expect_success OURRESTORE,ORACLE,OURDUMP "restore $args -f a0.dump: as 0.4b47" '
		same '"$args"' -f ../a0.dump
	'
done

test_expect_success OURRESTORE,ORACLE,OURDUMP 'key letters: restore te a0.dump refused as by 0.4b47' '
	same te ../a0.dump && test_cmp o.rc - <<-\EOT
	1
	EOT
'

test_expect_success OURDUMP 'setup: a file system with links, a device, a FIFO' '
	mkdir -p tree2/d/e && echo hello >tree2/f && ln tree2/f tree2/d/hl &&
	mkfifo tree2/fifo && truncate -s 100000 tree2/sparse &&
	echo z >tree2/d/e/z && mkdir tree2/d/e2 &&
	mke2fs -q -F -t ext4 -d tree2 fs2.img 8M &&
	"$DUMP" -0 -f b0.dump fs2.img 2>dump.err
'

test_expect_success OURRESTORE,ORACLE,OURDUMP 'restore -C -v lists what it compares, as 0.4b47' '
	both -C -v -D ../tree2 -f ../b0.dump &&
	grep "^comparing \./d/hl (size: 6, mode: 0100644)\$" u.out &&
	grep "^comparing directory \./d/e2\$" u.out &&
	test_cmp o.out u.out && test_cmp o.err u.err && test_cmp o.rc u.rc
'

test_expect_success OURRESTORE,ORACLE,OURDUMP 'restore -C -v: a missing file and directory are not listed' '
	cp -a tree2 tree3 && rm tree3/fifo && rm -r tree3/d/e &&
	both -C -v -D ../tree3 -f ../b0.dump &&
	! grep "fifo\|d/e\$" u.out &&
	grep -v "^Some files" o.out >o.cut && grep -v "^Some files" u.out >u.cut &&
	test_cmp o.cut u.cut && test_cmp o.rc u.rc
'

# -d: the header trace (stderr; 0.4b47 says "Volume header" twice, and
# -t also traces the header that ends the directories), maxino and, for a
# level 0 -r or -C, the symbol table lines (stdout).
for mode in -rd -Cd
do
	test_expect_success OURRESTORE,ORACLE,OURDUMP "restore $mode prints 0.4b47's debug lines" '
		both '$mode' -D ../tree2 -f ../b0.dump &&
		grep "^maxino = " u.out &&
		grep "^File header, ino 2\$" u.err &&
		test_cmp o.out u.out && test_cmp o.rc u.rc &&
		uniq o.err | grep -v "^File header, ino 12\$" >o.trace &&
		grep -v "^File header, ino 12\$" u.err >u.trace &&
		test_cmp o.trace u.trace
	'
done

test_expect_success OURRESTORE,ORACLE,OURDUMP "restore -td prints 0.4b47's debug lines" '
	both -td -f ../b0.dump &&
	test_cmp o.out u.out && test_cmp o.rc u.rc &&
	uniq o.err >o.trace &&
	head -n $(wc -l <o.trace) u.err >u.trace &&
	test_cmp o.trace u.trace &&
	test $(wc -l <u.err) -eq $(($(wc -l <o.trace) + 1))
'

command -v setfacl >/dev/null && command -v getfacl >/dev/null &&
	test_set_prereq ACLTOOLS

# 0.4b47 leaves the ACLs inherited from the target's default ACL on every
# object made (the archive says they have none); ours removes them.
test_expect_success OURRESTORE,OURDUMP,ACLTOOLS 'restore -x into a directory with a default ACL: no inherited ACLs' '
	mkdir acl && setfacl -d -m u:1234:rwx acl &&
	getfacl -n acl | grep "^default:user:1234:rwx" &&
	(cd acl && "$RESTORE" -x -a -o -f ../b0.dump ./d ./f) &&
	test -f acl/d/e/z && test -f acl/f &&
	getfacl -R -n acl/d acl/f >acl.list &&
	! grep "user:1234" acl.list
'

# restore -C with names: ours compares the named files only (restore.8).
test_expect_success OURDUMP 'setup: a tree with two changed files' '
	cp -a tree2 tree4 && echo changed >tree4/sparse && echo changed >tree4/d/e/z
'

test_expect_success OURRESTORE,OURDUMP 'restore -C NAME compares only NAME' '
	both -C -D ../tree4 -f ../b0.dump ./d/e &&
	grep "^\./d/e/z: " u.err && ! grep "^\./sparse: " u.err &&
	test_cmp - u.rc <<-\EOT &&
	2
	EOT
	both -C -D ../tree4 -f ../b0.dump ./d/hl ./fifo &&
	! grep "^\./" u.err && test_cmp - u.rc <<-\EOT
	0
	EOT
'

test_known_upstream_defect ORACLE,OURDUMP '0.4b47 -C NAME ignores NAME and compares everything' '
	both -C -D ../tree4 -f ../b0.dump ./d/hl &&
	grep "^\./d/e/z: " o.err && grep "^\./sparse: " o.err &&
	test_cmp - o.rc <<-\EOT
	2
	EOT
'

# Amanda (amrecover) restores level by level with -x into one directory.
# Between the levels files are added in d1, d3/s3 and a new d4/nd, d2/b
# is rewritten and d5/s5/m removed; every directory is back-dated so that
# a time set by the restore shows.
test_expect_success ROOT,LOOP,OURDUMP,PYTHON 'setup: level 0 and level 1 of a changed tree' '
	truncate -s 16M inc.img && mkfs.ext4 -q -F -b 1024 inc.img &&
	idev=$(image_attach inc.img) &&
	image_mount "$idev" imnt &&
	(cd imnt && mkdir -p d1/s1 d2 d3/s3 d4 d5/s5 quiet/q &&
	 echo a >d1/a && echo b >d2/b && echo c >d3/s3/c && echo d >d4/d &&
	 echo q >quiet/q/q && echo m >d5/s5/m &&
	 find . -path ./lost+found -prune -o \
		-exec touch -h -d "2020-01-01 00:00:00" {} +) &&
	image_umount imnt &&
	"$DUMP" -0 -u -D "$PWD/dd.inc" -f i0.dump "$idev" 2>i0.err &&
	sleep 1 &&
	image_mount "$idev" imnt &&
	(cd imnt && echo n >d1/new && echo more >>d2/b && echo n3 >d3/s3/n &&
	 mkdir d4/nd && echo nf >d4/nd/nf && echo top >newtop &&
	 rm d5/s5/m &&
	 find . -path ./lost+found -prune -o -newer ../i0.err \
		-exec touch -h -d "2021-01-01 00:00:00" {} +) &&
	manifest imnt --no-root --exclude=lost+found | grep "	dir " >inc1.dirs &&
	image_umount imnt &&
	sleep 1 &&
	"$DUMP" -1 -u -D "$PWD/dd.inc" -f i1.dump "$idev" 2>i1.err &&
	grep "mtime=1609459200\." inc1.dirs | cut -f1 >inc1.changed &&
	test_cmp - inc1.changed <<-\EOT
	d1
	d3/s3
	d4
	d4/nd
	d5/s5
	EOT
'

# levels_x RESTORE DIR file|pipe: -x level 0 then level 1 into DIR, the
# archive named (-a, "y" for the question about ".") or on standard
# input as amrecover gives it (restore xbf 2 - .); then the names of
# the directories whose owner, mode or time differ from level 1's.
levels_x() {
	rm -rf "$2" && mkdir "$2" &&
	for l in 0 1
	do
		if test "$3" = file
		then
			(cd "$2" && echo y | "$1" -x -a -f ../i$l.dump) || return 1
		else
			(cd "$2" && setsid -w "$1" xbf 2 - . <../i$l.dump) || return 1
		fi >"$2.out" 2>"$2.err$l"
	done &&
	manifest "$2" --no-root --exclude=lost+found | grep "	dir " >"$2.dirs" &&
	diff inc1.dirs "$2.dirs" | sed -n "s/^> \([^	]*\)	.*/\1/p" >"$2.wrong"
}

test_expect_success ROOT,LOOP,OURDUMP,OURRESTORE,PYTHON 'restore -x -a -f of level 0 then 1: the directories of level 1' '
	levels_x "$RESTORE" ux file &&
	test_cmp /dev/null ux.wrong
'

test_expect_success ROOT,LOOP,OURDUMP,OURRESTORE,PYTHON 'restore xbf 2 - . of level 0 then 1 (amrecover): the same' '
	levels_x "$RESTORE" up pipe &&
	test_cmp /dev/null up.wrong
'

test_known_upstream_defect ROOT,LOOP,OURDUMP,ORACLE,PYTHON '0.4b47 -x of level 0 then 1: directories of level 1 left with the restore time or level 0 times' '
	levels_x "$ORACLE_RESTORE" ox file &&
	test_cmp - ox.wrong <<-\EOT &&
	d1
	d3/s3
	d4
	d5/s5
	EOT
	grep ": \./d5/s5: File exists$" ox.err1
'

test_done
