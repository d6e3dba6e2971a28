#!/bin/sh
test_description='extended attributes and POSIX ACLs, both ways with dump 0.4b47

An ext4 image (256-byte inodes, so small values sit in the inode and
large ones in the EA block) gets user.* values from empty to 3000 bytes,
binary ones, a file with 40 attributes, trusted.* and security.* on
files, symlinks, devices and FIFOs, access and default ACLs on
directories, an inherited ACL, two files sharing one EA block, and
attributes on the root directory.  Our dump and 0.4b47 dump it; the
archives restore with -r, our dump -> our restore, our dump -> restore
0.4b47, dump 0.4b47 -> our restore, onto fresh ext4 mounts, and the
trees compare equal with every value (manifest hashes, getfattr hex
dumps, getfacl).  restore -C passes, then names the file whose value
changed, whose attribute vanished or whose ACL changed; -x of one file
or directory brings its attributes.  A target that cannot hold the
attributes gets a message per attribute in 0.4b47 words (ramfs: exit
0; an ext4 with 1 KiB blocks and 128-byte inodes, too small for one
value: exit 1), and the attributes after a failing one still arrive
(0.4b47 drops the rest of the record).  Onto XFS, which lists ACLs
twice, every ACL stays and -C finds no difference.
An incremental carries attribute-only changes (a value changed, one
removed from a directory); 1024-byte inodes with metadata_csum and
64bit go both ways too.'
. "$(dirname "$0")/lib.sh"

command -v setfacl >/dev/null 2>&1 && command -v getfacl >/dev/null 2>&1 &&
	command -v getfattr >/dev/null 2>&1 && test_set_prereq ACL
test -f "$HELPERS/cmpdump.py" && test_have_prereq PYTHON && test_set_prereq CMPDUMP
P=ROOT,LOOP,ORACLE,OURDUMP,OURRESTORE,ATTR,ACL

# paths DIR [FIND-TESTS]: the tree's paths, sorted, lost+found left out.
paths() {
	(cd "$1" && find . -path ./lost+found -prune -o ${2:-} -print) | sort
}
# xdump DIR: every attribute value of the tree in hex, in path order.
xdump() {
	paths "$1" | (cd "$1" && while read -r p
	do
		getfattr -d -m - -h -e hex -- "$p" 2>/dev/null || return 1
	done)
}
# acldump DIR: every ACL of the tree (symlinks have none), numeric.
acldump() {
	paths "$1" "! -type l" | grep -v "^\./restoresymtable\$" |
		(cd "$1" && xargs getfacl -n --)
}
# mf DIR [OPTIONS]: the manifest without lost+found.
mf() {
	mf_dir=$1 && shift && manifest "$mf_dir" --exclude=lost+found "$@"
}
# newfs IMG DIR [MKE2FS-OPTIONS]: a fresh small ext4 mounted on DIR.
newfs() {
	newfs_opts=${3:-"-b 4096 -I 256 -O ^metadata_csum,^64bit"}
	truncate -s 32M "$1" &&
	mke2fs -q -F -t ext4 $newfs_opts "$1" &&
	image_mount "$1" "$2"
}
# fill DIR: the attribute zoo.
fill() {
	big=$(head -c 3000 /dev/zero | tr "\\0" x) &&
	mid=$(head -c 64 /dev/zero | tr "\\0" m) &&
	cd "$1" &&
	echo small >f.small && setfattr -n user.a -v "small value" f.small &&
	setfattr -n user.empty f.small &&
	echo large >f.large && setfattr -n user.s -v s f.large &&
	setfattr -n user.big -v "$big" f.large &&
	setfattr -n user.bin -v 0x00ff0a5c30000102 f.large &&
	echo many >f.many &&
	i=0 && while test $i -lt 40
	do
		setfattr -n user.attr$(printf %02d $i) -v "value $i of forty, padded to some length" f.many || return 1
		i=$((i + 1))
	done &&
	echo mixed >f.mixed && setfattr -n trusted.t -v "trusted value" f.mixed &&
	setfattr -n security.test -v "security value" f.mixed &&
	setfattr -n user.u -v u f.mixed &&
	setfacl -m u:1234:rw,g:55:r,u:70000:r f.mixed &&
	echo shared >f.shared1 && echo shared >f.shared2 &&
	for f in f.shared1 f.shared2
	do
		setfattr -n user.shared -v "$big" $f || return 1
	done &&
	echo spill >f.spill && setfattr -n user.fill -v "$mid" f.spill &&
	setfattr -n user.big -v "$big" f.spill &&
	setfattr -n trusted.after -v after f.spill &&
	ln f.small f.hardlink &&
	mkdir d.acl && setfacl -m u:99:rx d.acl && setfacl -d -m u:1234:rwx,g:55:rx d.acl &&
	setfattr -n user.dir -v "dir value" d.acl &&
	echo inherit >d.acl/inherit &&
	mkdir plain && echo x >plain/noattr &&
	ln -s f.small sl && setfattr -h -n trusted.link -v "link value" sl &&
	setfattr -h -n security.test -v slk sl &&
	mknod cdev c 4 5 && setfattr -n trusted.dev -v "char dev" cdev &&
	mknod bdev b 7 200 && setfattr -n security.test -v "block dev" bdev &&
	mkfifo fifo && setfattr -n trusted.fifo -v fifo fifo &&
	setfattr -n user.root -v "root dir" . &&
	setfacl -m g:55:rx . &&
	cd - >/dev/null
}

