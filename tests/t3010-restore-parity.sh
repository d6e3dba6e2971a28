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
	(cd acl && "$RESTORE" -x -f ../b0.dump ./d ./f) &&
	test -f acl/d/e/z && test -f acl/f &&
	getfacl -R -n acl/d acl/f >acl.list &&
	! grep "user:1234" acl.list
'

test_done
