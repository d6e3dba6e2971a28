#!/bin/sh
test_description='dump -0: our archive against dump 0.4b47 byte by byte

Same unchanged, unmounted device dumped by both: headers equal except
c_date, c_checksum, the microsecond fields and the carried-over bytes
0.4b47 leaves; data equal except stale tails (ours zeroed) and what 0.4b47
gets wrong (inline data; unwritten extents; the names/ directory, whose 255-byte name entry
0.4b47 corrupts). Two of our dumps differ only in date and checksum.'
. "$(dirname "$0")/lib.sh"

# ext4 images get an unwritten extent (helpers/mkimage.sh).
IMAGE_PREALLOC=1
export IMAGE_PREALLOC

CMPDUMP="$PYTHON $HELPERS/cmpdump.py"

for kind in ext2 ext4 ext4-1k ext4-inline ext4-csum64
do
	test_expect_success ROOT,LOOP,PYTHON "$kind: setup: small image, inline-data inodes" "
		mkdir $kind && cd $kind &&
		make_image $kind fs.img small &&
		image_mount fs.img src ro &&
		manifest src --list-inline-ino >inline.ino &&
		stat -c %i src/names >names.ino &&
		{ stat -c \"%i f\" src/prealloc >>inline.ino 2>/dev/null || :; } &&
		image_umount src &&
		dev=\$(image_attach fs.img) && echo \$dev >dev
	"

	test_expect_success ROOT,LOOP,ORACLE,OURDUMP,!DUMP_IS_ORACLE "$kind: our archive equals dump 0.4b47's" '
		cd '$kind' &&
		"$ORACLE_DUMP" -0 -f o.dump -D dd "$(cat dev)" 2>o.err &&
		"$DUMP" -0 -f n.dump -D dd "$(cat dev)" 2>n.err &&
		$CMPDUMP cmp --allow-inode $(cat names.ino) \
			$(sed -n "s/^\([0-9]*\) f$/--allow-inode \1/p" inline.ino) \
			$(sed -n "s/^\([0-9]*\) d$/--allow-ea-inode \1/p" inline.ino) \
			o.dump n.dump
	'

	test_expect_success ROOT,LOOP,OURDUMP "$kind: two dumps, a second apart" '
		cd '$kind' &&
		"$DUMP" -0 -f n1.dump -D dd "$(cat dev)" 2>n1.err &&
		sleep 1 &&
		"$DUMP" -0 -f n2.dump -D dd "$(cat dev)" 2>n2.err
	'

	test_expect_success ROOT,LOOP,OURDUMP,!DUMP_IS_ORACLE "$kind: two dumps of ours differ only in date and checksum" '
		cd '$kind' && $CMPDUMP cmp --strict n1.dump n2.dump
	'

	test_expect_success ROOT,LOOP,OURDUMP,!DUMP_IS_ORACLE "$kind: no stale bytes after directory, symlink and EA data" '
		cd '$kind' && $CMPDUMP zerotails n1.dump
	'

	test_known_upstream_defect ROOT,LOOP,OURDUMP,DUMP_IS_ORACLE "$kind: dump 0.4b47 leaves stale bytes in the archive" '
		cd '$kind' && ! $CMPDUMP cmp --strict n1.dump n2.dump >/dev/null ||
		! $CMPDUMP zerotails n1.dump >/dev/null
	'

	test_expect_success ROOT,LOOP,OURDUMP,!DUMP_IS_ORACLE "$kind: times carry their microseconds" '
		cd '$kind' &&
		image_mount "$(cat dev)" src ro &&
		$CMPDUMP inode n1.dump $(stat -c %i src/textlines.txt) >ino &&
		grep " mtime=1577961045.123456 " ino &&
		image_umount src
	'

	test_expect_success ROOT,LOOP "$kind: cleanup" '
		cd '$kind' && image_detach "$(cat dev)" && rm -f ./*.img
	'
done

test_done