# The source is mounted at a short path of its own, S (short_dir): the
# restore -C checks name it with -D, which restore 0.4b47 keeps in a
# 64-byte field (63 characters); below a trash directory as long as the
# checkout makes it, the path is cut and every -C of 0.4b47 fails.
test_expect_success $P 'setup: attribute zoo on ext4, dumped by ours and 0.4b47' '
	S=$(short_dir)/src &&
	newfs src.img "$S" && srcdev=$MOUNT_DEV &&
	fill "$S" &&
	mf "$S" >src.man &&
	mf "$S" --mtime=s >src.man.s &&
	xdump "$S" >src.x && acldump "$S" >src.acl &&
	sed "s/ xattr:[^ ]*//g" src.man | grep -v "^\.	" >src.noxattr &&
	grep -c "^user\.attr" src.x >n && test "$(cat n)" = 40 &&
	grep "^user.big=0x7878" src.x &&
	grep "^trusted.link=" src.x && grep "^trusted.dev=" src.x &&
	grep "^default:user:1234:rwx" src.acl &&
	grep "^user:1234:rw-" src.acl && grep "^user:1234:rwx.*#effective" src.acl &&
	test -b "$srcdev" &&
	image_umount "$S" &&
	"$DUMP" -0 -f ours.dump "$srcdev" 2>ours.err &&
	"$ORACLE_DUMP" -0 -f ref.dump "$srcdev" 2>ref.err
'

test_expect_success $P 'the manifest holds the attribute values' '
	grep "^f.large	.* xattr:user.big=[0-9a-f]* xattr:user.bin=[0-9a-f]* xattr:user.s=" src.man &&
	grep "^sl	symlink .*xattr:security.test=.*xattr:trusted.link=" src.man &&
	grep "^f.mixed	.*xattr:system.posix_acl_access=" src.man &&
	grep "^d.acl	.*xattr:system.posix_acl_default=" src.man &&
	mkdir mt && echo a >mt/f && setfattr -n user.v -v one mt/f &&
	manifest mt >mt1 && setfattr -n user.v -v two mt/f && manifest mt >mt2 &&
	! cmp -s mt1 mt2
'

test_expect_success $P,CMPDUMP 'our EA records are those of 0.4b47' '
	"$PYTHON" "$HELPERS/cmpdump.py" cmp ours.dump ref.dump &&
	"$PYTHON" "$HELPERS/cmpdump.py" zerotails ours.dump
