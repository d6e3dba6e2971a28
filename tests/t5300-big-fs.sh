#!/bin/sh
test_description='a file system of more than 2^32 blocks

An ext4 of 17 TiB (4 KiB blocks, 64bit; a sparse image on an XFS of our
own, since ext4 caps a file at 16 TiB) with a file and its EA block
above block 2^32.  Our dump and 0.4b56 archive it; our restore and those
of 0.4b47, 0.4b49 and 0.4b56 bring back its data and attribute exactly.
dump 0.4b47 reads the wrong blocks there (0.4b48 fixed that): a known
upstream defect, as is 0.4b47 restore on the map of 0.4b56.'
. "$(dirname "$0")/lib.sh"

# 2^32 blocks of 4 KiB are 131072 groups of 32768 blocks, 16 inodes each
# with -N below: an inode above this number lives above block 2^32, and
# ext4 allocates a file's blocks and EA block near its inode.
HIGH_INO=$((131072 * 16 + 1))

test_expect_success ROOT,LOOP,XFS,ATTR 'setup: 17 TiB ext4 with data above block 2^32' '
	truncate -s 4G xfs.img && mkfs.xfs -q xfs.img &&
	image_mount xfs.img x &&
	truncate -s 17T x/ext4.img &&
	mke2fs -q -t ext4 -b 4096 -O 64bit,^has_journal,^resize_inode \
		-N 300000 -E lazy_itable_init=1,nodiscard x/ext4.img &&
	image_attach x/ext4.img >dev &&
	image_mount "$(cat dev)" m &&
	head -c 200000 /dev/urandom >f.bin &&
	head -c 3000 /dev/zero | tr "\\0" v >big.val &&
	echo small >m/small &&
	# A new top-level directory lands in a group picked at random
	# (Orlov): make them until one lands above 2^32 blocks.
	i=0 && while test $i -lt 3000; do
		i=$((i + 1)) && mkdir m/d$i || return 1
		test "$(stat -c %i m/d$i)" -ge $HIGH_INO && break
		rmdir m/d$i || return 1
	done &&
	test -d m/d$i && echo d$i >hidir &&
	cp f.bin m/d$i/f && setfattr -n user.big -v "$(cat big.val)" m/d$i/f &&
	image_umount m &&
	debugfs -R "stat d$i/f" "$(cat dev)" 2>/dev/null >stat.out &&
	acl=$(sed -n "s/.*File ACL: \\([0-9]*\\).*/\\1/p" stat.out) &&
	first=$(sed -n "s/.*(0[^)]*):\\([0-9]*\\).*/\\1/p" stat.out) &&
	test "$acl" -gt 4294967296 && test "$first" -gt 4294967296
'

# restored R ARCHIVE: the high file and its attribute came back.
restored() {
	rm -rf r && mkdir r &&
	(cd r && "$1" -r -f ../$2 >../r.out 2>../r.err) &&
	cmp f.bin r/$(cat hidir)/f &&
	getfattr --only-values -n user.big r/$(cat hidir)/f >val &&
	cmp big.val val && test "$(cat r/small)" = small
}

test_expect_success ROOT,LOOP,XFS,ATTR,OURDUMP 'our dump of it' '
	"$DUMP" -0 -f our.dump "$(cat dev)" 2>our.err
'
test_expect_success ROOT,LOOP,XFS,ATTR,UPSTREAM56 'dump 0.4b56 of it' '
	"$UPSTREAM56/dump" -0 -f 56.dump "$(cat dev)" >56.err 2>&1
'
for a in our 56
do
	test_expect_success ROOT,LOOP,XFS,ATTR,OURRESTORE "our restore of the $a archive" '
		test -s '$a'.dump && restored "$RESTORE" '$a'.dump && test_cmp /dev/null r.err
	'
	test_expect_success ROOT,LOOP,XFS,ATTR,UPSTREAM49 "restore 0.4b49 of the $a archive" '
		test -s '$a'.dump && restored "$UPSTREAM49/restore" '$a'.dump
	'
	test_expect_success ROOT,LOOP,XFS,ATTR,UPSTREAM56 "restore 0.4b56 of the $a archive" '
		test -s '$a'.dump && restored "$UPSTREAM56/restore" '$a'.dump
	'
done
test_expect_success ROOT,LOOP,XFS,ATTR,ORACLE 'restore 0.4b47 of our archive' '
	test -s our.dump && restored "$ORACLE_RESTORE" our.dump
'
test_known_upstream_defect ROOT,LOOP,XFS,ATTR,ORACLE 'dump 0.4b47 reads the wrong blocks above 2^32' '
	"$ORACLE_DUMP" -0 -f 47.dump "$(cat dev)" >47.err 2>&1 &&
	! restored "$RESTORE" 47.dump
'
test_known_upstream_defect ROOT,LOOP,XFS,ATTR,ORACLE,UPSTREAM56 'restore 0.4b47 cannot read the map of 0.4b56' '
	test -s 56.dump && ! restored "$ORACLE_RESTORE" 56.dump
'

test_done
