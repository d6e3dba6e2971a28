#!/bin/sh
test_description='the hidden inodes of ext4: orphan file and quota files

e2fsprogs 1.47 can keep the orphan list in an inode of its own
(orphan_file, on by default from Debian 13) and, with the quota feature,
the quota files in inodes no name leads to.  dump leaves them out, as
it leaves out the journal, and says so with -v in the words and order
of 0.4b56; its maps then equal 0.4b56'"'"'s.  Every restore (ours, 0.4b47,
0.4b49, 0.4b56) brings the tree back without a word about them.'
. "$(dirname "$0")/lib.sh"

# The images are files: neither dump needs a loop device to read them.
test_expect_success OURDUMP 'setup: an ext4 with an orphan file and three quota files' '
	mkdir src src/d &&
	echo hello >src/a && seq 1 1000 >src/d/b && ln -s d/b src/l &&
	truncate -s 32M h.img &&
	if mke2fs -q -F -t ext4 -I 256 -O orphan_file,quota,project \
		-E quotatype=usrquota:grpquota:prjquota -d src h.img 2>mke2fs.err
	then
		test_set_prereq HIDDEN
	fi &&
	if test_have_prereq HIDDEN
	then
		dumpe2fs -h h.img >sb 2>/dev/null &&
		hidden=$(sed -n "s/^\(User\|Group\|Project\) quota inode: *//p
			s/^Orphan file inode: *//p" sb | sort -n | tr "\n" " ") &&
		test "$(echo $hidden | wc -w)" = 4
	fi
'

test_expect_success HIDDEN 'dump -v names each hidden inode and leaves it out' '
	"$DUMP" -0 -v -f ours.dump h.img 2>ours.err &&
	for what in "orphan inode" "user quota inode" "group quota inode" \
		"project quota inode"
	do
		grep "^  DUMP: Excluding inode [0-9]* ($what) from dump$" ours.err ||
		return 1
	done &&
	"$HELPERS/tapetool" list ours.dump >list &&
	for ino in $hidden
	do
		! grep " TS_INODE $ino " list || return 1
	done &&
	grep -c " TS_INODE " list >count && test "$(cat count)" = 6
'

test_expect_success HIDDEN,UPSTREAM56 'the Excluding lines and both maps equal 0.4b56'"'"'s' '
	"$UPSTREAM56/dump" -0 -v -f 56.dump h.img 2>56.err &&
	grep "^  DUMP: Excluding" 56.err >want &&
	grep "^  DUMP: Excluding" ours.err >got &&
	test_cmp want got &&
	# TS_CLRI then TS_BITS, each two 1 KiB blocks after its header
	for blk in 2 3 5 6
	do
		dd if=56.dump bs=1024 skip=$blk count=1 2>/dev/null >want.map &&
		dd if=ours.dump bs=1024 skip=$blk count=1 2>/dev/null >got.map &&
		cmp want.map got.map || return 1
	done
'

# restore_quietly NAME RESTORE: restore -r of ours.dump into r.NAME; the
# tree equals the source and nothing is said.
restore_quietly() {
	mkdir "r.$1" &&
	(cd "r.$1" && "$2" -rf ../ours.dump) >"r.$1.out" 2>&1 &&
	{ ! test -s "r.$1.out" || { cat "r.$1.out"; false; }; } &&
	manifest src --no-root --mtime=s >want.m &&
	manifest "r.$1" --no-root --mtime=s --exclude=lost+found >got.m &&
	test_cmp want.m got.m
}

test_expect_success HIDDEN,OURRESTORE,PYTHON 'our restore: the tree, not a word' '
	restore_quietly ours "$RESTORE"
'

test_expect_success HIDDEN,ORACLE,PYTHON 'restore 0.4b47: the tree, not a word' '
	restore_quietly b47 "$ORACLE_RESTORE"
'

test_expect_success HIDDEN,UPSTREAM49,PYTHON 'restore 0.4b49: the tree, not a word' '
	restore_quietly b49 "$UPSTREAM49/restore"
'

test_expect_success HIDDEN,UPSTREAM56,PYTHON 'restore 0.4b56: the tree, not a word' '
	restore_quietly b56 "$UPSTREAM56/restore"
'

test_done