'

# restore_into NAME RESTORE ARCHIVE [MTIME-PRECISION]: restore -r onto a
# fresh ext4 mount NAME, then compare with the source three ways (dump
# 0.4b47 stores whole seconds only).
restore_into() {
	newfs $1.img $1 &&
	(cd $1 && "$2" -r -y -f ../$3) >$1.out 2>$1.err &&
	mf $1 --mtime=${4:-us} >$1.man &&
	test_cmp src.man${4:+.$4} $1.man &&
	xdump $1 >$1.x && test_cmp src.x $1.x &&
	acldump $1 >$1.acl && test_cmp src.acl $1.acl
}
# no_dacl FILE: FILE without the attribute lines of d.acl.
no_dacl() {
	sed "/^d\.acl	/s/ xattr:.*//; /^# file: d\.acl\$/,/^\$/d" "$1"
}

test_expect_success $P 'our dump -> our restore -r: every attribute and ACL back' '
	restore_into oo "$RESTORE" ours.dump &&
	test_cmp /dev/null oo.err
'

test_expect_success $P 'our dump -> restore 0.4b47 -r: every attribute and ACL back (but d.acl)' '
	newfs or.img or &&
	(cd or && "$ORACLE_RESTORE" -r -y -f ../ours.dump) >or.out 2>or.err &&
	mf or >or.man &&
	no_dacl src.man >src.man.nod && no_dacl or.man >or.man.nod &&
	test_cmp src.man.nod or.man.nod &&
	xdump or >or.x && no_dacl src.x >src.x.nod && no_dacl or.x >or.x.nod &&
	test_cmp src.x.nod or.x.nod &&
	acldump or >or.acl && no_dacl src.acl >src.acl.nod && no_dacl or.acl >or.acl.nod &&
	test_cmp src.acl.nod or.acl.nod
'

test_known_upstream_defect $P 'restore 0.4b47 sets one EA record of a directory, not both' '
	grep "^d\.acl	.*xattr:user\.dir=" src.man &&
	! grep "^d\.acl	.*xattr:user\.dir=" or.man &&
	grep "^d\.acl	.*xattr:system\.posix_acl_default=" or.man
'

test_expect_success $P 'dump 0.4b47 -> our restore -r: every attribute and ACL back' '
	restore_into ro "$RESTORE" ref.dump s &&
	test_cmp /dev/null ro.err
'

test_expect_success $P 'restore -C of both archives passes on the source' '
	image_mount "$srcdev" "$S" &&
	"$RESTORE" -C -f ours.dump -D "$S" >c1.out 2>c1.err &&
	"$RESTORE" -C -f ref.dump -D "$S" >c2.out 2>c2.err &&
	"$ORACLE_RESTORE" -C -f ours.dump -D "$S" >c3.out 2>c3.err &&
	! grep -i "EA\|attributes" c1.err c2.err c3.err
'

# cmp_fails ARCHIVE OUT: restore -C must exit 2.
cmp_fails() {
	"$RESTORE" -C -f $1 -D "$S" >$2.out 2>$2.err
	test $? = 2 && grep "^Some files were modified!" $2.out
}

# change_two_attrs: give $S/f.many's user.attr38 and attr39 new values,
# put back as fill() made them when the test ends.
change_two_attrs() {
	test_when_finished "setfattr -n user.attr38 -v \"value 38 of forty, padded to some length\" $S/f.many;
		setfattr -n user.attr39 -v \"value 39 of forty, padded to some length\" $S/f.many" &&
	setfattr -n user.attr38 -v changed38 "$S/f.many" &&
	setfattr -n user.attr39 -v changed39 "$S/f.many"
}

