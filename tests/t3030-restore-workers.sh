#!/bin/sh
test_description='restore makes small files in worker threads

restore hands regular files of up to 1 MiB without EAs to worker
threads (restore/filepool.c) and makes the others itself.  An ext4 of
3,000 small files over 40 directories, of several owners, modes
(set-id bits included), sizes from 0 to 3,000 bytes, holes, hard links
across directories, files with EAs and files of 1 MiB and 1 MiB + 1 is
dumped by our dump.  restore -r and -x bring back the tree exactly
(manifest: type, mode, owner, size, mtime, content, links, xattrs),
with -v naming every file once.  Failures in the workers are reported
with the file name and counted in the exit status: names held by
non-empty directories, and a target too small for the data.  A deep
tree with a file on every level restores with 64 descriptors at most
(the reader keeps 32 for its path; each queued directory holds one).'
. "$(dirname "$0")/lib.sh"

command -v debugfs >/dev/null 2>&1 && test_set_prereq DEBUGFS

P=ROOT,OURDUMP,OURRESTORE,PYTHON
BLOCKED="d04/f010 d04/f011 d20/f074 d39/f000"

test_expect_success $P 'setup: an archive of 3,000 small files' '
	"$PYTHON" - src <<-\EOF &&
	import os, random, sys
	top = sys.argv[1]
	rnd = random.Random(7)
	owners = [(0, 0), (1000, 1000), (65534, 65534), (0, 100)]
	modes = [0o644, 0o600, 0o755, 0o4755, 0o2750, 0o444, 0o640]
	for d in range(40):
	    dp = os.path.join(top, "d%02d" % d)
	    os.makedirs(dp)
	    for i in range(75):
	        p = os.path.join(dp, "f%03d" % i)
	        with open(p, "wb") as f:
	            f.write(os.urandom(rnd.randint(0, 3000)))
	        uid, gid = owners[(d + i) % len(owners)]
	        os.chown(p, uid, gid)
	        os.chmod(p, modes[(d * 7 + i) % len(modes)])
	        os.utime(p, (1600000000 + i, 1500000000 + d * 1000 + i))
	with open(os.path.join(top, "holes"), "wb") as f:
	    f.write(b"a" * 4096)
	    f.seek(65536)
	    f.write(b"b" * 10)
	    f.truncate(200000)
	os.link(os.path.join(top, "d01", "f001"), os.path.join(top, "d02", "link"))
	with open(os.path.join(top, "mib"), "wb") as f:
	    f.write(os.urandom(1 << 20))
	with open(os.path.join(top, "mibplus"), "wb") as f:
	    f.write(os.urandom((1 << 20) + 1))
	for n in ("holes", "mib", "mibplus"):
	    os.utime(os.path.join(top, n), (1600000000, 1400000000))
	for n in ("d03/f004", "d05/f006"):
	    os.setxattr(os.path.join(top, n), "user.note", b"kept")
	EOF
	mke2fs -q -F -t ext4 -b 4096 -N 4096 -d src fs.img 64M &&
	"$DUMP" -0 -f a.dump fs.img 2>dump.err &&
	manifest src --no-root --no-dir-mtime >want
'

test_expect_success $P 'restore -r brings back every file exactly' '
	mkdir r && (cd r && "$RESTORE" -r -f ../a.dump) &&
	manifest r --no-root --no-dir-mtime --exclude=lost+found >got &&
	test_cmp want got
'

test_expect_success $P 'restore -x -v names every file once, tree exact' '
	mkdir x && (cd x && "$RESTORE" -x -a -o -v -f ../a.dump >../x.out 2>&1) &&
	manifest x --no-root --no-dir-mtime --exclude=lost+found >got &&
	test_cmp want got &&
	grep "^extract file " x.out | sort | uniq -d >dups &&
	test_cmp /dev/null dups &&
	test "$(grep -c "^extract file \./d[0-9]*/f" x.out)" = 3000
'

test_expect_success $P 'names held by directories: each named, the rest made, status 1' '
	mkdir y && for n in $BLOCKED
	do
		mkdir -p y/$n/sub || return 1
	done &&
	test_must_fail sh -c "cd y && \"\$1\" -x -a -o -f ../a.dump 2>../y.err" sh "$RESTORE" &&
	for n in $BLOCKED
	do
		test "$(grep -c "^restore: \./$n: a directory is in the way, not replaced$" y.err)" = 1 ||
			return 1
	done &&
	manifest y --no-root --no-dir-mtime --exclude=lost+found \
		$(for n in $BLOCKED; do printf " --exclude=%s" $n; done) >got &&
	awk -F "	" -v b=" $BLOCKED " "index(b, \" \" \$1 \" \") == 0" want >want.y &&
	test_cmp want.y got
'

test_expect_success $P,LOOP 'a target too small: errors named, status 1, no hang' '
	mke2fs -q -F -t ext4 -b 4096 -N 4096 small.img 8M &&
	image_mount small.img small &&
	test_when_finished "image_umount small" &&
	test_must_fail sh -c "cd small && \"\$1\" -x -a -o -f ../a.dump 2>../small.err" sh "$RESTORE" &&
	grep "No space left on device" small.err >nospace &&
	test -s nospace &&
	! grep -v "^restore: \./" nospace
'

test_expect_success ROOT,OURDUMP,OURRESTORE,DEBUGFS 'a deep tree, a file on every level, few descriptors' '
	echo x >one.txt &&
	awk "BEGIN { for (i = 0; i < 600; i++) print \"mkdir d\\ncd d\\nwrite one.txt f\" }" >cmds &&
	mke2fs -q -F -t ext4 -b 1024 -N 2048 deep.img 16M &&
	debugfs -w -f cmds deep.img >/dev/null 2>debugfs.err &&
	"$DUMP" -0 -f deep.dump deep.img 2>deep.dump.err &&
	mkdir dr && (cd dr && ulimit -n 64 && "$RESTORE" -r -f ../deep.dump) &&
	test "$(find dr -name f -type f | wc -l)" = 600
'

test_done