test_expect_success $P 'restore -C names the file whose value changed, like 0.4b47' '
	test_when_finished "setfattr -n user.a -v \"small value\" $S/f.small" &&
	setfattr -n user.a -v "other value" "$S/f.small" &&
	cmp_fails ours.dump cv &&
	grep -x "\./f\.small: EA user\.a value changed from small value on tape to other value on disk" cv.err &&
	{ "$ORACLE_RESTORE" -C -f ours.dump -D "$S" >cvo.out 2>cvo.err
	  test $? = 2; } &&
	grep "EA user\.a value changed" cvo.err >cvo.line &&
	grep "EA user\.a value changed" cv.err >cv.line &&
	test_cmp cvo.line cv.line
'

test_expect_success $P 'restore -C names a file whose attribute vanished or was added' '
	test_when_finished "setfattr -h -n trusted.link -v \"link value\" $S/sl; setfattr -x user.extra $S/plain/noattr 2>/dev/null; :" &&
	setfattr -h -x trusted.link "$S/sl" &&
	cmp_fails ref.dump cx &&
	grep "^restore: \./sl: EA compare lgetxattr for trusted\.link failed: No data available$" cx.err &&
	grep -x "\./sl: file does not have the same number of attributes (1) as the tape (2)\." cx.err &&
	setfattr -h -n trusted.link -v "link value" "$S/sl" &&
	"$RESTORE" -C -f ref.dump -D "$S" >/dev/null 2>&1 &&
	setfattr -n user.extra -v 1 "$S/f.many" &&
	test_when_finished "setfattr -x user.extra $S/f.many" &&
	cmp_fails ref.dump cy &&
	grep -x "\./f\.many: file does not have the same number of attributes (41) as the tape (40)\." cy.err
'

test_expect_success $P 'restore -C names a file and a directory whose ACL changed' '
	test_when_finished "setfacl -m u:1234:rw $S/f.mixed; setfacl -d -m u:1234:rwx $S/d.acl" &&
	setfacl -m u:1234:r "$S/f.mixed" && setfacl -d -m u:1234:r "$S/d.acl" &&
	cmp_fails ours.dump ca &&
	grep "^\./f\.mixed: EA system\.posix_acl_access value changed from \\\\002 on tape to \\\\002 on disk$" ca.err &&
	grep "^\./d\.acl: EA system\.posix_acl_default value changed" ca.err
'

test_expect_success $P 'restore -C reports every changed attribute of a record' '
	change_two_attrs &&
	cmp_fails ours.dump c2 &&
	grep "^\./f\.many: EA user\.attr38 value changed from value 38 of forty, padded to some length on tape to changed38 on disk$" c2.err &&
	grep "^\./f\.many: EA user\.attr39 value changed .* to changed39 on disk$" c2.err
'

test_known_upstream_defect $P 'restore 0.4b47 -C stops at the first changed attribute of a record' '
	change_two_attrs &&
	{ "$ORACLE_RESTORE" -C -f ours.dump -D "$S" >c2o.out 2>c2o.err
	  test $? = 2; } &&
	grep "^\./f\.many: EA user\.attr38 value changed" c2o.err &&
	! grep "attr39" c2o.err
'

test_expect_success $P 'the source is unchanged after the -C checks' '
	mf "$S" >src2.man && test_cmp src.man src2.man &&
	xdump "$S" >src2.x && test_cmp src.x src2.x &&
	image_umount "$S"
'

test_expect_success $P 'restore -x of one file and of a directory brings their attributes' '
	newfs x.img xt &&
	(cd xt && "$RESTORE" -x -a -o -f ../ours.dump ./f.many ./sl ./d.acl) 2>x.err &&
	test_cmp /dev/null x.err &&
	xdump xt | sed -n "/^# file: d\.acl\$/,/^\$/p;/^# file: f\.many\$/,/^\$/p;/^# file: sl\$/,/^\$/p" >x.x &&
	sed -n "/^# file: d\.acl\$/,/^\$/p;/^# file: f\.many\$/,/^\$/p;/^# file: sl\$/,/^\$/p" src.x >x.expect &&
	test_cmp x.expect x.x &&
	grep -c "^user\.attr" x.x >n && test "$(cat n)" = 40 &&
	(cd xt && getfacl -n d.acl/inherit d.acl) >x.acl &&
	grep "^default:user:1234:rwx" x.acl &&
	grep "^user:1234:rwx.*#effective" x.acl
'

test_expect_success $P 'dump 0.4b47 -> our restore -x of one file brings its attributes' '
	newfs x2.img xt2 &&
	(cd xt2 && "$RESTORE" -x -a -o -f ../ref.dump ./f.mixed) 2>x2.err &&
	test_cmp /dev/null x2.err &&
	(cd xt2 && getfattr -d -m - -h -e hex f.mixed) >x2.x &&
	(cd oo && getfattr -d -m - -h -e hex f.mixed) >x2.expect &&
	test_cmp x2.expect x2.x
'

# A target without any attribute support: every attribute is reported,
# in 0.4b47's words, and the restore goes on and succeeds.
test_expect_success $P 'restore -r onto ramfs: each attribute reported, files restored, exit 0' '
	scratch_mount ramfs ram &&
	test_when_finished "image_umount ram" &&
	(cd ram && "$RESTORE" -r -y -f ../ours.dump) >ram.out 2>ram.err &&
	grep -x "restore: \./f\.small: EA set user\.a:small value failed: Operation not supported" ram.err &&
	grep -x "restore: \./sl: EA set trusted\.link:link value failed: Operation not supported" ram.err &&
	grep -x "restore: \./f\.large: EA set user\.bin: failed: Operation not supported" ram.err &&
	grep -x "restore: \./d\.acl: EA set system\.posix_acl_default:\\\\002 failed: Operation not supported" ram.err &&
	grep -x "restore: \./f\.mixed: EA set trusted\.t:trusted value failed: Operation not supported" ram.err &&
	grep -c "EA set .* failed" ram.err >n && test "$(cat n)" -ge 60 &&
	test "$(grep -v "EA set .* failed: Operation not supported\$" ram.err)" = "" &&
	sed "s/ xattr:[^ ]*//g" src.man | grep -v "^\.	" >src.noxattr &&
	mf ram --no-root >ram.man && test_cmp src.noxattr ram.man
'

test_expect_success $P 'ramfs: restore 0.4b47 reports the same way and exits 0 too' '
	scratch_mount ramfs ram2 &&
	test_when_finished "image_umount ram2" &&
	(cd ram2 && "$ORACLE_RESTORE" -r -y -f ../ours.dump) >ram2.out 2>ram2.err &&
	grep "^[^ ]*restore: \./f\.small: EA set user\.a:small value failed: Operation not supported\$" ram2.err &&
	mf ram2 --no-root >ram2.man && test_cmp src.noxattr ram2.man
'

# XFS lists a file's ACLs to root a second time, as trusted.SGI_ACL_FILE
# and trusted.SGI_ACL_DEFAULT: those are not attributes the archive
# lacks (removing one removes the ACL), nor more attributes for -C.
test_expect_success $P,XFS 'restore -r onto XFS: every ACL and attribute back, -C equal' '
	truncate -s 320M xfs.img && mkfs.xfs -q xfs.img && image_mount xfs.img xfs &&
	(cd xfs && "$RESTORE" -r -y -f ../ours.dump) >xfs.out 2>xfs.err &&
	test_cmp /dev/null xfs.err &&
	acldump xfs >xfs.acl && test_cmp src.acl xfs.acl &&
	xdump xfs | grep -v "^trusted\.SGI_ACL_" >xfs.x && test_cmp src.x xfs.x &&
	"$RESTORE" -C -f ours.dump -D "$PWD/xfs" >xc.out 2>xc.err &&
	test_cmp /dev/null xc.err && ! grep -i "EA\|attributes" xc.out
'

# ext4 with 1 KiB blocks and 128-byte inodes cannot hold a 3000-byte
# value: the EA set of user.big fails, trusted.after (after it in the
# same EA block record) must still be set, and the value lost makes the
# exit status 1.
test_expect_success $P 'a value the target cannot hold is reported, the next ones still set' '
	newfs small.img sm "-b 1024 -I 128 -O ^metadata_csum,^64bit" &&
	(cd sm && test_must_fail "$RESTORE" -r -y -f ../ref.dump) >sm.out 2>sm.err &&
	grep "^restore: \./f\.spill: EA set user\.big:xxxx*x failed: " sm.err &&
	test "$(getfattr --only-values -n trusted.after sm/f.spill)" = after &&
	test "$(getfattr --only-values -n user.fill sm/f.spill)" = "$(head -c 64 /dev/zero | tr "\\0" m)" &&
	test "$(cat sm/f.spill)" = spill
'

test_known_upstream_defect $P 'restore 0.4b47 drops the attributes after a failing one' '
	newfs small2.img sm2 "-b 1024 -I 128 -O ^metadata_csum,^64bit" &&
	(cd sm2 && "$ORACLE_RESTORE" -r -y -f ../ref.dump) >sm2.out 2>sm2.err &&
	grep "\./f\.spill: EA set user\.big:xxxx*x failed: " sm2.err &&
	test "$(getfattr --only-values -n user.fill sm2/f.spill)" = "$(head -c 64 /dev/zero | tr "\\0" m)" &&
	! getfattr -n trusted.after sm2/f.spill
'

test_expect_success $P 'an incremental dump carries attribute-only changes' '
	"$DUMP" -0 -u -D "$PWD/dd" -f inc0.dump "$srcdev" 2>inc0.err &&
	image_mount "$srcdev" "$S" &&
	setfattr -n user.a -v "changed by level 1" "$S/f.small" &&
	setfattr -h -x trusted.link "$S/sl" &&
	setfacl -m u:4321:r "$S/plain/noattr" &&
	setfattr -x user.dir "$S/d.acl" &&
	mf "$S" >inc.man && xdump "$S" >inc.x && acldump "$S" >inc.acl &&
	image_umount "$S" &&
	"$DUMP" -1 -u -D "$PWD/dd" -f inc1.dump "$srcdev" 2>inc1.err &&
	newfs inc.img inc &&
	(cd inc && "$RESTORE" -r -y -f ../inc0.dump && "$RESTORE" -r -y -f ../inc1.dump) 2>inc.err &&
	test_cmp /dev/null inc.err &&
	mf inc >inc.r.man && test_cmp inc.man inc.r.man &&
	xdump inc >inc.r.x && test_cmp inc.x inc.r.x &&
	acldump inc >inc.r.acl && test_cmp inc.acl inc.r.acl &&
	! grep -q trusted.link inc.r.x
'

# The in-inode area of 1024-byte inodes holds most values; metadata_csum
# and 64bit change the EA block header and the block number fields.
test_expect_success $P,CMPDUMP 'another layout (1024-byte inodes, metadata_csum, 64bit) both ways' '
	newfs big.img big "-b 4096 -I 1024 -O metadata_csum,64bit" && bigdev=$MOUNT_DEV &&
	fill big &&
	mf big >big.man && xdump big >big.x && acldump big >big.acl &&
	image_umount big &&
	"$DUMP" -0 -f big-ours.dump "$bigdev" 2>/dev/null &&
	"$ORACLE_DUMP" -0 -f big-ref.dump "$bigdev" 2>/dev/null &&
	"$PYTHON" "$HELPERS/cmpdump.py" cmp big-ours.dump big-ref.dump &&
	for a in ours ref
	do
		newfs b$a.img b$a "-b 4096 -I 1024 -O metadata_csum,64bit" &&
		(cd b$a && "$RESTORE" -r -y -f ../big-$a.dump) 2>b$a.err &&
		test_cmp /dev/null b$a.err &&
		xdump b$a >b$a.x && test_cmp big.x b$a.x &&
		acldump b$a >b$a.acl && test_cmp big.acl b$a.acl || return 1
	done &&
	mf bours >bours.man && test_cmp big.man bours.man
'

test_done
